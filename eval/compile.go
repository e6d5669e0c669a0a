package eval

import (
	"fmt"
	"sort"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// layer says what a relation's facts depend on, and so how long they stay valid.
type layer uint8

const (
	layerStatic layer = iota // neither true nor does: computed once per game
	layerState               // true but not does: computed once per state
	layerMove                // does: computed once per state and joint move
)

// Pattern node kinds. A pattern is a term with variables, numbered per rule.
const (
	pConst uint8 = iota // a ground constant (or a ground term)
	pVar                // a variable (in build patterns; match patterns use pBind/pCheck)
	pFunc               // a function term (or an atom) with argument patterns
	pBind               // match: bind the variable to the term found here
	pCheck              // match: the term here must equal the variable's value
)

type pnode struct {
	kind uint8
	t    Term   // pConst
	v    int    // variable slot
	fn   uint32 // pFunc
	args []*pnode
	flat bool // pFunc whose arguments are all constants or variables
	cap  int  // match patterns: 1 + the slot that receives the term matched here, 0 for none
}

// Literal kinds after disjunctions are expanded and negations pushed inward.
const (
	litPos      uint8 = iota // a positive atom: binds variables
	litNeg                   // (not atom): all variables bound
	litCheck                 // (not (not atom)): a test that binds nothing
	litDistinct              // (distinct a b)
	litEqual                 // (not (distinct a b))
)

type lit struct {
	kind uint8
	rel  *relation // atoms
	atom *pnode    // atoms
	a, b *pnode    // distinct / equal
}

// rule is one clause, or one disjunct of a clause with `or` in its body.
type rule struct {
	rel      *relation
	head     *pnode
	body     []lit
	nvars    int
	varNames []string
	span     syntax.Span // the clause's form
	clause   int
	dropped  []lit      // the relaxed program of a grounding: negative literals left out (ground.go)
	excl     *exclusion // the relaxed program: grounded by exclusion counting (ground_exclusion.go)
}

type relation struct {
	name  string // display spelling
	arity int
	fn    uint32 // the functor of its atoms
	rules []*rule
	scc   int
	layer layer

	facts []Term
	gen   uint64 // facts whose stamp equals gen belong to the relation
	idxs  []*index
	bySig map[string]*index

	refused []analysis.Diagnostic // non-nil: the relation's meaning is undefined

	wraps termMap // unary relations: argument term -> the atom (rel arg), when made

	demand    *demand // non-nil: evaluated per subgoal, on demand (demand.go)
	inlined   uint64  // the query (session.askGen) that last read it rule by rule (inline)
	mayDemand bool    // to switch to demand-driven evaluation if it proves big (static or recursive)
	switched  bool    // switched to demand-driven evaluation: it proved too big whole

	// A magic relation of a restricted relaxed program (magicSets) with askCap > 0 stops the
	// evaluation (errMagicOver) when it holds more than askCap atoms: the size whole of the
	// relation it restricts, whose functor is askFor.
	askCap int
	askFor uint32
}

func (r *relation) label() string { return fmt.Sprintf("%s/%d", r.name, r.arity) }

// component is a strongly connected component of the relation graph.
type component struct {
	rels      []*relation
	rules     []*rule
	recursive bool
	layer     layer
	deps      []int // components used directly
	planned   bool
	evals     int     // evaluations so far (dynamic components are replanned as facts become typical)
	full      []*plan // one plan per rule, every atom over all facts
	delta     []*plan // recursive components: one plan per rule and recursive body atom
	done      uint64  // epoch in which the facts were computed (static: any non-zero)
	needs     []int   // this and everything it depends on, dependencies first (lazily)
	demanded  bool    // its relations are evaluated on demand (recursive ones whole when asked with nothing bound)
	ready     uint64  // demanded: the epoch in which what its rules read of other components was computed
}

// compiler turns the analysed clauses into relations and rules.
type compiler struct {
	g    *session
	res  *analysis.Result
	bind map[string]Term // BodyQuery: variables (by key) that stand for these values
}

// relation returns the relation for name/arity, creating it on first use.
func (g *session) relation(name string, arity int) *relation {
	fn := g.st.functor(g.st.sym(name), arity)
	if r, ok := g.relByFn[fn]; ok {
		return r
	}
	r := &relation{name: g.st.fnName(fn), arity: arity, fn: fn, bySig: map[string]*index{}, scc: -1}
	r.gen = g.newGen()
	r.refused = append(r.refused, g.broken[syntax.Fold(name)]...)
	g.relByFn[fn] = r
	g.rels = append(g.rels, r)
	return r
}

// term converts a syntax term into a pattern, numbering variables in vars.
func (c *compiler) term(t syntax.Term, vars map[string]int, names *[]string) (*pnode, error) {
	switch t.Kind() {
	case syntax.TermConstant:
		return &pnode{kind: pConst, t: c.g.st.constant(t.Name().Name())}, nil
	case syntax.TermVariable:
		if v, ok := c.bind[t.Name().Key()]; ok && v != 0 {
			return &pnode{kind: pConst, t: v}, nil
		}
		return varNode(t.Name().Key(), t.Name().Name(), vars, names), nil
	case syntax.TermFunction:
		args := t.Args()
		if len(args) == 0 {
			return &pnode{kind: pConst, t: c.g.st.constant(t.Name().Name())}, nil
		}
		fn := c.g.st.functor(c.g.st.sym(t.Name().Name()), len(args))
		return c.compound(fn, args, vars, names)
	}
	return nil, fmt.Errorf("%q is not a term", t.Text())
}

func varNode(key, name string, vars map[string]int, names *[]string) *pnode {
	v, ok := vars[key]
	if !ok {
		v = len(vars)
		vars[key] = v
		*names = append(*names, name)
	}
	return &pnode{kind: pVar, v: v}
}

// compound builds fn(args...), folding it into a constant when it is ground.
func (c *compiler) compound(fn uint32, args []syntax.Term, vars map[string]int, names *[]string) (*pnode, error) {
	n := &pnode{kind: pFunc, fn: fn, args: make([]*pnode, len(args))}
	ground := true
	for i, a := range args {
		p, err := c.term(a, vars, names)
		if err != nil {
			return nil, err
		}
		n.args[i] = p
		ground = ground && p.kind == pConst
	}
	n.flat = true
	for _, a := range n.args {
		n.flat = n.flat && a.kind != pFunc
	}
	if ground {
		ids := make([]Term, len(args))
		for i, p := range n.args {
			ids[i] = p.t
		}
		return &pnode{kind: pConst, t: c.g.st.intern(fn, ids)}, nil
	}
	return n, nil
}

// maxNesting bounds the nesting of the terms of a rule or a query (a query's literals as well):
// the compiled patterns are walked recursively, and a term deeper than this could only make
// facts beyond any sensible term depth limit (Limits.MaxDepth; 256 by default). A rule with
// deeper terms is refused (eval-unsupported); a query, with an error.
const maxNesting = 10_000

// nesting returns how deep lists nest in c: 0 for a word, 1 for (a b), and so on. An explicit
// stack: this is what bounds the recursion of everything after it.
func nesting(c syntax.Cursor) int {
	type at struct {
		n     *syntax.Node
		depth int
	}
	deepest := 0
	stack := []at{{c.Node(), 0}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.n.Kind != syntax.List {
			continue
		}
		deepest = max(deepest, x.depth+1)
		for i := range x.n.Kids {
			if x.n.Kids[i].Kind == syntax.List {
				stack = append(stack, at{&x.n.Kids[i], x.depth + 1})
			}
		}
	}
	return deepest
}

// errTooDeep says that a rule or a query nests deeper than maxNesting.
var errTooDeep = fmt.Errorf("its terms nest more than %d levels deep, beyond what the evaluator takes", maxNesting)

// atom converts an atom into its relation and pattern.
func (c *compiler) atom(a syntax.Atom, vars map[string]int, names *[]string) (*relation, *pnode, error) {
	if !a.Valid() {
		return nil, nil, fmt.Errorf("%q is not an atom", a.Text())
	}
	rel := c.g.relation(a.Name().Name(), a.Arity())
	if nesting(a.Cursor) > maxNesting+1 { // the atom's own list, and its terms
		return rel, nil, errTooDeep
	}
	if a.Arity() == 0 {
		return rel, &pnode{kind: pConst, t: c.g.st.intern(rel.fn, nil)}, nil
	}
	p, err := c.compound(rel.fn, a.Args(), vars, names)
	return rel, p, err
}

// maxDisjuncts bounds the expansion of `or` into separate rules, and maxExpansion the literals
// of all of them together.
const (
	maxDisjuncts = 4096
	maxExpansion = 1 << 20
)

// expand turns a body literal into a disjunction of conjunctions of simple literals: each `or`
// gives alternatives, and `not` is pushed inward ((not (or a b)) is (not a) and (not b); an atom
// under two `not`s is a test that binds nothing). The literal is walked with an explicit stack
// of the `or`s being expanded: a `not` only turns the polarity, and an `or` of one branch is that
// branch, so nesting of any depth takes no stack. The alternatives held by the ors that are
// positive all the way from the top all reach the result: once they are more than maxDisjuncts,
// the expansion stops there, before it walks (and compiles) the rest of an or nested a million
// deep.
func (c *compiler) expand(l syntax.Literal, vars map[string]int, names *[]string) ([][]lit, error) {
	var stack orStack
	cur, pos, underNot := l, true, false
	for {
		var res [][]lit
		switch cur.Kind() {
		case syntax.LitAtom, syntax.LitDistinct:
			var err error
			if res, err = c.simpleLit(cur, pos, underNot, vars, names); err != nil {
				return nil, err
			}
		case syntax.LitNot:
			ops := cur.Operands()
			if len(ops) != 1 {
				return nil, fmt.Errorf("`not` takes one literal, not %d", len(ops))
			}
			cur, pos, underNot = ops[0], !pos, true
			continue
		case syntax.LitOr:
			f := &orFrame{ops: cur.Operands(), pos: pos, underNot: underNot}
			if len(f.ops) == 1 {
				cur = f.ops[0]
				continue
			}
			if !pos {
				f.out = [][]lit{nil} // the negation of no branch holds
			}
			if len(f.ops) > 0 {
				stack.push(f)
				cur, f.next = f.ops[0], 1
				continue
			}
			res = f.out
		default:
			return nil, fmt.Errorf("%q is not a literal", cur.Text())
		}
		f, out, err := stack.give(res)
		if err != nil {
			return nil, err
		}
		if f == nil {
			return out, nil
		}
		cur, pos, underNot = f.ops[f.next], f.pos, f.underNot
		f.next++
	}
}

// An orFrame is an or being expanded: its operands, the next one, its polarity and what the
// operands expanded so far give (their union; for a negated or, the product of their
// negations).
type orFrame struct {
	ops      []syntax.Literal
	next     int
	pos      bool
	underNot bool
	out      [][]lit
}

// An orStack is the ors being expanded, innermost last (expand). The ors frames[:positive] are
// positive, and their outs hold held alternatives, all of which reach the result.
type orStack struct {
	frames         []*orFrame
	positive, held int
}

// push opens an or.
func (st *orStack) push(f *orFrame) {
	if st.positive == len(st.frames) && f.pos {
		st.positive++
	}
	st.frames = append(st.frames, f)
}

// give gives res, the expansion of an operand, to the ors it is in, as far as they are
// complete: it returns the innermost or with an operand left to expand, or, when none is, the
// expansion of the whole literal.
func (st *orStack) give(res [][]lit) (*orFrame, [][]lit, error) {
	for len(st.frames) > 0 {
		f := st.frames[len(st.frames)-1]
		var err error
		if f.pos {
			f.out = append(f.out, res...)
			if len(st.frames) <= st.positive {
				st.held += len(res)
			}
			if len(f.out) > maxDisjuncts || st.held > maxDisjuncts {
				err = fmt.Errorf("more than %d alternatives after expanding `or`", maxDisjuncts)
			}
		} else {
			f.out, err = product(f.out, res)
		}
		if err != nil {
			return nil, nil, err
		}
		if f.next < len(f.ops) {
			return f, nil, nil
		}
		res = f.out
		st.frames = st.frames[:len(st.frames)-1]
		if len(st.frames) < st.positive {
			// Its alternatives go to the or above.
			st.positive, st.held = len(st.frames), st.held-len(f.out)
		}
	}
	return nil, res, nil
}

// simpleLit compiles an atom or a distinct, with polarity pos (underNot: it is under a `not`,
// so a positive atom is a test that binds nothing), as a disjunction of one literal.
func (c *compiler) simpleLit(l syntax.Literal, pos, underNot bool, vars map[string]int, names *[]string) ([][]lit, error) {
	if l.Kind() == syntax.LitDistinct {
		a, b, err := c.pair(l, vars, names)
		if err != nil {
			return nil, err
		}
		kind := litEqual
		if pos {
			kind = litDistinct
		}
		return [][]lit{{{kind: kind, a: a, b: b}}}, nil
	}
	rel, p, err := c.atom(l.Atom(), vars, names)
	if err != nil {
		return nil, err
	}
	kind := litNeg
	if pos && underNot {
		kind = litCheck
	} else if pos {
		kind = litPos
	}
	return [][]lit{{{kind: kind, rel: rel, atom: p}}}, nil
}

func (c *compiler) pair(l syntax.Literal, vars map[string]int, names *[]string) (*pnode, *pnode, error) {
	ts := l.Terms()
	if len(ts) != 2 {
		return nil, nil, fmt.Errorf("`distinct` takes two terms, not %d", len(ts))
	}
	if nesting(l.Cursor) > maxNesting+1 {
		return nil, nil, errTooDeep
	}
	a, err := c.term(ts[0], vars, names)
	if err != nil {
		return nil, nil, err
	}
	b, err := c.term(ts[1], vars, names)
	return a, b, err
}

func product(a, b [][]lit) ([][]lit, error) {
	if len(a)*len(b) > maxDisjuncts {
		return nil, fmt.Errorf("more than %d alternatives after expanding `or`", maxDisjuncts)
	}
	if size(a)*len(b)+size(b)*len(a) > maxExpansion {
		return nil, fmt.Errorf("more than %d literals after expanding `or`", maxExpansion)
	}
	out := make([][]lit, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			conj := make([]lit, 0, len(x)+len(y))
			conj = append(append(conj, x...), y...)
			out = append(out, conj)
		}
	}
	return out, nil
}

// size returns the number of literals of a disjunction of conjunctions.
func size(alts [][]lit) int {
	n := 0
	for _, conj := range alts {
		n += len(conj)
	}
	return n
}

// body expands a whole rule body.
func (c *compiler) body(ls []syntax.Literal, vars map[string]int, names *[]string) ([][]lit, error) {
	out := [][]lit{nil}
	for _, l := range ls {
		alts, err := c.expand(l, vars, names)
		if err != nil {
			return nil, err
		}
		if out, err = product(out, alts); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// edb relations are given by the state and the joint move; rules may not define them.
func isEDB(key string) bool { return key == "true" || key == "does" }

// compile builds the relations and rules of the analysed file, marks the relations whose
// meaning is undefined, and orders the relations in components.
func (c *compiler) compile() {
	c.compileRules()
	c.g.components()
	c.g.chooseDemanded()
}

// compileRules builds the relations and rules of the analysed file, and marks the relations
// whose meaning is undefined.
func (c *compiler) compileRules() {
	g, m := c.g, c.res.Model
	// Display spellings: the first occurrence of each symbol in the file.
	for _, o := range m.AllOccurrences() {
		switch o.Kind {
		case analysis.OccRelation, analysis.OccFunction, analysis.OccConstant:
			g.st.sym(o.Name)
		}
	}
	c.brokenForms()
	g.trueRel = g.relation("true", 1)
	g.doesRel = g.relation("does", 2)
	refused := c.refusedClauses()
	splits := c.splits()
	for _, cl := range m.Clauses {
		c.compileClause(cl, splits, refused[cl.Index])
	}
	for _, s := range splits {
		s.whole.rules = append(s.whole.rules, s.joinRules(c)...)
	}
	g.roleRel = g.relation("role", 1)
	g.initRel = g.relation("init", 1)
	g.legalRel = g.relation("legal", 2)
	g.nextRel = g.relation("next", 1)
	g.goalRel = g.relation("goal", 2)
	g.terminalRel = g.relation("terminal", 0)
	g.seesRel = g.relation("sees", 2)
}

// brokenForms fills g.broken. Forms with syntax errors are not clauses. The relations they were
// meant to define are refused with the parser's errors, so that no answer silently misses a
// rule being typed: the analysis's diagnostics inside the form (sorted by position), or, when
// it has none there (it lists the first syntax.MaxErrors errors of a file), the form's own
// errors.
func (c *compiler) brokenForms() {
	g := c.g
	g.broken = map[string][]analysis.Diagnostic{}
	ds := c.res.Diagnostics
	for _, fm := range c.res.Model.File.Forms() {
		if !fm.HasErrors() {
			continue
		}
		key := analysis.BrokenHeadKey(fm)
		if key == "" {
			continue
		}
		sp := fm.Span()
		found := false
		for i := sort.Search(len(ds), func(i int) bool { return ds[i].Span.Start >= sp.Start }); i < len(ds) && sp.Contains(ds[i].Span.Start); i++ {
			if ds[i].Category == analysis.CategorySyntax {
				g.broken[key] = append(g.broken[key], ds[i])
				found = true
			}
		}
		if !found {
			for _, e := range fm.Errors() {
				g.broken[key] = append(g.broken[key], analysis.SyntaxDiagnostic(e))
			}
		}
	}
}

// refusedClauses returns, per clause index, the analysis's diagnostics inside the clause that
// leave its meaning undefined.
func (c *compiler) refusedClauses() map[int][]analysis.Diagnostic {
	m := c.res.Model
	refused := map[int][]analysis.Diagnostic{}
	for _, d := range c.res.Diagnostics {
		if !d.Undefines() {
			continue
		}
		if cl := m.ClauseAt(d.Span.Start); cl != nil && cl.Form.Span().Contains(d.Span.End) {
			refused[cl.Index] = append(refused[cl.Index], d)
		}
	}
	return refused
}

// compileClause adds the rules of clause cl to its relation (one per alternative of its body),
// or refuses the relation with the diagnostics refused, or with why the clause cannot be
// evaluated.
func (c *compiler) compileClause(cl *analysis.Clause, splits map[*relation]*split, refused []analysis.Diagnostic) {
	head := cl.Head
	key := head.Name().Key()
	if isEDB(key) || analysis.Connectives[key] || key == "distinct" {
		return // reported by the analyzer; such clauses have no meaning to evaluate
	}
	vars := map[string]int{}
	var names []string
	rel, hp, err := c.atom(head, vars, &names)
	if err == errTooDeep {
		rel.refused = append(rel.refused, c.diag(cl.Form.Span(), "eval-unsupported", "this rule: "+err.Error()))
		return
	}
	if err != nil {
		return
	}
	if s := splits[rel]; s != nil {
		rel, hp = s.head(c, hp)
	}
	if refused != nil {
		rel.refused = append(rel.refused, refused...)
		return
	}
	alts, err := c.body(cl.Body, vars, &names)
	if err == nil && splits != nil {
		alts, err = c.splitBody(splits, alts)
	}
	if err == errTooDeep {
		err = fmt.Errorf("this rule: %v", err)
	}
	if err != nil {
		rel.refused = append(rel.refused, c.diag(cl.Form.Span(), "eval-unsupported", err.Error()))
		return
	}
	for _, conj := range alts {
		r := &rule{rel: rel, head: hp, body: conj, nvars: len(vars), varNames: names, span: cl.Form.Span(), clause: cl.Index}
		if v := unsafeVar(r); v >= 0 {
			rel.refused = append(rel.refused, c.diag(cl.Form.Span(), "unsafe-variable",
				fmt.Sprintf("variable %s of this rule is not bound by a positive atom of its body", names[v])))
			break
		}
		rel.rules = append(rel.rules, r)
	}
}

func (c *compiler) diag(span syntax.Span, code, msg string) analysis.Diagnostic {
	return analysis.Diagnostic{Span: span, Severity: analysis.Error, Code: code, Category: analysis.CategorySemantics, Message: msg}
}

// unsafeVar returns a variable of r that no positive body atom binds, or -1.
func unsafeVar(r *rule) int {
	bound := make([]bool, r.nvars)
	for _, l := range r.body {
		if l.kind == litPos {
			markVars(l.atom, bound, true)
		}
	}
	used := make([]bool, r.nvars)
	if r.head != nil { // a query's rule has none
		markVars(r.head, used, true)
	}
	for _, l := range r.body {
		switch l.kind {
		case litNeg, litCheck:
			markVars(l.atom, used, true)
		case litDistinct, litEqual:
			markVars(l.a, used, true)
			markVars(l.b, used, true)
		}
	}
	for v := range used {
		if used[v] && !bound[v] {
			return v
		}
	}
	return -1
}

func markVars(p *pnode, set []bool, val bool) {
	switch p.kind {
	case pVar, pBind, pCheck:
		set[p.v] = val
	case pFunc:
		for _, a := range p.args {
			markVars(a, set, val)
		}
	}
}

// components computes the strongly connected components of the relation graph (dependencies
// first), their layers, and which relations are refused because something they use is.
func (g *session) components() {
	t := &tarjan{g: g, index: map[*relation]int{}, low: map[*relation]int{}, on: map[*relation]bool{}}
	for _, r := range g.rels {
		if _, seen := t.index[r]; !seen {
			t.visit(r)
		}
	}
	for id, comp := range g.comps {
		g.summarize(id, comp)
	}
}

// tarjan is the state of Tarjan's algorithm on the relation graph (components).
type tarjan struct {
	g          *session
	index, low map[*relation]int
	on         map[*relation]bool // on the stack
	stack      []*relation
	next       int
}

// relDeps returns the relations r's rules read.
func relDeps(r *relation) []*relation {
	var out []*relation
	for _, ru := range r.rules {
		for _, l := range ru.body {
			if l.rel != nil {
				out = append(out, l.rel)
			}
		}
	}
	return out
}

// visit numbers r, visits what it depends on, and, when r is the root of a component, pops the
// component into g.comps.
func (t *tarjan) visit(r *relation) {
	t.index[r], t.low[r] = t.next, t.next
	t.next++
	t.stack = append(t.stack, r)
	t.on[r] = true
	for _, w := range relDeps(r) {
		if _, seen := t.index[w]; !seen {
			t.visit(w)
			t.low[r] = min(t.low[r], t.low[w])
		} else if t.on[w] {
			t.low[r] = min(t.low[r], t.index[w])
		}
	}
	if t.low[r] != t.index[r] {
		return
	}
	g := t.g
	comp := &component{}
	for {
		w := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.on[w] = false
		w.scc = len(g.comps)
		comp.rels = append(comp.rels, w)
		if w == r {
			break
		}
	}
	sort.Slice(comp.rels, func(i, j int) bool { return comp.rels[i].fn < comp.rels[j].fn })
	g.comps = append(g.comps, comp)
}

// summarize sets component id's rules, layer, dependencies and recursion, and refuses its
// relations when one of them is, when it negates itself, or when a component it reads is
// refused. The components it depends on come before it.
func (g *session) summarize(id int, comp *component) {
	seenDep := map[int]bool{}
	var refused []analysis.Diagnostic
	for _, r := range comp.rels {
		refused = append(refused, r.refused...)
	}
	for _, r := range comp.rels {
		switch r {
		case g.trueRel:
			comp.layer = max(comp.layer, layerState)
		case g.doesRel:
			comp.layer = max(comp.layer, layerMove)
		}
		comp.rules = append(comp.rules, r.rules...)
		for _, ru := range r.rules {
			for _, l := range ru.body {
				if l.rel == nil {
					continue
				}
				d := l.rel.scc
				if d == id {
					comp.recursive = true
					if l.kind != litPos && !hasCode(refused, "unstratified-negation") {
						refused = append(refused, analysis.Diagnostic{Span: ru.span, Severity: analysis.Error,
							Code: "unstratified-negation", Category: analysis.CategorySemantics,
							Message: fmt.Sprintf("%s is negated in a cycle through itself", l.rel.label())})
					}
					continue
				}
				dc := g.comps[d]
				comp.layer = max(comp.layer, dc.layer)
				if !seenDep[d] {
					seenDep[d] = true
					comp.deps = append(comp.deps, d)
				}
				if dc.rels[0].refused != nil && len(refused) == 0 {
					refused = append(refused, dc.rels[0].refused...)
				}
			}
		}
	}
	for _, r := range comp.rels {
		r.layer = comp.layer
		if len(refused) > 0 {
			r.refused = refused
		}
	}
}

func hasCode(ds []analysis.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}

// needs returns the components c depends on, itself last, dependencies first.
func (g *session) needs(c int) []int {
	comp := g.comps[c]
	if comp.needs != nil {
		return comp.needs
	}
	seen := map[int]bool{}
	var out []int
	var walk func(int)
	walk = func(i int) {
		if seen[i] {
			return
		}
		seen[i] = true
		if i != c && g.comps[i].demanded {
			return // evaluated per subgoal, with what it uses (ensureBody)
		}
		for _, d := range g.comps[i].deps {
			walk(d)
		}
		out = append(out, i)
	}
	walk(c)
	comp.needs = out
	return out
}
