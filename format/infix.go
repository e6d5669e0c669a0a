package format

import (
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// The infix layout, the counterpart of the prefix one: every statement starts its own line; a
// rule that fits in MaxRuleLine characters and has no comment is written on one line, as in the
// Stanford course notes (p(X) :- q(X) & ~r(X)); a longer one keeps its head and ':-' on the
// first line and puts each body literal on a line of its own, indented four spaces, with the
// '&' that joins it to the next at the end of the line;
// arguments are separated by a comma without a space, as in the Stanford course notes
// (cell(1,1,b)), the branches of a disjunction by " | "; '~' sticks to its literal. A '.' that
// ends a statement stays right after it. Comments stay where they are, except that a ',', '&',
// '|' or ':-' written after a comment moves before it (comments are not meaning); a comment
// inside a literal ends its line, and the literal goes on indented one level per list it is in.

// MaxRuleLine is the longest infix rule written on one line.
const MaxRuleLine = 80

// infixItem prints a top-level infix form.
func (p *printer) infixItem(it syntax.Cursor) {
	p.text = it.Text()
	n := it.Node()
	if n.Kind == syntax.List && n.Infix && isRuleNode(p, n) {
		if line, ok := p.ruleLine(n); ok {
			p.write(line)
			return
		}
		p.infixRule(n)
		return
	}
	p.infixFlat(n, 1, "")
}

// ruleLine returns a rule written on one line, head :- l1 & l2, when it has no comment and fits
// in MaxRuleLine characters.
func (p *printer) ruleLine(n *syntax.Node) (string, bool) {
	q := &printer{blank: true, text: p.text}
	seen := 0
	for i := range n.Kids {
		k := &n.Kids[i]
		switch k.Kind {
		case syntax.Comment:
			return "", false
		case syntax.Whitespace, syntax.Operator, syntax.Punct:
			continue
		}
		switch seen {
		case 0:
		case 1:
			q.write(" :- ")
		default:
			q.write(" & ")
		}
		q.infixFlat(k, 1, "")
		seen++
	}
	if seen == 1 {
		q.write(" :-")
	}
	out := q.b.String()
	return out, len(out) <= MaxRuleLine && !strings.ContainsAny(out, "\n")
}

func isRuleNode(p *printer, n *syntax.Node) bool {
	for i := range n.Kids {
		if k := &n.Kids[i]; k.Kind == syntax.Operator {
			return p.src(k) == ":-"
		}
	}
	return false
}

// infixRule prints `head :-` and then each body literal on its own line.
func (p *printer) infixRule(n *syntax.Node) {
	kids := n.Kids
	seen := 0 // elements printed: the head, then the literals (':-' is not counted)
	var pending []*syntax.Node
	for i := range kids {
		k := &kids[i]
		switch k.Kind {
		case syntax.Whitespace:
			continue
		case syntax.Comment:
			pending = append(pending, k)
			continue
		case syntax.Operator: // ':-', printed after the head
			continue
		case syntax.Punct: // '&', printed after the literal before it
			continue
		}
		switch seen {
		case 0:
			p.infixFlat(k, 1, "")
			p.write(" :-")
		default:
			if seen > 1 {
				p.write(" &")
			}
			p.comments(kids, pending, 1)
			pending = pending[:0]
			p.newline()
			p.indent(1)
			p.infixFlat(k, 2, "")
		}
		seen++
	}
	if len(pending) > 0 {
		p.comments(kids, pending, 1)
	}
}

// comments prints the comments of a list that come before its next element: a comment that
// followed a token on its line stays on the line being printed, the others go on lines of their
// own at the indentation of level.
func (p *printer) comments(kids []syntax.Node, cs []*syntax.Node, level int) {
	for _, c := range cs {
		if !p.blank && p.sameLine(kids, c) {
			p.write(" ")
		} else {
			if !p.blank {
				p.newline()
			}
			p.indent(level)
		}
		p.write(p.comment(c))
	}
}

// sameLine reports whether comment c stands on the line of the token before it in the source.
func (p *printer) sameLine(kids []syntax.Node, c *syntax.Node) bool {
	for i := range kids {
		if &kids[i] == c {
			return i == 0 || kids[i-1].Kind != syntax.Whitespace || syntax.LineBreaks(p.src(&kids[i-1])) == 0
		}
	}
	return false
}

// infixFrame is a list being printed by infixFlat: the next child to print, the indentation
// level of the lines that continue it after a comment, the separator of its elements, whether a
// space goes before an element, and what goes after the list when it closes.
type infixFrame struct {
	n     *syntax.Node
	next  int32
	level int32
	after string
	space bool
	first bool
}

// infixFlat prints an infix node on one line (a comment inside forces a line break), followed by
// after. Lists are walked with an explicit stack.
func (p *printer) infixFlat(n *syntax.Node, level int, after string) {
	if n.Kind != syntax.List {
		p.write(p.src(n) + after)
		return
	}
	var stack []infixFrame
	open := func(n *syntax.Node, level int, after string) {
		f := infixFrame{n: n, level: int32(min(level, MaxIndentLevels)), after: after, first: true}
		if n.Infix && len(n.Kids) > 0 && p.src(&n.Kids[0]) == "(" {
			f.space = true // (a | b)
		}
		stack = append(stack, f)
	}
	open(n, level, after)
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if int(f.next) == len(f.n.Kids) {
			p.write(f.after)
			stack = stack[:len(stack)-1]
			continue
		}
		i := int(f.next)
		k := &f.n.Kids[i]
		f.next++
		switch k.Kind {
		case syntax.Whitespace, syntax.Punct:
			continue // separators are printed right after the element before them
		case syntax.Comment:
			if !p.blank {
				p.write(" ")
			}
			p.write(p.comment(k))
			p.newline()
			p.indent(int(f.level))
			continue
		case syntax.LParen:
			p.write("(")
			continue
		case syntax.RParen:
			p.write(")")
			continue
		case syntax.Operator:
			p.write(p.src(k)) // '~', or the '(' of a disjunction
			continue
		}
		if f.space && !f.first && !p.blank {
			p.write(" ")
		}
		f.first = false
		sep := separatorAfter(p, f.n, i)
		if k.Kind == syntax.List {
			level := int(f.level) + 1
			open(k, level, sep) // f is not used after this: the append may move the stack
		} else {
			p.write(p.src(k) + sep)
		}
	}
}

// separatorAfter returns what to print after child i of an infix list: the ',' or ' |' that
// follows it (across whitespace and comments), or nothing.
func separatorAfter(p *printer, n *syntax.Node, i int) string {
	for j := i + 1; j < len(n.Kids); j++ {
		switch k := &n.Kids[j]; k.Kind {
		case syntax.Whitespace, syntax.Comment:
			continue
		case syntax.Punct:
			if s := p.src(k); s == "|" {
				return " |"
			} else if s == "," {
				return ","
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// infixFile formats an infix file without syntax errors.
func infixFile(f *syntax.File, p *printer) {
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
			case items[i+1].Kind() == syntax.Punct && items[i-1].Kind() != syntax.Comment:
				// the '.' that ends a statement sticks to it
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
		if i > 0 && items[i-1].Kind() != syntax.Whitespace && it.Kind() != syntax.Punct {
			// Side by side in the source: a.b(c) or p(a).q(b).
			if it.Kind() == syntax.Comment {
				p.write(" ")
			} else {
				p.newline()
			}
		}
		switch it.Kind() {
		case syntax.Comment:
			p.write(strings.TrimRight(it.Text(), " \t"))
		case syntax.List, syntax.Word:
			p.infixItem(it)
		default:
			p.write(it.Text())
		}
	}
}
