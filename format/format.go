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

// Source formats a whole file.
func Source(src string) (string, error) {
	f, errs := syntax.Parse(src)
	if len(errs) > 0 {
		return src, ErrSyntax
	}
	return File(f), nil
}

// File formats a parsed file that has no syntax errors.
func File(f *syntax.File) string {
	p := &printer{}
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
		case syntax.Comment:
			p.write(strings.TrimRight(it.Text(), " \t"))
		case syntax.List:
			if isRule(it) {
				p.rule(it)
			} else {
				p.flat(it, Indent)
			}
		default:
			p.write(it.Text())
		}
	}
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

type printer struct {
	b strings.Builder
}

func (p *printer) write(s string) { p.b.WriteString(s) }

func (p *printer) newline() { p.b.WriteByte('\n') }

// atLineStart reports whether nothing but indentation was written since the last line break.
func (p *printer) atLineStart() bool {
	s := p.b.String()
	i := strings.LastIndexByte(s, '\n')
	return strings.TrimLeft(s[i+1:], " ") == ""
}

func isRule(c syntax.Cursor) bool {
	h := c.Head()
	return h.Valid() && h.Kind() == syntax.Word && h.Text() == "<="
}

// rule prints `(<= head` and then each body literal on its own line.
func (p *printer) rule(c syntax.Cursor) {
	kids := c.Children()
	p.write("(")
	seen := 0 // elements printed: the arrow, the head, then literals
	lastComment := false
	for i, k := range kids {
		switch k.Kind() {
		case syntax.LParen, syntax.RParen, syntax.Whitespace:
			continue
		case syntax.Comment:
			if i > 0 && kids[i-1].Kind() == syntax.Whitespace && syntax.LineBreaks(kids[i-1].Text()) > 0 || p.atLineStart() {
				p.newline()
				p.write(Indent)
			} else {
				p.write(" ")
			}
			p.write(strings.TrimRight(k.Text(), " \t"))
			lastComment = true
			continue
		}
		switch {
		case seen == 0:
			// the arrow right after '('
		case seen == 1:
			if lastComment {
				p.newline()
				p.write(Indent)
			} else {
				p.write(" ")
			}
		default:
			p.newline()
			p.write(Indent)
		}
		p.flat(k, Indent+Indent)
		lastComment = false
		seen++
	}
	if lastComment {
		p.newline()
	}
	p.write(")")
}

// flat prints a form on one line with single spaces; a comment inside forces a line break,
// after which printing continues at the continuation indentation.
func (p *printer) flat(c syntax.Cursor, cont string) {
	if c.Kind() != syntax.List {
		p.write(c.Text())
		return
	}
	p.write("(")
	first := true
	lastComment := false
	for _, k := range c.Children() {
		switch k.Kind() {
		case syntax.LParen, syntax.RParen, syntax.Whitespace:
			continue
		case syntax.Comment:
			if !p.atLineStart() {
				p.write(" ")
			}
			p.write(strings.TrimRight(k.Text(), " \t"))
			p.newline()
			p.write(cont)
			lastComment = true
			continue
		}
		if !first && !lastComment {
			p.write(" ")
		}
		p.flat(k, cont+Indent)
		first, lastComment = false, false
	}
	p.write(")")
}
