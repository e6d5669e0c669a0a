package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

func handleHover(ctx context.Context, r *request) (any, error) {
	var p protocol.HoverParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	h := hover(ctx, r.s, r.view, snap, snap.m.offset(p.Position), r.s.hoverMarkdown())
	if h == nil {
		return nil, nil
	}
	return h, nil
}

// hoverMarkdown reports whether the client shows hovers in Markdown. Its contentFormat lists the
// formats it takes in order of preference; without the capability we send Markdown, which every
// client we know renders.
func (s *Server) hoverMarkdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	td := s.clientCaps.TextDocument
	if td == nil || td.Hover == nil || len(td.Hover.ContentFormat) == 0 {
		return true
	}
	for _, f := range td.Hover.ContentFormat {
		switch protocol.MarkupKind(f) {
		case protocol.Markdown:
			return true
		case protocol.PlainText:
			return false
		}
	}
	return false
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
		return "`" + s + "`"
	}
	return s
}

// bold marks s as strong.
func (m *markup) bold(s string) string {
	if m.md {
		return "**" + s + "**"
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

func (m *markup) kind() protocol.MarkupKind {
	if m.md {
		return protocol.Markdown
	}
	return protocol.PlainText
}

// hover describes the symbol at off, in Markdown when md is set, else in plain text.
func hover(ctx context.Context, s *Server, v *view, snap *Snapshot, off int, md bool) *protocol.Hover {
	m := snap.Model()
	o := occurrenceAt(snap, off)
	if o == nil {
		return nil
	}
	b := &markup{md: md}
	switch {
	case o.Kind == analysis.OccKeyword:
		b.para("%s (keyword)", b.bold(o.Key))
		b.para("%s", b.ours(keywordDocs[o.Key]))
	case o.Kind == analysis.OccRelation:
		hoverRelation(b, snap, o)
		hoverAnswers(ctx, s, v, snap, o, b)
	case o.Kind == analysis.OccVariable:
		hoverVariable(b, snap, o)
	case o.Kind == analysis.OccFunction:
		sym := m.Functions[o.Key]
		b.para("%s %s", b.bold("function"), b.code(fmt.Sprintf("%s/%d", sym.Name(m), o.Arity)))
		b.para("%s", plural(len(sym.Occs), "occurrence"))
	case o.Kind == analysis.OccConstant:
		sym := m.Constants[o.Key]
		if m.IsRole(o.Key) {
			for i, r := range m.Roles {
				if r.Key == o.Key {
					b.para("%s %s (player %d of %d, declared on line %d)", b.bold("role"), b.code(r.Name), i+1, len(m.Roles), snap.m.position(r.Span.Start).Line+1)
					break
				}
			}
			b.para("%s", b.ours(keywordDocs[o.Key]))
		} else {
			b.para("%s %s", b.bold("constant"), b.code(sym.Name(m)))
			b.para("%s", plural(len(sym.Occs), "occurrence"))
		}
	}
	if len(b.blocks) == 0 {
		return nil
	}
	rg := snap.m.span(o.Span)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: b.kind(), Value: b.String()}, Range: &rg}
}

func hoverRelation(b *markup, snap *Snapshot, o *analysis.Occurrence) {
	m := snap.Model()
	sym := m.Relations[o.Key]
	defs := m.Definitions(o.Key)
	rules, facts := 0, 0
	for _, c := range defs {
		if c.IsRule {
			rules++
		} else {
			facts++
		}
	}
	kind := "relation"
	if analysis.IsKeyword(o.Key) {
		kind = "keyword relation"
	}
	b.para("%s %s", b.bold(kind), b.code(fmt.Sprintf("%s/%d", sym.Name(m), o.Arity)))
	b.para("%s", b.ours(keywordDocs[o.Key]))
	if len(sym.Arities) > 1 {
		var as []string
		for a := range sym.Arities {
			as = append(as, fmt.Sprint(a))
		}
		b.para("Used with several arities: %s.", strings.Join(sortedStrings(as), ", "))
	}
	switch {
	case len(defs) == 0 && !analysis.IsKeyword(o.Key):
		b.para("Never defined: no rule or fact has it in its head.")
	case len(defs) > 0:
		var lines []string
		for i, c := range defs {
			if i == 8 {
				lines = append(lines, "...")
				break
			}
			lines = append(lines, fmt.Sprint(snap.m.position(c.Form.Span().Start).Line+1))
		}
		b.para("%s, %s; defined on line %s.", plural(rules, "rule"), plural(facts, "fact"), strings.Join(lines, ", "))
	}
	for _, c := range defs {
		if doc := c.Form.Doc(); strings.TrimSpace(doc) != "" {
			b.rule()
			b.para("%s", doc)
			break
		}
	}
}

func hoverVariable(b *markup, snap *Snapshot, o *analysis.Occurrence) {
	m := snap.Model()
	bind := bindingOccurrence(m, o)
	c := m.Clauses[o.Clause]
	b.para("%s %s", b.bold("variable"), b.code(o.Name))
	where := "bound"
	if bind.Def || bind.Negated || bind.Relation == "distinct" {
		where = "first occurs (never bound by a positive literal)"
	}
	line := snap.m.position(bind.Span.Start).Line + 1
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

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// evaluatedInHover lists the relations whose hover shows their answers in the current state.
var evaluatedInHover = map[string]bool{"init": true, "legal": true, "goal": true, "terminal": true, "role": true}

// hoverBudget bounds how long a hover waits for its evaluation. A hover must come at once; an
// evaluation that takes longer (the first legal of chess after its rules changed) goes on in the
// background, and the hover says so: the next one shows the answers.
const hoverBudget = 100 * time.Millisecond

// hoverAnswers appends the relation's answers in the document's current state, truncated.
func hoverAnswers(ctx context.Context, s *Server, v *view, snap *Snapshot, o *analysis.Occurrence, b *markup) {
	if !evaluatedInHover[o.Key] || s == nil || v == nil {
		return // marker tests ask for the static part only
	}
	history := s.games.history(snap.URI)
	where := stateName(len(history))
	cg := s.gameOf(snap)
	val, err := cg.answers(history, v.settingsFor(snap.URI).Eval, queryFor(o.Name, o.Arity), urgent).wait(ctx, hoverBudget)
	b.rule()
	switch {
	case errors.Is(err, errStillRunning):
		b.para("Evaluating in the %s… (still running; hover again for the answers)", where)
	case err != nil:
		b.para("Not evaluated: %s", cg.explain(snap, err))
	case o.Arity == 0:
		b.para("In the %s: %s", stateName(val.(*queryAnswers).played), b.bold(fmt.Sprint(val.(*queryAnswers).count > 0)))
	default:
		qa := val.(*queryAnswers)
		answers := qa.answers
		which := ""
		if len(answers) < qa.count {
			which = " (the first derived)"
		}
		if qa.count == 0 {
			b.para("In the %s, no answers.", stateName(qa.played))
			break
		}
		b.para("In the %s, %s%s:", stateName(qa.played), plural(qa.count, "answer"), which)
		var list []string
		for i, a := range answers {
			if i == 12 {
				list = append(list, fmt.Sprintf("- … and %d more", qa.count-12))
				break
			}
			list = append(list, "- "+b.code(a))
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
