package eval

// What the explanation engine (package explain) needs of the interpreter beyond queries typed
// by a user: terms taken apart and put together, rule bodies of the game itself asked as queries
// with some of their variables bound, single ground atoms checked, and literals written with a
// binding. The engine works on the game's clauses as written (analysis.Clause), so that its
// explanations name the rules and literals the author wrote; the interpreter only answers.

import (
	"context"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// Compose returns the term name(args...), or the constant name without arguments.
func (g *Program) Compose(name string, args ...Term) Term {
	return g.st.intern(g.st.functor(g.st.sym(name), len(args)), args)
}

// Decompose returns t's name, as the game spells it, and its arguments (none for a constant).
func (g *Program) Decompose(t Term) (string, []Term) {
	return g.st.name(t), append([]Term(nil), g.st.argsOf(t)...)
}

// Literals returns the query's literals as parsed (a top-level conjunction flattened).
func (q *Query) Literals() []syntax.Literal { return q.lits }

// BodyQuery compiles literals of the game's own clauses (a rule's body, or part of it) as a
// query, each variable whose key (syntax.VarKey) is in bind replaced by its value. Unlike
// ParseQuery it accepts variables bound in some disjuncts of an `or` only (as a rule does): an
// answer gives 0 for a variable its disjunct leaves unbound. Every variable a disjunct uses must
// occur in one of its positive atoms.
func (p *Program) BodyQuery(lits []syntax.Literal, bind map[string]Term) (*Query, error) {
	g := p.take()
	defer p.put(g)
	texts := make([]string, len(lits))
	for i, l := range lits {
		texts[i] = l.Text()
	}
	q := &Query{text: strings.Join(texts, " "), p: p, notation: g.notation, shown: lits, lits: lits, bind: bind, body: true}
	if _, err := q.compileIn(g, true); err != nil {
		return nil, err
	}
	return q, nil
}

// Holds reports whether the ground atom holds in state s with the joint move joint (nil: none).
// An atom of a relation the game does not define does not hold.
func (p *Program) Holds(ctx context.Context, s *State, joint []Term, atom Term) (bool, error) {
	g := p.take()
	_, ok := g.relByFn[g.st.rec(atom).fn]
	p.put(g)
	if !ok {
		return false, nil
	}
	q := &Query{text: p.String(atom), p: p, notation: p.notation, atom: atom}
	as, _, err := p.ask(ctx, s, joint, q, 1)
	return len(as) > 0, err
}

// Relation reports whether the game mentions the relation name/arity (a keyword relation
// included), whether it is defined by rules (true and does never are), and why it cannot be
// evaluated (a *RefusedError), if it cannot.
func (p *Program) Relation(name string, arity int) (known, ruled bool, refused error) {
	g := p.take()
	defer p.put(g)
	sym, ok := g.st.lookupSym(name)
	if !ok {
		return false, false, nil
	}
	fn, ok := g.st.lookupFn(sym, arity)
	if !ok {
		return false, false, nil
	}
	r, ok := g.relByFn[fn]
	if !ok {
		return false, false, nil
	}
	if r.refused != nil {
		refused = &RefusedError{Relation: r.label(), Diagnostics: r.refused}
	}
	return true, len(r.rules) > 0, refused
}

// FormatWith writes a literal or term of the game's clauses with the variables in bind (by key)
// replaced by their values, in the game's notation; unbound variables keep their names.
func (g *Program) FormatWith(c syntax.Cursor, bind map[string]Term) string {
	idx := make(map[string]int, len(bind))
	a := Answer{Values: make([]Term, 0, len(bind))}
	for k, v := range bind {
		if v != 0 {
			idx[k] = len(a.Values)
			a.Values = append(a.Values, v)
		}
	}
	var b strings.Builder
	if g.notation == syntax.Infix {
		g.formatInfix(&b, c, a, idx)
	} else {
		g.formatNode(&b, c, a, idx, true)
	}
	return b.String()
}
