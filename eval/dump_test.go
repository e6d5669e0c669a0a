package eval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

func (g *Game) patString(p *pnode) string {
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
	parts = append(parts, g.st.syms[g.st.fns[p.fn].sym])
	for _, a := range p.args {
		parts = append(parts, g.patString(a))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func (g *Game) dumpPlans() string {
	var b strings.Builder
	ops := []string{"scan", "probe", "not", "distinct", "equal", "known"}
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
						fmt.Fprintf(&b, " idx(keys=%d,n=%d)", s.idx.nkeys, len(s.idx.facts))
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

func TestDumpPlans(t *testing.T) {
	path := os.Getenv("GDL_DUMP")
	if path == "" {
		t.Skip("set GDL_DUMP to a game file to print its join plans")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := Load(string(src))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3; i++ {
		if _, err := g.Playout(context.Background(), rng, 1000); err != nil {
			t.Fatal(err)
		}
	}
	t.Log("\n" + g.dumpPlans())
}
