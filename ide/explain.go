package ide

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/internal/markdown"
	"github.com/gdl-lsp/gdl/syntax"
)

// Explanations in the editor: why a literal holds or does not hold in the document's current
// state (package explain), asked from a code action on any literal ("Explain in the current
// state"), from the "Why?" of an evaluated hover, and from the game view (a move that is not
// legal, a cell, terminal, a goal). The result carries the explanation as Markdown with links to
// the rules, as text, and as the tree itself.

// ExplainTarget is a literal of a document that can be explained in its current state.
type ExplainTarget struct {
	Span    syntax.Span
	Literal string // its text without comments, in the document's notation
}

// LiteralAt returns the innermost literal of a complete clause at off: the head, a body literal,
// or a literal inside `not` or `or`; false when off is in none (a `distinct` or a negation with
// variables cannot be asked alone: the atom inside a negation can).
func LiteralAt(snap *Snapshot, off int) (ExplainTarget, bool) {
	c := snap.Model().ClauseAt(off)
	if c == nil || c.Form.HasErrors() {
		return ExplainTarget{}, false
	}
	var found syntax.Literal
	ok := false
	in := func(sp syntax.Span) bool { return sp.Start <= off && off <= sp.End }
	if in(c.Head.Span()) {
		found, ok = syntax.Literal{Cursor: c.Head.Cursor}, true
	}
	stack := append([]syntax.Literal(nil), c.Body...)
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !in(l.Span()) {
			continue
		}
		switch l.Kind() {
		case syntax.LitAtom:
			found, ok = l, true
		case syntax.LitNot, syntax.LitOr, syntax.LitDistinct:
			if len(varsOfLiteral(l)) == 0 {
				found, ok = l, true
			}
			if l.Kind() != syntax.LitDistinct {
				stack = append(stack, l.Operands()...)
			}
		}
	}
	if !ok {
		return ExplainTarget{}, false
	}
	return ExplainTarget{Span: found.Span(), Literal: plainText(found.Cursor)}, true
}

// varsOfLiteral lists the variable tokens of a literal.
func varsOfLiteral(l syntax.Literal) []string {
	var out []string
	stack := []syntax.Cursor{l.Cursor}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c.Kind() == syntax.Variable {
			out = append(out, c.Text())
		}
		stack = append(stack, c.Children()...)
	}
	return out
}

// plainText writes c's text with each run of whitespace and comments as one space, so that a
// literal written over several lines with comments reads as one line.
func plainText(c syntax.Cursor) string {
	var b strings.Builder
	space := false
	stack := []syntax.Cursor{c}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids := n.Children()
		if len(kids) > 0 {
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, kids[i])
			}
			continue
		}
		if n.Kind().IsTrivia() {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(n.Text())
	}
	return b.String()
}

// ExplainAction is the code action that explains a literal in the current state.
type ExplainAction struct {
	Title   string
	Literal string
}

// ExplainActions returns the "Explain in the current state" action of the literal at start.
func ExplainActions(snap *Snapshot, start int) []ExplainAction {
	t, ok := LiteralAt(snap, start)
	if !ok {
		return []ExplainAction{}
	}
	return []ExplainAction{{Title: "Explain " + shorten(t.Literal, 60) + " in the current state", Literal: t.Literal}}
}

// ExplainOptions shape Session.ExplainLiteral.
type ExplainOptions struct {
	// Joint is the joint move (one move per role, in the document's notation) that a literal
	// about a joint move is explained for; nil: the first legal one.
	Joint []string
	// Depth bounds the levels explained (0: explain's defaults).
	Depth int
	// Link gives the target of a link to a rule of the document (its 1-based line and
	// column), for the Markdown; nil: no links.
	Link func(line, column int) string
}

// ExplainResult is why a literal holds or does not hold in the document's current state.
type ExplainResult struct {
	Literal  string
	Holds    bool
	Step     int      // the joint moves played to reach the state
	Joint    []string // the joint move explained for (a literal about a joint move), one move per role
	Markdown string   // the explanation, rules linked
	Text     string   // the explanation as an indented tree, rules as "line N"
	Tree     *explain.Explanation
	Error    string // why there is no explanation

	header string // the Markdown's first paragraph: which state, which joint move
}

// MarkdownWith writes the explanation as Markdown with the rules linked by link (as
// ExplainOptions.Link), for a result made without links.
func (r *ExplainResult) MarkdownWith(link func(line, column int) string) string {
	if r.Tree == nil {
		return r.Markdown
	}
	return r.header + r.Tree.Markdown(func(ru *explain.Rule) string { return link(ru.Line, ru.Column) })
}

// ExplainLiteral explains a literal (one, in the document's notation) in the document's current
// state, under the full limits, as RunQuery answers a query.
func (s *Session) ExplainLiteral(ctx context.Context, literal string, opts ExplainOptions) *ExplainResult {
	c := s.game()
	pos, err := c.replay(ctx, s.History())
	if err != nil {
		return &ExplainResult{Literal: literal, Error: c.explain(s.snap, err)}
	}
	var joint []eval.Term
	if opts.Joint != nil {
		if joint, err = c.g.ParseMoves(opts.Joint); err != nil {
			return &ExplainResult{Literal: literal, Error: c.explain(s.snap, err)}
		}
	}
	return s.explainIn(ctx, c, pos, joint, literal, "In the "+stateName(len(pos.Played)), opts)
}

// ExplainFluent explains why a fluent holds in the document's current state: by the init rule
// or fact that gives it in the initial state, else by the next rule that gave it when the last
// joint move was played. A fluent that does not hold gets the why-not of (init fluent) in the
// initial state, else of (next fluent) for the last joint move.
func (s *Session) ExplainFluent(ctx context.Context, fluent string, opts ExplainOptions) *ExplainResult {
	c := s.game()
	d := s.snap.Dialect()
	history := s.History()
	pos, err := c.replay(ctx, history)
	if err != nil {
		return &ExplainResult{Literal: fluent, Error: c.explain(s.snap, err)}
	}
	t, err := c.g.ParseTerm(fluent)
	if err != nil {
		return &ExplainResult{Literal: fluent, Error: err.Error()}
	}
	step := len(pos.Played)
	holds := slices.Contains(pos.state.Fluents(), t)
	if step == 0 {
		where := "In the initial state, the fluent comes from init"
		if !holds {
			where = "In the initial state, no init gives the fluent"
		}
		return s.explainIn(ctx, c, pos, nil, d.Atom("init", fluent), where, opts)
	}
	prev, err := c.replay(ctx, pos.Played[:step-1])
	if err != nil {
		return &ExplainResult{Literal: fluent, Error: c.explain(s.snap, err)}
	}
	last, err := c.g.ParseMoves(pos.Played[step-1])
	if err != nil {
		return &ExplainResult{Literal: fluent, Error: c.explain(s.snap, err)}
	}
	where := fmt.Sprintf("The fluent comes from next when joint move %d was played", step)
	if !holds {
		where = fmt.Sprintf("No next gave the fluent when joint move %d was played", step)
	}
	res := s.explainIn(ctx, c, prev, last, d.Atom("next", fluent), where, opts)
	res.Step = step
	return res
}

// explainIn explains literal in pos's state (with joint for a literal about a joint move; nil:
// the first legal one), where saying in words which state that is.
func (s *Session) explainIn(ctx context.Context, c *docGame, pos *Position, joint []eval.Term, literal, where string, opts ExplainOptions) *ExplainResult {
	res := &ExplainResult{Literal: literal, Step: len(pos.Played)}
	fail := func(err error) *ExplainResult {
		res.Error = c.explain(s.snap, err)
		return res
	}
	xo := explain.Options{Depth: opts.Depth}
	if a := s.snap.Analysis(); a != nil {
		xo.Text = a
	}
	given := joint != nil
	x, err := c.g.Explain(ctx, pos.state, joint, literal, xo)
	if errors.Is(err, explain.ErrNeedsMove) {
		moves, _, jerr := c.g.JointMoves(ctx, pos.state, 1)
		if jerr != nil {
			return fail(jerr)
		}
		if len(moves) == 0 {
			return fail(fmt.Errorf("%s is about a joint move, and the state has none (it is terminal or a role has no legal move)", literal))
		}
		joint = moves[0]
		x, err = c.g.Explain(ctx, pos.state, joint, literal, xo)
	}
	if err != nil {
		return fail(err)
	}
	if joint != nil {
		res.Joint = c.moveTexts(joint)
	}
	res.Holds, res.Tree, res.Text = x.Holds, x, x.Text("")
	var link func(r *explain.Rule) string
	if opts.Link != nil {
		link = func(r *explain.Rule) string { return opts.Link(r.Line, r.Column) }
	}
	var b strings.Builder
	b.WriteString(where)
	if joint != nil {
		fmt.Fprintf(&b, ", for the joint move %s", markdown.Code(c.g.FormatJoint(joint)))
		if !given {
			b.WriteString(" (the first legal one)")
		}
	}
	b.WriteString(":\n\n")
	res.header = b.String()
	res.Markdown = res.header + x.Markdown(link)
	return res
}
