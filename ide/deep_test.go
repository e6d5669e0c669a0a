package ide

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestDeepNesting is issue 22, item 2, in the editor's features: on a rule nesting not, or,
// and or a term 100,000 levels deep (20,000 with -short), every feature answers, at the start,
// in the middle and at the end of the rule, with the goroutine stack limited to 4 MB, so none
// recurses per level (the lsp test opens a million levels in the real server).
func TestDeepNesting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gengame.EachNested(t, 100_000, 20_000, func(t *testing.T, shape, src string) {
		d := syntax.Prefix
		if gengame.Infix(shape) {
			d = syntax.Infix
		}
		snap := NewSnapshotIn(1, src, d)
		games := NewGames(ctx, GamesOptions{Rand: rand.New(rand.NewPCG(1, 2)).IntN})
		games.Update("deep", snap)
		session := games.Session("deep", snap, eval.Limits{Timeout: 20 * time.Second}, analysis.BoardConfig{})
		const budget = time.Minute
		if _, err := snap.Diagnostics(ctx); err != nil {
			t.Fatal(err)
		}
		rule := strings.LastIndex(src[:len(src)-1], "\n") + 1
		for _, off := range []int{rule + 1, rule + (len(src)-rule)/2, len(src) - 3} {
			Hover(ctx, snap, off, HoverOptions{Markdown: true, Eval: session, Budget: budget})
			Definition(snap, off)
			References(snap, off, true)
			Highlights(snap, off)
			PrepareRename(snap, off)
			Rename(snap, off, "renamed")
			Completion(snap, off, true)
			SignatureHelp(snap, off, true)
			if it, ok := PrepareCallHierarchy(snap, off); ok {
				IncomingCalls(snap, it.Key)
				OutgoingCalls(snap, it.Key)
			}
			SelectionRange(snap, off, 100)
			if _, err := QuickFixes(ctx, snap, off, off); err != nil {
				t.Fatal(err)
			}
			FormatRange(snap, off-1, off+1)
		}
		DocumentSymbols(snap, 0)
		FoldingRanges(snap)
		SemanticTokens(snap, 0, len(src))
		if _, err := Format(snap); err != nil {
			t.Fatal(err)
		}
		if _, _, err := FixAll(ctx, snap, nil); err != nil {
			t.Fatal(err)
		}
		for _, l := range CodeLenses(snap) {
			LensTitle(ctx, l, session, budget)
		}
		InlayHints(ctx, snap, 0, len(src), session, budget)
		if _, err := session.ShowState(ctx); err != nil {
			t.Fatal(err)
		}
		session.RunQuery(ctx, map[syntax.Dialect]string{syntax.Prefix: "(q ?x)", syntax.Infix: "q(X)"}[d])
		// The next version, analysed incrementally, after an edit in the rule.
		next := snap.Next(2, snap.File().Edit(rule+1, rule+1, " "))
		if _, err := next.Diagnostics(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
