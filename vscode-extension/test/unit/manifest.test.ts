import { test } from "node:test";
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ServerCommands } from "../../src/protocol";

// Run from out/test/unit (bundled) or test/unit: find the extension folder either way.
const ext = [join(__dirname, "..", ".."), join(__dirname, "..", "..", "..")].find((d) => {
  try {
    return JSON.parse(readFileSync(join(d, "package.json"), "utf8")).name === "gdl";
  } catch {
    return false;
  }
})!;
const manifest = JSON.parse(readFileSync(join(ext, "package.json"), "utf8"));
const source = readFileSync(join(ext, "src", "extension.ts"), "utf8");

test("every contributed command is registered, and none shadows a server command", () => {
  const server = new Set<string>(Object.values(ServerCommands));
  for (const c of manifest.contributes.commands as { command: string }[]) {
    assert.ok(source.includes(`registerCommand("${c.command}"`), `${c.command} is not registered`);
    // vscode-languageclient registers the server's commands under their own names.
    assert.ok(!server.has(c.command), `${c.command} collides with a server command`);
  }
});

test("the settings the server reads are contributed with the contract's defaults", () => {
  const p = manifest.contributes.configuration.properties;
  assert.equal(p["gdl.eval.timeoutMs"].default, 2000);
  assert.equal(p["gdl.eval.maxFacts"].default, 1000000);
  assert.equal(p["gdl.eval.maxTermDepth"].default, 64);
  assert.equal(p["gdl.codeLens.enable"].default, true);
  assert.equal(p["gdl.inlayHints.enable"].default, true);
  assert.equal(p["gdl.hover.explainLinks"].default, true);
  assert.equal(p["gdl.diagnostics.workspace"].default, false);
  assert.deepEqual(p["gdl.severity"].additionalProperties.enum, ["error", "warning", "info", "hint", "off"]);
  assert.equal(p["gdl.server.path"].default, "");
});

test("the language's firstLine pattern knows GDL first lines from other languages'", () => {
  const lang = manifest.contributes.languages.find((l: { id: string }) => l.id === "gdl");
  assert.deepEqual(lang.extensions, [".kif", ".gdl"]);
  const firstLine = new RegExp(lang.firstLine);
  for (const l of ["(role robot)", "(ROLE white)", "(<= (legal ?r noop) (role ?r))", "; GDL description of chess", "(init (cell 1 1 b))"]) {
    assert.ok(firstLine.test(l), l);
  }
  for (const l of [";; SUMO: Suggested Upper Merged Ontology", "(subclass Animal Organism)", "! Archicad GDL object", "MATERIAL mat"]) {
    assert.ok(!firstLine.test(l), l);
  }
});
