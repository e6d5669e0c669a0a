package explain_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/internal/cputime"
)

// benchChess explains lit in chess's initial state: cold, on a game compiled anew each time
// (the state's relations evaluated for the explanation), or warm, on one game whose state has
// been asked before (as in the editor, where the explanation follows an evaluated hover).
func benchChess(b *testing.B, lit string, opts explain.Options, warm bool) {
	path := filepath.Join(corpus.Dir(), "ggp-org__ggp-repository/war/root/games/chess/chess.kif")
	ev, res := load(b, path)
	ctx := context.Background()
	run := func(ev *eval.Program) {
		s, err := ev.Initial(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := explain.Explain(ctx, ev, res, s, nil, lit, opts); err != nil {
			b.Fatal(err)
		}
	}
	run(ev)
	b.ResetTimer()
	cpu := cputime.Now()
	for i := 0; i < b.N; i++ {
		g := ev
		if !warm {
			b.StopTimer()
			g = eval.Compile(res)
			b.StartTimer()
		}
		run(g)
	}
	cputime.Report(b, cpu, b.N)
}

func skipNoChess(b *testing.B) {
	if _, err := filepath.Glob(filepath.Join(corpus.Dir(), "*")); err != nil || len(corpus.Games(b)) == 0 {
		b.Skip("no corpus")
	}
}

// BenchmarkExplainChessLegal: the proof of a legal move in chess's initial state (target 100 ms).
func BenchmarkExplainChessLegal(b *testing.B) {
	skipNoChess(b)
	b.Run("cold", func(b *testing.B) { benchChess(b, "(legal white (move wn g 1 f 3))", explain.Options{}, false) })
	b.Run("warm", func(b *testing.B) { benchChess(b, "(legal white (move wn g 1 f 3))", explain.Options{}, true) })
}

// BenchmarkExplainChessWhyNot: why the queen cannot move in chess's initial state, at depth 3
// (target 300 ms).
func BenchmarkExplainChessWhyNot(b *testing.B) {
	skipNoChess(b)
	b.Run("cold", func(b *testing.B) { benchChess(b, "(legal white (move wq d 1 d 4))", explain.Options{Depth: 3}, false) })
	b.Run("warm", func(b *testing.B) { benchChess(b, "(legal white (move wq d 1 d 4))", explain.Options{Depth: 3}, true) })
}
