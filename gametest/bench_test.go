package gametest

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
)

// connectFourTests writes n tests of connect four, each 20 joint moves of a seeded random
// match (replayed until one lasts 20 moves) followed by what holds then: the last disc's
// square, the legal moves of both roles, not terminal.
func connectFourTests(tb testing.TB, g *game.Game, n int) string {
	ctx := context.Background()
	rng := rand.New(rand.NewSource(28))
	var b strings.Builder
	b.WriteString("(game ../../testdata/games/connectfour.kif)\n")
	for len(strings.Split(b.String(), "(test ")) <= n {
		s, _ := g.Initial(ctx)
		var steps []string
		for len(steps) < 20 {
			joints, _, err := g.JointMoves(ctx, s, 100)
			if err != nil {
				tb.Fatal(err)
			}
			if term, _ := g.Terminal(ctx, s); term || len(joints) == 0 {
				break
			}
			j := joints[rng.Intn(len(joints))]
			steps = append(steps, "(play "+g.String(j[0])+" "+g.String(j[1])+")")
			s, _ = g.Next(ctx, s, j)
		}
		if term, _ := g.Terminal(ctx, s); term || len(steps) < 20 {
			continue
		}
		legal, _ := g.Legal(ctx, s)
		fmt.Fprintf(&b, "(test match-%d\n    %s\n    (not terminal)\n    (holds (true %s))\n    (legal-moves red %s)\n    (legal-moves black %s))\n",
			len(strings.Split(b.String(), "(test ")), strings.Join(steps, "\n    "), g.String(s.Fluents()[0]),
			strings.Join(g.Strings(legal[0]), " "), strings.Join(g.Strings(legal[1]), " "))
	}
	return b.String()
}

// BenchmarkConnectFour100x20 runs 100 tests of 20 joint moves each on connect four, the
// target of docs/testing.md (at most 1 s, game loading included: that is what gdl test does).
func BenchmarkConnectFour100x20(b *testing.B) {
	data, err := os.ReadFile("../testdata/games/connectfour.kif")
	if err != nil {
		b.Fatal(err)
	}
	g, _, err := game.Load(context.Background(), string(data), game.Options{})
	if err != nil {
		b.Fatal(err)
	}
	src := connectFourTests(b, g, 100)
	b.ResetTimer()
	for range b.N {
		g, res, err := game.Load(context.Background(), string(data), game.Options{})
		if err != nil {
			b.Fatal(err)
		}
		f, _ := syntax.ParseDialect(src, syntax.Prefix)
		s, ds := Static(f, res)
		if len(ds) > 0 || len(s.Tests) != 100 {
			b.Fatalf("%d tests, %v", len(s.Tests), ds)
		}
		results, err := Run(context.Background(), g, s.Tests, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range results {
			if r.Status != Passed {
				b.Fatalf("%s: %+v", r.Test.Name, r.Failures)
			}
		}
	}
}
