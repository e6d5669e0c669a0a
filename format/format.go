// Package format lays out GDL source in the one canonical style: every top-level form starts its
// own line; a rule keeps its head on the `(<=` line and puts each body literal on a line of its
// own, indented four spaces; tokens inside a literal are separated by single spaces. Comments
// and the author's spelling are kept, blank lines between forms are kept (runs of them shrink to
// one), and the meaning never changes. Formatting is idempotent.
package format

import (
	"errors"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// ErrSyntax is returned for a file with syntax errors: it is left as it is, since where a form
// ends is not known for sure.
var ErrSyntax = errors.New("the file has syntax errors; fix them first (see gdl check)")

// Indent is the indentation of rule body literals and of continuation lines.
const Indent = "    "

// bom is the byte order mark some editors write at the start of a file.
const bom = "\uFEFF"

// Source formats a whole prefix file.
func Source(src string) (string, error) { return SourceDialect(src, syntax.Prefix) }

// SourceDialect formats a whole file written in dialect d.
func SourceDialect(src string, d syntax.Dialect) (string, error) {
	f, errs := syntax.ParseDialect(src, d)
	if len(errs) > 0 {
		return src, ErrSyntax
	}
	return File(f), nil
}

// File formats a parsed file that has no syntax errors. Time and memory are linear in the size
// of the file however deep its forms nest: lists are walked with an explicit stack, not by
// recursion, and indentation is written from a nesting level (capped at MaxIndentLevels)
// instead of being built as a string per level.
func File(f *syntax.File) string {
	p := &printer{blank: true}
	p.b.Grow(len(f.Source()))
	if strings.HasPrefix(f.Source(), bom) {
		p.b.WriteString(bom) // a byte order mark stays (the scanner reads it as a blank)
	}
	p.tests = isTestFile(f)
	if f.Dialect() == syntax.Infix {
		infixFile(f, p)
		return p.finish(f)
	}
	items := f.Items()
	for i, it := range items {
		switch it.Kind() {
		case syntax.Whitespace:
			breaks := syntax.LineBreaks(it.Text())
			switch {
			case i == 0: // leading blank space goes
			case i == len(items)-1: // trailing: keep one final newline if there was one
				if breaks > 0 {
					p.newline()
				}
			case breaks == 0:
				if items[i+1].Kind() == syntax.Comment {
					p.write(" ") // a comment after a form stays on its line
				} else {
					p.newline() // two forms on one line are split
				}
			case breaks == 1:
				p.newline()
			default:
				p.newline()
				p.newline()
			}
			continue
		}
		if i > 0 && items[i-1].Kind() != syntax.Whitespace {
			// Side by side in the source, as in (role a)(role b): each form on its own line,
			// a comment on the line of the form before it.
			if it.Kind() == syntax.Comment {
				p.write(" ")
			} else {
				p.newline()
			}
		}
		switch it.Kind() {
		case syntax.Comment:
			p.write(strings.TrimRight(it.Text(), " \t"))
		case syntax.List:
			p.text = it.Text() // the item's text: its nodes' offsets are relative to it
			if isRule(it) || p.tests && headIs(it, "test") {
				p.rule(it.Node())
			} else {
				p.flat(it.Node(), 1)
			}
		default:
			p.write(it.Text())
		}
	}
	return p.finish(f)
}

// finish returns the output with the file's line ending.
func (p *printer) finish(f *syntax.File) string {
	out := p.b.String()
	if eol := lineEnding(f.Source()); eol != "\n" {
		out = strings.ReplaceAll(out, "\n", eol)
	}
	return out
}

// lineEnding returns the file's first line break (LF when it has none): the output keeps it.
func lineEnding(src string) string {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			return "\n"
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				return "\r\n"
			}
			return "\r"
		}
	}
	return "\n"
}

// MaxIndentLevels caps the indentation of continuation lines (the lines that follow a comment
// inside a literal), which otherwise grows by Indent per level of nesting: with a comment at
// every level of a deeply nested term the output would grow with the square of the depth.
const MaxIndentLevels = 16

type printer struct {
	b     strings.Builder
	blank bool   // nothing but indentation was written since the last line break
	text  string // the text of the item being printed
	stack []frame
	tests bool // a test file: its tests are laid out like rules, a step per line
}

// frame is a list being printed by flat: the next child to print, the indentation level of
// the lines that continue it after a comment, and what was printed last.
type frame struct {
	n                  *syntax.Node
	next               int32 // a list has fewer children than its item has bytes
	level              int32
	first, lastComment bool
}

func (p *printer) write(s string) {
	p.b.WriteString(s)
	if p.blank && strings.TrimLeft(s, " ") != "" {
		p.blank = false
	}
}

func (p *printer) newline() {
	p.b.WriteByte('\n')
	p.blank = true
}

// indent writes the indentation of the given level.
func (p *printer) indent(level int) {
	for range min(level, MaxIndentLevels) {
		p.b.WriteString(Indent)
	}
}

// src returns a node's text.
func (p *printer) src(n *syntax.Node) string { return p.text[n.Start:n.End] }

// comment returns a comment's text without trailing blanks.
func (p *printer) comment(n *syntax.Node) string { return strings.TrimRight(p.src(n), " \t") }

// isTestFile reports whether a file is a game test file (docs/testing.md): its forms are
// (game PATH) and (test NAME STEP...), at least one test. A game always has other forms.
func isTestFile(f *syntax.File) bool {
	tests := 0
	for form := range f.FormSeq() {
		switch {
		case headIs(form.Cursor, "test"):
			tests++
		case !headIs(form.Cursor, "game"):
			return false
		}
	}
	return tests > 0
}

// headIs reports whether a list is headed by the name key (compared case-insensitively).
func headIs(c syntax.Cursor, key string) bool {
	if c.Kind() != syntax.List {
		return false
	}
	h := c.Head()
	return h.Valid() && h.Kind() == syntax.Word && h.Symbol().Key() == key
}

func isRule(c syntax.Cursor) bool {
	h := c.Head()
	return h.Valid() && h.Kind() == syntax.Word && h.Text() == "<="
}

// rule prints `(<= head` and then each body literal on its own line.
func (p *printer) rule(n *syntax.Node) {
	kids := n.Kids
	p.write("(")
	seen := 0 // elements printed: the arrow, the head, then literals
	lastComment := false
	for i := range kids {
		k := &kids[i]
		switch k.Kind {
		case syntax.LParen, syntax.RParen, syntax.Whitespace:
			continue
		case syntax.Comment:
			if i > 0 && kids[i-1].Kind == syntax.Whitespace && syntax.LineBreaks(p.src(&kids[i-1])) > 0 || p.blank {
				p.newline()
				p.indent(1)
			} else {
				p.write(" ")
			}
			p.write(p.comment(k))
			lastComment = true
			continue
		}
		switch {
		case seen == 0:
			// the arrow right after '('
		case seen == 1:
			if lastComment {
				p.newline()
				p.indent(1)
			} else {
				p.write(" ")
			}
		default:
			p.newline()
			p.indent(1)
		}
		p.flat(k, 2)
		lastComment = false
		seen++
	}
	if lastComment {
		p.newline()
	}
	p.write(")")
}

// flat prints a form on one line with single spaces; a comment inside forces a line break,
// after which printing continues at the continuation indentation: level for the form's own
// elements, one more for each list it is nested in.
func (p *printer) flat(n *syntax.Node, level int) {
	if n.Kind != syntax.List {
		p.write(p.src(n))
		return
	}
	base := len(p.stack)
	p.open(n, level)
	for len(p.stack) > base {
		f := &p.stack[len(p.stack)-1]
		if int(f.next) == len(f.n.Kids) {
			p.write(")")
			p.stack = p.stack[:len(p.stack)-1]
			continue
		}
		k := &f.n.Kids[f.next]
		f.next++
		switch k.Kind {
		case syntax.LParen, syntax.RParen, syntax.Whitespace:
			continue
		case syntax.Comment:
			if !p.blank {
				p.write(" ")
			}
			p.write(p.comment(k))
			p.newline()
			p.indent(int(f.level))
			f.lastComment = true
			continue
		}
		if !f.first && !f.lastComment {
			p.write(" ")
		}
		f.first, f.lastComment = false, false
		if k.Kind == syntax.List {
			p.open(k, int(f.level)+1) // f is not used after this: the append may move the stack
		} else {
			p.write(p.src(k))
		}
	}
}

// open prints a list's '(' and pushes it on the stack of lists being printed.
func (p *printer) open(n *syntax.Node, level int) {
	p.write("(")
	p.stack = append(p.stack, frame{n: n, level: int32(min(level, MaxIndentLevels)), first: true})
}
