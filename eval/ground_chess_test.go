package eval

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/cputime"
)

// TestChessGroundSize grounds chess.kif past the default limits (an hour, 30 million ground
// rules) and logs its ground rules per relation, the figures of docs/performance.md's "How
// chess.kif compiles". An auxiliary relation is named by the line of the clause it was
// made from. It takes a minute of CPU and about 2 GB: run it with GDL_CHESS_GROUND=1 and -v
// (GDL_CHESS_GROUND=game.kif grounds another game, GDL_GROUND_MAX_RULES=n lowers the limit of
// ground rules, to see a small game's restricted pass, and GDL_GROUND_MAX_FACTS=n sets the limit
// of atoms, 4 million here: at the default 2 million, chess starts restricted, writtenOver).
func TestChessGroundSize(t *testing.T) {
	if os.Getenv("GDL_CHESS_GROUND") == "" {
		t.Skip("SKIPPED: set GDL_CHESS_GROUND=1 to ground chess.kif (a minute of CPU, 2 GB)")
	}
	path := filepath.Join(corpusDir, "ggp-org__ggp-repository/war/root/games/chess/chess.kif")
	if p := os.Getenv("GDL_CHESS_GROUND"); p != "1" {
		path = p // another game
	}
	maxRules := 30_000_000
	if n, err := strconv.Atoi(os.Getenv("GDL_GROUND_MAX_RULES")); err == nil {
		maxRules = n // lower: to make a small game ground restricted
	}
	maxFacts := 4_000_000
	if n, err := strconv.Atoi(os.Getenv("GDL_GROUND_MAX_FACTS")); err == nil {
		maxFacts = n
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("SKIPPED: the shared corpus (%s) is not there: %v", corpusDir, err)
	}
	p, _ := Load(string(src))
	cpu0 := cputime.Now()
	gr, err := p.Ground(context.Background(), GroundLimits{Timeout: 3600 * time.Second, MaxRules: maxRules, MaxLits: 300_000_000, MaxFacts: maxFacts})
	cpu := cputime.Now() - cpu0
	if err != nil {
		t.Fatalf("%v (after %v of CPU)", err, cpu)
	}
	t.Logf("%d ground rules in %.1f s of CPU", len(gr.Rules), cpu.Seconds())
	// The auxiliary relations made before the magic sets are numbered alike in every restricted
	// pass: name them by their clause's line.
	g := p.take()
	defer p.put(g)
	origin := map[string]string{}
	for _, r := range g.relaxed(&magicPlan{}).rels {
		if strings.HasPrefix(r.name, "aux") && len(r.rules) > 0 {
			ru := r.rules[0]
			line := 1 + strings.Count(string(src[:ru.span.Start]), "\n")
			origin[r.name] = strings.Fields(string(src[ru.span.Start:min(ru.span.End, ru.span.Start+40)]))[1]
			origin[r.name] += " line " + strconv.Itoa(line)
		}
	}
	counts := map[string]int{}
	for _, r := range gr.Rules {
		name := g.st.name(r.Head)
		if o, ok := origin[name]; ok {
			name += " (" + o + ")"
		}
		counts[name]++
	}
	type row struct {
		name string
		n    int
	}
	var rows []row
	for k, v := range counts {
		rows = append(rows, row{k, v})
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.n, a.n) })
	for _, r := range rows[:min(len(rows), 40)] {
		t.Logf("%9d %s", r.n, r.name)
	}
}
