package analysis

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "goal-value",
		Severity: Error,
		Category: CategorySemantics,
		Summary: "A goal value that is not one of the constants 0 to 100: a word, a function term, a number out of " +
			"range, or a number spelled differently (050, +50: GDL compares symbols, so 050 is not 50). Values " +
			"that reach a goal rule through a variable from facts, as in (<= (goal ?r ?v) (score ?r ?v)), are " +
			"reported at the fact.",
		Example: "(<= (goal white win) (true (won white)))",
		Fix:     "Use an integer from 0 to 100 written without sign or leading zeros, for example 100 for a win and 0 for a loss.",
		Run: func(m *Model, r *Reporter) {
			var facts *factIndex
			reported := map[syntax.Span]bool{}
			for _, c := range m.clausesOf(KeywordRel("goal")) {
				v := atomArg(c.Head, 1)
				if v.Kind() == syntax.TermVariable {
					if facts == nil {
						facts = newFactIndex(m)
					}
					goalValuesFromFacts(c, v, facts, r, reported)
					continue
				}
				if msg, fix, bad := goalValueProblem(v); bad {
					r.Report(v.Span(), msg, nil, fix...)
				}
			}
		},
	})
}

// goalValueProblem says what is wrong with a goal value that is not a variable, with a fix when
// the value is a number from 0 to 100 spelled differently.
func goalValueProblem(v syntax.Term) (string, []syntax.Fix, bool) {
	switch v.Kind() {
	case syntax.TermConstant:
		text, name := v.Text(), v.Name().Name() // "50" in infix is the name 50
		n, err := strconv.Atoi(name)
		switch {
		case err == nil && n >= 0 && n <= 100 && strconv.Itoa(n) == name:
			return "", nil, false
		case err == nil && n >= 0 && n <= 100:
			canon := strconv.Itoa(n)
			return fmt.Sprintf("goal value %s is not one of the constants 0 to 100: GDL compares symbols, so %s is not %s", text, text, canon),
				[]syntax.Fix{replace("Write "+canon, v.Span(), canon)}, true
		}
		return "goal value " + text + " is not an integer from 0 to 100", nil, true
	case syntax.TermFunction:
		return "goal value " + v.Text() + " is a function term; goal values are integers from 0 to 100", nil, true
	}
	return "", nil, false
}

// factIndex holds the relations defined by ground facts only (no rule, no form with syntax
// errors, no variable in any fact): their values are known without evaluating anything. A
// relation is looked at when a goal rule asks for it, from the graph's clauses of each of its
// arities: the goal rules of a file ask for a few relations of thousands.
type factIndex struct {
	m     *Model
	facts map[string][]syntax.Atom // relation key -> its facts, in source order
	known map[string]bool          // relation key -> whether it is defined by facts only
}

func newFactIndex(m *Model) *factIndex {
	return &factIndex{m: m, facts: map[string][]syntax.Atom{}, known: map[string]bool{}}
}

// factsOf returns the facts of a fact-only relation other than the keywords the game manager
// provides (true, does), and whether the relation is one.
func (x *factIndex) factsOf(key string) ([]syntax.Atom, bool) {
	if key == "true" || key == "does" {
		return nil, false
	}
	if known, ok := x.known[key]; ok {
		return x.facts[key], known
	}
	var cs []*Clause
	if s := x.m.Relations[key]; s != nil && !x.m.Broken[key] {
		for a := range s.Arities() {
			cs = append(cs, x.m.clausesOf(Rel{key, a})...)
		}
	}
	slices.SortFunc(cs, func(a, b *Clause) int { return a.Index - b.Index })
	facts := make([]syntax.Atom, 0, len(cs))
	for _, c := range cs {
		if c.IsRule || len(c.Vars) > 0 {
			facts = nil
			break
		}
		facts = append(facts, c.Head)
	}
	known := len(facts) > 0
	x.known[key], x.facts[key] = known, facts
	return facts, known
}

// goalValuesFromFacts handles (<= (goal ?r ?v) ... (rel ... ?v ...) ...) where every atom that
// binds ?v is over a relation defined by ground facts only: the values of ?v are those facts'
// arguments, and each one that is not a valid goal value is reported at the fact. To avoid
// false alarms it gives up when ?v occurs anywhere else in the body (in a not, a distinct, an
// or, inside a function term), and it reports a fact only if that fact is consistent with the
// rest of the body as far as facts, not and distinct can tell.
func goalValuesFromFacts(c *Clause, v syntax.Term, facts *factIndex, r *Reporter, reported map[syntax.Span]bool) {
	key := v.Name().Key()
	type source struct {
		atom syntax.Atom
		arg  int
	}
	var sources []source
	for _, l := range c.Body {
		uses := false
		forEachVar(l.Cursor, func(name string, _ syntax.Span) { uses = uses || syntax.VarKey(name) == key })
		if !uses {
			continue
		}
		switch l.Kind() {
		case syntax.LitNot, syntax.LitDistinct:
			continue // they only filter; consistent decides them or gives up
		case syntax.LitAtom:
		default:
			return
		}
		a := l.Atom()
		if _, ok := facts.factsOf(a.Name().Key()); !ok {
			return
		}
		for i, t := range a.Args() {
			switch {
			case t.Kind() == syntax.TermVariable && t.Name().Key() == key:
				sources = append(sources, source{a, i})
			case t.Kind() == syntax.TermFunction:
				nested := false
				forEachVar(t.Cursor, func(name string, _ syntax.Span) { nested = nested || syntax.VarKey(name) == key })
				if nested {
					return
				}
			}
		}
	}
	if len(sources) == 0 {
		return // ?v is unsafe: unsafe-variable reports it
	}
	s := sources[0]
	fs, _ := facts.factsOf(s.atom.Name().Key())
	for _, f := range fs {
		if f.Arity() != s.atom.Arity() {
			continue
		}
		// The value first: nearly every fact gives a good one, and then nothing is matched.
		val := atomArg(f, s.arg)
		msg, fix, bad := goalValueProblem(val)
		if !bad || reported[val.Span()] {
			continue
		}
		b := bindings{}
		if !b.match(s.atom.Cursor, f.Cursor) || !consistent(c.Body, b, facts, key) {
			continue
		}
		reported[val.Span()] = true
		r.Report(val.Span(), msg+"; it is a goal value through "+v.Text()+" in "+c.Head.Text(),
			[]Related{{Span: c.Head.Span(), Message: "the goal rule that takes " + v.Text() + " from " + s.atom.Text()}}, fix...)
	}
}

// bindings maps variable keys to the canonical text of the ground term bound to them.
type bindings map[string]string

// match unifies a pattern (with variables) with a ground term, extending b.
func (b bindings) match(p, g syntax.Cursor) bool {
	if p.Kind() == syntax.Variable {
		k, v := p.Symbol().Key(), TermKey(g)
		if old, ok := b[k]; ok {
			return old == v
		}
		b[k] = v
		return true
	}
	if len(LiteralVars(p)) == 0 {
		return TermKey(p) == TermKey(g)
	}
	pe, ge := p.Elements(), g.Elements()
	if len(pe) != len(ge) {
		return false
	}
	for i := range pe {
		if !b.match(pe[i], ge[i]) {
			return false
		}
	}
	return true
}

// ground returns the canonical text of a term under b, or false when a variable is unbound.
func (b bindings) ground(t syntax.Cursor) (string, bool) {
	ok := true
	forEachVar(t, func(name string, _ syntax.Span) {
		if _, bound := b[syntax.VarKey(name)]; !bound {
			ok = false
		}
	})
	if !ok {
		return "", false
	}
	if t.Kind() == syntax.Variable {
		return b[t.Symbol().Key()], true
	}
	if t.Kind() != syntax.List {
		return TermKey(t), true
	}
	el := t.Elements()
	if len(el) == 1 {
		return b.ground(el[0])
	}
	out := "("
	for i, e := range el {
		s, _ := b.ground(e)
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out + ")", true
}

// consistent reports whether the body can still hold under b as far as ground facts tell: every
// positive atom over a fact-only relation has a fact that matches it, every distinct whose two
// sides are known differs, and no not of a known fact-only atom holds. What facts cannot decide
// (the state, the moves, rules, or) is assumed to hold, except in a literal with the goal value's
// variable key: there an undecided not or distinct makes the answer false, so that a value the
// rule may filter out is never reported.
func consistent(body []syntax.Literal, b bindings, facts *factIndex, key string) bool {
	for _, l := range body {
		strict := false
		forEachVar(l.Cursor, func(name string, _ syntax.Span) { strict = strict || syntax.VarKey(name) == key })
		switch l.Kind() {
		case syntax.LitAtom:
			fs, ok := facts.factsOf(l.Atom().Name().Key())
			if !ok {
				continue
			}
			found := false
			for _, f := range fs {
				nb := bindings{}
				for k, v := range b {
					nb[k] = v
				}
				if f.Arity() == l.Atom().Arity() && nb.match(l.Cursor, f.Cursor) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		case syntax.LitDistinct:
			ts := l.Terms()
			if len(ts) != 2 {
				if strict {
					return false
				}
				continue
			}
			x, ok1 := b.ground(ts[0].Cursor)
			y, ok2 := b.ground(ts[1].Cursor)
			if ok1 && ok2 {
				if x == y {
					return false
				}
			} else if strict {
				return false
			}
		case syntax.LitNot:
			ops := l.Operands()
			if len(ops) != 1 || ops[0].Kind() != syntax.LitAtom {
				if strict {
					return false
				}
				continue
			}
			a := ops[0].Atom()
			fs, ok := facts.factsOf(a.Name().Key())
			want, ground := b.ground(a.Cursor)
			if !ok || !ground {
				if strict {
					return false
				}
				continue
			}
			for _, f := range fs {
				if TermKey(f.Cursor) == want {
					return false
				}
			}
		default:
			if strict {
				return false
			}
		}
	}
	return true
}
