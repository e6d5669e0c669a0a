import { test } from "node:test";
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isServedDocument, serverWanted } from "../../src/activation";

const ext = [join(__dirname, "..", ".."), join(__dirname, "..", "..", "..")].find((d) => {
  try {
    return JSON.parse(readFileSync(join(d, "package.json"), "utf8")).name === "gdl";
  } catch {
    return false;
  }
})!;
const manifest = JSON.parse(readFileSync(join(ext, "package.json"), "utf8"));

const file = (languageId: string) => ({ languageId, uri: { scheme: "file" } });

test("the extension activates without a GDL document, so detection can claim a .kif another language took", () => {
  const events: string[] = manifest.activationEvents;
  assert.ok(events.includes("onStartupFinished"), `activationEvents: ${events.join(", ")}`);
  assert.ok(events.includes("onLanguage:gdl"));
});

test("the server starts for an open game or a workspace with game files, not for a SUO-KIF file", () => {
  assert.equal(serverWanted([file("suo-kif"), file("plaintext")], false), false);
  assert.equal(serverWanted([file("suo-kif"), file("gdl")], false), true);
  assert.equal(serverWanted([], true), true);
  assert.equal(serverWanted([{ languageId: "gdl", uri: { scheme: "git" } }], false), false);
  assert.ok(isServedDocument({ languageId: "gdl", uri: { scheme: "untitled" } }));
});

test("the server's semantic token types are contributed, with standard super types and TextMate scopes", () => {
  const standard = new Set(["namespace", "class", "enum", "interface", "struct", "typeParameter", "type", "parameter",
    "variable", "property", "enumMember", "decorator", "event", "function", "method", "macro", "label", "comment",
    "string", "keyword", "number", "regexp", "operator"]);
  const types = new Map<string, { superType?: string }>();
  for (const t of manifest.contributes.semanticTokenTypes ?? []) types.set(t.id, t);
  assert.equal(types.get("relation")?.superType, "function");
  assert.equal(types.get("constant")?.superType, "enumMember");
  const scopes = (manifest.contributes.semanticTokenScopes ?? []).find((s: { language?: string }) => s.language === "gdl")?.scopes ?? {};
  const grammar = readFileSync(join(ext, "syntaxes", "gdl.tmLanguage.json"), "utf8");
  for (const id of ["relation", "constant"]) {
    assert.ok(standard.has(types.get(id)!.superType!), `${id}'s super type is standard`);
    assert.ok(Array.isArray(scopes[id]) && scopes[id].length > 0, `${id} has TextMate scopes`);
    for (const scope of scopes[id]) assert.ok(grammar.includes(`"${scope}"`), `${scope} is a scope of our grammar`);
  }
});

test("infix GDL (.hrf) is a language of its own, served by the same server, with its grammar and token scopes", () => {
  const lang = manifest.contributes.languages.find((l: { id: string }) => l.id === "gdl-infix");
  assert.deepEqual(lang?.extensions, [".hrf"]);
  const config = JSON.parse(readFileSync(join(ext, lang.configuration), "utf8"));
  assert.equal(config.comments.lineComment, "%");
  const g = manifest.contributes.grammars.find((x: { language: string }) => x.language === "gdl-infix");
  assert.equal(g?.scopeName, "source.gdl-infix");
  const grammar = readFileSync(join(ext, g.path), "utf8");
  assert.equal(JSON.parse(grammar).scopeName, "source.gdl-infix");
  const scopes = (manifest.contributes.semanticTokenScopes ?? []).find((s: { language?: string }) => s.language === "gdl-infix")?.scopes ?? {};
  for (const id of ["relation", "constant"]) {
    for (const scope of scopes[id] ?? []) assert.ok(grammar.includes(`"${scope}"`), `${scope} is a scope of the infix grammar`);
    assert.ok((scopes[id] ?? []).length > 0, `${id} has TextMate scopes in infix`);
  }
  assert.ok(manifest.activationEvents.includes("onLanguage:gdl-infix"));
  assert.ok(manifest.activationEvents.includes("workspaceContains:**/*.hrf"));
  assert.ok(isServedDocument(file("gdl-infix")));
  assert.ok(isServedDocument({ languageId: "gdl-infix", uri: { scheme: "untitled" } }));
  assert.equal(serverWanted([file("gdl-infix")], false), true);
  // Every command shown for prefix GDL is shown for infix GDL too.
  const whens: string[] = [];
  for (const list of Object.values(manifest.contributes.menus) as { when?: string }[][]) for (const m of list) if (m.when) whens.push(m.when);
  for (const k of manifest.contributes.keybindings as { when?: string }[]) if (k.when) whens.push(k.when);
  for (const c of manifest.contributes.commands as { enablement?: string }[]) if (c.enablement) whens.push(c.enablement);
  for (const w of whens) {
    if (w.includes("editorLangId == gdl")) assert.ok(w.includes("editorLangId == gdl-infix"), `when clause without infix: ${w}`);
  }
  const ignore = readFileSync(join(ext, ".vscodeignore"), "utf8");
  assert.ok(ignore.includes(`!${lang.configuration.replace(/^\.\//, "")}`), "the infix language configuration is packaged");
});
