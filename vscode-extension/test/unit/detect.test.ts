import { test } from "node:test";
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { associationDecides, detectDialect, hasSharedExtension } from "../../src/detect";

// The cases the Neovim filetype detection of docs/editors.md is tested with too, so both decide
// alike. Run from out/test/unit (bundled) or test/unit: find the fixtures either way.
const fixtures = [join(__dirname, "..", "fixtures"), join(__dirname, "..", "..", "..", "test", "fixtures")].find((d) => {
  try {
    readFileSync(join(d, "detect-cases.json"));
    return true;
  } catch {
    return false;
  }
})!;
const shared = JSON.parse(readFileSync(join(fixtures, "detect-cases.json"), "utf8")) as { cases: { name: string; text: string; dialect: string }[] };

test("the detection cases shared with the Neovim setup", () => {
  assert.ok(shared.cases.length >= 20);
  for (const c of shared.cases) assert.equal(detectDialect(c.text), c.dialect, c.name);
});

const gdl = `;;; Tic-tac-toe
(role xplayer) (role oplayer)
(init (cell 1 1 b))
(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))
(<= terminal (line x))
`;

const upperGdl = `(ROLE WHITE)\n(<= (LEGAL WHITE NOOP) (TRUE (CONTROL BLACK)))\n`;

const suoKif = `;; SUMO excerpt
(subclass Animal Organism)
(documentation Animal EnglishLanguage "An organism with eukaryotic cells.")
(=> (instance ?A Animal) (exists (?C) (and (instance ?C Cell) (part ?C ?A))))
(instance Fido Dog)
`;

const archicad = `! Archicad object: a simple table
MATERIAL mat
PEN 1
BLOCK A, B, ZZYZX
ADDZ ZZYZX
DEL 1
END
`;

test("GDL games are recognised, in any case", () => {
  assert.equal(detectDialect(gdl), "gdl");
  assert.equal(detectDialect(upperGdl), "gdl");
});

test("one GDL rule alone is enough when nothing else speaks against it", () => {
  assert.equal(detectDialect("(<= (p ?x) (q ?x))"), "gdl");
});

test("infix GDL is recognised as such, not as prefix GDL", () => {
  const infix = "% Tic-tac-toe in infix\nrole(xplayer) role(oplayer)\ninit(cell(1,1,b))\nlegal(W,mark(X,Y)) :- true(cell(X,Y,b)) & true(control(W))\n";
  assert.equal(detectDialect(infix), "gdl-infix");
  assert.equal(detectDialect("terminal :- ~open\nopen :- true(cell(X,Y,b))\n"), "gdl-infix");
  assert.equal(detectDialect(gdl), "gdl");
  assert.equal(detectDialect("% role(x) init(y)\nfoo\n"), "unknown");
  assert.equal(detectDialect(suoKif), "suo-kif");
});

test("SUO-KIF ontologies are not GDL", () => {
  assert.equal(detectDialect(suoKif), "suo-kif");
});

test("Archicad GDL scripts are not GDL", () => {
  assert.equal(detectDialect(archicad), "archicad-gdl");
});

test("words in comments do not count", () => {
  assert.equal(detectDialect("; (role x) (init y) (legal a b)\n(foo bar)\n"), "unknown");
});

test("empty or neutral text is unknown, so the choice is left alone", () => {
  assert.equal(detectDialect(""), "unknown");
  assert.equal(detectDialect("(a b)\n(c d)\n"), "unknown");
});

test("only .kif and .gdl are shared extensions", () => {
  assert.ok(hasSharedExtension("/g/tictactoe.kif"));
  assert.ok(hasSharedExtension("C:\\g\\TABLE.GDL"));
  assert.ok(!hasSharedExtension("/g/notes.txt"));
});

test("files.associations patterns decide the language", () => {
  assert.ok(associationDecides({ "*.kif": "suo-kif" }, "/w/sumo/Merge.kif"));
  assert.ok(associationDecides({ "Merge.kif": "suo-kif" }, "/w/sumo/Merge.kif"));
  assert.ok(associationDecides({ "**/sumo/*.kif": "suo-kif" }, "/w/sumo/Merge.kif"));
  assert.ok(associationDecides({ "*.{gdl,kif}": "gdl" }, "/w/x.gdl"));
  assert.ok(!associationDecides({ "**/sumo/*.kif": "suo-kif" }, "/w/games/ttt.kif"));
  assert.ok(!associationDecides({ "*.txt": "plaintext" }, "/w/ttt.kif"));
  assert.ok(!associationDecides(undefined, "/w/ttt.kif"));
});
