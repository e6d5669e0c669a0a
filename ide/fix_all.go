package ide

import (
	"context"

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
	edits, chosen := analysis.ChooseFixes(len(snap.Text()), ds, func(d analysis.Diagnostic, _ syntax.Fix) bool {
		return SafeFixCodes[d.Code] && (enabled == nil || enabled(d.Code))
	})
	applied := make([]AppliedFix, len(chosen))
	for i, a := range chosen {
		applied[i] = AppliedFix{Fix: a.Fix, Diagnostic: a.Diagnostic}
	}
	return edits, applied, nil
}
