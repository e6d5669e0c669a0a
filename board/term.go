package board

import (
	"strings"

	"github.com/gdl-lsp/gdl/format"
	"github.com/gdl-lsp/gdl/syntax"
)

// term is a ground KIF term read from the canonical text the game API writes: a constant, or a
// function term (name and arguments).
type term struct {
	name string
	args []term
	text string // the whole term as written
}

// isConst reports whether t is a constant.
func (t term) isConst() bool { return t.args == nil }

// parseTerm reads one ground term. The text comes from the game API (balanced, single spaces),
// but a text that is not a term (a config key, a user's move) gives ok false rather than a
// guess. Each subterm's text is a slice of s (no copy), so a deep term costs linear memory.
func parseTerm(s string) (term, bool) {
	toks := tokens(s)
	t, n, ok := readTerm(s, toks, 0)
	if !ok || n != len(toks) {
		return term{}, false
	}
	return t, true
}

// token is a "(", a ")" or an atom: its place in the text.
type token struct{ start, end int }

// tokens splits KIF text into "(", ")" and atoms.
func tokens(s string) []token {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			out = append(out, token{i, i + 1})
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r()", rune(s[j])) {
				j++
			}
			out = append(out, token{i, j})
			i = j
		}
	}
	return out
}

// readTerm reads the term starting at toks[i] with an explicit stack (no recursion, so a deep
// term cannot exhaust the goroutine stack), and returns it and the index after it.
func readTerm(s string, toks []token, i int) (term, int, bool) {
	text := func(k int) string { return s[toks[k].start:toks[k].end] }
	if i >= len(toks) || text(i) == ")" {
		return term{}, i, false
	}
	if text(i) != "(" {
		return term{name: text(i), text: text(i)}, i + 1, true
	}
	type frame struct {
		t     term
		start int // the offset of its "("
	}
	var stack []frame
	for i < len(toks) {
		switch tok := text(i); tok {
		case "(":
			if i+1 >= len(toks) || text(i+1) == "(" || text(i+1) == ")" {
				return term{}, i, false
			}
			stack = append(stack, frame{t: term{name: text(i + 1), args: []term{}}, start: toks[i].start})
			i += 2
		case ")":
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f.t.text = s[f.start:toks[i].end]
			i++
			if len(stack) == 0 {
				return f.t, i, true
			}
			top := &stack[len(stack)-1]
			top.t.args = append(top.t.args, f.t)
		default:
			top := &stack[len(stack)-1]
			top.t.args = append(top.t.args, term{name: tok, text: tok})
			i++
		}
	}
	return term{}, i, false
}

// leaves returns the constants of t in order, depth first, without the function names.
func (t term) leaves() []string {
	var out []string
	stack := []term{t}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.isConst() {
			out = append(out, x.name)
			continue
		}
		for k := len(x.args) - 1; k >= 0; k-- {
			stack = append(stack, x.args[k])
		}
	}
	return out
}

// canonical writes KIF text as the game API does: single spaces, none inside parentheses (for
// keys given by people, as in gdl.json).
func canonical(s string) string {
	toks := tokens(s)
	var b strings.Builder
	for k, t := range toks {
		tok := s[t.start:t.end]
		if k > 0 && tok != ")" && s[toks[k-1].start:toks[k-1].end] != "(" {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// kifText returns the KIF text of a ground term written in infix GDL, as an infix game's API
// writes it (cell(1,2,x) is (cell 1 2 x), "Edge" is Edge); a text that is not one infix term is
// returned as it is.
func kifText(s string) string {
	f, _ := syntax.ParseDialect(s, syntax.Infix)
	if len(f.Errors()) > 0 {
		return s
	}
	out, err := format.Convert(f, syntax.Prefix)
	if err != nil {
		return s
	}
	return canonical(strings.TrimSpace(out))
}

// kifTexts is kifText of each text.
func kifTexts(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = kifText(s)
	}
	return out
}
