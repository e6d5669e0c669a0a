package verify

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// input and base: when a game defines `input` (the moves each role may ever make) and `base`
// (the fluents a state may ever hold), players rely on them to size their tables; every legal
// move and every fluent of a reachable state must be covered.

// relationAnswers evaluates a query of a relation the game defines in the initial state; ok is
// false when the game does not define the relation with that arity. A relation whose rules have
// no defined meaning gives a *eval.RefusedError.
func relationAnswers(ctx context.Context, g *game.Game, name string, arity int) ([]eval.Answer, bool, error) {
	m := g.Analysis().Model
	if !m.Defines(name) {
		return nil, false, nil
	}
	if sym := m.Relations[name]; sym != nil {
		for _, a := range slices.Sorted(maps.Keys(maps.Collect(sym.Arities()))) {
			if a != arity {
				return nil, false, &legacyError{name, arity, a}
			}
		}
	}
	vars := []string{"?r", "?m"}[:arity]
	q, err := g.ParseQuery("(" + name + " " + strings.Join(vars, " ") + ")")
	if err != nil {
		return nil, false, nil // defined with another arity: the analyzer reports that
	}
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, false, err
	}
	answers, err := g.Ask(ctx, s, nil, q)
	if err != nil {
		return nil, false, fmt.Errorf("evaluating %s: %w", name, err)
	}
	return answers, true, nil
}

// legacyError is input or base written with other arities, as before GDL gave them their
// meaning in 2010 (`(base cell (val 1 2 3) (val x o b))`, domain declarations).
type legacyError struct {
	name         string
	arity, other int
}

func (e *legacyError) Error() string {
	return fmt.Sprintf("%s is written with %d arguments too, not only %d: the notation before 2010 (late-keyword-as-term)", e.name, e.other, e.arity)
}

// refusal says why a relation cannot be checked: its rules have no defined meaning, or it is
// written in the old notation ("" for any other error).
func refusal(err error) string {
	var ref *eval.RefusedError
	var leg *legacyError
	switch {
	case errors.As(err, &ref):
		return ref.Error()
	case errors.As(err, &leg):
		return leg.Error()
	}
	return ""
}

// uncovered is a group of moves or fluents not covered, with the first few named.
type uncovered struct {
	groups
	named map[*group][]string
}

func (u *uncovered) add(key, kind string, role int, id int32, subject string) {
	gr, isNew := u.groups.add(key, kind, role, id)
	if isNew {
		gr.subject = subject
	}
	if u.named == nil {
		u.named = map[*group][]string{}
	}
	if len(u.named[gr]) < 4 {
		u.named[gr] = append(u.named[gr], subject)
	}
}

// others writes the other instances of a group: " (nor are (a) and (b))".
func (u *uncovered) others(gr *group, what string) string {
	rest := u.named[gr][1:]
	if len(rest) == 0 {
		return ""
	}
	more := ""
	if gr.count > len(rest)+1 {
		more = fmt.Sprintf(" and %d more", gr.count-len(rest)-1)
	}
	return fmt.Sprintf("; %d %s are not covered either: %s%s", gr.count-1, what, strings.Join(rest, ", "), more)
}

type inputCoverage struct {
	g       *game.Game
	refused string // why input cannot be evaluated
	defined bool
	input   []map[eval.Term]bool // per role, the moves input gives it
	seen    []termSet            // per role, the legal moves checked
	u       uncovered
}

// termSet is a set of terms, a bit per term number (terms are numbered densely).
type termSet []uint64

// add adds t and reports whether it was not there.
func (s *termSet) add(t eval.Term) bool {
	w, bit := int(t>>6), uint64(1)<<(t&63)
	if w < len(*s) && (*s)[w]&bit != 0 {
		return false
	}
	if w >= len(*s) {
		*s = append(*s, make([]uint64, w+1-len(*s))...)
	}
	(*s)[w] |= bit
	return true
}

func newInputCoverage(ctx context.Context, g *game.Game) (check, error) {
	c := &inputCoverage{g: g}
	answers, ok, err := relationAnswers(ctx, g, "input", 2)
	if c.refused = refusal(err); c.refused != "" {
		return c, nil
	}
	if err != nil || !ok {
		return c, err
	}
	c.defined = true
	idx := map[eval.Term]int{}
	for i, r := range g.Roles() {
		idx[r] = i
		c.input = append(c.input, map[eval.Term]bool{})
		c.seen = append(c.seen, nil)
	}
	for _, a := range answers {
		if i, ok := idx[a.Values[0]]; ok {
			c.input[i][a.Values[1]] = true
		}
	}
	return c, nil
}

func (c *inputCoverage) visit(x *explorer, v *visit) {
	if !c.defined {
		return
	}
	for r, ms := range v.legal {
		for _, m := range ms {
			if !c.seen[r].add(m) {
				continue
			}
			if !c.input[r][m] {
				c.u.add(fmt.Sprint(r), "not-in-input", r, v.id, c.g.String(m))
			}
		}
	}
}

func (c *inputCoverage) finish(ctx context.Context, x *explorer, r *Result) error {
	if c.refused != "" {
		r.Notes = append(r.Notes, "input coverage is not checked: "+c.refused)
	}
	if !c.defined {
		r.Properties[Input] = Skipped
		return nil
	}
	for _, gr := range c.u.order {
		role := c.g.RoleNames()[gr.role]
		msg := fmt.Sprintf("%s is a legal move of %s in this state, but input does not cover it%s",
			gr.subject, role, c.u.others(gr, "more legal moves of "+role))
		f, err := x.finding(ctx, Input, gr, msg, "input", "legal")
		if err != nil {
			return err
		}
		r.Findings = append(r.Findings, f)
	}
	r.Properties[Input] = x.verdict(len(c.u.order) > 0)
	return nil
}

type baseCoverage struct {
	g       *game.Game
	refused string // why base cannot be evaluated
	defined bool
	base    map[eval.Term]bool
	seen    termSet
	// seenBits: the union of the compiled states' keys visited (bytes after the first), whose
	// fluents are all in seen: a state whose key adds no bit to it adds no fluent.
	seenBits []byte
	u        uncovered
}

func newBaseCoverage(ctx context.Context, g *game.Game) (check, error) {
	c := &baseCoverage{g: g}
	answers, ok, err := relationAnswers(ctx, g, "base", 1)
	if c.refused = refusal(err); c.refused != "" {
		return c, nil
	}
	if err != nil || !ok {
		return c, err
	}
	c.defined = true
	c.base = map[eval.Term]bool{}
	for _, a := range answers {
		c.base[a.Values[0]] = true
	}
	return c, nil
}

func (c *baseCoverage) visit(x *explorer, v *visit) {
	if !c.defined {
		return
	}
	if key := x.states.key(v.id); key[0] == 'c' {
		if len(c.seenBits) != len(key)-1 {
			c.seenBits = make([]byte, len(key)-1)
		}
		more := false
		for i, b := range key[1:] {
			more = more || b&^c.seenBits[i] != 0
			c.seenBits[i] |= b
		}
		if !more {
			return
		}
	}
	s, err := x.state(v)
	if err != nil {
		x.fail(err)
		return
	}
	for _, f := range s.Fluents() {
		if !c.seen.add(f) {
			continue
		}
		if !c.base[f] {
			text := c.g.String(f)
			c.u.add(functor(text), "not-in-base", -1, v.id, text)
		}
	}
}

// functor returns the name of a term written in KIF: `(cell 1 1 b)` gives cell.
func functor(text string) string {
	text = strings.TrimPrefix(text, "(")
	if i := strings.IndexAny(text, " ()"); i >= 0 {
		return text[:i]
	}
	return text
}

func (c *baseCoverage) finish(ctx context.Context, x *explorer, r *Result) error {
	if c.refused != "" {
		r.Notes = append(r.Notes, "base coverage is not checked: "+c.refused)
	}
	if !c.defined {
		r.Properties[Base] = Skipped
		return nil
	}
	for _, gr := range c.u.order {
		where, rel := "this state holds", "next"
		if gr.id == 0 {
			where, rel = "the initial state holds", "init"
		}
		msg := fmt.Sprintf("%s %s, but base does not cover it%s", where, gr.subject,
			c.u.others(gr, "more fluents of "+functor(gr.subject)))
		f, err := x.finding(ctx, Base, gr, msg, "base", rel)
		if err != nil {
			return err
		}
		r.Findings = append(r.Findings, f)
	}
	r.Properties[Base] = x.verdict(len(c.u.order) > 0)
	return nil
}
