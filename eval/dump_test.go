package eval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
)

func (g *session) patString(p *pnode) string {
	switch p.kind {
	case pConst:
		return g.str(p.t)
	case pVar:
		return fmt.Sprintf("?%d", p.v)
	case pBind:
		return fmt.Sprintf("!%d", p.v)
	case pCheck:
		return fmt.Sprintf("=%d", p.v)
	}
	var parts []string
	parts = append(parts, g.st.fnName(p.fn))
	for _, a := range p.args {
		parts = append(parts, g.patString(a))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func (g *session) dumpPlans() string {
	var b strings.Builder
	ops := []string{"scan", "probe", "not", "distinct", "equal", "known", "call", "call-probe", "call-not"}
	for ci, c := range g.comps {
		for _, set := range [][]*plan{c.full, c.delta} {
			for _, p := range set {
				fmt.Fprintf(&b, "comp %d layer %d %s <=", ci, c.layer, g.patString(p.head))
				for _, s := range p.steps {
					fmt.Fprintf(&b, "\n    %s", ops[s.op])
					if s.pat != nil {
						fmt.Fprintf(&b, " %s", g.patString(s.pat))
					}
					if s.idx != nil {
						fmt.Fprintf(&b, " idx(keys=%d,n=%d)", s.idx.nkeys, len(s.idx.entries))
					}
					if s.delta {
						b.WriteString(" delta")
					}
				}
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// TestPlansAfterReplanning checks the plans connectFour ends up with: in the initial state the
// board is empty, so the first plan of `line` may start anywhere; after replanning on later states
// every scan of a cell must read an index keyed on a bound coordinate. GDL_DUMP=game.kif prints
// the plans of another game instead (go test -run PlansAfter -v).
func TestPlansAfterReplanning(t *testing.T) {
	path := os.Getenv("GDL_DUMP")
	var g *Program
	if path != "" {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		g, _ = Load(string(src))
	} else {
		g = corpusGame(t, "ggp-org__ggp-base/games/games/connectFour/connectFour.kif")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5; i++ {
		if _, err := g.Playout(context.Background(), rng, 1000); err != nil {
			t.Fatal(err)
		}
	}
	dump := g.warm().dumpPlans()
	if path != "" {
		t.Log("\n" + dump)
		return
	}
	lineRule := regexp.MustCompile(`(?m)^comp \d+ layer 1 \(line \?0\) <=\n((?:    .*\n)+)`)
	rules := lineRule.FindAllStringSubmatch(dump, -1)
	if len(rules) != 4 {
		t.Fatalf("want 4 plans of line, got %d:\n%s", len(rules), dump)
	}
	for _, r := range rules {
		for _, st := range strings.Split(strings.TrimSpace(r[1]), "\n") {
			st = strings.TrimSpace(st)
			if strings.HasPrefix(st, "scan (true (cell") && !strings.Contains(st, "keys=1") && !strings.Contains(st, "keys=2") {
				t.Errorf("unkeyed scan of the board in a plan of line:\n%s", r[1])
			}
		}
	}
}
