package ide

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// InlayHint is a label shown at Offset, after a clause.
type InlayHint struct {
	Offset  int
	Label   string
	Tooltip string
	// What explains the hint in the current state (Session.ExplainLiteral of Literal, or
	// Session.ExplainFluent of Fluent), for a link in its tooltip; "" for none.
	Literal, Fluent string
}

// InlayHints show evaluated results where they are defined, for the clauses that overlap
// [from, to]: after each init fact whether it holds in the current state, and after each legal
// rule or fact the moves it contributes there (a fact contributes its one move in every state;
// the hint still says which move and role). The hints share one budget (0: DefaultLensBudget);
// those whose evaluation is still running are left out, and the features are refreshed when it
// is done.
func InlayHints(ctx context.Context, snap *Snapshot, from, to int, ev Evaluation, budget time.Duration) []InlayHint {
	hints := []InlayHint{}
	if budget <= 0 {
		budget = DefaultLensBudget
	}
	deadline := time.Now().Add(budget)
	wait := func() Wait { return Wait{Budget: time.Until(deadline), Urgent: true, Refresh: true} }
	pos, err := ev.Position(ctx, wait())
	if err != nil {
		return hints
	}
	// The fluents come written in the document's notation; their keys compare with the terms
	// of the init facts whatever the spelling.
	d := snap.Dialect()
	state := map[string]bool{}
	for _, f := range pos.Fluents {
		if t, ok := parseTerm(f, d); ok {
			state[analysis.TermKey(t)] = true
		}
	}
	clauses, shift := hintClauses(snap, from, to)
	for _, c := range clauses {
		span := c.Form.Span()
		span.Start, span.End = span.Start+shift, span.End+shift
		if span.End < from || span.Start > to {
			continue
		}
		var label, tip, literal, fluent string
		switch c.Key() {
		case "init":
			if c.IsRule || c.Head.Arity() != 1 {
				continue
			}
			fluent = plainText(c.Head.Args()[0].Cursor)
			if state[analysis.TermKey(c.Head.Args()[0].Cursor)] {
				label, tip = "✓ holds", "This fluent holds in the current state."
			} else {
				label, tip = "✗ not now", "This fluent does not hold in the current state (moves were played)."
			}
		case "legal":
			if c.Head.Arity() != 2 {
				continue
			}
			// The head itself, variables and all, asks for the facts the clause can produce.
			qa, err := ev.Answers(ctx, c.Head.Text(), wait())
			if err != nil {
				continue
			}
			label = "→ " + countText(qa.Count, qa.More, "move")
			if len(qa.Answers) > 0 {
				label += ": " + summarize(movesOf(qa.Answers, d), 3)
			}
			tip = strings.Join(qa.Answers, "\n")
			literal = plainText(c.Head.Cursor)
		default:
			continue
		}
		hints = append(hints, InlayHint{Offset: span.End, Label: label, Tooltip: tip, Literal: literal, Fluent: fluent})
	}
	return hints
}

// hintClauses returns the clauses that InlayHints looks at for [from, to], and what to add to
// their offsets to make them the document's: the model's clauses; while the model is being built
// (the syntax stage), those of the forms that overlap the range, from their model alone (what a
// hint says of a clause reads that clause and the evaluation, not the rest of the file).
func hintClauses(snap *Snapshot, from, to int) ([]*analysis.Clause, int) {
	st := snap.syntaxStage()
	if st == nil {
		return snap.Model().Clauses, 0
	}
	lo := sort.Search(len(st.spans), func(i int) bool { return st.spans[i].End >= from })
	hi := sort.Search(len(st.spans), func(i int) bool { return st.spans[i].Start > to })
	if lo >= hi {
		return nil, 0
	}
	c := st.chunkOf(lo, hi)
	return c.snap.prepared.Clauses, c.start
}

// movesOf extracts the move of each (legal role move) answer, written in notation d.
func movesOf(answers []string, d syntax.Dialect) []string {
	out := make([]string, len(answers))
	for i, a := range answers {
		f, _ := syntax.ParseDialect(a, d)
		out[i] = a
		if fs := f.Forms(); len(fs) == 1 {
			if args := fs[0].Fact().Args(); len(args) == 2 {
				out[i] = fmt.Sprint(args[1].Text())
			}
		}
	}
	return out
}

// parseTerm reads one ground term written in notation d.
func parseTerm(text string, d syntax.Dialect) (syntax.Cursor, bool) {
	f, errs := syntax.ParseDialect(text, d)
	if fs := f.Forms(); len(errs) == 0 && len(fs) == 1 {
		return fs[0].Cursor, true
	}
	return syntax.Cursor{}, false
}

// summarize shortens a list of answers for a title or hint: the first few, then a count.
func summarize(answers []string, max int) string {
	if len(answers) <= max {
		return strings.Join(answers, " ")
	}
	return strings.Join(answers[:max], " ") + fmt.Sprintf(" … (%d more)", len(answers)-max)
}
