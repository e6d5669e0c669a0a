package analysis

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// A game needs roles, legal moves, goals and a terminal condition. Each missing one is reported
// once, on the first line of the file's first form, where an editor shows it at the top.
func init() {
	// what writes the message in the file's notation; role is the first role's name (white when
	// there is none).
	x := func(d syntax.Dialect) string { v, _ := d.Var("x"); return v }
	for _, k := range []struct {
		key, example string
		what         func(d syntax.Dialect, role string) string
	}{
		{"role", "(role white)", func(d syntax.Dialect, _ string) string {
			return "no role is declared: add a fact " + d.Atom("role", "name") + " for each player"
		}},
		{"legal", "(<= (legal white (mark ?x)) (true (free ?x)))", func(d syntax.Dialect, role string) string {
			return "no legal rule: no player can ever move; add the moves of each role, e.g. " +
				d.Rule(d.Atom("legal", role, d.Atom("mark", x(d))), d.Atom("true", d.Atom("free", x(d))))
		}},
		{"goal", "(<= (goal white 100) (true (won white)))", func(d syntax.Dialect, role string) string {
			return "no goal rule: a game must say what each role scores; add e.g. " +
				d.Rule(d.Atom("goal", role, "100"), d.Atom("true", d.Atom("won", role)))
		}},
		{"terminal", "(<= terminal (true (step 10)))", func(d syntax.Dialect, _ string) string {
			return "no terminal rule: the game can never end; add e.g. " + d.Rule("terminal", d.Atom("true", d.Atom("step", "10")))
		}},
	} {
		k := k
		register(&Check{
			Code:     "missing-" + k.key,
			Severity: Error,
			Category: CategorySemantics,
			Summary:  "The game defines no " + k.key + ".",
			Example:  exampleWithout(k.key),
			Fix:      "Add one, for example " + k.example + ".",
			Run: func(m *Model, r *Reporter) {
				if _, ok := firstForm(m.File); !ok {
					return // a new, empty file is not a broken game yet
				}
				if !m.Defines(k.key) {
					d := m.Notation()
					role := "white"
					if len(m.Roles) > 0 {
						if name, ok := d.Name(m.Roles[0].Name); ok {
							role = name
						}
					}
					r.Report(firstFormLine(m.File), k.what(d, role), nil)
				}
			},
		})
	}
}

// firstFormLine returns the span of the file's first form, cut after the last token on its
// first line (comments and blanks left out): the whole form when it fits on one line.
func firstFormLine(f *syntax.File) syntax.Span {
	first, ok := firstForm(f)
	if !ok {
		return syntax.Span{}
	}
	sp := first.Span()
	i := strings.IndexAny(f.Source()[sp.Start:sp.End], "\r\n")
	if i < 0 {
		return sp
	}
	lineEnd := sp.Start + i
	end := sp.Start
	var walk func(c syntax.Cursor)
	walk = func(c syntax.Cursor) {
		for _, k := range c.Children() {
			s := k.Span()
			if s.Start >= lineEnd {
				return
			}
			switch k.Kind() {
			case syntax.Whitespace, syntax.Comment:
			case syntax.List:
				walk(k)
			default:
				if s.End <= lineEnd && s.End > end {
					end = s.End
				}
			}
		}
	}
	walk(first.Cursor)
	return syntax.Span{Start: sp.Start, End: end}
}

// exampleWithout is a small game in which only the given keyword is missing.
func exampleWithout(key string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "; a game without %s\n", key)
	for _, l := range []struct{ key, text string }{
		{"role", "(role white)"},
		{"", "(init (step 1))"},
		{"", "(<= (next (step 2)) (true (step 1)))"},
		{"legal", "(legal white wait)"},
		{"goal", "(goal white 100)"},
		{"terminal", "(<= terminal (true (step 2)))"},
	} {
		if l.key != key {
			b.WriteString(l.text + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// firstForm returns the file's first form; ok is false when it has none.
func firstForm(f *syntax.File) (syntax.Form, bool) {
	for fm := range f.FormSeq() {
		return fm, true
	}
	return syntax.Form{}, false
}
