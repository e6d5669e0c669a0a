package eval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gdl-lsp/gdl/syntax"
)

// Query is a compiled question: one or more body literals (atoms, `not`, `distinct`, `or`)
// with variables, like `(legal ?r ?m)`, `terminal` or `(true (cell ?x ?y b)) (not (p ?x))`.
// A Query is safe for concurrent use: each session that answers it compiles it once (its rules
// read that session's relations) and keeps the plans in compiled.
type Query struct {
	text     string
	notation syntax.Dialect   // the notation the query is written in (Format writes answers in it)
	shown    []syntax.Literal // the query's forms, as written (for Format)
	lits     []syntax.Literal // its literals, top-level (and ...) conjunctions flattened
	bind     map[string]Term  // BodyQuery: variables (by key) that stand for these values
	body     bool             // BodyQuery: a variable bound in some disjuncts of an or only is fine
	atom     Term             // Holds: the query is this ground atom (lits is empty)
	vars     []string         // variable names as first written
	move     bool
	state    bool
	p        *Program
	compiled sync.Map // *session -> *queryPlan
}

// queryPlan is a Query compiled in one session.
type queryPlan struct {
	rules []*rule // the query's disjuncts, each a rule without head
	plans []*plan
	rels  []*relation
	move  bool
	state bool
	gen   uint64 // the session's planGen when the plans were made
}

// compileIn returns q compiled in session g, compiling it on g's first use; the first
// compilation (made, when q is made, before it is shared) sets q's variables and layers.
func (q *Query) compileIn(g *session, made bool) (*queryPlan, error) {
	if qp, ok := q.compiled.Load(g); ok {
		return qp.(*queryPlan), nil
	}
	qp := &queryPlan{}
	seen := map[*relation]bool{}
	if q.atom != 0 {
		r := g.relByFn[g.st.rec(q.atom).fn]
		qp.addRule(g, &rule{body: []lit{{kind: litPos, rel: r, atom: &pnode{kind: pConst, t: q.atom}}}}, seen)
	} else {
		c := &compiler{g: g, bind: q.bind}
		vars := map[string]int{}
		var names []string
		alts, err := c.body(q.lits, vars, &names)
		if err != nil {
			return nil, fmt.Errorf("query %q: %v", q.text, err)
		}
		if made {
			q.vars = names
		}
		for _, conj := range alts {
			r := &rule{body: conj, nvars: len(vars), varNames: names}
			if v := q.unbound(r); v >= 0 {
				return nil, fmt.Errorf("query %q: variable %s must occur in a positive atom", q.text, names[v])
			}
			qp.addRule(g, r, seen)
		}
	}
	if made {
		q.move, q.state = qp.move, qp.state
	}
	q.compiled.Store(g, qp)
	return qp, nil
}

// unbound returns a variable of a disjunct of q that no positive atom binds, or -1.
func (q *Query) unbound(r *rule) int {
	if q.body {
		return unsafeVar(r)
	}
	bound := make([]bool, r.nvars)
	for _, l := range r.body {
		if l.kind == litPos {
			markVars(l.atom, bound, true)
		}
	}
	for v, b := range bound {
		if !b {
			return v
		}
	}
	return -1
}

// addRule adds a disjunct to the query, and the relations its body reads (seen: those added
// before).
func (qp *queryPlan) addRule(g *session, r *rule, seen map[*relation]bool) {
	qp.rules = append(qp.rules, r)
	for _, l := range r.body {
		if l.rel != nil && !seen[l.rel] {
			seen[l.rel] = true
			qp.rels = append(qp.rels, l.rel)
			g.attach(l.rel)
			// next and sees are about a joint move whatever their rules read.
			if l.rel.layer == layerMove || l.rel == g.nextRel || l.rel == g.seesRel || l.rel == g.doesRel {
				qp.move = true
			}
			if l.rel.layer != layerStatic {
				qp.state = true
			}
		}
	}
}

// Answer is one solution of a query: the values of its variables, in the order of Vars.
type Answer struct {
	Values []Term
}

// Vars returns the query's variables in order of first appearance, as written.
func (q *Query) Vars() []string { return q.vars }

// NeedsMove reports whether the query is about a joint move played in a state, not about a
// state alone: it mentions does, next or sees, or a relation whose rules depend on does.
func (q *Query) NeedsMove() bool { return q.move }

// NeedsState reports whether the query depends on `true` (or `does`); when it does not, its
// answers are the same in every state.
func (q *Query) NeedsState() bool { return q.state }

// Text returns the query as given.
func (q *Query) Text() string { return q.text }

// conjuncts flattens a query form written as a conjunction, (and l1 ... ln), into its literals
// (and is not GDL, but it is how people write a conjunction); any other form is one literal.
func conjuncts(l syntax.Literal) []syntax.Literal {
	if l.Kind() != syntax.LitAtom || l.Cursor.Kind() != syntax.List || l.Atom().Name().Key() != "and" {
		return []syntax.Literal{l}
	}
	var out []syntax.Literal
	for _, op := range l.Operands() {
		out = append(out, conjuncts(op)...)
	}
	return out
}

// checkLiteral refuses a query literal that names a relation the game never mentions, or with
// an arity the game never uses for it: such a query would silently have no answers. Relations
// the game mentions without defining them (a fluent never set, a keyword such as sees or base)
// are fine: their answers are legitimately none.
func (g *shared) checkLiteral(l syntax.Literal, d syntax.Dialect) error {
	switch l.Kind() {
	case syntax.LitNot, syntax.LitOr:
		for _, op := range l.Operands() {
			if err := g.checkLiteral(op, d); err != nil {
				return err
			}
		}
		return nil
	case syntax.LitAtom:
	default:
		return nil // distinct, and malformed literals the compiler reports
	}
	a := l.Atom()
	key, arity := a.Name().Key(), a.Arity()
	arities, known := g.known[key]
	if known && arities[arity] {
		return nil
	}
	name := a.Name().Name()
	if known {
		return fmt.Errorf("%s has arity %s in this game, not %d", name, orList(sortedKeys(arities)), arity)
	}
	if key == "and" {
		return fmt.Errorf("%s is only a conjunction at the top of a query; inside not and or, write the literals of a conjunction one after another in a rule of the game",
			map[syntax.Dialect]string{syntax.Prefix: "(and ...)", syntax.Infix: "and(...)"}[d])
	}
	msg := fmt.Sprintf("unknown relation %s/%d: the game does not mention it", name, arity)
	if fs, ok := g.functions[key]; ok {
		what := "a constant"
		if ar := sortedKeys(fs); len(ar) > 1 || ar[0] > 0 {
			what = "a function of arity " + orList(ar)
		}
		msg = fmt.Sprintf("unknown relation %s/%d: in this game %s is %s, not a relation", name, arity, name, what)
	}
	if s := g.suggest(key); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return fmt.Errorf("%s", msg)
}

// suggest returns the known relation closest to key (ties: the first in byte order), or "" when
// none is close: at most two edits away, and one edit per three characters of key.
func (g *shared) suggest(key string) string {
	best, bestD := "", 3
	for k := range g.known {
		d := editDistance(key, k)
		if 3*d > len(key)+1 {
			continue
		}
		if d < bestD || d == bestD && best != "" && k < best {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return g.spelling(best)
}

// editDistance is the Levenshtein distance of a and b (in bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// orList writes 1, 2 or 3.
func orList(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// attach gives a relation first seen in a query (so unknown to the game, and empty) its own
// component.
func (g *session) attach(r *relation) {
	if r.scc >= 0 {
		return
	}
	r.scc = len(g.comps)
	g.comps = append(g.comps, &component{rels: []*relation{r}})
}

// errEnough stops a query that has found the answers asked for.
var errEnough = errors.New("enough answers")

func (p *Program) ask(ctx context.Context, s *State, joint []Term, q *Query, max int) ([]Answer, bool, error) {
	if q.p != p {
		return nil, false, fmt.Errorf("query %q belongs to another game", q.text)
	}
	g := p.take()
	defer p.put(g)
	qp, err := q.compileIn(g, false)
	if err != nil {
		return nil, false, err
	}
	if joint != nil && len(joint) != len(g.roles) {
		return nil, false, fmt.Errorf("a joint move has one move per role: %d roles, %d moves", len(g.roles), len(joint))
	}
	g.begin(ctx)
	g.useState(s)
	g.useMove(joint)
	out, more, err := g.answers(q, qp, max)
	if err == errConservative {
		g.becomeConservative()
		out, more, err = g.answers(q, qp, max)
	}
	if err != nil {
		return nil, false, g.fail(err)
	}
	return out, more, nil
}

// answers evaluates a query in the current state and joint move.
func (g *session) answers(q *Query, qp *queryPlan, max int) ([]Answer, bool, error) {
	for _, r := range qp.rels {
		if err := g.ensure(r); err != nil {
			return nil, false, err
		}
	}
	if qp.plans == nil || qp.gen != g.planGen {
		qp.plans, qp.gen = nil, g.planGen
		for _, r := range qp.rules {
			qp.plans = append(qp.plans, g.planRule(r, -1, -1))
		}
	}
	g.askGen++
	g.askMax = max
	var out []Answer
	seen := map[string]bool{}
	key := make([]byte, 0, 4*len(q.vars))
	for _, p := range qp.plans {
		p.answers = func(env []Term) error {
			key = key[:0]
			for _, v := range env {
				key = append(key, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
			}
			if seen[string(key)] {
				return nil
			}
			if max > 0 && len(out) == max {
				return errEnough
			}
			seen[string(key)] = true
			out = append(out, Answer{Values: slices.Clone(env)})
			// Answers are held in memory like derived facts, and count against the same limit.
			g.bud.facts++
			if g.bud.facts > g.lim.MaxFacts {
				e := g.limitErr(LimitFacts, p, nil)
				e.Query = q.text
				return e
			}
			return nil
		}
		p.stream = max > 0
		err := g.run(p)
		p.answers, p.stream = nil, false
		if err == errEnough {
			return out, true, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	return out, false, nil
}

// Format writes an answer as the query instantiated by it, in the query's notation: canonical
// KIF, a 0-ary atom as its bare name, literals of a conjunction separated by a space; or infix,
// f(a,b), literals joined by " & ".
func (q *Query) Format(a Answer) string {
	g := q.p
	idx := map[string]int{}
	for i, v := range q.vars {
		idx[syntax.VarKey(v)] = i
	}
	var b strings.Builder
	for i, l := range q.shown {
		if i > 0 {
			b.WriteString(map[syntax.Dialect]string{syntax.Prefix: " ", syntax.Infix: " & "}[q.notation])
		}
		if q.notation == syntax.Infix {
			g.formatInfix(&b, l.Cursor, a, idx)
		} else {
			g.formatNode(&b, l.Cursor, a, idx, true)
		}
	}
	return b.String()
}

// formatInfix is formatNode for an infix query: f(a,b), ~l, (a | b).
func (g *shared) formatInfix(b *strings.Builder, c syntax.Cursor, a Answer, idx map[string]int) {
	switch c.Kind() {
	case syntax.Variable:
		if i, ok := idx[syntax.VarKey(c.Text())]; ok && i < len(a.Values) {
			g.formatIn(b, a.Values[i], syntax.Infix)
			return
		}
		b.WriteString(c.Text())
	case syntax.Word:
		name := g.spelling(c.Symbol().Name())
		if w, ok := syntax.Infix.Name(name); ok {
			name = w
		}
		b.WriteString(name)
	case syntax.List:
		el := c.Elements()
		head := el[0].Symbol()
		switch {
		case head.IsOperator() && head.Key() == "not":
			b.WriteByte('~')
			for _, e := range el[1:] {
				g.formatInfix(b, e, a, idx)
			}
		case head.IsOperator():
			b.WriteByte('(')
			for i, e := range el[1:] {
				if i > 0 {
					b.WriteString(" | ")
				}
				g.formatInfix(b, e, a, idx)
			}
			b.WriteByte(')')
		default:
			g.formatInfix(b, el[0], a, idx)
			if len(el) == 1 {
				return // terminal(), f(): the bare name
			}
			b.WriteByte('(')
			for i, e := range el[1:] {
				if i > 0 {
					b.WriteByte(',')
				}
				g.formatInfix(b, e, a, idx)
			}
			b.WriteByte(')')
		}
	default:
		b.WriteString(c.Text())
	}
}

// Binding returns the value of each variable as text, in the order of Vars.
func (q *Query) Binding(a Answer) []string {
	out := make([]string, len(a.Values))
	for i, v := range a.Values {
		out[i] = q.p.String(v)
	}
	return out
}

func (g *shared) formatNode(b *strings.Builder, c syntax.Cursor, a Answer, idx map[string]int, atomPos bool) {
	switch c.Kind() {
	case syntax.Variable:
		if i, ok := idx[syntax.VarKey(c.Text())]; ok && i < len(a.Values) {
			g.st.format(b, a.Values[i])
			return
		}
		b.WriteString(c.Text())
	case syntax.Word:
		b.WriteString(g.spelling(c.Text()))
	case syntax.List:
		el := c.Elements()
		if len(el) == 1 && el[0].Kind() == syntax.Word {
			b.WriteString(g.spelling(el[0].Text())) // (terminal), (f): the bare name
			return
		}
		b.WriteByte('(')
		for i, e := range el {
			if i > 0 {
				b.WriteByte(' ')
			}
			g.formatNode(b, e, a, idx, false)
		}
		b.WriteByte(')')
	default:
		b.WriteString(c.Text())
	}
}

// spelling returns the game's spelling of a symbol, or name itself for one the game lacks.
func (g *shared) spelling(name string) string {
	if id, ok := g.st.lookupSym(name); ok {
		return g.st.symName(id)
	}
	return name
}
