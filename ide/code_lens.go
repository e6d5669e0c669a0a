package ide

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Code lenses: one "run query" lens above each contiguous group of clauses of a relation (a
// relation defined in two places gets a lens at each). CodeLenses only lists them, from the
// syntax and the analysis; the title with its live count, which needs evaluation, is LensTitle.

// Lens is the lens of a group of clauses of a relation: it runs the relation's query.
type Lens struct {
	Offset int    // the start of the group's first clause
	Query  string // the query that asks for every fact of the relation
	Key    string // the relation
	Arity  int
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
			continue // the same group
		}
		prev = key
		if key == "true" || key == "does" {
			continue
		}
		lenses = append(lenses, Lens{Offset: c.Form.Span().Start, Query: queryFor(c.Head.Name().Name(), c.Head.Arity()),
			Key: key, Arity: c.Head.Arity()})
	}
	return lenses
}

// LensTitle is the title of a lens: its relation's count in the document's current state,
// evaluated within budget: "legal: 10 answers", "terminal: false", "legal: evaluating…" (the
// evaluation goes on, and the features are refreshed when it is done), "legal: not counted (over
// 1s)", "legal: run query".
func LensTitle(ctx context.Context, l Lens, ev Evaluation, budget time.Duration) string {
	timeout := min(ev.Timeout(), LensEvalLimit)
	qa, err := ev.Answers(ctx, l.Query, Wait{Budget: max(budget, 0), Refresh: true, Timeout: timeout})
	notCounted := fmt.Sprintf("%s: not counted (over %v)", l.Key, timeout)
	switch {
	case errors.Is(err, ErrStillRunning):
		return l.Key + ": evaluating…"
	case errors.Is(err, context.DeadlineExceeded):
		return notCounted
	case err != nil:
		return l.Key + ": run query"
	case qa.NeedsMove && len(qa.ByMove) == 0 && errors.Is(qa.Stopped, context.DeadlineExceeded):
		return notCounted
	}
	return lensCount(l, qa)
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
	if qa.JointMoves == 0 {
		return l.Key + ": no legal joint move here"
	}
	if n == 0 {
		return l.Key + ": run query"
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
