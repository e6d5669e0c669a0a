package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Inlay hints show evaluated results where they are defined: after each init fact whether it
// holds in the current state, and after each legal rule or fact the moves it contributes there
// (a fact contributes its one move in every state; the hint still says which move and role).
func handleInlayHint(ctx context.Context, r *request) (any, error) {
	var p inlayHintParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	hints := []inlayHint{}
	if !r.view.settings.InlayHints.Enable {
		return hints, nil
	}
	from, to := snap.m.offset(p.Range.Start), snap.m.offset(p.Range.End)
	limits := r.view.settingsFor(snap.URI).Eval
	history := r.s.games.history(snap.URI)
	cg := r.s.gameOf(snap)
	// The hints of a range share one budget; those whose evaluation is still running are left
	// out and the client is asked to refresh when it is done.
	deadline := time.Now().Add(lensBudget)
	pres := cg.position(history, limits)
	pv, err := pres.wait(ctx, time.Until(deadline))
	if err != nil {
		if errors.Is(err, errStillRunning) {
			r.s.refreshWhenDone(pres)
		}
		return hints, nil
	}
	pos := pv.(*position)
	state := map[string]bool{}
	for _, f := range pos.fluents {
		state[strings.ToLower(f)] = true
	}
	for _, c := range snap.Model().Clauses {
		span := c.Form.Span()
		if span.End < from || span.Start > to {
			continue
		}
		var label, tip string
		switch c.Key() {
		case "init":
			if c.IsRule || c.Head.Arity() != 1 {
				continue
			}
			fluent := analysis.TermKey(c.Head.Args()[0].Cursor)
			if state[fluent] {
				label, tip = "✓ holds", "This fluent holds in the current state."
			} else {
				label, tip = "✗ not now", "This fluent does not hold in the current state (moves were played)."
			}
		case "legal":
			if c.Head.Arity() != 2 {
				continue
			}
			res := cg.answers(history, limits, headQuery(c.Head), urgent)
			val, err := res.wait(ctx, time.Until(deadline))
			if errors.Is(err, errStillRunning) {
				r.s.refreshWhenDone(res)
			}
			if err != nil {
				continue
			}
			qa := val.(*queryAnswers)
			answers := qa.answers
			label = "→ " + plural(qa.count, "move")
			if len(answers) > 0 {
				label += ": " + summarize(moves(answers), 3)
			}
			tip = strings.Join(answers, "\n")
		default:
			continue
		}
		hints = append(hints, inlayHint{Position: snap.m.position(span.End), Label: label, Tooltip: tip, PaddingLeft: true})
	}
	return hints, nil
}

// headQuery asks for the facts a rule head can produce: the head itself, variables and all.
func headQuery(a syntax.Atom) string { return a.Text() }

// moves extracts the move of each (legal role move) answer.
func moves(answers []string) []string {
	out := make([]string, len(answers))
	for i, a := range answers {
		f, _ := syntax.Parse(a)
		out[i] = a
		if fs := f.Forms(); len(fs) == 1 {
			if args := fs[0].Fact().Args(); len(args) == 2 {
				out[i] = fmt.Sprint(args[1].Text())
			}
		}
	}
	return out
}
