package eval

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Relations split by the constants of their rules' heads.
//
// Many published games write (<= (goal robot 100) (not (goal robot 0))): goal depends
// negatively on itself, so the program is not stratified relation by relation, yet no ground
// instance depends on itself and the analyzer finds the negation stratified once goal's rules
// are told apart by the constants of their heads (analysis.Model.SplitRelations). Such a
// relation is evaluated as parts: one relation per pattern of constants among its rules' heads,
// holding what those rules derive, and the relation itself is the union of its parts. A body
// atom of the relation reads only the parts whose pattern it can match; under `not`, each of
// them must fail. The parts are stratified, so the rest of the evaluator needs nothing special.

// split is a relation evaluated as parts.
type split struct {
	whole *relation
	parts []*splitPart
	span  syntax.Span // the first rule's form, for the rules that join the parts
	first int         // that rule's clause
}

// splitPart is the part of a split relation for one head pattern.
type splitPart struct {
	rel    *relation
	consts []Term // per argument: the constant every head of the part has there, or 0
}

// headConsts returns, per argument of an atom pattern, its ground term or 0.
func (c *compiler) headConsts(p *pnode, arity int) []Term {
	out := make([]Term, arity)
	switch p.kind {
	case pConst: // a ground atom
		if arity > 0 {
			copy(out, c.g.st.argsOf(p.t))
		}
	case pFunc:
		for i, a := range p.args {
			if a.kind == pConst {
				out[i] = a.t
			}
		}
	}
	return out
}

// matches reports whether an atom with the given ground arguments can be a fact of the part.
func (sp *splitPart) matches(consts []Term) bool {
	for i, t := range sp.consts {
		if t != 0 && consts[i] != 0 && t != consts[i] {
			return false
		}
	}
	return true
}

// splits prepares the parts of every relation the analyzer found stratified once split, from
// the heads of its rules.
func (c *compiler) splits() map[*relation]*split {
	m := c.res.Model
	names := m.SplitRelations()
	if len(names) == 0 {
		return nil
	}
	want := map[analysis.Rel]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[*relation]*split{}
	for _, cl := range m.Clauses {
		if !want[cl.Rel()] {
			continue
		}
		rel, hp, err := c.atom(cl.Head, map[string]int{}, new([]string))
		if err != nil {
			continue
		}
		s := out[rel]
		if s == nil {
			s = &split{whole: rel, span: cl.Form.Span(), first: cl.Index}
			out[rel] = s
		}
		s.partFor(c, c.headConsts(hp, rel.arity))
	}
	return out
}

// partFor returns the part for a head pattern, creating it on first use.
func (s *split) partFor(c *compiler, consts []Term) *splitPart {
	for _, p := range s.parts {
		if equalTerms(p.consts, consts) {
			return p
		}
	}
	// A name no GDL symbol can have (it holds spaces): the relation and its pattern.
	var b strings.Builder
	b.WriteString(s.whole.name + "{")
	for i, t := range consts {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t == 0 {
			b.WriteByte('_')
		} else {
			c.g.st.format(&b, t)
		}
	}
	b.WriteByte('}')
	p := &splitPart{rel: c.g.relation(b.String(), s.whole.arity), consts: consts}
	s.parts = append(s.parts, p)
	return p
}

func equalTerms(a, b []Term) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// retarget returns atom pattern p with its relation's functor replaced by fn.
func (c *compiler) retarget(p *pnode, fn uint32) *pnode {
	switch p.kind {
	case pConst:
		return &pnode{kind: pConst, t: c.g.st.intern(fn, c.g.st.argsOf(p.t))}
	case pFunc:
		q := *p
		q.fn = fn
		return &q
	}
	return p
}

// head returns the relation and head pattern a rule of a split relation defines: its part.
func (s *split) head(c *compiler, hp *pnode) (*relation, *pnode) {
	p := s.partFor(c, c.headConsts(hp, s.whole.arity))
	return p.rel, c.retarget(hp, p.rel.fn)
}

// body rewrites the atoms of split relations in the alternatives of a rule body to read their
// parts: a positive atom (or a test) becomes one alternative per part it can match, a negated
// atom one negation per such part. An alternative with a positive atom that matches no part is
// dropped: it can never hold.
func (c *compiler) splitBody(splits map[*relation]*split, alts [][]lit) ([][]lit, error) {
	var out [][]lit
	for _, conj := range alts {
		cur := [][]lit{nil}
		for _, l := range conj {
			s := splits[l.rel]
			if s == nil {
				for i := range cur {
					cur[i] = append(cur[i], l)
				}
				continue
			}
			consts := c.headConsts(l.atom, s.whole.arity)
			var parts []*splitPart
			for _, p := range s.parts {
				if p.matches(consts) {
					parts = append(parts, p)
				}
			}
			if l.kind == litNeg {
				for i := range cur {
					for _, p := range parts {
						cur[i] = append(cur[i], lit{kind: litNeg, rel: p.rel, atom: c.retarget(l.atom, p.rel.fn)})
					}
				}
				continue
			}
			choices := make([][]lit, len(parts))
			for i, p := range parts {
				choices[i] = []lit{{kind: l.kind, rel: p.rel, atom: c.retarget(l.atom, p.rel.fn)}}
			}
			var err error
			if cur, err = product(cur, choices); err != nil {
				return nil, err
			}
		}
		out = append(out, cur...)
		if len(out) > maxDisjuncts {
			return nil, fmt.Errorf("more than %d alternatives after splitting %s", maxDisjuncts, conj[0].rel.label())
		}
	}
	return out, nil
}

// joinRules makes the relation the union of its parts: one rule whole(?1..?n) :- part(?1..?n)
// per part.
func (s *split) joinRules(c *compiler) []*rule {
	n := s.whole.arity
	vars := func(fn uint32) *pnode {
		if n == 0 {
			return &pnode{kind: pConst, t: c.g.st.intern(fn, nil)}
		}
		p := &pnode{kind: pFunc, fn: fn, args: make([]*pnode, n), flat: true}
		for i := range p.args {
			p.args[i] = &pnode{kind: pVar, v: i}
		}
		return p
	}
	names := make([]string, n)
	for i := range names {
		names[i] = "?" + string(rune('a'+i%26))
	}
	var out []*rule
	for _, p := range s.parts {
		out = append(out, &rule{rel: s.whole, head: vars(s.whole.fn), nvars: n, varNames: names, span: s.span, clause: s.first,
			body: []lit{{kind: litPos, rel: p.rel, atom: vars(p.rel.fn)}}})
	}
	return out
}
