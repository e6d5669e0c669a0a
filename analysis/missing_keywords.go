package analysis

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// A game needs roles, legal moves, goals and a terminal condition. Each missing one is reported
// once, on the first line of the file's first form, where an editor shows it at the top.
func init() {
	// what is the message; its %[1]s is the first role's name (white when there is none).
	for _, k := range []struct{ key, what, example string }{
		{"role", "no role is declared: add a fact (role name) for each player", "(role white)"},
		{"legal", "no legal rule: no player can ever move; add the moves of each role, e.g. (<= (legal %[1]s (mark ?x)) (true (free ?x)))",
			"(<= (legal white (mark ?x)) (true (free ?x)))"},
		{"goal", "no goal rule: a game must say what each role scores; add e.g. (<= (goal %[1]s 100) (true (won %[1]s)))",
			"(<= (goal white 100) (true (won white)))"},
		{"terminal", "no terminal rule: the game can never end; add e.g. (<= terminal (true (step 10)))", "(<= terminal (true (step 10)))"},
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
					role := "white"
					if len(m.Roles) > 0 {
						role = m.Roles[0].Name
					}
					r.Report(firstFormLine(m.File), strings.ReplaceAll(k.what, "%[1]s", role), nil)
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
