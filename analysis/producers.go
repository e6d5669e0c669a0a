package analysis

import (
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/gdl-lsp/gdl/syntax"
)

// What may stand in an argument of a relation, statically: an over-approximation by patterns,
// for the checks of fluents, moves and roles that can never occur (undefined-fluent,
// undefined-move, role-without-legal, role-without-goal).
//
// A set of terms is described by the constants it may hold and, per function name and arity,
// a set for each argument: (cell {1 2 3} {1 2 3} {x o b}) stands for every cell term whose
// arguments are in those sets (the arguments are not tied to each other, which only makes the
// set larger). The set of argument i of relation p holds what the heads of p's clauses write
// there, each variable standing for what the first positive body atom that contains it can give
// it: the same argument of that atom's relation, or the part of it at the variable's place. A
// variable that no positive atom binds stands for anything. (true f) gives what init and next
// can produce, (does r m) what legal can. The sets are computed to a fixpoint; they only grow,
// and below a depth (and beyond a size) a set is "anything", so the computation ends. Every fact
// the game can derive is in its set: a fluent that matches nothing in the set of true can never
// hold, whatever the game does.

const (
	maxSetDepth  = 6    // deeper parts of terms may be anything
	maxSetConsts = 4096 // a set with more constants may hold anything
	// maxSetWidth bounds the product of the arities on the way to a part of a set: below it
	// the part may be anything. Without it, a function of ten arguments nested six deep, (f ?x
	// ... ?x) of itself, is a million sets.
	maxSetWidth = 1024
)

// setPos is where a part of a set stands below the top of a relation's argument: its depth and
// the product of the arities of the functions on the way.
type setPos struct{ depth, width int }

var top = setPos{0, 1}

// down is the position of an argument of a function of the given arity at p.
func (p setPos) down(arity int) setPos { return setPos{p.depth + 1, p.width * max(arity, 1)} }

// far reports whether the part at p may be anything, whatever stands there.
func (p setPos) far() bool { return p.depth > maxSetDepth || p.width > maxSetWidth }

// termSet is a set of terms: anything (any), or its constants and function terms.
type termSet struct {
	any    bool
	consts map[string]string     // folded name -> name as written (the least spelling)
	funcs  map[funcKey]*funcTerm // per function name and arity
	index  atomic.Pointer[setNames]
}

type funcKey struct {
	key   string
	arity int
}

// funcTerm is the function terms of one name and arity in a set: their arguments' sets.
type funcTerm struct {
	name string // as written (the first seen)
	args []*termSet
}

func (s *termSet) setAny() bool {
	if s.any {
		return false
	}
	s.any, s.consts, s.funcs = true, nil, nil
	return true
}

func (s *termSet) addConst(key, name string) bool {
	if s.any {
		return false
	}
	if old, ok := s.consts[key]; ok {
		if name < old {
			s.consts[key] = name // the least spelling, whatever the order of evaluation
		}
		return false
	}
	if len(s.consts) >= maxSetConsts {
		return s.setAny()
	}
	if s.consts == nil {
		s.consts = map[string]string{}
	}
	s.consts[key] = name
	return true
}

// fn returns the function terms of a name and arity, adding them (with empty argument sets); it
// reports whether they are new.
func (s *termSet) fn(key, name string, arity int) (*funcTerm, bool) {
	k := funcKey{key, arity}
	if f := s.funcs[k]; f != nil {
		if name < f.name {
			f.name = name // the least spelling, whatever the order of evaluation
		}
		return f, false
	}
	if s.funcs == nil {
		s.funcs = map[funcKey]*funcTerm{}
	}
	f := &funcTerm{name: name, args: make([]*termSet, arity)}
	for i := range f.args {
		f.args[i] = &termSet{}
	}
	s.funcs[k] = f
	return f, true
}

// addAll adds every term of o to s, which stands at pos.
func (s *termSet) addAll(o *termSet, pos setPos) bool {
	if s.any || o == nil {
		return false
	}
	if o.any || pos.far() && (len(o.consts) > 0 || len(o.funcs) > 0) {
		return s.setAny()
	}
	changed := false
	for k, n := range o.consts {
		changed = s.addConst(k, n) || changed
	}
	for k, of := range o.funcs {
		f, isNew := s.fn(k.key, of.name, k.arity)
		changed = changed || isNew
		for i, a := range of.args {
			changed = f.args[i].addAll(a, pos.down(k.arity)) || changed
		}
		if s.any {
			return true
		}
	}
	return changed
}

// addPat adds the instances of pattern p to s, which stands at pos, each variable standing for
// the terms vars gives it.
func (s *termSet) addPat(p *pat, vars func(v int) *termSet, pos setPos) bool {
	if s.any {
		return false
	}
	switch p.kind {
	case syntax.TermVariable:
		return s.addAll(vars(p.v), pos)
	case syntax.TermConstant:
		if pos.far() {
			return s.setAny()
		}
		return s.addConst(p.key, p.name)
	case syntax.TermFunction:
		if pos.far() {
			return s.setAny()
		}
		f, changed := s.fn(p.key, p.name, len(p.args))
		for i, a := range p.args {
			changed = f.args[i].addPat(a, vars, pos.down(len(p.args))) || changed
		}
		return changed
	}
	return s.setAny()
}

// matches reports whether some term of s unifies with t (every variable of t a fresh one).
func (s *termSet) matches(t syntax.Term) bool {
	if s.any {
		return true
	}
	switch termShape(t) {
	case syntax.TermVariable, syntax.TermInvalid:
		return true
	case syntax.TermConstant:
		_, ok := s.consts[t.Name().Key()]
		return ok
	}
	f := s.funcs[funcKey{t.Name().Key(), t.Arity()}]
	if f == nil {
		return false
	}
	for i, a := range t.ArgSeq() {
		if !f.args[i].matches(a) {
			return false
		}
	}
	return true
}

// at returns the set of the parts of s's terms at path, for the terms that may match pattern p
// (their function names and arities on the way agree with p's); nil when there is none.
func (s *termSet) at(p *pat, path []int) *termSet {
	for _, i := range path {
		if s.any {
			return s
		}
		f := s.funcs[funcKey{p.key, len(p.args)}]
		if f == nil {
			return nil
		}
		s, p = f.args[i], p.args[i]
	}
	return s
}

// constNames returns the names of s's constants as written, sorted by folded name.
func (s *termSet) constNames() []string {
	keys := make([]string, 0, len(s.consts))
	for k := range s.consts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = s.consts[k]
	}
	return out
}

// String writes s with its parts sorted: the same set is always written the same way.
func (s *termSet) String() string {
	var b strings.Builder
	s.write(&b)
	return b.String()
}

func (s *termSet) write(b *strings.Builder) {
	if s.any {
		b.WriteString("*")
		return
	}
	b.WriteString("{")
	for i, n := range s.constNames() {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(n)
	}
	keys := make([]funcKey, 0, len(s.funcs))
	for k := range s.funcs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].key < keys[j].key || keys[i].key == keys[j].key && keys[i].arity < keys[j].arity
	})
	for _, k := range keys {
		f := s.funcs[k]
		b.WriteString(" (" + f.name)
		for _, a := range f.args {
			b.WriteString(" ")
			a.write(b)
		}
		b.WriteString(")")
	}
	b.WriteString("}")
}

// termShape says what a term is for unification: a variable, a constant (a function term
// without arguments, (f), is the constant f) or a function term.
func termShape(t syntax.Term) syntax.TermKind {
	k := t.Kind()
	if k == syntax.TermFunction && t.Arity() == 0 {
		return syntax.TermConstant
	}
	return k
}

// pat is a term of a clause, compiled once for the fixpoint: folded names, numbered variables.
type pat struct {
	kind syntax.TermKind // TermVariable, TermConstant, TermFunction or TermInvalid
	key  string          // folded name of a constant or function
	name string          // as written
	v    int             // a variable's number in its clause
	args []*pat
}

// compilePat compiles a term, numbering its variables in vars. Parts of terms deeper than the
// sets go are compiled as invalid (anything), so that a term nested a million deep costs nothing
// and no stack: the sets below maxSetDepth are anything whatever stands there.
func compilePat(t syntax.Term, vars map[string]int) *pat { return compilePatAt(t, vars, 0) }

func compilePatAt(t syntax.Term, vars map[string]int, depth int) *pat {
	if depth > maxSetDepth+1 {
		return &pat{kind: syntax.TermInvalid}
	}
	p := &pat{kind: termShape(t)}
	switch p.kind {
	case syntax.TermVariable:
		k := t.Name().Key()
		n, ok := vars[k]
		if !ok {
			n = len(vars)
			vars[k] = n
		}
		p.v = n
	case syntax.TermConstant, syntax.TermFunction:
		p.key, p.name = t.Name().Key(), t.Name().Text()
		if p.kind == syntax.TermFunction {
			p.args = make([]*pat, 0, t.Arity())
			for _, a := range t.ArgSeq() {
				p.args = append(p.args, compilePatAt(a, vars, depth+1))
			}
		}
	}
	return p
}

// varPath returns the argument indexes that lead from p to the first occurrence of variable v
// in it (empty when p is the variable), and whether it occurs.
func varPath(p *pat, v int) ([]int, bool) {
	switch p.kind {
	case syntax.TermVariable:
		return nil, p.v == v
	case syntax.TermFunction:
		for i, a := range p.args {
			if path, ok := varPath(a, v); ok {
				return append([]int{i}, path...), true
			}
		}
	}
	return nil, false
}

// binder is where a clause's variable takes its values: a path into an argument of a positive
// body atom.
type binder struct {
	at   place
	arg  *pat // the atom's argument
	path []int
}

// compiled is a clause compiled for the fixpoint: its head's arguments, and per variable the
// positive body atoms that contain it, in body order.
type compiled struct {
	head    []*pat
	binders [][]binder
	// headBinders lists, per head argument, the binders of its variables (of each variable in
	// the argument, in the order forEachPatVar visits them).
	headBinders [][]binder
}

func compileClause(c *Clause) *compiled {
	vars := make(map[string]int, len(c.Vars)) // no bigger than the clause's variables
	cc := &compiled{head: make([]*pat, 0, c.Head.Arity())}
	for _, t := range c.Head.ArgSeq() {
		cc.head = append(cc.head, compilePat(t, vars))
	}
	nHead := len(vars)
	type atomPats struct {
		rel  Rel
		args []*pat
	}
	var atoms []atomPats
	for _, l := range c.Body {
		if l.Kind() != syntax.LitAtom || !l.Atom().Valid() {
			continue
		}
		a := l.Atom()
		ap := atomPats{rel: AtomRel(a)}
		for _, t := range a.ArgSeq() {
			ap.args = append(ap.args, compilePat(t, vars))
		}
		atoms = append(atoms, ap)
	}
	// Only the head's variables need binders: the others never reach a head.
	cc.binders = make([][]binder, nHead)
	for v := range nHead {
		for _, ap := range atoms {
			for j, arg := range ap.args {
				if path, ok := varPath(arg, v); ok {
					cc.binders[v] = append(cc.binders[v], binder{at: place{ap.rel, j}, arg: arg, path: path})
					break
				}
			}
		}
	}
	cc.headBinders = make([][]binder, len(cc.head))
	for i, h := range cc.head {
		forEachPatVar(h, func(v int) { cc.headBinders[i] = append(cc.headBinders[i], cc.binders[v]...) })
	}
	return cc
}

// place is an argument of a relation.
type place struct {
	rel Rel
	arg int
}

// producers computes the sets of the places asked, to a fixpoint, by a worklist: a unit (a
// clause's head argument, or the place that true or does copies) is evaluated when its place is
// first asked and again whenever a place it reads grows in a part it reads (its whole set, or
// the function terms of one name and arity), so each unit is evaluated about as many times as
// the places it reads change, not once per pass over every place. Places are set up from a
// queue, not by recursion, so a long chain of relations costs no stack. It belongs to one model.
type producers struct {
	m       *Model
	sets    map[place]*termSet
	readers map[place]*readers
	fresh   []place // places made but not yet set up
	queue   []*unit // units to evaluate
	// partial holds, for the places whose sets were started from the previous version's with
	// some parts kept (see inherit), the parts that are computed again; the others are never
	// touched.
	partial map[place]map[funcKey]bool
	// invalid says that a place with kept parts became anything: the sets are then computed
	// again from scratch.
	invalid bool
	pops    int // the units taken from the queue so far
	// ground holds the counts of the ground terms that the heads write at some places, kept
	// from version to version (see groundTree).
	ground map[place]*groundTree
}

func newProducers(m *Model) *producers {
	return &producers{m: m, sets: map[place]*termSet{}, readers: map[place]*readers{}, partial: map[place]map[funcKey]bool{}}
}

// unit is one source of a place's set.
type unit struct {
	to     place
	cc     *compiled // the clause whose head argument to.arg gives to, or nil for a copy
	from   place     // for a copy: the place copied (true from init and next, does from legal)
	queued bool
	// For a copy: what of from grew since the copy last ran, all of it (copyAll, as on its
	// first run) or the parts in copyKeys. A copy carries only those: from is the set of next
	// or legal, which in a file of many games holds every game's fluents or moves and grows
	// once per rule, so copying all of it on each growth cost the file's size times its rules.
	copyAll  bool
	copyKeys []funcKey
}

// readers are the units that read a place: all of it, or the function terms of one name and
// arity (constKey for its constants).
type readers struct {
	whole  []*unit
	copies []*unit // the copies of the place (to true or does), which read all of it
	byKey  map[funcKey][]*unit
	// wholeAt is p.pops when every unit of whole was last found queued (-1: never): while no
	// unit has been taken from the queue since, they all still are, and a growth of the place
	// need not visit them. The place of a relation that 80,000 rules read (num in (<= (p ?x)
	// (num ?x) (distinct ?x 7))) grows once per fact: each visit of the 80,000 was a cache miss.
	wholeAt int
}

// constKey is the part of a set that its constants make.
var constKey = funcKey{arity: -1}

// producersAt returns what may stand at argument arg of relation rel. The sets are computed
// once per model, as far as they are asked for.
func (m *Model) producersAt(rel Rel, arg int) *termSet {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.producers().get(place{rel, arg})
}

// producers returns the model's fixpoint computation, made on first use; m.mu is held.
func (m *Model) producers() *producers {
	if m.prodMemo == nil {
		p := newProducers(m)
		if m.prevModel != nil {
			p.inherit(m.prevModel, m.prevUsed)
		}
		m.prevModel, m.prevUsed = nil, nil
		m.prodMemo = p
	}
	return m.prodMemo
}

// get returns the set of a place at its fixpoint.
func (p *producers) get(pl place) *termSet {
	p.node(pl)
	p.run()
	return p.sets[pl]
}

// node returns the current set of a place, making the place (empty) when it is new.
func (p *producers) node(pl place) *termSet {
	s, ok := p.sets[pl]
	if !ok {
		s = &termSet{}
		p.sets[pl] = s
		p.fresh = append(p.fresh, pl)
	}
	return s
}

// run sets up the new places and evaluates the queued units until nothing changes; when the
// previous version's sets cannot serve (invalid), it starts again from scratch with the places
// made so far.
func (p *producers) run() {
	p.drain()
	if p.invalid {
		places := make([]place, 0, len(p.sets))
		for pl := range p.sets {
			places = append(places, pl)
		}
		ground := p.ground
		*p = *newProducers(p.m)
		p.ground = ground
		for _, pl := range places {
			p.node(pl)
		}
		p.drain()
	}
}

func (p *producers) drain() {
	for len(p.fresh) > 0 || len(p.queue) > 0 {
		if n := len(p.fresh); n > 0 {
			pl := p.fresh[n-1]
			p.fresh = p.fresh[:n-1]
			p.setUp(pl)
			continue
		}
		u := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		u.queued = false
		p.pops++
		p.eval(u)
	}
}

// setUp makes the units of a new place and queues them.
func (p *producers) setUp(pl place) {
	switch pl.rel {
	case KeywordRel("true"):
		p.copyUnit(pl, place{KeywordRel("init"), 0})
		p.copyUnit(pl, place{KeywordRel("next"), 0})
		return
	case KeywordRel("does"):
		p.copyUnit(pl, place{KeywordRel("legal"), pl.arg})
		return
	}
	if p.m.Broken[pl.rel.Key] {
		p.sets[pl].setAny() // a form being typed may define anything
		return
	}
	for _, c := range p.m.clausesOf(pl.rel) {
		cc := compiledOf(c)
		if pl.arg >= len(cc.head) {
			continue
		}
		u := &unit{to: pl, cc: cc}
		p.watchPattern(u, cc, cc.head[pl.arg])
		p.push(u)
	}
}

func (p *producers) copyUnit(to, from place) {
	u := &unit{to: to, from: from, copyAll: true}
	p.node(from)
	p.reader(from).copies = append(p.reader(from).copies, u)
	p.push(u)
}

// watchPattern makes u a reader of the parts of the places that the variables of head pattern
// h read.
func (p *producers) watchPattern(u *unit, cc *compiled, h *pat) {
	switch h.kind {
	case syntax.TermVariable:
		if h.v >= len(cc.binders) {
			return
		}
		for _, b := range cc.binders[h.v] {
			p.node(b.at)
			r := p.reader(b.at)
			if len(b.path) == 0 {
				r.whole = append(r.whole, u)
				continue
			}
			k := funcKey{b.arg.key, len(b.arg.args)}
			if r.byKey == nil {
				r.byKey = map[funcKey][]*unit{}
			}
			r.byKey[k] = append(r.byKey[k], u)
		}
	case syntax.TermFunction:
		for _, a := range h.args {
			p.watchPattern(u, cc, a)
		}
	}
}

func (p *producers) reader(pl place) *readers {
	r := p.readers[pl]
	if r == nil {
		r = &readers{wholeAt: -1}
		p.readers[pl] = r
	}
	return r
}

func (p *producers) push(u *unit) {
	if !u.queued {
		u.queued = true
		p.queue = append(p.queue, u)
	}
}

// eval adds to a unit's place what the unit gives with the current sets, and queues the readers
// of the parts that grew.
func (p *producers) eval(u *unit) {
	s := p.sets[u.to]
	if s.any {
		return
	}
	if u.cc == nil {
		p.evalCopy(u, s)
		return
	}
	h := u.cc.head[u.to.arg]
	if parts := p.partial[u.to]; parts != nil && h.kind != syntax.TermVariable {
		if k, _ := partOf(h); !parts[k] {
			return // a part kept from the previous version
		}
	}
	vars := func(v int) *termSet { return p.varValues(u.cc, v) }
	switch h.kind {
	case syntax.TermVariable:
		p.addTop(u.to, s, vars(h.v))
	case syntax.TermConstant, syntax.TermFunction:
		if s.addPat(h, vars, top) {
			p.grew(u.to, s, funcKey{h.key, len(h.args)}, h.kind == syntax.TermConstant)
		}
	default:
		if s.setAny() {
			p.grew(u.to, s, constKey, false)
		}
	}
}

// evalCopy runs copy unit u into its place's set s: the parts of its source that grew since it
// last ran, or all of them.
func (p *producers) evalCopy(u *unit, s *termSet) {
	o := p.sets[u.from]
	if u.copyAll || o.any {
		u.copyAll, u.copyKeys = false, nil
		p.addTop(u.to, s, o)
		return
	}
	keys := u.copyKeys
	u.copyKeys = nil
	parts := p.partial[u.to] // nil, or the parts to compute
	for _, k := range keys {
		if parts != nil && !parts[k] {
			continue
		}
		if k == constKey {
			if !p.addConsts(u.to, s, o) {
				return
			}
			continue
		}
		if of := o.funcs[k]; of != nil {
			p.addFunc(u.to, s, k, of)
		}
	}
}

// noteGrown records, for copy unit u, that part k of its source grew (all of it when all).
func (u *unit) noteGrown(k funcKey, all bool) {
	switch {
	case u.copyAll:
	case all:
		u.copyAll, u.copyKeys = true, nil
	case len(u.copyKeys) == 0 || u.copyKeys[len(u.copyKeys)-1] != k:
		u.copyKeys = append(u.copyKeys, k)
	}
}

// addTop adds every term of o to the set s of place pl, queueing the readers of each part of s
// that grew.
func (p *producers) addTop(pl place, s, o *termSet) {
	if o.any {
		if s.setAny() {
			p.grew(pl, s, constKey, false)
		}
		return
	}
	parts := p.partial[pl] // nil, or the parts to compute
	if (parts == nil || parts[constKey]) && !p.addConsts(pl, s, o) {
		return
	}
	for k, of := range o.funcs {
		if parts != nil && !parts[k] {
			continue
		}
		p.addFunc(pl, s, k, of)
	}
}

// addConsts adds o's constants to the set s of place pl, queueing the readers of its constants
// when they grew; it reports false when s became anything.
func (p *producers) addConsts(pl place, s, o *termSet) bool {
	grewConsts := false
	for k, n := range o.consts {
		grewConsts = s.addConst(k, n) || grewConsts
		if s.any {
			p.grew(pl, s, constKey, false)
			return false
		}
	}
	if grewConsts {
		p.grew(pl, s, constKey, true)
	}
	return true
}

// addFunc adds the function terms of, part k of another set, to the set s of place pl, queueing
// the readers of that part when it grew.
func (p *producers) addFunc(pl place, s *termSet, k funcKey, of *funcTerm) {
	f, changed := s.fn(k.key, of.name, k.arity)
	for i, a := range of.args {
		changed = f.args[i].addAll(a, top.down(k.arity)) || changed
	}
	if changed {
		p.grew(pl, s, k, false)
	}
}

// grew queues the readers of part k of place pl's set s (a constant when isConst), or of all of
// it when s became anything.
func (p *producers) grew(pl place, s *termSet, k funcKey, isConst bool) {
	if s.any && p.partial[pl] != nil {
		p.invalid = true
	}
	r := p.readers[pl]
	if r == nil {
		return
	}
	for _, u := range r.copies {
		if isConst {
			u.noteGrown(constKey, s.any)
		} else {
			u.noteGrown(k, s.any)
		}
		p.push(u)
	}
	if r.wholeAt != p.pops {
		for _, u := range r.whole {
			p.push(u)
		}
		r.wholeAt = p.pops
	}
	if s.any {
		for _, us := range r.byKey {
			for _, u := range us {
				p.push(u)
			}
		}
		return
	}
	if isConst {
		k = constKey
	}
	for _, u := range r.byKey[k] {
		p.push(u)
	}
}

var anything = &termSet{any: true}

// varValues returns what variable v of a clause may stand for: what every positive body atom
// that contains it allows there (the intersection of what they give it), or anything when none
// says anything. The intersection, unlike "the first atom that says something", grows only when
// the sets it reads grow, so the fixpoint does not depend on the order in which units are
// evaluated: an incremental computation that starts from part of the previous version's sets
// reaches the same sets as one from scratch.
func (p *producers) varValues(cc *compiled, v int) *termSet {
	var out *termSet
	for _, b := range cc.binders[v] {
		got := p.node(b.at).at(b.arg, b.path)
		if got == nil {
			return &termSet{} // the atom never holds with the variable there
		}
		switch {
		case got.any:
		case out == nil:
			out = got
		default:
			out = out.intersect(got)
		}
	}
	if out == nil {
		return anything
	}
	return out
}

// intersect returns the terms that s and o both hold, as a new set that may share parts with
// them (neither is changed).
func (s *termSet) intersect(o *termSet) *termSet {
	switch {
	case s.any:
		return o
	case o.any:
		return s
	}
	out := &termSet{}
	a, b := s, o
	if len(a.consts) > len(b.consts) {
		a, b = b, a
	}
	for k, n := range a.consts {
		if _, ok := b.consts[k]; ok {
			out.addConst(k, n)
		}
	}
	a, b = s, o
	if len(a.funcs) > len(b.funcs) {
		a, b = b, a
	}
	for k, f := range a.funcs {
		g := b.funcs[k]
		if g == nil {
			continue
		}
		if out.funcs == nil {
			out.funcs = map[funcKey]*funcTerm{}
		}
		h := &funcTerm{name: f.name, args: make([]*termSet, len(f.args))}
		for i := range f.args {
			h.args[i] = f.args[i].intersect(g.args[i])
		}
		out.funcs[k] = h
	}
	return out
}

// clauseArg returns what argument arg of clause c's head may hold in the facts c derives, with
// the sets of the places its variables take their values from at their fixpoint.
func (m *Model) clauseArg(c *Clause, arg int) *termSet {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.producers()
	cc := compiledOf(c)
	out := &termSet{}
	if arg >= len(cc.head) {
		return out
	}
	for _, bs := range cc.binders { // the sets the variables read, at their fixpoint
		for _, b := range bs {
			p.node(b.at)
		}
	}
	p.run()
	out.addPat(cc.head[arg], func(v int) *termSet { return p.varValues(cc, v) }, top)
	return out
}

// clauseMeets reports whether argument arg of clause c's head may give a term at all, and
// whether one of the terms it may give unifies with a term of o; like clauseArg(c, arg) and its
// empty and overlaps, but without building the set. The answer is remembered with the clause,
// and a version of the file that reuses the clause reuses it while the parts of o and of the
// sets that the answer reads are the very ones it was found with: sets are never changed once
// at their fixpoint, and the producers keep the previous version's sets where nothing changed,
// and a changed set's parts (the function terms of one name and arity, with their arguments'
// sets) where they did not change. So the memo is keyed by the part of o that a function-term
// argument can meet (o itself for the other arguments), and by the sub-sets the argument's
// variables take their values from (termSet.at), not by the whole sets they lie in.
func (m *Model) clauseMeets(c *Clause, arg int, o *termSet) (gives, meets bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.producers()
	cc := compiledOf(c)
	if arg >= len(cc.head) {
		return false, false
	}
	h := cc.head[arg]
	var buf [8]*termSet // the sub-sets, without an allocation when the memo answers
	inputs := p.headInputs(cc.headBinders[arg], buf[:0])
	var oKey any = o
	if h.kind == syntax.TermFunction && !o.any {
		oKey = o.funcs[funcKey{h.key, len(h.args)}] // patMeets reads nothing else of o
	}
	memos := c.meets.Load()
	if memos != nil {
		for _, e := range *memos {
			if e.arg == arg && e.o == oKey && slices.Equal(e.inputs, inputs) {
				return e.gives, e.meets
			}
		}
	}
	memo := map[int]*termSet{}
	vars := func(v int) *termSet {
		s, ok := memo[v]
		if !ok {
			s = p.varValues(cc, v)
			memo[v] = s
		}
		return s
	}
	gives, meets = patGives(h, vars), patMeets(h, vars, o)
	var next []meetsMemo
	if memos != nil {
		for _, e := range *memos {
			if e.arg != arg {
				next = append(next, e)
			}
		}
	}
	next = append(next, meetsMemo{arg: arg, o: oKey, inputs: slices.Clone(inputs), gives: gives, meets: meets})
	c.meets.Store(&next)
	return gives, meets
}

// headInputs appends to out the sub-sets that the binders bs read (termSet.at), at their
// fixpoint. The places are nearly always there, at their fixpoint, when the base and input
// checks ask for clause after clause: then one look-up each, without running anything.
func (p *producers) headInputs(bs []binder, out []*termSet) []*termSet {
	if len(p.fresh) == 0 && len(p.queue) == 0 && !p.invalid {
		for _, b := range bs {
			s := p.sets[b.at]
			if s == nil {
				break
			}
			out = append(out, s.at(b.arg, b.path))
		}
		if len(out) == len(bs) {
			return out
		}
		out = out[:0]
	}
	for _, b := range bs {
		p.node(b.at)
	}
	p.run()
	for _, b := range bs {
		out = append(out, p.sets[b.at].at(b.arg, b.path))
	}
	return out
}

// meetsMemo is one answer of clauseMeets, with the sets it was found with: the part of o it read
// (a *termSet or a *funcTerm, nil when o had no such part) and the sub-sets its variables read.
type meetsMemo struct {
	arg          int
	o            any
	inputs       []*termSet
	gives, meets bool
}

// patGives reports whether pattern h has an instance, its variables standing for vars.
func patGives(h *pat, vars func(int) *termSet) bool {
	switch h.kind {
	case syntax.TermVariable:
		return !vars(h.v).empty()
	case syntax.TermFunction:
		for _, a := range h.args {
			if !patGives(a, vars) {
				return false
			}
		}
	}
	return true
}

// patMeets reports whether an instance of pattern h unifies with a term of o.
func patMeets(h *pat, vars func(int) *termSet, o *termSet) bool {
	if o.any {
		return patGives(h, vars)
	}
	switch h.kind {
	case syntax.TermVariable:
		return vars(h.v).overlaps(o)
	case syntax.TermConstant:
		_, ok := o.consts[h.key]
		return ok
	case syntax.TermFunction:
		g := o.funcs[funcKey{h.key, len(h.args)}]
		if g == nil {
			return false
		}
		for i, a := range h.args {
			if !patMeets(a, vars, g.args[i]) {
				return false
			}
		}
		return true
	}
	return !o.empty()
}

// empty reports whether s holds no term: no constant, and no function term all of whose
// arguments may hold one.
func (s *termSet) empty() bool {
	if s.any || len(s.consts) > 0 {
		return false
	}
	for _, f := range s.funcs {
		full := true
		for _, a := range f.args {
			if a.empty() {
				full = false
				break
			}
		}
		if full {
			return false
		}
	}
	return true
}

// overlaps reports whether some term of s unifies with some term of o.
func (s *termSet) overlaps(o *termSet) bool {
	if s.any && !o.empty() || o.any && !s.empty() {
		return true
	}
	a, b := s.consts, o.consts
	if len(a) > len(b) {
		a, b = b, a
	}
	for k := range a {
		if _, ok := b[k]; ok {
			return true
		}
	}
	for k, f := range s.funcs {
		g := o.funcs[k]
		if g == nil {
			continue
		}
		all := true
		for i := range f.args {
			if !f.args[i].overlaps(g.args[i]) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// CanStand reports whether a term that unifies with t may stand at argument arg of relation rel
// in some fact the game derives, by the over-approximation described above: false means never.
// The fluents are the argument of true/1, the moves the second argument of does/2.
//
// It is safe for concurrent use.
func (m *Model) CanStand(rel Rel, arg int, t syntax.Term) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.producers().get(place{rel, arg}).matches(t)
}
