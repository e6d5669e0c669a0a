package ide

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/syntax"
)

// stepDocs says what each step of a test does, for hovers and completion.
var stepDocs = map[string]string{
	"test":        "`(test NAME STEP...)`: a test: its steps run in order from the initial state.",
	"game":        "`(game PATH)`: the game under test, its path relative to this file.",
	"play":        "`(play M1 ... Mn)`: play one joint move, one move per role in the order of the role facts.",
	"state":       "`(state F1 ... Fn)`: the state is now exactly these fluents.",
	"holds":       "`(holds L1 ... Ln)`: the literals have an answer in the state (variables are existential); `(not (holds ...))`: they have none.",
	"terminal":    "`terminal`: the state is terminal; `(not terminal)`: it is not.",
	"goal":        "`(goal ROLE V)`: ROLE's goal value is exactly V.",
	"legal-moves": "`(legal-moves ROLE M...)`: ROLE's legal moves are exactly these.",
	"illegal":     "`(illegal M1 ... Mn)`: this joint move cannot be played here.",
	"can-force":   "`(can-force ROLE V N)`: ROLE can force a goal of at least V within N joint moves, whatever the others play.",
	"ends-within": "`(ends-within N)`: every continuation reaches a terminal state within N joint moves.",
	"not":         "`(not E)`: negates `holds`, `terminal`, `can-force` or `ends-within`.",
}

// TestHoverOptions shape a hover of a test document.
type TestHoverOptions struct {
	Markdown bool
	Runs     *TestRuns
	Name     string        // the document's name for Runs (its last results)
	Limits   eval.Limits   // each evaluation's
	Budget   time.Duration // how long the hover waits for the game and the state (0: DefaultHoverBudget*3)
}

// TestHover describes what is at off in a test document: a step keyword (what it does), a test's
// name (its last result), a name of the game (the game's hover of it), and, in a step, the
// state the step is checked in (its fluents, legal moves or goals).
func TestHover(ctx context.Context, d *TestDoc, off int, opts TestHoverOptions) *HoverText {
	f := d.Snap.File()
	leaf, path := f.LeafAt(off)
	if !leaf.Valid() || leaf.Kind() != syntax.Word && leaf.Kind() != syntax.Variable {
		return nil
	}
	b := &markup{md: opts.Markdown}
	s := d.Suite()
	t, k := s.StepAt(off)
	key := leaf.Symbol().Key()
	isHead := len(path) > 0 && path[len(path)-1].Head().Valid() && path[len(path)-1].Head().Span() == leaf.Span()
	switch {
	case t != nil && leaf.Span() == t.NameSpan:
		b.para("%s %s", b.bold("test"), b.code(t.Name))
		if strings.TrimSpace(t.Doc) != "" {
			b.para("%s", t.Doc)
		}
		b.para("%s", plural(len(t.Steps), "step"))
		if opts.Runs != nil {
			if r, ok := opts.Runs.Last(opts.Name, d, t.Name); ok {
				b.rule()
				b.para("%s", resultText(b, r))
			}
		}
	case stepDocs[key] != "" && (isHead || key == "terminal") && (len(path) <= 2 || key == "terminal"):
		b.para("%s", b.ours(stepDocs[key]))
	default:
		if g := gameHover(ctx, d, leaf, path, isHead, opts.Markdown); g != nil {
			b.para("%s", g.Text)
		}
	}
	if t != nil && k >= 0 && opts.Runs != nil {
		budget := opts.Budget
		if budget <= 0 {
			budget = 3 * DefaultHoverBudget
		}
		wctx, cancel := context.WithTimeout(ctx, budget)
		g, p, err := opts.Runs.StateAt(wctx, d, t, k, opts.Limits)
		cancel()
		b.rule()
		switch {
		case err != nil && wctx.Err() != nil:
			b.para("The state of this step is still being computed.")
		case err != nil:
			b.para("This step is not reached: %s", err.Error())
		default:
			where := "the initial state"
			if p.FromState {
				where = "the state written"
			}
			if len(p.Moves) > 0 {
				where = fmt.Sprintf("%s, after %s", where, plural(len(p.Moves), "joint move"))
			}
			b.para("Checked in %s:", where)
			b.para("%s", b.block(strings.TrimSpace(gametest.DescribeState(ctx, g, p.State, nil))))
		}
	}
	if len(b.blocks) == 0 {
		return nil
	}
	return &HoverText{Span: leaf.Span(), Markdown: opts.Markdown, Text: b.String()}
}

// resultText writes a test's last result.
func resultText(b *markup, r gametest.Result) string {
	if r.Status == gametest.Passed {
		return fmt.Sprintf("Last run: passed (%s).", r.Elapsed.Round(time.Microsecond))
	}
	lines := []string{fmt.Sprintf("Last run: %s.", r.Status)}
	for _, f := range r.Failures {
		msg := f.Message()
		if f.Step > 0 {
			msg = fmt.Sprintf("step %d, %s: %s", f.Step, b.code(oneLine(f.Text)), msg)
		}
		lines = append(lines, "- "+msg)
	}
	return strings.Join(lines, "\n")
}

// block marks lines as a block of text shown as written.
func (m *markup) block(s string) string {
	if m.md {
		return "```text\n" + s + "\n```"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// gameHover is the game's hover of the name leaf spells, at its first definition in the game
// (a relation's head, a role's fact), else at its first occurrence.
func gameHover(ctx context.Context, d *TestDoc, leaf syntax.Cursor, path []syntax.Cursor, isHead bool, md bool) *HoverText {
	if d.Game == nil {
		return nil
	}
	spans := gameDefinitions(d, leaf, path, isHead)
	if len(spans) == 0 {
		return nil
	}
	return Hover(ctx, d.Game, spans[0].Start, HoverOptions{Markdown: md})
}
