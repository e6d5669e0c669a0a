package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExplain drives gdl explain: a proof, a why-not, answers with proofs, the three formats,
// both engines, an infix game, a joint move, and the errors with their exit statuses.
func TestExplain(t *testing.T) {
	bin := buildGDL(t)
	ttt := "../../testdata/games/tictactoe.kif"
	for _, engine := range []string{"compiled", "interpreted"} {
		out, errOut, code := gdl(t, bin, "explain", ttt, "(legal oplayer (mark 2 2))", "--moves", "((mark 1 1) noop)", "--engine", engine)
		if code != 0 || !strings.Contains(out, "(legal oplayer (mark 2 2)) holds (a proof of height 1)") ||
			!strings.Contains(out, "(true (control oplayer))  in the state") {
			t.Errorf("%s: proof: %d %q %q", engine, code, out, errOut)
		}
	}
	out, _, code := gdl(t, bin, "explain", ttt, "(legal oplayer (mark 1 1))", "--moves", "((mark 1 1) noop)")
	if code != 0 || !strings.Contains(out, "(legal oplayer (mark 1 1))  does not hold") ||
		!strings.Contains(out, "(true (cell 1 1 b))  fails: not in the state; the state has (cell 1 1 x)") {
		t.Errorf("why-not: %d %q", code, out)
	}
	out, _, code = gdl(t, bin, "explain", ttt, "(next (cell 1 1 x))", "--joint", "((mark 1 1) noop)", "--format", "json")
	var x struct {
		Joint  string `json:"joint"`
		Holds  bool   `json:"holds"`
		Proofs []struct {
			Kind string `json:"kind"`
			Rule struct {
				Line int `json:"line"`
			} `json:"rule"`
		} `json:"proofs"`
	}
	if err := json.Unmarshal([]byte(out), &x); code != 0 || err != nil || !x.Holds || len(x.Proofs) != 1 || x.Proofs[0].Kind != "rule" || x.Proofs[0].Rule.Line == 0 || x.Joint != "((mark 1 1) noop)" {
		t.Errorf("json: %d %v %q", code, err, out)
	}
	out, _, code = gdl(t, bin, "explain", ttt, "(legal ?r ?m)", "--max-answers", "2", "--format", "dot")
	if code != 0 || !strings.HasPrefix(out, "digraph explanation {") || strings.Count(out, "by rule") != 2 {
		t.Errorf("dot: %d %q", code, out)
	}
	out, _, code = gdl(t, bin, "explain", "../../testdata/games/noughts.hrf", "legal(crosses,play(1,1))")
	if code != 0 || !strings.Contains(out, "legal(crosses,play(1,1)) holds") || !strings.Contains(out, "true(control(crosses))  in the state") {
		t.Errorf("infix: %d %q", code, out)
	}
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"(next (cell 1 1 x))"}, 2, "about a joint move"},
		{[]string{"(legal ?r)"}, 2, "arity 2"},
		{[]string{"(line x) (line o)"}, 2, "one literal"},
		{[]string{"terminal", "--format", "xml"}, 2, "--format must be text, json or dot"},
		{[]string{"(next (cell 1 1 x))", "--joint", "((mark 1 1) (mark 2 2))"}, 1, "--joint"},
		{[]string{"terminal", "--moves", "((mark 9 9) noop)"}, 1, "joint move 1"},
	} {
		_, errOut, code := gdl(t, bin, append([]string{"explain", ttt}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.err) {
			t.Errorf("%v: %d %q, want %d and %q", c.args, code, errOut, c.code, c.err)
		}
	}
}
