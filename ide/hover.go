package ide

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/internal/markdown"
	"github.com/gdl-lsp/gdl/syntax"
)

// HoverOptions shape a hover.
type HoverOptions struct {
	// Markdown writes the hover in Markdown; else in plain text, without markup characters.
	Markdown bool
	// Eval, when set, adds the answers in the document's current state to the hover of an
	// evaluated relation (EvaluatedInHover).
	Eval Evaluation
	// Budget bounds the wait for those answers (0: DefaultHoverBudget).
	Budget time.Duration
	// Why, when set, gives the target of a link that explains a literal in the current state
	// (Session.ExplainLiteral, through the server's command): the answers then link to why they
	// hold, and no answers to why not. Nil, or plain text: no links.
	Why func(literal string) string
}

// HoverText is what a hover shows: text about the symbol at Span.
type HoverText struct {
	Span     syntax.Span
	Markdown bool
	Text     string
}

// DefaultHoverBudget bounds how long a hover waits for its evaluation. A hover must come at once;
// an evaluation that takes longer (the first legal of chess after its rules changed) goes on in
// the background, and the hover says so: the next one shows the answers.
const DefaultHoverBudget = 100 * time.Millisecond

// EvaluatedInHover lists the relations whose hover shows their answers in the current state.
var EvaluatedInHover = map[string]bool{"init": true, "legal": true, "goal": true, "terminal": true, "role": true}

// Hover describes the symbol at off, or returns nil when there is nothing to say.
func Hover(ctx context.Context, snap *Snapshot, off int, opts HoverOptions) *HoverText {
	if st := snap.syntaxStage(); st != nil {
		return st.hover(off, opts)
	}
	m := snap.Model()
	o := occurrenceAt(snap, off)
	if o == nil {
		return nil
	}
	b := &markup{md: opts.Markdown}
	switch {
	case o.Kind == analysis.OccKeyword:
		hoverKeyword(b, o.Key, snap.Dialect())
	case o.Kind == analysis.OccRelation:
		hoverRelation(b, snap, o)
		if opts.Eval != nil && EvaluatedInHover[o.Key] {
			budget := opts.Budget
			if budget <= 0 {
				budget = DefaultHoverBudget
			}
			why := opts.Why
			if !opts.Markdown {
				why = nil
			}
			hoverAnswers(ctx, b, opts.Eval, queryFor(m.Spelling(o), int(o.Arity), snap.Dialect()), int(o.Arity), budget, why)
		}
	case o.Kind == analysis.OccVariable:
		hoverVariable(b, m, snap.Line, o)
	case o.Kind == analysis.OccFunction:
		sym := m.Functions[o.Key]
		b.para("%s %s", b.bold("function"), b.code(fmt.Sprintf("%s/%d", sym.Name(m), o.Arity)))
		b.para("%s", plural(len(sym.Occs), "occurrence"))
	case o.Kind == analysis.OccConstant:
		sym := m.Constants[o.Key]
		if m.IsRole(o.Key) {
			for i, r := range m.Roles {
				if r.Key == o.Key {
					b.para("%s %s (player %d of %d, declared on line %d)", b.bold("role"), b.code(r.Name), i+1, len(m.Roles), snap.Line(r.Span.Start)+1)
					break
				}
			}
			b.para("%s", b.ours(keywordDoc(o.Key, snap.Dialect())))
		} else {
			b.para("%s %s", b.bold("constant"), b.code(sym.Name(m)))
			b.para("%s", plural(len(sym.Occs), "occurrence"))
		}
	}
	if len(b.blocks) == 0 {
		return nil
	}
	return &HoverText{Span: o.Span, Markdown: opts.Markdown, Text: b.String()}
}

// markup composes hover text as blocks (paragraphs, lists, documentation) in Markdown or, for a
// client that shows plain text only, without markup characters. Blocks are separated by exactly
// one blank line, and a section rule is a block of its own, written only between two blocks.
// Both matter: "---" right under a line of text makes that line a heading, and Neovim 0.7's hover
// window (vim.lsp.util.stylize_markdown) fails on two blank lines before a "---": it drops them,
// remembering their line numbers, and at the end looks at every line number it remembers
// (util.lua:1198); when fewer lines follow than it dropped, one of them no longer exists ("attempt
// to index a nil value"). One dropped blank line is always replaced by the "---" itself.
type markup struct {
	md     bool
	blocks []string
	ruled  bool // a rule goes before the next block
}

// para adds a block; blank lines at its ends are dropped and runs of blank lines inside it (in a
// user's doc comment) are reduced to one, which Markdown renders the same.
func (m *markup) para(format string, args ...any) {
	var lines []string
	blank := true // drops blank lines at the start
	for _, l := range strings.Split(fmt.Sprintf(format, args...), "\n") {
		if strings.TrimSpace(l) == "" {
			if !blank {
				lines = append(lines, "")
			}
			blank = true
			continue
		}
		lines = append(lines, l)
		blank = false
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return
	}
	if m.ruled && m.md && len(m.blocks) > 0 {
		m.blocks = append(m.blocks, "---")
	}
	m.ruled = false
	m.blocks = append(m.blocks, strings.Join(lines, "\n"))
}

// rule starts a section: the next block comes after a horizontal line (in plain text, after the
// blank line that separates every block).
func (m *markup) rule() { m.ruled = true }

func (m *markup) String() string { return strings.Join(m.blocks, "\n\n") }

// code marks s as code.
func (m *markup) code(s string) string {
	if m.md {
		return markdown.Code(s)
	}
	return s
}

// text writes s (a message, which may name anything of the game) as text.
func (m *markup) text(s string) string {
	if m.md {
		return markdown.Text(s)
	}
	return s
}

// bold marks s as strong.
func (m *markup) bold(s string) string {
	if m.md {
		return "**" + markdown.Text(s) + "**"
	}
	return s
}

// ours converts one of our own Markdown texts (keyword documentation, which marks code with
// backticks only) for the client. Users' doc comments are shown as written, but for runs of
// blank lines (see para).
func (m *markup) ours(s string) string {
	if m.md {
		return s
	}
	return strings.ReplaceAll(s, "`", "")
}

func hoverRelation(b *markup, snap *Snapshot, o *analysis.Occurrence) {
	m := snap.Model()
	sym := m.Relations[o.Key]
	defs := m.Definitions(o.Key)
	hoverRelationName(b, sym.Name(m), o, snap.Dialect())
	if sym.ArityCount() > 1 {
		var as []string
		for a := range sym.Arities() {
			as = append(as, fmt.Sprint(a))
		}
		sort.Strings(as)
		b.para("Used with several arities: %s.", strings.Join(as, ", "))
	}
	forms := make([]definingForm, len(defs))
	for i, c := range defs {
		forms[i] = definingForm{c.Form, c.IsRule}
	}
	hoverDefinitions(b, snap, o.Key, forms)
}

// hoverKeyword describes a keyword.
func hoverKeyword(b *markup, key string, d syntax.Dialect) {
	b.para("%s (keyword)", b.bold(key))
	b.para("%s", b.ours(keywordDoc(key, d)))
}

// hoverRelationName names the relation o names, spelt name, with its arity there.
func hoverRelationName(b *markup, name string, o *analysis.Occurrence, d syntax.Dialect) {
	kind := "relation"
	if analysis.IsKeyword(o.Key) {
		kind = "keyword relation"
	}
	b.para("%s %s", b.bold(kind), b.code(fmt.Sprintf("%s/%d", name, o.Arity)))
	b.para("%s", b.ours(keywordDoc(o.Key, d)))
}

// definingForm is a form whose head defines a relation, and whether it is a rule.
type definingForm struct {
	form syntax.Form
	rule bool
}

// hoverDefinitions says how relation key is defined (by the forms defs) and the first doc
// comment among them.
func hoverDefinitions(b *markup, snap *Snapshot, key string, defs []definingForm) {
	rules := 0
	for _, d := range defs {
		if d.rule {
			rules++
		}
	}
	switch {
	case len(defs) == 0 && !analysis.IsKeyword(key):
		b.para("Never defined: no rule or fact has it in its head.")
	case len(defs) > 0:
		var lines []string
		for i, d := range defs {
			if i == 8 {
				lines = append(lines, "...")
				break
			}
			lines = append(lines, fmt.Sprint(snap.Line(d.form.Span().Start)+1))
		}
		b.para("%s, %s; defined on line %s.", plural(rules, "rule"), plural(len(defs)-rules, "fact"), strings.Join(lines, ", "))
	}
	for _, d := range defs {
		if doc := d.form.Doc(); strings.TrimSpace(doc) != "" {
			b.rule()
			b.para("%s", doc)
			break
		}
	}
}

func hoverVariable(b *markup, m *analysis.Model, lineOf func(off int) int, o *analysis.Occurrence) {
	bind := bindingOccurrence(m, o)
	c := m.Clauses[o.Clause]
	b.para("%s %s", b.bold("variable"), b.code(o.Name))
	where := "bound"
	if bind.Def || bind.Negated || bind.Relation == "distinct" {
		where = "first occurs (never bound by a positive literal)"
	}
	line := lineOf(bind.Span.Start) + 1
	if lit := enclosingAtomText(c, bind); lit != "" {
		b.para("%s on line %d in %s", where, line, b.code(lit))
	} else {
		b.para("%s on line %d", where, line)
	}
	b.para("%s in this rule", plural(len(c.Vars[o.Key]), "occurrence"))
}

// enclosingAtomText returns the text of the head or body literal of c that contains o, on one
// line and shortened.
func enclosingAtomText(c *analysis.Clause, o *analysis.Occurrence) string {
	parts := append([]interface{ Text() string }{}, c.Head)
	spans := []struct{ s, e int }{{c.Head.Span().Start, c.Head.Span().End}}
	for _, l := range c.Body {
		parts = append(parts, l)
		spans = append(spans, struct{ s, e int }{l.Span().Start, l.Span().End})
	}
	for i, sp := range spans {
		if sp.s <= o.Span.Start && o.Span.End <= sp.e {
			return shorten(strings.Join(strings.Fields(parts[i].Text()), " "), 80)
		}
	}
	return ""
}

// hoverAnswers appends the answers of a relation's query in the document's current state,
// truncated.
func hoverAnswers(ctx context.Context, b *markup, ev Evaluation, query string, arity int, budget time.Duration, why func(string) string) {
	qa, err := ev.Answers(ctx, query, Wait{Budget: budget, Urgent: true})
	link := func(title, literal string) string {
		if why == nil {
			return ""
		}
		return fmt.Sprintf(" [%s](%s)", title, why(literal))
	}
	b.rule()
	switch {
	case errors.Is(err, ErrStillRunning):
		b.para("Evaluating in the %s… (still running; hover again for the answers)", stateName(len(ev.History())))
	case err != nil:
		b.para("Not evaluated: %s", b.text(ev.Explain(err)))
	case arity == 0:
		b.para("In the %s: %s%s", stateName(qa.Played), b.bold(fmt.Sprint(qa.Count > 0)), link(map[bool]string{true: "Why?", false: "Why not?"}[qa.Count > 0], query))
	case qa.Count == 0:
		b.para("In the %s, no answers.%s", stateName(qa.Played), link("Why not?", query))
	default:
		which := ""
		if qa.More {
			which = " (the first derived)"
		}
		b.para("In the %s, %s%s:", stateName(qa.Played), countText(qa.Count, qa.More, "answer"), which)
		var list []string
		for i, a := range qa.Answers {
			if i == 12 {
				more := ""
				if qa.More {
					more = "+"
				}
				list = append(list, fmt.Sprintf("- … and %d%s more", qa.Count-12, more))
				break
			}
			list = append(list, "- "+b.code(a)+link("why?", a))
		}
		b.para("%s", strings.Join(list, "\n"))
	}
}

// stateName names the state reached after played joint moves.
func stateName(played int) string {
	if played == 0 {
		return "initial state"
	}
	return fmt.Sprintf("current state (after %s)", plural(played, "joint move"))
}

// queryFor builds the query that asks for every fact of a relation, given its name as the model
// spells it (without infix quotes), in notation d: (name ?a1 ... ?an), or name(A1,...,An).
func queryFor(name string, arity int, d syntax.Dialect) string {
	vars := make([]string, arity)
	for i := range vars {
		vars[i], _ = d.Var("?a" + strconv.Itoa(i+1)) // not fmt: a code lens per relation, on every edit
	}
	return d.Atom(written(d, name), vars...)
}

// hover is Hover from the syntax stage: a keyword and a variable as always (they need their
// clause only); a relation with the heads that define it; a function term, a constant or a role
// by name; and, for all but the first two, that the file is being analysed: no uses, arities,
// answers or doc of what the analysis finds yet.
func (st *syntaxStage) hover(off int, opts HoverOptions) *HoverText {
	c := st.chunkAt(off)
	o := c.occurrenceAt(off)
	if o == nil {
		return nil
	}
	b := &markup{md: opts.Markdown}
	d := st.snap.Dialect()
	switch o.Kind {
	case analysis.OccKeyword:
		hoverKeyword(b, o.Key, d)
	case analysis.OccVariable:
		hoverVariable(b, c.snap.prepared, func(off int) int { return st.snap.Line(off + c.start) }, o)
	case analysis.OccRelation:
		hoverRelationName(b, o.Name, o, d)
		forms := st.defining(o.Key)
		defs := make([]definingForm, len(forms))
		for i, f := range forms {
			fm := st.form(f)
			defs[i] = definingForm{fm, fm.IsRule()}
		}
		hoverDefinitions(b, st.snap, o.Key, defs)
	case analysis.OccFunction:
		b.para("%s %s", b.bold("function"), b.code(fmt.Sprintf("%s/%d", o.Name, o.Arity)))
	case analysis.OccConstant:
		if sp, ok := st.isRole(o.Key); ok {
			b.para("%s %s (declared on line %d)", b.bold("role"), b.code(o.Name), st.snap.Line(sp.Start)+1)
			b.para("%s", b.ours(keywordDoc(o.Key, d)))
		} else {
			b.para("%s %s", b.bold("constant"), b.code(o.Name))
		}
	}
	if o.Kind != analysis.OccKeyword && o.Kind != analysis.OccVariable {
		b.rule()
		b.para("%s", b.ours(analysing))
	}
	return &HoverText{Span: c.span(o.Span), Markdown: opts.Markdown, Text: b.String()}
}
