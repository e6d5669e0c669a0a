package ide

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
)

// Code lenses: one lens above each contiguous group of clauses of a relation (a relation defined
// in two places gets a lens at each), which runs the relation's query. CodeLenses only lists them, from the
// syntax and the analysis; the title with its live count, which needs evaluation, is LensTitle.

// Lens is the lens of a group of clauses of a relation: it runs the relation's query.
type Lens struct {
	Offset int    // the start of the group's first clause
	Query  string // the query that asks for every fact of the relation
	Key    string // the relation
	Arity  int
	// NotEvaluated, when set, says why the relation cannot be evaluated whatever the state (a
	// clause of the group has a syntax error): the title says so without evaluating.
	NotEvaluated string
}

// DefaultLensBudget bounds how long one lens waits for its evaluation (and the hints of a range
// together): lenses are asked for on every change, so they are best effort. An evaluation that
// takes longer goes on in the background; the lens says "evaluating…" and the features are asked
// for again when it is done.
const DefaultLensBudget = 300 * time.Millisecond

// LensEvalLimit bounds each lens's evaluation in the background (the user's time limit applies if
// it is lower). A relation that takes longer, like chess's queen_move_ig with 300,000 facts
// (1.6 s), gets no count; running the lens evaluates it under the user's limit. A lens about a
// joint move counts what the joint moves evaluated in time give.
const LensEvalLimit = time.Second

// CodeLenses lists the lenses of a document, in order.
func CodeLenses(snap *Snapshot) []Lens {
	lenses := []Lens{}
	prev := ""
	for _, c := range snap.Model().Clauses {
		key := c.Key()
		if key == prev {
			if l := &lenses[len(lenses)-1]; l.Key == key && l.NotEvaluated == "" && c.Form.HasErrors() {
				l.NotEvaluated = syntaxReason(snap, c)
			}
			continue // the same group
		}
		prev = key
		if key == "true" || key == "does" {
			continue
		}
		l := Lens{Offset: c.Form.Span().Start, Query: queryFor(c.Head.Name().Name(), c.Head.Arity(), snap.Dialect()), Key: key, Arity: c.Head.Arity()}
		if c.Form.HasErrors() {
			l.NotEvaluated = syntaxReason(snap, c)
		}
		lenses = append(lenses, l)
	}
	return lenses
}

// syntaxReason says that a clause has a syntax error, and where.
func syntaxReason(snap *Snapshot, c *analysis.Clause) string {
	return fmt.Sprintf("a syntax error in its clause on line %d", snap.Line(c.Form.Span().Start)+1)
}

// LensTitle is the title of a lens: its relation's count in the document's current state,
// evaluated within budget: "legal: 10 answers", "terminal: false", "legal: evaluating…" (the
// evaluation goes on, and the features are refreshed when it is done), "legal: not counted (over
// 1s)"; and when the relation cannot be evaluated, why: "p: not evaluated: unsafe variable ?x
// [unsafe-variable]", "next: not evaluated: depends on does, and the state is terminal".
func LensTitle(ctx context.Context, l Lens, ev Evaluation, budget time.Duration) string {
	if l.NotEvaluated != "" {
		return l.Key + ": not evaluated: " + l.NotEvaluated
	}
	timeout := min(ev.Timeout(), LensEvalLimit)
	wait := Wait{Budget: max(budget, 0), Refresh: true, Timeout: timeout}
	qa, err := ev.Answers(ctx, l.Query, wait)
	notCounted := fmt.Sprintf("%s: not counted (over %v)", l.Key, timeout)
	switch {
	case errors.Is(err, ErrStillRunning):
		return l.Key + ": evaluating…"
	case errors.Is(err, context.DeadlineExceeded):
		return notCounted
	case err != nil:
		return l.Key + ": not evaluated: " + reason(err, ev)
	case qa.NeedsMove && len(qa.ByMove) == 0 && errors.Is(qa.Stopped, context.DeadlineExceeded):
		return notCounted
	case qa.NeedsMove && qa.JointMoves == 0:
		why := "no joint move is legal in this state"
		if t, err := ev.Answers(ctx, "terminal", wait); err == nil && t.Count > 0 {
			why = "the state is terminal"
		}
		return l.Key + ": not evaluated: depends on does, and " + why
	case qa.NeedsMove && len(qa.ByMove) == 0 && qa.Stopped != nil:
		return l.Key + ": not evaluated: " + reason(qa.Stopped, ev)
	case qa.NeedsMove && len(qa.ByMove) > 0 && allFailed(qa.ByMove):
		return l.Key + ": not evaluated: " + reason(qa.ByMove[0].Err, ev)
	}
	return lensCount(l, qa)
}

// allFailed reports whether the evaluation failed after every joint move.
func allFailed(ms []MoveAnswers) bool {
	for _, m := range ms {
		if m.Err == nil {
			return false
		}
	}
	return true
}

// reason words why an evaluation failed, briefly enough for a lens title: a refusal names the
// diagnostic (its message up to the explanation, and its code), another error its first clause.
func reason(err error, ev Evaluation) string {
	var refused *eval.RefusedError
	if errors.As(err, &refused) {
		if len(refused.Diagnostics) == 0 {
			return refused.Relation + " has no defined meaning"
		}
		d := refused.Diagnostics[0]
		out := fmt.Sprintf("%s [%s]", shorten(firstClause(d.Message), 80), d.Code)
		if n := len(refused.Diagnostics) - 1; n > 0 {
			out += fmt.Sprintf(" and %s", plural(n, "more problem"))
		}
		return out
	}
	return shorten(firstClause(ev.Explain(err)), 100)
}

// firstClause cuts a message at its first explanation (": ") or sentence, outside quotes.
func firstClause(msg string) string {
	quoted := false
	for i := 0; i < len(msg); i++ {
		switch c := msg[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case (c == ':' || c == ';') && i+1 < len(msg) && msg[i+1] == ' ':
			return msg[:i]
		}
	}
	return msg
}

// lensCount words a relation's answers: "legal: 10 answers", "terminal: false"; for a relation
// about a joint move (next, sees, ...), the answers after the legal joint moves of the state:
// "next: 10 answers after (mark 1 1) noop", "next: 9–10 answers after each of 9 joint moves".
func lensCount(l Lens, qa *Answers) string {
	if !qa.NeedsMove {
		if l.Arity == 0 {
			return fmt.Sprintf("%s: %v", l.Key, qa.Count > 0)
		}
		return fmt.Sprintf("%s: %s", l.Key, countText(qa.Count, qa.More, "answer"))
	}
	n := len(qa.ByMove)
	if n == 0 {
		return l.Key + ": not counted"
	}
	lo, hi, holds := -1, 0, 0
	for _, m := range qa.ByMove {
		k := m.Count
		if lo < 0 || k < lo {
			lo = k
		}
		hi = max(hi, k)
		if k > 0 {
			holds++
		}
	}
	moves := fmt.Sprintf("each of %d joint moves", n)
	switch {
	case qa.JointMoves == 1:
		moves = strings.Join(qa.ByMove[0].Move, " ")
	case n < qa.JointMoves:
		moves = fmt.Sprintf("each of the first %d of %d joint moves", n, qa.JointMoves)
	}
	if l.Arity == 0 {
		if qa.JointMoves == 1 {
			return fmt.Sprintf("%s: %v after %s", l.Key, holds > 0, moves)
		}
		return fmt.Sprintf("%s: true after %d of %d joint moves", l.Key, holds, n)
	}
	count := plural(lo, "answer")
	if lo != hi {
		count = fmt.Sprintf("%d–%d answers", lo, hi)
	}
	return fmt.Sprintf("%s: %s after %s", l.Key, count, moves)
}
