package eval

import "math"

// The sets of terms of EstimateGround's abstract interpretation.

// maxEstimateDepth bounds the nesting of the value sets: deeper terms (a list that grows, a
// counter of nested successors) make the set "any term", of no bound.
const maxEstimateDepth = 8

// maxEstimateSets bounds the argument sets of one estimate: past it, a set that would grow a
// functor becomes any term. Without it, (<= (p (f ?x ?x ?x)) (p ?x)) would make 3⁸ sets.
const maxEstimateSets = 200_000

// valueSet is the abstraction of the terms that can stand at a position: the constants there,
// and per functor a set for each argument; any is every term.
type valueSet struct {
	consts map[Term]bool
	funcs  map[uint32][]*valueSet // functor -> one set per argument
	any    bool
	left   *int // the argument sets the estimate may still make (maxEstimateSets), shared
}

func (v *valueSet) empty() bool { return !v.any && len(v.consts) == 0 && len(v.funcs) == 0 }

// count is how many terms v holds (+Inf for any).
func (v *valueSet) count() float64 {
	if v.any {
		return math.Inf(1)
	}
	n := float64(len(v.consts))
	for _, args := range v.funcs {
		p := 1.0
		for _, a := range args {
			p *= a.count()
		}
		n += p
	}
	return n
}

// addTerm adds a ground term; it reports whether v grew.
func (v *valueSet) addTerm(st *view, t Term, depth int) bool {
	if v.any {
		return false
	}
	if depth > maxEstimateDepth {
		v.any, v.consts, v.funcs = true, nil, nil
		return true
	}
	rec := st.rec(t)
	if rec.arity == 0 {
		if v.consts[t] {
			return false
		}
		if v.consts == nil {
			v.consts = map[Term]bool{}
		}
		v.consts[t] = true
		return true
	}
	args, grew := v.functor(rec.fn, int(rec.arity))
	for i, a := range st.argsOf(t) {
		if v.any {
			break
		}
		grew = args[i].addTerm(st, a, depth+1) || grew
	}
	return grew
}

// functor returns v's argument sets for fn, made empty if new (then grew is true). When the
// estimate has made its maxEstimateSets sets, v becomes any term instead (and args is nil).
func (v *valueSet) functor(fn uint32, arity int) (args []*valueSet, grew bool) {
	if args = v.funcs[fn]; args != nil {
		return args, false
	}
	if v.left == nil || *v.left < arity {
		v.any, v.consts, v.funcs = true, nil, nil
		return nil, true
	}
	*v.left -= arity
	if v.funcs == nil {
		v.funcs = map[uint32][]*valueSet{}
	}
	args = make([]*valueSet, arity)
	for i := range args {
		args[i] = &valueSet{left: v.left}
	}
	v.funcs[fn] = args
	return args, true
}

// union adds what w holds to v; it reports whether v grew.
func (v *valueSet) union(w *valueSet, depth int) bool {
	if v.any || w.empty() {
		return false
	}
	if w.any || depth > maxEstimateDepth {
		v.any, v.consts, v.funcs = true, nil, nil
		return true
	}
	grew := false
	for c := range w.consts {
		if !v.consts[c] {
			if v.consts == nil {
				v.consts = map[Term]bool{}
			}
			v.consts[c] = true
			grew = true
		}
	}
	for fn, wargs := range w.funcs {
		args, g := v.functor(fn, len(wargs))
		grew = grew || g
		if v.any {
			return true
		}
		for i, a := range wargs {
			grew = args[i].union(a, depth+1) || grew
		}
	}
	return grew
}

// intersect returns what both v and w hold (v or w itself when the other is any).
func intersect(v, w *valueSet) *valueSet {
	if v.any {
		return w
	}
	if w.any {
		return v
	}
	out := &valueSet{left: v.left}
	for c := range v.consts {
		if w.consts[c] {
			if out.consts == nil {
				out.consts = map[Term]bool{}
			}
			out.consts[c] = true
		}
	}
	for fn, vargs := range v.funcs {
		wargs := w.funcs[fn]
		if wargs == nil {
			continue
		}
		args := make([]*valueSet, len(vargs))
		ok := true
		for i := range vargs {
			args[i] = intersect(vargs[i], wargs[i])
			ok = ok && !args[i].empty()
		}
		if ok {
			if out.funcs == nil {
				out.funcs = map[uint32][]*valueSet{}
			}
			out.funcs[fn] = args
		}
	}
	return out
}

// holds reports whether v may hold the ground term t.
func (v *valueSet) holds(st *view, t Term) bool {
	if v.any {
		return true
	}
	rec := st.rec(t)
	if rec.arity == 0 {
		return v.consts[t]
	}
	args := v.funcs[rec.fn]
	if args == nil {
		return false
	}
	for i, a := range st.argsOf(t) {
		if !args[i].holds(st, a) {
			return false
		}
	}
	return true
}

var anyValue = &valueSet{any: true}

func (e *estimator) args(r *relation) []*valueSet {
	s := e.sets[r]
	if s == nil {
		s = make([]*valueSet, r.arity)
		for i := range s {
			s[i] = &valueSet{left: &e.setsLeft}
		}
		e.sets[r] = s
	}
	return s
}

// bind narrows the sets of the variables of pattern p to what set v holds at p's position; it
// returns false when p can match nothing there.
func (e *estimator) bind(p *pnode, v *valueSet, vars []*valueSet) bool {
	switch p.kind {
	case pVar:
		if vars[p.v] == nil {
			vars[p.v] = v
		} else {
			vars[p.v] = intersect(vars[p.v], v)
		}
		return !vars[p.v].empty()
	case pConst:
		return v.holds(e.rg.st, p.t)
	case pFunc:
		if v.any {
			for _, a := range p.args {
				e.bind(a, anyValue, vars)
			}
			return true
		}
		args := v.funcs[p.fn]
		if args == nil || len(args) != len(p.args) {
			return false
		}
		for i, a := range p.args {
			if !e.bind(a, args[i], vars) {
				return false
			}
		}
		return true
	}
	return true
}

// build adds to v the terms pattern p stands for, the variables holding vars; it reports
// whether v grew.
func (e *estimator) build(p *pnode, v *valueSet, vars []*valueSet, depth int) bool {
	switch p.kind {
	case pVar:
		w := vars[p.v]
		if w == nil {
			w = anyValue // bound by no positive literal
		}
		return v.union(w, depth)
	case pConst:
		return v.addTerm(e.rg.st, p.t, depth)
	case pFunc:
		if v.any {
			return false
		}
		if depth > maxEstimateDepth {
			v.any, v.consts, v.funcs = true, nil, nil
			return true
		}
		args, grew := v.functor(p.fn, len(p.args))
		for i, a := range p.args {
			if v.any {
				break
			}
			grew = e.build(a, args[i], vars, depth+1) || grew
		}
		return grew
	}
	return false
}

// bodyVars returns the sets of rule ru's variables given by its positive literals, and false
// when the body can hold for no values.
func (e *estimator) bodyVars(ru *rule) ([]*valueSet, bool) {
	vars := make([]*valueSet, ru.nvars)
	for i := range ru.body {
		l := &ru.body[i]
		if l.kind != litPos || l.rel == nil {
			continue
		}
		sets := e.args(l.rel)
		switch {
		case l.atom.kind == pFunc:
			for j, a := range l.atom.args {
				if !e.bind(a, sets[j], vars) {
					return nil, false
				}
			}
		case l.rel.arity > 0: // a ground atom
			for j, a := range e.rg.st.argsOf(l.atom.t) {
				if !sets[j].holds(e.rg.st, a) {
					return nil, false
				}
			}
		}
		if l.rel.arity == 0 && len(l.rel.rules) == 0 {
			return nil, false // a proposition without rules never holds
		}
	}
	return vars, true
}

// apply adds the head of rule ru for the values its body allows; it reports whether a set grew.
func (e *estimator) apply(ru *rule) bool {
	vars, ok := e.bodyVars(ru)
	if !ok {
		return false
	}
	sets := e.args(ru.rel)
	grew := false
	switch {
	case ru.head.kind == pFunc:
		for j, a := range ru.head.args {
			grew = e.build(a, sets[j], vars, 1) || grew
		}
	case ru.rel.arity > 0: // a ground atom
		for j, a := range e.rg.st.argsOf(ru.head.t) {
			grew = sets[j].addTerm(e.rg.st, a, 1) || grew
		}
	}
	return grew
}
