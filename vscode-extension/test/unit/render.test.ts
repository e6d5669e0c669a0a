import { test } from "node:test";
import * as assert from "node:assert/strict";
import { legalMovesByRole, toExplainResult, toGameState, toQueryResult } from "../../src/protocol";
import { answerLines, explanationMarkdown, renderResults } from "../../src/render";

const state = toGameState({
  roles: ["xplayer", "oplayer"],
  state: ["(cell 1 1 x)", "(control oplayer)"],
  step: 1,
  history: [["(mark 1 1)", "noop"]],
  terminal: false,
  legal: { xplayer: ["noop"], oplayer: ["(mark 1 2)", "(mark 2 2)"] },
  goals: { xplayer: [50], oplayer: [50] },
});

test("server results are read defensively", () => {
  const q = toQueryResult({ query: "(legal ?r ?m)", answers: ["(legal a b)", 3], state: "x", elapsedMs: 2 }, "q");
  assert.deepEqual(q, { query: "(legal ?r ?m)", answers: ["(legal a b)"], state: [], elapsedMs: 2, error: undefined });
  assert.match(toQueryResult(null, "(p)").error ?? "", /no query result/);
  assert.match(toGameState("oops").error ?? "", /no game state/);
  assert.deepEqual(toGameState({ roles: ["r"], legal: { r: "bad" } }).legal, { r: [] });
});

test("the moves to pick from follow role order", () => {
  assert.deepEqual(legalMovesByRole(state), [
    { role: "xplayer", moves: ["noop"] },
    { role: "oplayer", moves: ["(mark 1 2)", "(mark 2 2)"] },
  ]);
  assert.deepEqual(legalMovesByRole(toGameState({ roles: ["a"], legal: {} })), [{ role: "a", moves: [] }]);
});

test("a query's answers and the state are shown as GDL", () => {
  const text = renderResults({
    gameName: "ttt.kif",
    query: toQueryResult({ query: "(legal ?r ?m)", answers: ["(legal oplayer (mark 1 2))", "(legal xplayer noop)"], state: [], elapsedMs: 1.6 }, ""),
    state,
  });
  assert.match(text, /^; GDL results for ttt\.kif$/m);
  assert.match(text, /^; ===== Query \(legal \?r \?m\): 2 answers in 2 ms$/m);
  assert.match(text, /^\(legal oplayer \(mark 1 2\)\)$/m);
  assert.match(text, /^; ===== State at step 1 \(not terminal\), 2 fluents$/m);
  assert.match(text, /^\(true \(cell 1 1 x\)\)$/m);
  assert.match(text, /^\(legal oplayer \(mark 2 2\)\)$/m);
  assert.match(text, /^\(goal xplayer 50\)$/m);
  assert.match(text, /^; 1\. xplayer \(mark 1 1\), oplayer noop$/m);
});

test("goals of a non-terminal state are shown only when some role has one", () => {
  const noGoals = renderResults({ gameName: "g", state: toGameState({ roles: ["a", "b"], state: [], step: 1, legal: { a: ["x"], b: ["y"] }, goals: { a: [], b: [] } }) });
  assert.doesNotMatch(noGoals, /Goals|goal value/);
  assert.match(renderResults({ gameName: "g", state }), /^; ----- Goals$/m);
});

test("no answers, errors and terminal states are said plainly", () => {
  const none = renderResults({ gameName: "g", query: toQueryResult({ query: "(p ?x)", answers: [], state: ["(a)"], elapsedMs: 0 }, "") });
  assert.match(none, /0 answers/);
  assert.match(none, /no answers in the current state/);
  assert.match(none, /^; ===== Current state, 1 fluent$/m);
  const bad = renderResults({ gameName: "g", query: toQueryResult({ query: "(p", error: "unbalanced\nparenthesis", elapsedMs: 0 }, "") });
  assert.match(bad, /^; ===== Query \(p: failed after 0 ms$/m);
  assert.match(bad, /^; Error: unbalanced$/m);
  assert.match(bad, /^; parenthesis$/m);
  const over = renderResults({ gameName: "g", state: toGameState({ roles: ["a"], state: [], step: 9, terminal: true, goals: { a: [100] }, legal: {} }) });
  assert.match(over, /\(terminal\)/);
  assert.match(over, /the game is over/);
  assert.match(over, /^\(goal a 100\)$/m);
  assert.doesNotMatch(over, /Legal moves/);
  assert.match(renderResults({ gameName: "g", error: "server stopped" }), /^; Error: server stopped$/m);
});

test("a query about a joint move is shown per legal joint move", () => {
  const q = toQueryResult({
    query: "(next ?f)", state: [], answers: ["(next (cell 1 1 x))", "(next (cell 1 2 x))"], elapsedMs: 3,
    byMove: [
      { move: ["(mark 1 1)", "noop"], answers: ["(next (cell 1 1 x))"] },
      { move: ["(mark 1 2)", "noop"], answers: ["(next (cell 1 2 x))"], error: "" },
      "junk",
    ],
    jointMoves: 9,
    error: "only the first 2 of 9 joint moves are evaluated",
  }, "");
  assert.equal(q.byMove?.length, 2);
  const text = renderResults({ gameName: "g", query: q });
  assert.match(text, /^; ===== Query \(next \?f\): after 2 of 9 legal joint moves, in 3 ms$/m);
  assert.match(text, /^; Error: only the first 2 of 9 joint moves are evaluated$/m);
  assert.match(text, /^; ----- after \(mark 1 2\) noop: 1 answer\n\(next \(cell 1 2 x\)\)$/m);
  const none = renderResults({ gameName: "g", query: toQueryResult({ query: "(next ?f)", answers: [], byMove: [], jointMoves: 0, elapsedMs: 0 }, "") });
  assert.match(none, /no legal joint move in the current state/);
});

test("the state's board is drawn as comments above its fluents", () => {
  const s = toGameState({ roles: ["x"], state: ["(cell 1 1 x)"], board: "cell (1 rows, 1 columns)\n  1\n1 x\n\ncontrol: x\n", legal: { x: [] } });
  const text = renderResults({ gameName: "g.kif", state: s });
  assert.match(text, /; cell \(1 rows, 1 columns\)\n;   1\n; 1 x\n;\n; control: x\n\(true \(cell 1 1 x\)\)/);
});

test("an infix game's results are written in infix, with % comments", () => {
  const infix = toGameState({
    roles: ["xplayer", "oplayer"], state: ["cell(1,1,x)", "control(oplayer)"], step: 1, history: [["mark(1,1)", "noop"]],
    terminal: false, legal: { xplayer: ["noop"], oplayer: ["mark(1,2)"] }, goals: { xplayer: [50], oplayer: [50] }, notation: "infix",
  });
  assert.equal(infix.notation, "infix");
  const q = toQueryResult({ query: "legal(R,M)", answers: ["legal(oplayer,mark(1,2))"], state: [], elapsedMs: 1, notation: "infix" }, "");
  const text = renderResults({ gameName: "ttt.hrf", query: q, state: infix });
  assert.match(text, /^% GDL results for ttt\.hrf$/m);
  assert.match(text, /^% ===== Query legal\(R,M\): 1 answer in 1 ms$/m);
  assert.match(text, /^true\(cell\(1,1,x\)\)$/m);
  assert.match(text, /^legal\(oplayer,mark\(1,2\)\)$/m);
  assert.match(text, /^goal\(xplayer,50\)$/m);
  assert.match(text, /^% 1\. xplayer mark\(1,1\), oplayer noop$/m);
  assert.doesNotMatch(text, /^;|\(true /m);
  const queryOnly = renderResults({ gameName: "ttt.hrf", query: toQueryResult({ ...q, state: ["control(x)"] }, "") });
  assert.match(queryOnly, /^true\(control\(x\)\)$/m);
});

test("an explanation is read defensively and shown as a page", () => {
  const r = toExplainResult({ literal: "terminal", holds: false, step: 2, markdown: "- `terminal` — does not hold\n", joint: ["a", 1] }, "t");
  assert.deepEqual(r, { literal: "terminal", holds: false, step: 2, markdown: "- `terminal` — does not hold\n", text: "", error: undefined, joint: ["a"] });
  assert.equal(explanationMarkdown(r), "# Why not `terminal`\n\n- `terminal` — does not hold\n");
  const failed = toExplainResult({ literal: "(p 1)", error: "unknown relation p/1" }, "(p 1)");
  assert.equal(explanationMarkdown(failed), "# Why not `(p 1)`\n\nNot explained: unknown relation p/1\n");
  assert.match(toExplainResult(undefined, "x").error ?? "", /no explanation/);
});

test("the answers of the view's query are the lines a why? lens explains", () => {
  const q = toQueryResult({ query: "(legal ?r ?m)", answers: ["(legal oplayer noop)", "(legal xplayer (mark 1 1))"], state: [], elapsedMs: 1 }, "q");
  const m = { gameName: "ttt.kif", query: q, state };
  const lines = renderResults(m).split("\n");
  const a = answerLines(m);
  assert.deepEqual(a.map((x) => x.literal), ["(legal oplayer noop)", "(legal xplayer (mark 1 1))"]);
  for (const x of a) assert.equal(lines[x.line], x.literal);
  const next = toQueryResult({ query: "(next ?f)", answers: [], state: [], elapsedMs: 1, jointMoves: 2,
    byMove: [{ move: ["(mark 1 1)", "noop"], answers: ["(next (cell 1 1 x))"] }, { move: ["(mark 1 2)", "noop"], answers: ["(next (cell 1 2 x))"] }] }, "q");
  assert.deepEqual(answerLines({ gameName: "g", query: next }).map((x) => [x.literal, x.joint]), [
    ["(next (cell 1 1 x))", ["(mark 1 1)", "noop"]],
    ["(next (cell 1 2 x))", ["(mark 1 2)", "noop"]],
  ]);
  assert.deepEqual(answerLines({ gameName: "g", query: toQueryResult({ query: "p", error: "no" }, "p") }), []);
});
