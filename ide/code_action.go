package ide

import (
	"context"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// QuickFix is a fix the analyzer attached to a diagnostic.
type QuickFix struct {
	syntax.Fix
	Diagnostic analysis.Diagnostic
	Preferred  bool // the diagnostic's first fix
}

// QuickFixes returns every fix of the diagnostics touching [start, end], with its diagnostic:
// the analyzer's, or the editor's own for a diagnostic without one (fixes.go). It gives up when
// ctx is done.
func QuickFixes(ctx context.Context, snap *Snapshot, start, end int) ([]QuickFix, error) {
	ds, err := snap.Diagnostics(ctx)
	if err != nil {
		return nil, err
	}
	out := []QuickFix{}
	for _, d := range ds {
		if d.Span.End < start || d.Span.Start > end {
			continue
		}
		fixes := d.Fixes
		if len(fixes) == 0 {
			fixes = editorFixes(snap, d)
		}
		for i, f := range fixes {
			out = append(out, QuickFix{Fix: f, Diagnostic: d, Preferred: i == 0})
		}
	}
	return out, nil
}
