package player

import (
	"context"
	"testing"

	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/internal/cputime"
)

// BenchmarkMCTS measures searches from the initial state of corpus games: one op is a search of
// 2,000 playouts; it reports playouts per CPU second of the process.
func BenchmarkMCTS(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"ticTacToe", "ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif"},
		{"connectFour", "ggp-org__ggp-base/games/games/connectFour/connectFour.kif"},
		{"breakthrough", "ggp-org__ggp-repository/war/root/games/breakthrough/breakthrough.kif"},
		{"speedChess", "ggp-org__ggp-repository/war/root/games/speedChess/speedChess.kif"},
	} {
		b.Run(c.name, func(b *testing.B) {
			corpus.Games(b)
			g := load(b, corpus.Dir()+"/"+c.path)
			s, err := g.Initial(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			const playouts = 2000
			b.ResetTimer()
			cpu := cputime.Now()
			for i := range b.N {
				p := NewMCTS(g, 0, Options{Playouts: playouts, Seed: uint64(i)})
				if _, err := p.Search(context.Background(), s); err != nil {
					b.Fatal(err)
				}
			}
			if spent := cputime.Now() - cpu; spent > 0 {
				b.ReportMetric(float64(playouts*b.N)/spent.Seconds(), "playouts/cpu-s")
			}
		})
	}
}
