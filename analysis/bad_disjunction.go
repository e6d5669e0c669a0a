package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "bad-disjunction",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "An empty (or), or an or nested directly inside another or.",
		Example:  "(<= (p ?x) (q ?x) (or (r ?x) (or (s ?x) (t ?x))))",
		Fix: "Remove an empty or; write the branches of an inner or as branches of the outer one (the quick fix does; " +
			"ors nested directly in one another are one diagnostic, at the outermost inner one, and its fix merges them all).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			walkLiterals(c, func(v literalVisit) {
				if v.Kind != syntax.LitOr {
					return
				}
				if !hasOperand(v.Lit) {
					r.Report(v.Lit.Span(), "empty disjunction: "+m.Notation().Or()+" has no branch and can never hold", nil)
					return
				}
				// One diagnostic for the or nested in an or, and for the ors nested in it in
				// turn: its fix merges them all. An or nested a million deep is one diagnostic,
				// not a million that each span the rest.
				if v.ParentKind != syntax.LitOr || c.visits[v.Parent].ParentKind == syntax.LitOr {
					return
				}
				fix, more := mergeDisjunctions(v.Lit)
				msg := "nested disjunction: an or directly inside an or"
				if more > 0 {
					msg += fmt.Sprintf(", and %d more nested directly in it", more)
				}
				r.Report(v.Lit.Span(), msg, nil, fix...)
			})
		},
	})
}

// hasOperand reports whether a disjunction has a branch.
func hasOperand(or syntax.Literal) bool {
	for range or.OperandSeq() {
		return true
	}
	return false
}

// maxMergeEdits bounds the edits of the fix of a chain of nested ors: a deeper chain is merged by
// one edit that rewrites it, so that the fix of an or nested a million deep is one edit no larger
// than the text it replaces (two million small edits would make a reply, or gdl check's JSON, of
// hundreds of megabytes).
const maxMergeEdits = 64

// mergeDisjunctions is the fix of an or nested in an or: its branches become the outer or's, and
// so do those of every or nested directly in it in turn (more says how many). For each it removes
// what stands before its first branch ("(or " in prefix, "(" in infix) and after its last (")"),
// so the branches, the separators between them and the comments stay as written: small edits, or
// beyond maxMergeEdits one edit of the whole chain with the same text. An explicit stack: any
// depth is fine.
func mergeDisjunctions(or syntax.Literal) (fix []syntax.Fix, more int) {
	var cuts []syntax.Span
	stack := []syntax.Literal{or}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		sp := l.Span()
		first, last := syntax.Span{Start: -1}, syntax.Span{}
		for _, op := range l.OperandSeq() {
			if first.Start < 0 {
				first = op.Span()
			}
			last = op.Span()
			if op.Kind() == syntax.LitOr && hasOperand(op) { // an empty or is reported, not merged
				stack = append(stack, op)
				more++
			}
		}
		for _, e := range []syntax.Span{{Start: sp.Start, End: first.Start}, {Start: last.End, End: sp.End}} {
			if e.Start < e.End { // an or written without its parentheses has nothing around its branches
				cuts = append(cuts, e)
			}
		}
	}
	if len(cuts) == 0 {
		return nil, more
	}
	slices.SortFunc(cuts, func(a, b syntax.Span) int { return cmp.Compare(a.Start, b.Start) })
	merged := syntax.Fix{Title: "Merge into the outer or"}
	if len(cuts) <= maxMergeEdits {
		for _, c := range cuts {
			merged.Edits = append(merged.Edits, syntax.TextEdit{Span: c})
		}
		return []syntax.Fix{safe(merged)}, more
	}
	sp, text := or.Span(), or.Text()
	var b strings.Builder
	b.Grow(len(text))
	at := sp.Start
	for _, c := range cuts {
		b.WriteString(text[at-sp.Start : c.Start-sp.Start])
		at = c.End
	}
	b.WriteString(text[at-sp.Start:])
	merged.Edits = []syntax.TextEdit{{Span: sp, NewText: b.String()}}
	return []syntax.Fix{safe(merged)}, more
}
