package main

import (
	"strings"
	"testing"
)

// brokenGame has one syntax error (an unclosed parenthesis on line 3) and nothing else wrong.
const brokenGame = `(role x)
(init (c 1))
(<= (legal x go) (true (c 1))
(<= (next (c 2)) (true (c 1)))
(<= terminal (true (c 2)))
(goal x 100)
`

// silentGame uses blocked in a body without defining it: a query of it has no answers, and that
// is no error.
const silentGame = `(role x)
(init (c 1))
(legal x go)
(<= (next (c 2)) (true (c 1)))
(<= terminal (true (c 2)))
(<= terminal (blocked))
(goal x 100)
`

const brokenDiag = "game.kif:3:1: error: '(' is never closed"

// legalDoesGame has legal depend on does (through pick), which has no meaning: the legal
// moves would depend on the moves chosen among them.
const legalDoesGame = `(role robot)
(init (step 1))
(opt a)
(<= (legal robot (m ?x)) (opt ?x))
(<= (legal robot (n ?x)) (pick ?x))
(<= (pick ?x) (does robot (m ?x)))
(<= (next (step 2)) (true (step 1)))
(<= terminal (true (step 2)))
(goal robot 100)
`

// TestCommandErrors drives query and convert through the wrong inputs people give them. Each
// case names the exit status, text that stderr (or stdout) must contain, and lines of stderr that
// must appear exactly once.
func TestCommandErrors(t *testing.T) {
	bin := buildGDL(t)
	broken := writeGame(t, brokenGame)
	silent := writeGame(t, silentGame)
	legalDoes := writeGame(t, legalDoesGame)
	const ttt5 = "((mark 1 1) noop) (noop (mark 1 3)) ((mark 3 1) noop) (noop (mark 2 2)) ((mark 2 1) noop)"
	runCLICases(t, bin, []cliCase{
		{name: "convert refuses a syntax error", args: []string{"convert", "--to", "prolog", broken}, code: 1,
			stderr: []string{"[unclosed-paren]", "has no defined meaning"}, once: brokenDiag},
		{name: "query refuses it with the same diagnostic, once", args: []string{"query", broken, "(legal ?r ?m)"}, code: 1,
			stderr: []string{"[unclosed-paren]", "legal/2 has no defined meaning"}, once: brokenDiag},
		{name: "query refuses legal that depends on does", args: []string{"query", legalDoes, "(legal ?r ?m)"}, code: 1,
			stderr: []string{"[state-dependent]", "legal/2 has no defined meaning"},
			once:   "game.kif:5:26: error: legal depends on does through legal -> pick -> does"},
		{name: "convert takes flags after the file", args: []string{"convert", tttGame, "--to", "prolog", "--driver", "walk"},
			code: 0, stdout: "walk(Seed, Max", emptyError: true},
		{name: "convert --tabling none tables nothing", args: []string{"convert", "--to", "prolog", "--tabling", "none", tttGame},
			code: 0, stdout: "% Plain translation (--tabling none): nothing is tabled.\n", emptyError: true},
		{name: "convert --tabling takes recursive or none", args: []string{"convert", "--to", "prolog", "--tabling", "all", tttGame}, code: 2,
			stderr: []string{"--tabling must be recursive or none, not \"all\""}},
		{name: "convert -h", args: []string{"convert", "-h"}, code: 0, stderr: []string{"Usage: gdl convert"}},
		{name: "no evaluation without a time limit", args: []string{"query", tttGame, "terminal", "--timeout", "0"}, code: 2,
			stderr: []string{"--timeout must be positive"}},
		{name: "play has a time limit too", args: []string{"play", tttGame, "--timeout", "-1s"}, code: 2,
			stderr: []string{"--timeout must be positive"}},
		{name: "answers count against --max-facts", args: []string{"query", tttGame, "(true ?a) (true ?b) (true ?c)", "--max-facts", "100"}, code: 1,
			stderr: []string{"more than 100 facts derived (answers included) while answering (true ?a) (true ?b) (true ?c)"}},
		{name: "moves up to the end", args: []string{"query", tttGame, "terminal", "--moves", ttt5}, code: 0, stdout: "terminal\n"},
		{name: "unknown relation", args: []string{"query", tttGame, "(legl ?r ?m)"}, code: 2,
			stderr: []string{"unknown relation legl/2", "did you mean legal?"}},
		{name: "wrong arity", args: []string{"query", tttGame, "(legal ?r)"}, code: 2,
			stderr: []string{"legal has arity 2 in this game, not 1"}},
		{name: "a function is no relation", args: []string{"query", tttGame, "(cell ?x ?y ?z)"}, code: 2,
			stderr: []string{"unknown relation cell/3", "cell is a function of arity 3"}},
		{name: "unknown relation under not", args: []string{"query", tttGame, "(legal ?r ?m) (not (fooo ?m))"}, code: 2,
			stderr: []string{"unknown relation fooo/1"}},
		{name: "and is a conjunction", args: []string{"query", tttGame, "(and (true (cell ?x 1 ?m)) (distinct ?m b))", "--moves", "((mark 2 1) noop)"},
			code: 0, stdout: "(and (true (cell 2 1 x)) (distinct x b))\n", emptyError: true},
		{name: "a relation used but never defined is empty", args: []string{"query", silent, "(blocked)", "(sees ?r ?p)"},
			code: 0, stdout: "; (blocked)\nfalse\n\n; (sees ?r ?p)\n", emptyError: true},
		{name: "a move after the end", args: []string{"query", tttGame, "terminal", "--moves", ttt5 + " (noop (mark 3 3))"}, code: 1,
			stderr: []string{"joint move 6 (noop (mark 3 3))", "after joint move 5 is terminal"}},
	})
}

// cliCase is a run of the binary: its exit status, text that stderr must contain, a line of
// stderr that must appear exactly once, and what stdout must contain.
type cliCase struct {
	name       string
	args       []string
	code       int
	stderr     []string // substrings of stderr
	once       string   // a line prefix that stderr must hold exactly once
	stdout     string   // substring of stdout ("" : stdout must be empty)
	emptyError bool     // stderr must be empty
}

// runCLICases runs each case as a subtest.
func runCLICases(t *testing.T, bin string, cases []cliCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := gdl(t, bin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstderr: %s", code, c.code, stderr)
			}
			for _, s := range c.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if c.once != "" {
				n := 0
				for _, line := range strings.Split(stderr, "\n") {
					if strings.Contains(line, c.once) {
						n++
					}
				}
				if n != 1 {
					t.Errorf("stderr has %d lines with %q, want 1:\n%s", n, c.once, stderr)
				}
			}
			if c.emptyError && stderr != "" {
				t.Errorf("stderr: %s", stderr)
			}
			switch {
			case c.stdout == "" && stdout != "":
				t.Errorf("stdout should be empty:\n%s", stdout)
			case !strings.Contains(stdout, c.stdout):
				t.Errorf("stdout lacks %q:\n%s", c.stdout, stdout)
			}
		})
	}
}

// terminalBrokenGame is brokenGame with a terminal initial state: no playout would ever ask a
// legal move.
var terminalBrokenGame = strings.Replace(brokenGame, "(<= terminal (true (c 2)))", "(<= terminal (true (c 1)))", 1)

// TestPlayRefusesBrokenGame: play (random playouts and matches), verify and stats refuse a
// game whose legal has no defined meaning even when its initial state is terminal, with the
// diagnostic once, as they do when the game would ask a legal move (issue 23, item 12).
func TestPlayRefusesBrokenGame(t *testing.T) {
	bin := buildGDL(t)
	broken := writeGame(t, terminalBrokenGame)
	const diag = "game.kif:3:1: error: '(' is never closed"
	var cases []cliCase
	for _, args := range [][]string{
		{"play", broken},
		{"play", broken, "--players", "random"},
		{"verify", broken},
		{"stats", broken},
	} {
		cases = append(cases, cliCase{name: strings.Join(append([]string{args[0]}, args[2:]...), " "), args: args, code: 1,
			stderr: []string{"[unclosed-paren]", "gdl " + args[0] + ": " + broken + ": legal/2 has no defined meaning"}, once: diag})
	}
	runCLICases(t, bin, cases)
}
