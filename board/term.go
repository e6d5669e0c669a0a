package board

import (
	"strings"
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
// guess.
func parseTerm(s string) (term, bool) {
	toks := tokens(s)
	t, n, ok := readTerm(toks, 0)
	if !ok || n != len(toks) {
		return term{}, false
	}
	return t, true
}

// tokens splits KIF text into "(", ")" and atoms.
func tokens(s string) []string {
	var out []string
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			out = append(out, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r()", rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

// readTerm reads the term starting at toks[i] with an explicit stack (no recursion, so a deep
// term cannot exhaust the goroutine stack), and returns it and the index after it.
func readTerm(toks []string, i int) (term, int, bool) {
	if i >= len(toks) || toks[i] == ")" {
		return term{}, i, false
	}
	if toks[i] != "(" {
		return term{name: toks[i], text: toks[i]}, i + 1, true
	}
	type frame struct {
		t     term
		start int
	}
	var stack []frame
	for i < len(toks) {
		switch tok := toks[i]; tok {
		case "(":
			if i+1 >= len(toks) || toks[i+1] == "(" || toks[i+1] == ")" {
				return term{}, i, false
			}
			stack = append(stack, frame{t: term{name: toks[i+1], args: []term{}}, start: i})
			i += 2
		case ")":
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f.t.text = join(toks[f.start : i+1])
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

// join writes tokens back as canonical KIF: single spaces, none inside parentheses.
func join(toks []string) string {
	var b strings.Builder
	for k, t := range toks {
		if k > 0 && t != ")" && toks[k-1] != "(" {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
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

// canonical writes KIF text with single spaces (for keys given by people, as in gdl.json).
func canonical(s string) string { return join(tokens(s)) }
