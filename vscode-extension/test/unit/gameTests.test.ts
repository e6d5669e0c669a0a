import { test } from "node:test";
import * as assert from "node:assert/strict";
import { detectDialect } from "../../src/detect";
import { failureMessage, isTestFileName, lensRequest, testId, toRecordedTest, toTestList, toTestRun } from "../../src/gameTests";

test("test files are named GAME.test.kif, .hrf or .gdl", () => {
  assert.ok(isTestFileName("/w/tictactoe.test.kif"));
  assert.ok(isTestFileName("C:\\w\\noughts.TEST.hrf"));
  assert.ok(!isTestFileName("/w/tictactoe.kif"));
  assert.ok(!isTestFileName("/w/.test.kif"));
  assert.equal(testId("file:///w/a.test.kif", "x-wins"), "file:///w/a.test.kif#x-wins");
});

test("a test file is GDL by its content too", () => {
  assert.equal(detectDialect("; tests\n(test opening\n    (play (mark 1 1) noop))\n"), "gdl");
  assert.equal(detectDialect("(game ../games/ttt.kif)\n(test a terminal)\n"), "gdl");
  assert.equal(detectDialect("(instance Fido Dog)\n(subclass Dog Animal)\n(test a b)\n"), "suo-kif");
});

test("gdl.listTests and gdl.runTests results are read defensively", () => {
  const list = toTestList({
    uri: "file:///w/a.test.kif",
    game: "file:///w/a.kif",
    tests: [
      { name: "x", range: { start: { line: 1, character: 0 }, end: { line: 3, character: 9 } }, nameRange: {}, description: "d" },
      { name: "" },
      "junk",
    ],
  });
  assert.equal(list.tests.length, 1);
  assert.deepEqual(list.tests[0].range, { start: { line: 1, character: 0 }, end: { line: 3, character: 9 } });
  assert.deepEqual(list.tests[0].nameRange, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  assert.deepEqual(toTestList(null), { uri: "", game: "", tests: [] });

  const run = toTestRun({
    uri: "u",
    results: [
      { name: "ok", status: "passed", elapsedMs: 1.5, failures: [] },
      { name: "bad", status: "failed", failures: [{ step: 3, range: { start: { line: 7, character: 4 } }, code: "test-failed", message: "", expected: "terminal", found: "it is not", moves: ["((mark 1 1) noop)", 5] }] },
      { name: "odd", status: "weird" },
    ],
  });
  assert.equal(run.results.length, 3);
  assert.equal(run.results[2].status, "errored");
  const f = run.results[1].failures[0];
  assert.deepEqual(f.moves, ["((mark 1 1) noop)"]);
  assert.equal(failureMessage(f), "expected terminal; it is not");
  assert.equal(toTestRun({ error: "no game" }).error, "no game");
  assert.equal(toTestRun({}).error, undefined);
});

test("a lens names its file and tests", () => {
  assert.deepEqual(lensRequest({ uri: "file:///w/a.test.kif", tests: ["x"] }), { uri: "file:///w/a.test.kif", tests: ["x"] });
  assert.deepEqual(lensRequest({ uri: "file:///w/a.test.kif" }), { uri: "file:///w/a.test.kif", tests: [] });
  assert.equal(lensRequest({}), undefined);
});

test("a recorded test has its text and its file", () => {
  assert.deepEqual(toRecordedTest({ text: "(test a\n    terminal)\n", testFile: "file:///w/a.test.kif", notation: "prefix" }), {
    text: "(test a\n    terminal)\n",
    testFile: "file:///w/a.test.kif",
  });
  assert.throws(() => toRecordedTest({ text: "" }));
});
