package explain

import (
	"context"
	"fmt"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

// maxNest bounds the nesting of terms and of `not`/`or` inside one literal that the engine
// walks; deeper ones are refused with errTooDeep rather than walked by a deeper recursion.
const maxNest = 256

var errTooDeep = fmt.Errorf("a term or literal nested more than %d levels deep", maxNest)

// engine is one explanation's state: the game, the state and joint move, the game's rules by
// head, and the proofs' memo.
type engine struct {
	ctx     context.Context
	ev      *eval.Program
	res     *analysis.Result
	st      *eval.State
	joint   []eval.Term
	opts    Options
	depth   int                  // levels explained below the literal asked
	topBind map[string]eval.Term // ExplainLiteral: the bindings of the literal asked
	rules   map[analysis.Rel][]*analysis.Clause
	lines   *syntax.LineIndex
	vars    map[int][]varName // per clause: its variables in order of first appearance

	// proofs (prove.go)
	minH      map[eval.Term]int // the height of an atom's shortest proof, once known
	failBelow map[eval.Term]int // no proof of at most this height
	proved    map[eval.Term]int // a proof of at most this height exists
	insts     map[instKey][]instance
	built     map[eval.Term]*Node
	ids       int

	nodes int
	cut   bool
	err   error // the first evaluation error (a limit, a cancellation); the explanation stops
}

type varName struct{ key, name string }

func newEngine(ctx context.Context, ev *eval.Program, res *analysis.Result, s *eval.State, joint []eval.Term, opts Options) *engine {
	if opts.Text != nil {
		res = opts.Text
	}
	e := &engine{ctx: ctx, ev: ev, res: res, st: s, joint: joint, opts: opts.withDefaults(),
		rules: map[analysis.Rel][]*analysis.Clause{}, lines: res.Model.File.Lines(), vars: map[int][]varName{},
		minH: map[eval.Term]int{}, failBelow: map[eval.Term]int{}, proved: map[eval.Term]int{},
		insts: map[instKey][]instance{}, built: map[eval.Term]*Node{}}
	for _, c := range res.Model.Clauses {
		if !c.Head.Valid() {
			continue
		}
		rel := analysis.Rel{Key: c.Head.Name().Key(), Arity: c.Head.Arity()}
		e.rules[rel] = append(e.rules[rel], c)
	}
	return e
}

// fail records the first evaluation error.
func (e *engine) fail(err error) {
	if e.err == nil && err != nil {
		e.err = err
	}
}

// newNode counts a node against the node limit.
func (e *engine) newNode(kind Kind, literal string, holds bool) *Node {
	e.nodes++
	return &Node{Kind: kind, Literal: literal, Holds: holds}
}

// cutNode stands for what is left out, saying why.
func (e *engine) cutNode(literal string, holds bool, why string) *Node {
	e.cut = true
	n := e.newNode(KindCut, literal, holds)
	n.Note = "cut here: " + why
	return n
}

// overLimit says why nothing more is explained at level, or "".
func (e *engine) overLimit(level int) string {
	switch {
	case level >= e.depth:
		return fmt.Sprintf("--depth %d reached", e.depth)
	case e.nodes >= e.opts.MaxNodes:
		return e.nodeLimit()
	}
	return ""
}

// nodeLimit says that the node limit is reached.
func (e *engine) nodeLimit() string {
	return fmt.Sprintf("the limit of %d nodes reached", e.opts.MaxNodes)
}

func (e *engine) format(c syntax.Cursor, bind map[string]eval.Term) string {
	return e.ev.FormatWith(c, bind)
}

// extend returns bind with the query's variables set to an answer's values (0: unbound).
func (e *engine) extend(bind map[string]eval.Term, vars []string, a eval.Answer) map[string]eval.Term {
	out := make(map[string]eval.Term, len(bind)+len(vars))
	for k, v := range bind {
		out[k] = v
	}
	for i, v := range vars {
		if i < len(a.Values) && a.Values[i] != 0 {
			out[syntax.VarKey(v)] = a.Values[i]
		}
	}
	return out
}

// ask returns the first max answers of literals under bind (nil when they cannot be asked as
// a query: a variable of a negation that nothing binds).
func (e *engine) ask(lits []syntax.Literal, bind map[string]eval.Term, max int) ([]map[string]eval.Term, bool) {
	if e.err != nil {
		return nil, false
	}
	q, err := e.ev.BodyQuery(lits, bind)
	if err != nil {
		return nil, false
	}
	as, _, err := e.ev.AskFirst(e.ctx, e.st, e.joint, q, max)
	if err != nil {
		e.fail(err)
		return nil, false
	}
	out := make([]map[string]eval.Term, len(as))
	for i, a := range as {
		out[i] = e.extend(bind, q.Vars(), a)
	}
	return out, true
}

// holdsUnder reports whether lit holds under bind for some values of its other variables;
// asked is false when it cannot be asked (an unbound variable under a negation).
func (e *engine) holdsUnder(lit syntax.Literal, bind map[string]eval.Term) (holds, asked bool) {
	as, ok := e.ask([]syntax.Literal{lit}, bind, 1)
	return len(as) > 0, ok
}

// ground returns the term t with the variables of bind replaced, or false when a variable is
// unbound.
func (e *engine) ground(t syntax.Term, bind map[string]eval.Term) (eval.Term, bool) {
	return e.groundAt(t, bind, 0)
}

func (e *engine) groundAt(t syntax.Term, bind map[string]eval.Term, depth int) (eval.Term, bool) {
	if depth > maxNest {
		e.fail(errTooDeep)
		return 0, false
	}
	switch t.Kind() {
	case syntax.TermConstant:
		return e.ev.Compose(t.Name().Name()), true
	case syntax.TermVariable:
		v := bind[t.Name().Key()]
		return v, v != 0
	case syntax.TermFunction:
		args := make([]eval.Term, 0, t.Arity())
		for _, a := range t.ArgSeq() {
			v, ok := e.groundAt(a, bind, depth+1)
			if !ok {
				return 0, false
			}
			args = append(args, v)
		}
		return e.ev.Compose(t.Name().Name(), args...), true
	}
	return 0, false
}

// groundAtom returns the atom a with bind applied, or false when a variable is unbound.
func (e *engine) groundAtom(a syntax.Atom, bind map[string]eval.Term) (eval.Term, bool) {
	args := make([]eval.Term, 0, a.Arity())
	for _, t := range a.ArgSeq() {
		v, ok := e.groundAt(t, bind, 1)
		if !ok {
			return 0, false
		}
		args = append(args, v)
	}
	return e.ev.Compose(a.Name().Name(), args...), true
}

// match unifies the clause term h with the ground term t, extending bind (the clause's
// variables).
func (e *engine) match(h syntax.Term, t eval.Term, bind map[string]eval.Term, depth int) bool {
	if depth > maxNest {
		e.fail(errTooDeep)
		return false
	}
	switch h.Kind() {
	case syntax.TermVariable:
		k := h.Name().Key()
		if v, ok := bind[k]; ok && v != 0 {
			return v == t
		}
		bind[k] = t
		return true
	case syntax.TermConstant:
		name, args := e.ev.Decompose(t)
		return len(args) == 0 && syntax.Fold(name) == h.Name().Key()
	case syntax.TermFunction:
		name, args := e.ev.Decompose(t)
		if syntax.Fold(name) != h.Name().Key() || len(args) != h.Arity() {
			return false
		}
		if len(args) == 0 {
			return true
		}
		for i, a := range h.ArgSeq() {
			if !e.match(a, args[i], bind, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// pat is a term with variables of the literal being explained: ground (g), a variable (v), or
// a function term of patterns.
type pat struct {
	g    eval.Term
	v    bool
	key  string
	args []*pat
}

// patOf returns the pattern of t under bind.
func (e *engine) patOf(t syntax.Term, bind map[string]eval.Term, depth int) *pat {
	if depth > maxNest {
		e.fail(errTooDeep)
		return &pat{v: true}
	}
	switch t.Kind() {
	case syntax.TermVariable:
		if v := bind[t.Name().Key()]; v != 0 {
			return &pat{g: v}
		}
		return &pat{v: true}
	case syntax.TermFunction:
		if t.Arity() == 0 {
			break
		}
		p := &pat{key: t.Name().Key()}
		ground := true
		for _, a := range t.ArgSeq() {
			ap := e.patOf(a, bind, depth+1)
			p.args = append(p.args, ap)
			ground = ground && ap.g != 0
		}
		if ground {
			args := make([]eval.Term, len(p.args))
			for i, a := range p.args {
				args[i] = a.g
			}
			return &pat{g: e.ev.Compose(t.Name().Name(), args...)}
		}
		return p
	}
	if t.Kind() == syntax.TermConstant || t.Kind() == syntax.TermFunction {
		return &pat{g: e.ev.Compose(t.Name().Name())}
	}
	return &pat{v: true}
}

// unify reports whether the clause term h can match the pattern p, extending bind (the
// clause's variables) with what p's ground parts give them. The variables of p are taken as
// distinct (a pattern repeating a variable may be said to match where it does not).
func (e *engine) unify(h syntax.Term, p *pat, bind map[string]eval.Term, depth int) bool {
	if p.g != 0 {
		return e.match(h, p.g, bind, depth)
	}
	if p.v {
		return true
	}
	if depth > maxNest {
		e.fail(errTooDeep)
		return false
	}
	switch h.Kind() {
	case syntax.TermVariable:
		if v := bind[h.Name().Key()]; v != 0 {
			return e.fits(v, p, depth)
		}
		return true
	case syntax.TermFunction:
		if h.Name().Key() != p.key || h.Arity() != len(p.args) {
			return false
		}
		for i, a := range h.ArgSeq() {
			if !e.unify(a, p.args[i], bind, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// fits reports whether the ground term t matches the pattern p.
func (e *engine) fits(t eval.Term, p *pat, depth int) bool {
	switch {
	case p.v:
		return true
	case p.g != 0:
		return t == p.g
	case depth > maxNest:
		e.fail(errTooDeep)
		return false
	}
	name, args := e.ev.Decompose(t)
	if syntax.Fold(name) != p.key || len(args) != len(p.args) {
		return false
	}
	for i, a := range args {
		if !e.fits(a, p.args[i], depth+1) {
			return false
		}
	}
	return true
}

// varsOf returns the keys of the variables in c, without repeats, in order of appearance.
func varsOf(c syntax.Cursor) []varName {
	var out []varName
	seen := map[string]bool{}
	stack := []syntax.Cursor{c}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind() == syntax.Variable {
			k := n.Symbol().Key()
			if !seen[k] {
				seen[k] = true
				out = append(out, varName{k, n.Text()})
			}
			continue
		}
		kids := n.Children()
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return out
}

// bound reports whether every variable of c has a value in bind.
func bound(c syntax.Cursor, bind map[string]eval.Term) bool {
	for _, v := range varsOf(c) {
		if bind[v.key] == 0 {
			return false
		}
	}
	return true
}

// ruleOf describes clause c.
func (e *engine) ruleOf(c *analysis.Clause) *Rule {
	sp := c.Form.Span()
	p := e.lines.Position(sp.Start, syntax.UTF32)
	return &Rule{Clause: c.Index, Start: sp.Start, End: sp.End, Line: p.Line + 1, Column: p.Column + 1, Fact: !c.IsRule, Head: c.Head.Text()}
}

// bindingsOf lists the values bind gives the variables of clause c, in order of appearance.
func (e *engine) bindingsOf(c *analysis.Clause, bind map[string]eval.Term) []Binding {
	vs, ok := e.vars[c.Index]
	if !ok {
		vs = varsOf(c.Form.Cursor)
		e.vars[c.Index] = vs
	}
	var out []Binding
	for _, v := range vs {
		if t := bind[v.key]; t != 0 {
			out = append(out, Binding{Var: v.name, Value: e.ev.String(t)})
		}
	}
	return out
}

// relOf returns the relation of a ground atom.
func (e *engine) relOf(t eval.Term) (analysis.Rel, []eval.Term) {
	name, args := e.ev.Decompose(t)
	return analysis.Rel{Key: syntax.Fold(name), Arity: len(args)}, args
}
