import { test } from "node:test";
import * as assert from "node:assert/strict";
import { replacedMoves, toGameState, toMatchResult, toPlayoutStats } from "../../src/protocol";
import { choose, clickSquare, histogram, Model, movesOn, render, statsHtml, targets } from "../../src/webview/view";
import { gameViewHtml } from "../../src/webview/page";

// A 2x2 board where xplayer moves a piece from a square to another, and oplayer waits.
function chessLike() {
  return toGameState({
    roles: ["xplayer", "oplayer"],
    state: ["(cell 1 1 x)", "(cell 1 2 b)", "(cell 2 1 b)", "(cell 2 2 <o>)"],
    step: 0,
    history: [],
    line: [["(move 1 1 1 2)", "noop"]],
    terminal: false,
    legal: { xplayer: ["(move 1 1 1 2)", "(move 1 1 2 1)", "(put 2 2)"], oplayer: ["noop"] },
    goals: {},
    board: "cell ...",
    view: {
      boards: [{
        relation: "cell", rowArg: 1, columnArg: 2, rows: ["1", "2"], columns: ["1", "2"], configured: false,
        cells: [
          [{ row: "1", column: "1", content: ["x"], fluents: ["(cell 1 1 x)"], text: "x" }, { row: "1", column: "2", content: ["b"], fluents: ["(cell 1 2 b)"], text: "" }],
          [{ row: "2", column: "1", content: ["b"], fluents: ["(cell 2 1 b)"], text: "" }, { row: "2", column: "2", content: ["<o>"], fluents: ["(cell 2 2 <o>)"], text: "<o>" }],
        ],
      }],
      others: [{ relation: "control", values: ["xplayer"] }],
    },
    squares: {
      xplayer: [
        [{ board: 0, row: 0, column: 0 }, { board: 0, row: 0, column: 1 }],
        [{ board: 0, row: 0, column: 0 }, { board: 0, row: 1, column: 0 }],
        [{ board: 0, row: 1, column: 1 }, { board: 3, row: 0, column: 0 }, { board: 0, row: 9, column: 0 }],
      ],
      oplayer: [[]],
    },
    random: [],
    notes: [],
  });
}

function model(): Model {
  return { gameName: "g.kif", state: chessLike(), pending: {}, viewAs: "", computerRole: "", busy: "" };
}

test("squares the server names outside a board are dropped", () => {
  const s = chessLike();
  assert.deepEqual(s.squares.xplayer[2], [{ board: 0, row: 1, column: 1 }]);
  assert.deepEqual(s.line, [["(move 1 1 1 2)", "noop"]]);
  assert.equal(toGameState({ roles: [] }).view.boards.length, 0);
});

test("a click plays the one move that mentions the square; a second click picks among several", () => {
  const m = model();
  const once = clickSquare(m, { board: 0, row: 1, column: 1 });
  assert.deepEqual(once, { kind: "choose", choice: { role: "xplayer", move: "(put 2 2)" } });
  // Two moves start at 1,1: select it, show the targets, then the second square decides.
  const sel = clickSquare(m, { board: 0, row: 0, column: 0 });
  assert.equal(sel.kind, "select");
  m.selected = { board: 0, row: 0, column: 0 };
  assert.deepEqual(targets(m), [{ board: 0, row: 0, column: 1 }, { board: 0, row: 1, column: 0 }]);
  const second = clickSquare(m, { board: 0, row: 1, column: 0 });
  assert.deepEqual(second, { kind: "choose", choice: { role: "xplayer", move: "(move 1 1 2 1)" } });
  // The chosen move and oplayer's only move make the joint move.
  assert.deepEqual(choose(m, (second as { choice: { role: string; move: string } }).choice), ["(move 1 1 2 1)", "noop"]);
  assert.deepEqual(m.pending, {});
  assert.equal(m.selected, undefined);
  assert.equal(clickSquare(model(), { board: 0, row: 0, column: 1 }).kind, "choose");
  const none = clickSquare({ ...model(), state: { ...chessLike(), terminal: true } }, { board: 0, row: 1, column: 1 });
  assert.equal(none.kind, "none");
  assert.deepEqual(movesOn(chessLike(), { board: 0, row: 1, column: 0 }), [{ role: "xplayer", move: "(move 1 1 2 1)" }]);
});

test("in a simultaneous game the joint move waits for every role's choice", () => {
  const m: Model = { ...model(), state: { ...chessLike(), legal: { xplayer: ["a", "b"], oplayer: ["c", "d"] }, squares: {} } };
  assert.equal(choose(m, { role: "xplayer", move: "a" }), undefined);
  assert.deepEqual(m.pending, { xplayer: "a" });
  assert.deepEqual(choose(m, { role: "oplayer", move: "d" }), ["a", "d"]);
});

test("the view draws the board, the moves and the history, and escapes what the game says", () => {
  const html = render(model());
  assert.equal((html.match(/data-action="square"/g) ?? []).length, 4);
  assert.ok(html.includes("&lt;o&gt;") && !html.includes("<o>"), "the content <o> is escaped");
  assert.equal((html.match(/data-action="goto"/g) ?? []).length, 2, "steps 0 and 1 of the line");
  assert.ok(html.includes('class="step ahead"'), "step 1 is ahead of the state");
  assert.ok(html.includes('data-action="move"') && html.includes("(put 2 2)"));
  assert.ok(html.includes(">control</th><td>xplayer<"), "the other fluents' table");
  assert.ok(!html.includes("What "), "no percepts outside GDL-II");
  const over = render({ ...model(), state: { ...chessLike(), terminal: true, goals: { xplayer: [100], oplayer: [0] } } });
  assert.ok(over.includes("Game over") && over.includes("<b>xplayer</b>: <button"));
  // The goal values and the terminal status explain themselves when clicked.
  assert.ok(over.includes(`data-action="explain" class="why" data-literal="(goal xplayer 100)"`), "a goal value explains itself");
  assert.ok(over.includes(`data-literal="terminal"`) && over.includes(">terminal</button>"), "the terminal status explains itself");
  const none = render({ ...model(), state: { ...chessLike(), terminal: true, goals: { xplayer: [], oplayer: [0] } } });
  assert.ok(none.includes(`data-literal="(goal xplayer ?v)"`) && none.includes(">no goal value</button>"), "no goal value asks why not");
  const infix = render({ ...model(), state: { ...chessLike(), notation: "infix", terminal: true, goals: { xplayer: [100], oplayer: [0] } } });
  assert.ok(infix.includes(`data-literal="goal(xplayer,100)"`), "infix literals for an infix game");
  // A square with a fluent explains why it holds.
  assert.ok(html.includes("data-fluent="), "squares name their fluent");
});

test("a GDL-II game shows what the chosen role saw", () => {
  const s = toGameState({
    roles: ["random", "guesser"], history: [["(hide 2)", "noop"]], random: ["random"], legal: {},
    percepts: [{ random: [], guesser: ["hidden"] }],
  });
  const html = render({ gameName: "g", state: s, pending: {}, viewAs: "guesser", computerRole: "", busy: "" });
  assert.ok(html.includes("What guesser knows") && html.includes("<td>noop</td><td>hidden</td>"), html);
  assert.ok(html.includes('<option value="guesser" selected>'), "the view-as choice");
  assert.ok(!html.includes('<option value="random">random</option></select></label><label>View'), "the random role does not play for the computer");
});

test("random playouts are charted as histograms", () => {
  const st = toPlayoutStats({
    engine: "compiled", playouts: 10, seconds: 0.1, mean_length: 6, min_length: 5, max_length: 9, terminal: 10, roles: ["x", "o"],
    goals: { x: [{ value: "0", count: 3 }, { value: "100", count: 7 }], o: [{ value: "0", count: 7 }, { value: "100", count: 3 }] },
    lengths: [{ length: 5, count: 4 }, { length: 9, count: 6 }],
    first_player: { role: "x", wins: 7, draws: 0, losses: 3 },
    violations: [],
  });
  const html = statsHtml(st);
  assert.equal((html.match(/<figure class="chart">/g) ?? []).length, 4, "two roles' goals, lengths, first role");
  assert.ok(html.includes("7 (70.0%)") && html.includes("First role (x)"));
  const h = histogram("t", [{ label: "a", count: 0 }, { label: "b", count: 5 }]);
  assert.ok(h.includes('width="0"') && h.includes('width="220"'), h);
  assert.match(statsHtml(toPlayoutStats({ error: "no game" })), /no game/);
  const endless = statsHtml(toPlayoutStats({ playouts: 4, roles: ["r"], goals: {}, lengths: [], violations: [], depth_limit: { max_depth: 1000, playouts: 4 } }));
  assert.ok(endless.includes('<p class="note">4 of the playouts reached 1000 joint moves') && !endless.includes('class="error"'), endless);
});

test("the webview page allows only its own script and style", () => {
  const html = gameViewHtml("vscode-resource:", "vscode-resource:/out/webview.js", "vscode-resource:/media/gameView.css", "abc");
  assert.match(html, /default-src 'none'; style-src vscode-resource:; img-src vscode-resource: data:; script-src 'nonce-abc';/);
  assert.match(html, /<script nonce="abc" src="vscode-resource:\/out\/webview.js">/);
});

test("a match's result reads as the state at its start, its summary and its record", () => {
  const st = chessLike();
  const res = toMatchResult({
    ...st,
    summary: "m1: terminal after 1 joint moves: xplayer 100, oplayer 0; 1 moves replaced",
    match: {
      match_id: "m1", roles: ["xplayer", "oplayer"], players: ["mcts", "http://127.0.0.1:9147/"], completed: true, errors: 1, goals: [100, 0],
      moves: [{ step: 1, joint: ["(move 1 1 1 2)", "noop"], answers: [
        { role: "xplayer", reply: "(move 1 1 1 2)", move: "(move 1 1 1 2)", ms: 3 },
        { role: "oplayer", move: "noop", ms: 2000, error_kind: "late", error: "no answer within the clock of 2s" },
      ] }],
    },
  });
  assert.equal(res.state.line.length, 1);
  assert.equal(res.match?.players[1], "http://127.0.0.1:9147/");
  assert.deepEqual(res.match?.moves[0].answers.map((a) => a.kind), [undefined, "late"]);
  assert.equal(replacedMoves(res.match!), "Moves replaced by random legal ones (oplayer: 1 late).");
  // Without a record, or with a malformed one, the state is still read.
  assert.equal(toMatchResult({ ...st, match: "junk" }).match, undefined);
  assert.equal(toMatchResult(null).state.error, "The server gave no game state.");
});

test("the toolbar runs a match, unless the view is busy", () => {
  const m = model();
  assert.match(render(m), /data-action="match"[^>]*>Run a match…</);
  m.busy = "running a match";
  assert.match(render(m), /data-action="match"\s+disabled/);
});

// A GDL-II state on a 1x2 board: random hid a token under the second square; the seeker, viewed
// as, does not know which square holds it.
function hidden() {
  const cell = (column: string, text: string, fluents: string[]) => ({ row: "1", column, content: fluents.length ? [text] : [], fluents, text });
  const board = (cells: ReturnType<typeof cell>[]) => ({ relation: "cell", rowArg: 1, columnArg: 2, rows: ["1"], columns: ["1", "2"], configured: false, cells: [cells] });
  return toGameState({
    roles: ["random", "seeker"], history: [["(hide 2)", "noop"]], random: ["random"], legal: { random: ["noop"], seeker: ["(look 1)", "(look 2)"] },
    percepts: [{ random: [], seeker: ["hidden"] }],
    view: { boards: [board([cell("1", "", []), cell("2", "t", ["(cell 1 2 t)"])])], others: [{ relation: "prize", values: ["2"] }, { relation: "phase", values: ["look"] }] },
    viewAs: {
      role: "seeker", states: 2, complete: true, known: ["(phase look)"], unknownOthers: ["prize"],
      view: { boards: [board([cell("1", "?", []), cell("2", "?", [])])], others: [{ relation: "phase", values: ["look"] }] },
      unknown: [{ board: 0, row: 0, column: 0 }, { board: 0, row: 0, column: 1 }, { board: 3, row: 0, column: 0 }],
    },
  });
}

test("viewed as a GDL-II role, the board shows what it knows, the true state behind a toggle", () => {
  const s = hidden();
  assert.equal(s.viewAs?.unknown.length, 2, "a square outside the boards is dropped");
  const m: Model = { gameName: "g", state: s, pending: {}, viewAs: "seeker", computerRole: "", busy: "" };
  const html = render(m);
  assert.equal((html.match(/class="sq [a-z ]*unknown/g) ?? []).length, 2, html);
  assert.ok(html.includes("unknown to seeker") && !html.includes("(cell 1 2 t)"), "the token's square is not shown");
  assert.ok(html.includes("it may be in 2 states") && html.includes('data-action="show-truth"') && !html.includes("checked"), html);
  assert.ok(html.includes("? (unknown to seeker)") && html.includes(">phase</th>") && !html.includes("<td>2</td>"), "the prize is unknown");
  const truth = render({ ...m, showTruth: true });
  assert.ok(truth.includes("(cell 1 2 t)") && !truth.includes("unknown to seeker") && truth.includes("The true state") && truth.includes("checked"), truth);
  // The full state when no role is viewed as; a role the server has not answered for yet.
  assert.ok(!render({ ...m, viewAs: "" }).includes("unknown to"));
  const other = render({ ...m, viewAs: "random" });
  assert.ok(other.includes("What random knows is not known yet") && other.includes("(cell 1 2 t)"), other);
  const sampled = render({ ...m, state: { ...s, viewAs: { ...s.viewAs!, complete: false } } });
  assert.ok(sampled.includes("a sample of them"), sampled);
});

test("the computer's search says how many states it searched from", () => {
  const s = { ...hidden(), computer: [{ role: "seeker", move: "(look 1)", playouts: 300, states: 2, value: 50, elapsedMs: 3, engine: "compiled" }] };
  assert.ok(render({ gameName: "g", state: s, pending: {}, viewAs: "", computerRole: "", busy: "" }).includes("after 300 playouts from 2 states it may be in"));
  assert.equal(toGameState({ roles: [], computer: [{ role: "x", move: "m" }] }).computer[0].states, 1);
});

test("what the server's lists leave out is shown", () => {
  const st = toGameState({
    roles: ["r"], state: ["(cell 1)"], legal: { r: ["(m 1)"] },
    view: { boards: [], others: [{ relation: "cell", values: ["1"] }], omitted: 11000 },
    truncated: ["the state's fluents: 12000, the first 10000 listed"],
  });
  assert.equal(st.view.omitted, 11000);
  assert.deepEqual(st.notes, ["Not all listed: the state's fluents: 12000, the first 10000 listed."]);
  const m = model();
  m.state = st;
  const html = render(m);
  assert.match(html, /and 11000 more fluents/);
  assert.match(html, /Not all listed: the state&#39;s fluents|Not all listed: the state's fluents/);
  assert.equal(toGameState({ roles: [], view: { boards: [], others: [] } }).view.omitted, undefined);
});
