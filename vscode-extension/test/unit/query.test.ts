import { test } from "node:test";
import * as assert from "node:assert/strict";
import { infixQueryAtOffset, queryAtOffset } from "../../src/query";

const game = `; tic-tac-toe, abridged
(role xplayer)
(<= (legal ?p (mark ?x ?y))
    (true (cell ?x ?y b)) ; empty
    (not (true (control ?p))))
terminal
(<= (goal ?r 0) (or (true (lost ?r)) (does ?r resign)))
`;

/** The query with the cursor at the first occurrence of `marker` plus `delta` characters. */
function at(marker: string, delta = 0): string | undefined {
  const i = game.indexOf(marker);
  assert.ok(i >= 0, `marker ${marker} not in the game`);
  return queryAtOffset(game, i + delta)?.text;
}

test("a fact is its own query", () => {
  assert.equal(at("(role"), "(role xplayer)");
  assert.equal(at("xplayer"), "(role xplayer)");
});

test("just after a closing parenthesis means the form that ends there", () => {
  assert.equal(at("xplayer)", "xplayer)".length), "(role xplayer)");
});

test("the rule arrow and the head give the rule's head", () => {
  assert.equal(at("<= (legal"), "(legal ?p (mark ?x ?y))");
  assert.equal(at("legal ?p"), "(legal ?p (mark ?x ?y))");
  assert.equal(at("mark ?x"), "(legal ?p (mark ?x ?y))");
  assert.equal(at("?y))\n"), "(legal ?p (mark ?x ?y))");
});

test("a body literal is queried whole, not its inner term", () => {
  assert.equal(at("cell ?x"), "(true (cell ?x ?y b))");
  assert.equal(at("(true (cell"), "(true (cell ?x ?y b))");
});

test("on a negation the negated atom is queried", () => {
  assert.equal(at("not (true"), "(true (control ?p))");
  assert.equal(at("control ?p"), "(true (control ?p))");
});

test("inside a disjunction each branch is a query; the `or` itself is none", () => {
  assert.equal(at("lost ?r"), "(true (lost ?r))");
  assert.equal(at("resign"), "(does ?r resign)");
  assert.equal(at("or (true"), undefined);
});

test("a bare top-level constant is a query", () => {
  assert.equal(at("terminal"), "terminal");
});

test("comments and blank space outside forms give nothing", () => {
  assert.equal(at("tic-tac-toe"), undefined);
  assert.equal(at("empty"), "(legal ?p (mark ?x ?y))"); // a comment inside a rule: the rule's head
  assert.equal(queryAtOffset("", 0), undefined);
  assert.equal(queryAtOffset("   \n", 2), undefined);
});

test("an unclosed form still gives its head", () => {
  const text = "(<= (next (cell ?x ?y x))\n  (does xplayer (mark ?x ?y))";
  assert.equal(queryAtOffset(text, text.indexOf("next"))?.text, "(next (cell ?x ?y x))");
  assert.equal(queryAtOffset(text, text.indexOf("does"))?.text, "(does xplayer (mark ?x ?y))");
});

test("the range of the query is the range of its text", () => {
  const q = queryAtOffset(game, game.indexOf("cell ?x"));
  assert.ok(q);
  assert.equal(game.slice(q.start, q.end), q.text);
});

const infix = `% tic-tac-toe, abridged, in infix
role(xplayer)
legal(P,mark(X,Y)) :-
    true(cell(X,Y,b)) & % empty
    ~true(control(P))
terminal
goal(R,0) :- (true(lost(R)) | does(R,resign))
"Big"(1).
`;

/** The infix query with the cursor at the first occurrence of `marker` plus `delta` characters. */
function inf(marker: string, delta = 0): string | undefined {
  const i = infix.indexOf(marker);
  assert.ok(i >= 0, `marker ${marker} not in the game`);
  return infixQueryAtOffset(infix, i + delta)?.text;
}

test("infix: a fact is its own query, also just after it", () => {
  assert.equal(inf("role"), "role(xplayer)");
  assert.equal(inf("xplayer"), "role(xplayer)");
  assert.equal(inf("xplayer)", "xplayer)".length), "role(xplayer)");
  assert.equal(inf("terminal"), "terminal");
  assert.equal(inf('"Big"', 2), '"Big"(1)');
});

test("infix: the rule arrow and an & give the rule's head, a literal itself", () => {
  assert.equal(inf(":-"), "legal(P,mark(X,Y))");
  assert.equal(inf("& %"), "legal(P,mark(X,Y))");
  assert.equal(inf("cell(X"), "true(cell(X,Y,b))");
  assert.equal(inf("mark(X"), "legal(P,mark(X,Y))");
});

test("infix: ~ gives the negated atom; a disjunction's parts give nothing, its literals themselves", () => {
  assert.equal(inf("~true"), "true(control(P))");
  assert.equal(inf("(true(lost"), undefined);
  assert.equal(inf("| does"), undefined);
  assert.equal(inf("resign"), "does(R,resign)");
  assert.equal(inf("lost"), "true(lost(R))");
  assert.equal(inf("% empty", 3), undefined);
});
