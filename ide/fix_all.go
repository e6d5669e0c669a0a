package ide

import (
	"context"
	"sort"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// FixAll ("source.fixAll"): every safe fix of the document at once. A fix is safe when it keeps
// what the game means, or restores what its author evidently meant, without a choice to make:
// the first fix of a diagnostic whose code is in SafeFixCodes. The fixes that need a person
// (an unsafe variable renamed or moved into a helper relation, an arity changed, a name that
// may be a typo) are left to the quick fixes.

// SafeFixCodes lists the diagnostic codes whose first fix FixAll applies.
var SafeFixCodes = map[string]bool{
	"unmatched-close-paren":   true, // removes a ')' that closes nothing
	"inconsistent-case":       true, // one spelling: GDL ignores case
	"unnecessary-parentheses": true, // (terminal) -> terminal
	"and-not-gdl":             true, // (and a b) in a body -> a b
	"bad-disjunction":         true, // an or inside an or -> one or
	"empty-body":              true, // (<= head) -> head
	"goal-value":              true, // 050 -> 50
	"order-hint":              true, // the body reordered so variables are bound first
}

// AppliedFix is a fix FixAll applies, with the diagnostic it fixes.
type AppliedFix struct {
	syntax.Fix
	Diagnostic analysis.Diagnostic
}

// FixAll returns the edits that apply every safe fix of the snapshot's diagnostics, and the
// fixes applied. Fixes are taken in the diagnostics' order; an edit that another fix already
// makes is made once, and a fix with an edit that overlaps one already chosen is left out (it
// applies the next time, on the fixed text). The edits are sorted by position and do not
// overlap. Diagnostics whose code enabled rejects (the user turned it off) are left alone; nil
// enables every code. It gives up when ctx is done.
func FixAll(ctx context.Context, snap *Snapshot, enabled func(code string) bool) ([]syntax.TextEdit, []AppliedFix, error) {
	ds, err := snap.Diagnostics(ctx)
	if err != nil {
		return nil, nil, err
	}
	var chosen []syntax.TextEdit
	var applied []AppliedFix
	for _, d := range ds {
		if !SafeFixCodes[d.Code] || len(d.Fixes) == 0 || enabled != nil && !enabled(d.Code) {
			continue
		}
		fix := d.Fixes[0]
		var fresh []syntax.TextEdit
		ok := true
		for _, e := range fix.Edits {
			dup := false
			for _, c := range chosen {
				switch {
				case e == c:
					dup = true
				case editsOverlap(e, c):
					ok = false
				}
			}
			for _, f := range fresh { // a fix's own edits must not overlap either
				if editsOverlap(e, f) {
					ok = false
				}
			}
			if !dup {
				fresh = append(fresh, e)
			}
		}
		if ok {
			chosen = append(chosen, fresh...)
			applied = append(applied, AppliedFix{Fix: fix, Diagnostic: d})
		}
	}
	sort.Slice(chosen, func(i, j int) bool {
		a, b := chosen[i].Span, chosen[j].Span
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.End < b.End
	})
	return chosen, applied, nil
}

// editsOverlap reports whether two edits touch the same text: their spans overlap, or they
// start at the same offset (two insertions there, or one before a replacement, would depend on
// the order they are applied in).
func editsOverlap(a, b syntax.TextEdit) bool {
	return a.Span.Start < b.Span.End && b.Span.Start < a.Span.End || a.Span.Start == b.Span.Start
}

// ApplyEdits returns text with edits applied; the edits must not overlap (as FixAll's).
func ApplyEdits(text string, edits []syntax.TextEdit) string {
	sorted := append([]syntax.TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Span.Start > sorted[j].Span.Start })
	for _, e := range sorted {
		text = text[:e.Span.Start] + e.NewText + text[e.Span.End:]
	}
	return text
}
