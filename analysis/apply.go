package analysis

import (
	"sort"

	"github.com/gdl-lsp/gdl/syntax"
)

// AppliedFix is a fix that ApplyFixes applied, with the diagnostic it repairs.
type AppliedFix struct {
	Diagnostic Diagnostic
	Fix        syntax.Fix
}

// ApplyFixes applies to src, at once, the first fix of each diagnostic that take accepts (nil
// takes every one), as an editor's "fix all" or `gdl check --fix` does: identical edits (two
// fixes adding the same helper rule) are applied once, and a fix with an edit that overlaps an
// edit already chosen is left out (the next analysis offers it again). It returns the new text
// and the fixes applied, in the diagnostics' order.
func ApplyFixes(src string, ds []Diagnostic, take func(Diagnostic, syntax.Fix) bool) (string, []AppliedFix) {
	var chosen []syntax.TextEdit
	var applied []AppliedFix
	same := func(a, b syntax.TextEdit) bool { return a.Span == b.Span && a.NewText == b.NewText }
	overlap := func(a, b syntax.TextEdit) bool {
		return a.Span.Start < b.Span.End && b.Span.Start < a.Span.End ||
			a.Span.Start == b.Span.Start && (a.Span.Start == a.Span.End) != (b.Span.Start == b.Span.End)
	}
	for _, d := range ds {
		if len(d.Fixes) == 0 || take != nil && !take(d, d.Fixes[0]) {
			continue
		}
		fix := d.Fixes[0]
		var fresh []syntax.TextEdit
		ok := true
		for _, e := range fix.Edits {
			if e.Span.Start < 0 || e.Span.End > len(src) || e.Span.Start > e.Span.End {
				ok = false
				break
			}
			dup := false
			for _, c := range chosen {
				if same(e, c) {
					dup = true
				} else if overlap(e, c) {
					ok = false
				}
			}
			for _, f := range fresh { // two edits of one fix at one place: keep the fix whole
				if overlap(e, f) {
					ok = false
				}
			}
			if !dup {
				fresh = append(fresh, e)
			}
		}
		if ok {
			chosen = append(chosen, fresh...)
			applied = append(applied, AppliedFix{d, fix})
		}
	}
	// The last first; at one offset, a replacement before an insertion there would eat it, so
	// the longer edit goes first.
	sort.SliceStable(chosen, func(i, j int) bool {
		a, b := chosen[i].Span, chosen[j].Span
		if a.Start != b.Start {
			return a.Start > b.Start
		}
		return a.End > b.End
	})
	for _, e := range chosen {
		src = src[:e.Span.Start] + e.NewText + src[e.Span.End:]
	}
	return src, applied
}
