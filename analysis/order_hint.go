package analysis

import (
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "order-hint",
		Severity: Hint,
		Category: CategoryStyle,
		Summary: "A not or distinct comes before the literal that binds its variables. GDL does not care, " +
			"but left-to-right (Prolog-based) players give wrong answers.",
		Example: "(<= (free ?x) (not (true (taken ?x))) (cell ?x))",
		Fix:     "Move the not or distinct after the literals that bind its variables (the quick fix reorders the body).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			if c.IsRule {
				orderHint(c, r)
			}
		},
	})
}

func orderHint(c *Clause, r *Reporter) {
	// Only a not, a distinct or an or needs variables bound (an atom is always ready): a body
	// without one, such as a chain of 80,000 atoms, is not walked for its variables at all.
	if !slices.ContainsFunc(c.Body, mayNeedBound) {
		return
	}
	all := boundVars(c)
	b := make(map[string]bool, len(all))
	type early struct {
		lit   syntax.Literal
		names []string // the variables it needs that are not bound yet, as first written
	}
	var hints []early
	for _, l := range c.Body {
		if !Ready(l, b) {
			// Only a hint when the rule is safe: every variable the literal needs bound (those
			// of a not or distinct, also inside an or) is bound later in the body.
			late := true
			var missing []string
			for _, v := range needsBound(l) {
				if !b[v] {
					late = late && all[v]
					missing = append(missing, v)
				}
			}
			if late {
				hints = append(hints, early{l, spellings(l.Cursor, missing)})
			}
		}
		Binds(l, b)
	}
	if len(hints) == 0 {
		return
	}
	var fixes []syntax.Fix
	if fix, ok := reorderFix(c); ok {
		fixes = append(fixes, fix)
	}
	for _, h := range hints {
		r.Report(h.lit.Span(), "this literal uses "+strings.Join(h.names, ", ")+" before a literal binds it: players that evaluate left to right get it wrong; move it after the literal that binds it", nil, fixes...)
	}
}

// mayNeedBound reports whether a literal is of a kind that may need variables bound before it
// (see needsBound).
func mayNeedBound(l syntax.Literal) bool {
	switch l.Kind() {
	case syntax.LitNot, syntax.LitDistinct, syntax.LitOr:
		return true
	}
	return false
}

// spellings returns the spelling of each variable key as first written under c.
func spellings(c syntax.Cursor, keys []string) []string {
	first := map[string]string{}
	forEachVar(c, func(name string, _ syntax.Span) {
		if k := syntax.VarKey(name); first[k] == "" {
			first[k] = name
		}
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = first[k]
	}
	return out
}

// reorderFix rewrites the body in SafeOrder, keeping each literal's text (comments inside it
// included) and the layout between literals: whitespace and comments between two literals stay
// where they were. A comment always ends at a line break, so it never swallows a literal.
func reorderFix(c *Clause) (syntax.Fix, bool) {
	body := c.Body
	ordered := SafeOrder(body)
	start, end := body[0].Span().Start, body[len(body)-1].Span().End
	src := c.Form.Text()
	base := c.Form.Span().Start
	var b strings.Builder
	for i, l := range ordered {
		if i > 0 {
			// the separator that stood before the i-th literal in the original
			prev, next := body[i-1].Span().End-base, body[i].Span().Start-base
			b.WriteString(src[prev:next])
		}
		b.WriteString(l.Text())
	}
	return syntax.Fix{Title: "Reorder the body so every variable is bound before it is tested", Safe: true,
		Edits: []syntax.TextEdit{{Span: syntax.Span{Start: start, End: end}, NewText: b.String()}}}, true
}
