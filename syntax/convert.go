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
func convertForm(c Cursor, _ Dialect, to Dialect) (string, bool) {
	s, err := convert(c, to)
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

// convert writes the form at c in dialect to. It works through an explicit stack of tasks, so
// that any depth of nesting is fine.
func convert(c Cursor, to Dialect) (string, *ConvertError) {
	var b strings.Builder
	tasks := []convTask{{c: c, role: roleStmt}}
	push := func(ts ...convTask) {
		for i := len(ts) - 1; i >= 0; i-- {
			tasks = append(tasks, ts[i])
		}
	}
	word := func(s string) convTask { return convTask{s: s} }
	for len(tasks) > 0 {
		t := tasks[len(tasks)-1]
		tasks = tasks[:len(tasks)-1]
		if !t.c.Valid() {
			b.WriteString(t.s)
			continue
		}
		n := t.c.n
		if n.Kind != List {
			s, err := convertToken(t.c, t.role, to)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			continue
		}
		notes := comments(t.c, to)
		el := t.c.Elements()
		if len(el) == 0 {
			return "", bad(t.c, "an empty list")
		}
		elem := func(i int, role uint8) []convTask {
			return append(notes[i], convTask{c: el[i], role: role})
		}
		tail := notes[len(el)]
		switch {
		case t.role == roleStmt && isRuleHead(el[0]):
			if len(el) < 2 {
				return "", bad(t.c, "a rule without a head")
			}
			var ts []convTask
			if to == Infix {
				ts = append(ts, elem(1, roleAtom)...)
				ts = append(ts, notes[0]...)
				ts = append(ts, word(" :-"))
				for i := 2; i < len(el); i++ {
					if i > 2 {
						ts = append(ts, word(" &"))
					}
					ts = append(ts, word(" "))
					ts = append(ts, elem(i, roleLit)...)
				}
				ts = append(ts, tail...)
			} else {
				ts = append(ts, word("("))
				ts = append(ts, notes[0]...)
				ts = append(ts, word("<="))
				for i := 1; i < len(el); i++ {
					ts = append(ts, word(" "))
					role := uint8(roleLit)
					if i == 1 {
						role = roleAtom
					}
					ts = append(ts, elem(i, role)...)
				}
				ts = append(ts, tail...)
				ts = append(ts, word(")"))
			}
			push(ts...)
		case t.role == roleLit || t.role == roleStmt:
			l := Literal{t.c}
			k := l.Kind()
			kw := el[0].Symbol()
			if k == LitInvalid || k == LitAtom && t.role == roleStmt && !(Atom{t.c}).Valid() {
				return "", bad(t.c, "not a literal")
			}
			if k != LitNot && k != LitOr || t.role == roleStmt {
				push(convTask{c: t.c, role: roleAtom})
				continue
			}
			ops := len(el) - 1
			spelled := kw.IsOperator() || kw.Name() == kw.Key() // not, or in lower case
			var ts []convTask
			switch {
			case to == Infix && k == LitNot && spelled && ops == 1:
				ts = append(ts, notes[0]...)
				ts = append(ts, word("~"))
				ts = append(ts, elem(1, roleLit)...)
				ts = append(ts, tail...)
			case to == Infix && k == LitOr && spelled && ops > 0:
				ts = append(ts, notes[0]...)
				ts = append(ts, word("("))
				for i := 1; i < len(el); i++ {
					if i > 1 {
						ts = append(ts, word(" | "))
					}
					ts = append(ts, elem(i, roleLit)...)
				}
				ts = append(ts, tail...)
				ts = append(ts, word(")"))
			default: // the keyword as a relation name: (not a b), not(a,b), (or), or()
				name := kw.Key()
				if !kw.IsOperator() {
					var ok bool
					if name, ok = to.Name(kw.Name()); !ok {
						return "", cannot(kw.Cursor, to, false)
					}
				}
				ts = append(ts, listTasks(to, notes, el, name, roleLit)...)
			}
			push(ts...)
		case t.role == roleAtom || t.role == roleTerm:
			if el[0].Kind() != Word {
				return "", bad(t.c, "not a term")
			}
			name, ok := to.Name(el[0].Symbol().Name())
			if !ok {
				return "", cannot(el[0], to, false)
			}
			role := uint8(roleTerm)
			if t.role == roleAtom {
				k := el[0].Symbol().Key()
				if k == "not" || k == "or" {
					role = roleLit
				}
			}
			push(listTasks(to, notes, el, name, role)...)
		}
	}
	return b.String(), nil
}

// listTasks writes name applied to the elements after the first, each with its comments:
// (name a b) or name(a,b).
func listTasks(to Dialect, notes [][]convTask, el []Cursor, name string, role uint8) []convTask {
	var ts []convTask
	ts = append(ts, notes[0]...)
	if to == Infix {
		ts = append(ts, convTask{s: name + "("})
	} else {
		ts = append(ts, convTask{s: "(" + name})
	}
	for i := 1; i < len(el); i++ {
		switch {
		case to == Prefix:
			ts = append(ts, convTask{s: " "})
		case i > 1:
			ts = append(ts, convTask{s: ","})
		}
		ts = append(ts, notes[i]...)
		ts = append(ts, convTask{c: el[i], role: role})
	}
	ts = append(ts, notes[len(el)]...)
	return append(ts, convTask{s: ")"})
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

// comments returns, for each element of the list at c, the comments written before it (after
// the element before), converted to dialect to and each ending its line; the last entry holds
// the comments after the last element.
func comments(c Cursor, to Dialect) [][]convTask {
	order := elementOrder(c.n)
	pos := make(map[int]int, len(order)) // kid index -> element index
	for i, k := range order {
		pos[k] = i
	}
	out := make([][]convTask, len(order)+1)
	var pending []convTask
	for k := range c.n.Kids {
		kid := &c.n.Kids[k]
		if kid.Kind == Comment {
			// A comment ends its line; the indentation keeps a '(' after it off the start of a
			// line, where infix would take it for the start of a prefix form.
			pending = append(pending, convTask{s: " " + convertComment(c.text[kid.Start:kid.End], to) + "\n    "})
			continue
		}
		if i, ok := pos[k]; ok && len(pending) > 0 {
			out[i] = append(out[i], pending...)
			pending = nil
		}
	}
	out[len(order)] = pending
	return out
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
