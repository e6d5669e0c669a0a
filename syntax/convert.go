package syntax

import (
	"fmt"
	"strings"
)

// ConvertError says why a form cannot be written in the other notation: a name or variable
// that notation cannot hold, or a shape that is not GDL.
type ConvertError struct {
	Span    Span
	Message string
}

func (e *ConvertError) Error() string { return e.Message }

// Convert writes a form (a fact or a rule, without syntax errors) in dialect to, on one line but
// for its comments, which keep their place among the elements and end their line. Names are
// written as they are spelled, in double quotes when infix needs them (see Dialect.Name);
// variables change only their mark (?board is Board); `not` and `or` spelled in lower case
// become `~` and `(a | b)` and back. A name or variable the target cannot write is an error
// naming it and its position.
func (fm Form) Convert(to Dialect) (string, *ConvertError) {
	return convert(fm.Cursor, to)
}

// convertForm is Convert for the parser's quick fixes, which have no File yet.
func (p *parser) convertForm(c Cursor, to Dialect) (string, bool) {
	s, err := p.conv.convert(c, to)
	return s, err == nil
}

// Roles of a node being converted.
const (
	roleStmt = iota
	roleLit
	roleAtom
	roleTerm
)

type convTask struct {
	c    Cursor // invalid: write s
	s    string
	role uint8
}

// converter writes forms in another notation. It works through an explicit stack of tasks, so
// that any depth of nesting is fine, and reuses its buffers from list to list.
type converter struct {
	b     []byte
	to    Dialect
	tasks []convTask
	seq   []convTask // the tasks of the list being expanded, in order
	order []int      // its elements' indexes among its children, head first
}

// convert writes the form at c in dialect to.
func convert(c Cursor, to Dialect) (string, *ConvertError) {
	var cv converter
	return cv.convert(c, to)
}

// convert writes the form at c in dialect to, with cv's buffers.
func (cv *converter) convert(c Cursor, to Dialect) (string, *ConvertError) {
	cv.to = to
	cv.b = cv.b[:0]
	if err := cv.form(c); err != nil {
		return "", err
	}
	return string(cv.b), nil
}

func (cv *converter) word(s string) { cv.seq = append(cv.seq, convTask{s: s}) }

// elem adds element i of the list n (with the comments before it) in the given role.
func (cv *converter) elem(c Cursor, i int, role uint8) {
	k := cv.order[i]
	cv.notes(c, k)
	cv.seq = append(cv.seq, convTask{c: Cursor{&c.n.Kids[k], c.text, c.base}, role: role})
}

// notes adds the comments written before child k of the list at c, after the element before it,
// each ending its line. The indentation keeps a '(' after it off the start of a line, where
// infix would take it for the start of a prefix form.
func (cv *converter) notes(c Cursor, k int) {
	j := k
	for j > 0 && !isElement(c.n.Kids[j-1].Kind) {
		j--
	}
	for ; j < k; j++ {
		if kid := &c.n.Kids[j]; kid.Kind == Comment {
			cv.seq = append(cv.seq, convTask{s: " " + convertComment(c.text[kid.Start:kid.End], cv.to) + "\n    "})
		}
	}
}

// tail adds the comments after the last element of the list at c.
func (cv *converter) tail(c Cursor) {
	cv.notes(c, len(c.n.Kids))
}

// form writes the form at c. It works on an explicit stack of tasks (cv.tasks): text, a token
// or a list, which pushes the tasks of its parts, so nesting of any depth takes no stack.
func (cv *converter) form(c Cursor) *ConvertError {
	cv.tasks = append(cv.tasks[:0], convTask{c: c, role: roleStmt})
	for len(cv.tasks) > 0 {
		t := cv.tasks[len(cv.tasks)-1]
		cv.tasks = cv.tasks[:len(cv.tasks)-1]
		if !t.c.Valid() {
			s := t.s
			if n := len(cv.b); n > 0 && cv.b[n-1] == ' ' && strings.HasPrefix(s, " ") {
				s = s[1:] // "p :- " and " % why": one space
			}
			cv.b = append(cv.b, s...)
			continue
		}
		if t.c.n.Kind != List {
			s, err := convertToken(t.c, t.role, cv.to)
			if err != nil {
				return err
			}
			cv.b = append(cv.b, s...)
			continue
		}
		if err := cv.listTasks(t); err != nil {
			return err
		}
		for i := len(cv.seq) - 1; i >= 0; i-- {
			cv.tasks = append(cv.tasks, cv.seq[i])
		}
	}
	return nil
}

// listTasks sets cv.seq to the tasks that write the list of task t in its role, in order.
func (cv *converter) listTasks(t convTask) *ConvertError {
	n := t.c.n
	cv.order = appendElementOrder(cv.order[:0], n)
	if len(cv.order) == 0 {
		return bad(t.c, "an empty list")
	}
	el0 := Cursor{&n.Kids[cv.order[0]], t.c.text, t.c.base}
	cv.seq = cv.seq[:0]
	switch {
	case t.role == roleStmt && isRuleHead(el0):
		if len(cv.order) < 2 {
			return bad(t.c, "a rule without a head")
		}
		cv.rule(t.c)
	case t.role == roleLit || t.role == roleStmt:
		return cv.literal(t, el0)
	case t.role == roleAtom || t.role == roleTerm:
		if el0.Kind() != Word {
			return bad(t.c, "not a term")
		}
		name, ok := cv.to.Name(el0.Symbol().Name())
		if !ok {
			return cannot(el0, cv.to, false)
		}
		role := uint8(roleTerm)
		if t.role == roleAtom {
			if k := el0.Symbol().Key(); k == "not" || k == "or" {
				role = roleLit
			}
		}
		cv.list(t.c, name, role)
	}
	return nil
}

// rule adds the tasks of the rule at c: head :- body & ... in infix, (<= head body ...) in
// prefix.
func (cv *converter) rule(c Cursor) {
	if cv.to == Infix {
		cv.elem(c, 1, roleAtom)
		cv.notes(c, cv.order[0])
		cv.word(" :-")
		if len(cv.order) == 2 {
			// An empty body ends with a '.': else the next fact would be read as the body.
			cv.word(".")
		}
		for i := 2; i < len(cv.order); i++ {
			if i > 2 {
				cv.word(" &")
			}
			cv.word(" ")
			cv.elem(c, i, roleLit)
		}
		cv.tail(c)
		return
	}
	cv.word("(")
	cv.notes(c, cv.order[0])
	cv.word("<=")
	for i := 1; i < len(cv.order); i++ {
		cv.word(" ")
		role := uint8(roleLit)
		if i == 1 {
			role = roleAtom
		}
		cv.elem(c, i, role)
	}
	cv.tail(c)
	cv.word(")")
}

// literal adds the tasks of the literal (or statement) list of task t, whose first element is
// el0: a negation or a disjunction in the target's own syntax where it has one, else an atom.
func (cv *converter) literal(t convTask, el0 Cursor) *ConvertError {
	k := Literal{t.c}.Kind()
	kw := el0.Symbol()
	if k == LitInvalid || k == LitAtom && t.role == roleStmt && !(Atom{t.c}).Valid() {
		return bad(t.c, "not a literal")
	}
	if k != LitNot && k != LitOr || t.role == roleStmt {
		cv.seq = append(cv.seq, convTask{c: t.c, role: roleAtom})
		return nil
	}
	ops := len(cv.order) - 1
	spelled := kw.IsOperator() || kw.Name() == kw.Key() // not, or in lower case
	switch {
	case cv.to == Infix && k == LitNot && spelled && ops == 1:
		cv.notes(t.c, cv.order[0])
		cv.word("~")
		cv.elem(t.c, 1, roleLit)
		cv.tail(t.c)
	case cv.to == Infix && k == LitOr && spelled && ops > 0:
		cv.notes(t.c, cv.order[0])
		cv.word("(")
		for i := 1; i < len(cv.order); i++ {
			if i > 1 {
				cv.word(" | ")
			}
			cv.elem(t.c, i, roleLit)
		}
		cv.tail(t.c)
		cv.word(")")
	default: // the keyword as a relation name: (not a b), not(a,b), (or), or()
		name := kw.Key()
		if !kw.IsOperator() {
			var ok bool
			if name, ok = cv.to.Name(kw.Name()); !ok {
				return cannot(kw.Cursor, cv.to, false)
			}
		}
		cv.list(t.c, name, roleLit)
	}
	return nil
}

// appendElementOrder appends the indexes among n's children of its elements, head first.
func appendElementOrder(dst []int, n *Node) []int {
	h := headIndex(n)
	if h < 0 {
		return dst
	}
	dst = append(dst, h)
	for i := range n.Kids {
		if i != h && isElement(n.Kids[i].Kind) {
			dst = append(dst, i)
		}
	}
	return dst
}

// list writes name applied to the elements after the first, each with its comments:
// (name a b) or name(a,b).
func (cv *converter) list(c Cursor, name string, role uint8) {
	cv.notes(c, cv.order[0])
	if cv.to == Infix {
		cv.word(name + "(")
	} else {
		cv.word("(" + name)
	}
	for i := 1; i < len(cv.order); i++ {
		switch {
		case cv.to == Prefix:
			cv.word(" ")
		case i > 1:
			cv.word(",")
		}
		cv.elem(c, i, role)
	}
	cv.tail(c)
	cv.word(")")
}

// isRuleHead reports whether the head of a list makes it a rule: `<=` or `:-`.
func isRuleHead(h Cursor) bool {
	switch h.Kind() {
	case Word:
		return !h.n.Quoted && h.Text() == "<="
	case Operator:
		return h.Text() == ":-"
	}
	return false
}

// convertComment writes a comment with the comment mark of dialect to: its leading run of
// ';' or '%' becomes as many of the other.
func convertComment(text string, to Dialect) string {
	rest := strings.TrimLeft(text, ";%")
	return strings.Repeat(to.CommentMarks(), len(text)-len(rest)) + rest
}

// convertToken writes a name or variable in dialect to.
func convertToken(c Cursor, role uint8, to Dialect) (string, *ConvertError) {
	switch c.Kind() {
	case Word:
		s := c.Symbol()
		if role == roleStmt || role == roleLit || role == roleAtom || role == roleTerm {
			if out, ok := to.Name(s.Name()); ok {
				return out, nil
			}
			if to == Prefix && role == roleStmt && s.Name() == "<=" {
				return "<=", nil // the arrow may stand alone as a proposition, not inside a list
			}
			return "", cannot(c, to, false)
		}
	case Variable:
		if role == roleTerm {
			if out, ok := to.Var(c.Text()); ok {
				return out, nil
			}
			return "", cannot(c, to, true)
		}
		return "", bad(c, "a variable where a literal is expected")
	}
	return "", bad(c, "not a name")
}

func cannot(c Cursor, to Dialect, variable bool) *ConvertError {
	var msg string
	switch {
	case variable && to == Infix:
		msg = fmt.Sprintf("variable %s cannot be written in infix GDL: an infix variable is a name that starts with a letter, written in upper case", c.Text())
	case variable:
		msg = fmt.Sprintf("variable %s cannot be written in prefix GDL (KIF): it has a character a KIF symbol cannot hold", c.Text())
	case to == Infix:
		msg = fmt.Sprintf("name %s cannot be written in infix GDL: it has a '\"', a line break or a control character, which a quoted name cannot hold", c.Symbol().Name())
	default:
		msg = fmt.Sprintf("name %s cannot be written in prefix GDL (KIF): a KIF symbol cannot hold a space, a parenthesis, ';' or a control character, start with '?' or be <=", c.Text())
	}
	return &ConvertError{c.Span(), msg}
}

func bad(c Cursor, what string) *ConvertError {
	return &ConvertError{c.Span(), fmt.Sprintf("%q is %s", clipText(c.Text()), what)}
}

func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Convert writes the whole file in dialect to, item by item: forms as Form.Convert writes them,
// comments with the other comment mark, whitespace as it is, and the '.' that may end an infix
// statement left out. The layout is raw (format.Convert lays it out). A file with syntax errors
// is not converted: the first error is returned.
func (f *File) Convert(to Dialect) (string, *ConvertError) {
	if len(f.errs) > 0 {
		e := f.errs[0]
		return "", &ConvertError{e.Span, e.Message}
	}
	var b strings.Builder
	b.Grow(len(f.src) + len(f.src)/4)
	var cv converter
	for i, it := range f.items {
		c := Cursor{&it.node, it.text, it.start}
		// Two items side by side stay apart: `a(b)` is one statement in infix, `a (b)` two forms.
		if i > 0 && it.node.Kind != Whitespace && f.items[i-1].node.Kind != Whitespace && f.items[i-1].node.Kind != Punct {
			b.WriteByte(' ')
		}
		switch it.node.Kind {
		case Whitespace:
			b.WriteString(it.text)
		case Comment:
			b.WriteString(convertComment(it.text, to))
		case Punct:
			// A '.' ending an infix statement: a space keeps the next item apart.
			if i+1 < len(f.items) && f.items[i+1].node.Kind != Whitespace {
				b.WriteByte(' ')
			}
		case List, Word:
			s, err := cv.convert(c, to)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		default:
			return "", bad(c, "not a form")
		}
	}
	return b.String(), nil
}
