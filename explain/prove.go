package explain

import (
	"fmt"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

// Proofs of minimal height. The height of a `true` or `does` atom is 0, of a fact 1, of a rule
// instance one more than its tallest positive body atom's (negations and distinct are checked,
// not proved). prove(a, h) says whether a has a proof of height at most h; it is memoised both
// ways (a proof of at most h exists; none of at most h does), so each atom is tried at each
// height at most once, and its recursion is at most h deep (h <= MaxHeight). The instances of
// a rule for an atom are the answers of its body with the head's variables bound, which the
// interpreter gives: every one of them holds, so their atoms hold and have proofs.

type instKey struct {
	clause int
	atom   eval.Term
}

// instance is a rule's body instance: its bindings and the positive atoms it needs proved.
type instance struct {
	c    *analysis.Clause
	bind map[string]eval.Term
	kids []eval.Term
}

// isLeaf reports whether a ground atom is a `true` or `does` atom, given by the state or the
// joint move.
func isLeaf(rel analysis.Rel) bool {
	return rel == analysis.Rel{Key: "true", Arity: 1} || rel == analysis.Rel{Key: "does", Arity: 2}
}

// instances returns the instances of the rules that can give the ground atom a.
func (e *engine) instances(a eval.Term) []instance {
	rel, args := e.relOf(a)
	var out []instance
	for _, c := range e.rules[rel] {
		key := instKey{c.Index, a}
		is, ok := e.insts[key]
		if !ok {
			is = e.clauseInstances(c, args)
			e.insts[key] = is
		}
		out = append(out, is...)
		if e.err != nil {
			return nil
		}
	}
	return out
}

func (e *engine) clauseInstances(c *analysis.Clause, args []eval.Term) []instance {
	hb := map[string]eval.Term{}
	for i, h := range c.Head.ArgSeq() {
		if !e.match(h, args[i], hb, 1) {
			return nil
		}
	}
	if len(c.Body) == 0 {
		if !bound(c.Head.Cursor, hb) {
			return nil
		}
		return []instance{{c: c, bind: hb}}
	}
	binds, _ := e.ask(c.Body, hb, e.opts.MaxInstances)
	var out []instance
	for _, b := range binds {
		var kids []eval.Term
		ok := true
		for _, l := range c.Body {
			if kids, ok = e.positives(l, b, kids, 0); !ok {
				break
			}
		}
		if ok {
			out = append(out, instance{c: c, bind: b, kids: kids})
		}
	}
	return out
}

// positives appends the positive atoms lit needs proved under bind: an atom itself, the
// atoms of the first disjunct of an `or` that holds; a negation and distinct need none.
func (e *engine) positives(lit syntax.Literal, bind map[string]eval.Term, out []eval.Term, nest int) ([]eval.Term, bool) {
	if nest > maxNest {
		e.fail(errTooDeep)
		return out, false
	}
	switch lit.Kind() {
	case syntax.LitAtom:
		t, ok := e.groundAtom(lit.Atom(), bind)
		if !ok {
			return out, false
		}
		return append(out, t), true
	case syntax.LitOr:
		op, b, ok := e.holdingDisjunct(lit, bind)
		if !ok {
			return out, false
		}
		return e.positives(op, b, out, nest+1)
	}
	return out, true
}

// holdingDisjunct returns the first disjunct of an `or` that holds under bind, with the
// bindings it gives.
func (e *engine) holdingDisjunct(lit syntax.Literal, bind map[string]eval.Term) (syntax.Literal, map[string]eval.Term, bool) {
	for _, op := range lit.Operands() {
		if as, _ := e.ask([]syntax.Literal{op}, bind, 1); len(as) > 0 {
			return op, as[0], true
		}
	}
	return syntax.Literal{}, nil, false
}

// prove reports whether the ground atom a, which holds, has a proof of height at most h.
func (e *engine) prove(a eval.Term, h int) bool {
	if e.err != nil {
		return false
	}
	rel, _ := e.relOf(a)
	if isLeaf(rel) {
		return true
	}
	if m, ok := e.minH[a]; ok {
		return m <= h
	}
	if ub, ok := e.proved[a]; ok && ub <= h {
		return true
	}
	if h <= e.failBelow[a] || h <= 0 {
		return false
	}
	if err := e.ctx.Err(); err != nil {
		e.fail(err)
		return false
	}
	for _, in := range e.instances(a) {
		if e.provable(in, h-1) {
			e.proved[a] = h
			if e.failBelow[a] == h-1 {
				e.minH[a] = h
			}
			return true
		}
	}
	e.failBelow[a] = h
	return false
}

// provable reports whether every positive atom of an instance has a proof of height at most h.
func (e *engine) provable(in instance, h int) bool {
	for _, k := range in.kids {
		if !e.prove(k, h) {
			return false
		}
	}
	return true
}

// height returns the height of a's shortest proof, or -1 when it has none within MaxHeight
// (a proof needs an instance past MaxInstances).
func (e *engine) height(a eval.Term) int {
	rel, _ := e.relOf(a)
	if isLeaf(rel) {
		return 0
	}
	if m, ok := e.minH[a]; ok {
		return m
	}
	for h := e.failBelow[a] + 1; h <= e.opts.MaxHeight && e.err == nil; h++ {
		if e.prove(a, h) {
			e.minH[a] = h
			return h
		}
	}
	return -1
}

// proveAtom returns the proof of minimal height of the ground atom a, which holds, explained
// to level.
func (e *engine) proveAtom(a eval.Term, level int) *Node {
	text := e.ev.String(a)
	rel, args := e.relOf(a)
	switch {
	case rel.Key == "true" && isLeaf(rel):
		n := e.newNode(KindState, text, true)
		n.Note = "in the state"
		return n
	case isLeaf(rel):
		n := e.newNode(KindMove, text, true)
		n.Note = fmt.Sprintf("%s plays %s", e.ev.String(args[0]), e.ev.String(args[1]))
		return n
	}
	if prev, ok := e.built[a]; ok {
		if prev.ID == 0 {
			e.ids++
			prev.ID = e.ids
		}
		n := e.newNode(KindRef, text, true)
		n.Ref, n.Height = prev.ID, prev.Height
		return n
	}
	if e.nodes >= e.opts.MaxNodes {
		return e.cutNode(text, true, e.nodeLimit())
	}
	h := e.height(a)
	if e.err != nil {
		return e.cutNode(text, true, e.err.Error())
	}
	if h < 0 {
		return e.cutNode(text, true, fmt.Sprintf("no proof of height at most %d found (a taller one, or one needing more than %d instances of a rule)", e.opts.MaxHeight, e.opts.MaxInstances))
	}
	// A fact is given whatever the depth: its line is its whole proof.
	if why := e.overLimit(level); why != "" && h > 1 {
		return e.cutNode(text, true, why)
	}
	var chosen *instance
	for _, in := range e.instances(a) {
		if e.provable(in, h-1) {
			chosen = &in
			break
		}
	}
	if chosen == nil { // only after an evaluation error
		return e.cutNode(text, true, fmt.Sprint(e.err))
	}
	n := e.newNode(KindRule, text, true)
	n.Height = h
	n.Rule = e.ruleOf(chosen.c)
	n.Bindings = e.bindingsOf(chosen.c, chosen.bind)
	e.built[a] = n
	for _, l := range chosen.c.Body {
		n.Children = append(n.Children, e.proveLiteral(l, chosen.bind, level+1))
	}
	return n
}

// proveLiteral explains lit, which holds under bind (for some values of its variables that
// bind leaves unbound), at level.
func (e *engine) proveLiteral(lit syntax.Literal, bind map[string]eval.Term, level int) *Node {
	return e.proveLiteralNest(lit, bind, level, 0)
}

func (e *engine) proveLiteralNest(lit syntax.Literal, bind map[string]eval.Term, level, nest int) *Node {
	text := e.format(lit.Cursor, bind)
	if nest > maxNest {
		e.fail(errTooDeep)
		return e.cutNode(text, true, errTooDeep.Error())
	}
	switch lit.Kind() {
	case syntax.LitAtom:
		a, ok := e.groundAtom(lit.Atom(), bind)
		if !ok {
			as, _ := e.ask([]syntax.Literal{lit}, bind, 1)
			if len(as) == 0 {
				return e.cutNode(text, true, fmt.Sprint("no answer: ", e.err))
			}
			a, _ = e.groundAtom(lit.Atom(), as[0])
		}
		return e.proveAtom(a, level)
	case syntax.LitNot:
		n := e.newNode(KindNot, text, true)
		if ops := lit.Operands(); len(ops) == 1 {
			n.Note = fmt.Sprintf("checked: %s does not hold", e.format(ops[0].Cursor, bind))
		}
		return n
	case syntax.LitDistinct:
		n := e.newNode(KindDistinct, text, true)
		n.Note = "checked"
		return n
	case syntax.LitOr:
		n := e.newNode(KindOr, text, true)
		op, b, ok := e.holdingDisjunct(lit, bind)
		if !ok {
			return e.cutNode(text, true, fmt.Sprint("no disjunct holds: ", e.err))
		}
		n.Children = []*Node{e.proveLiteralNest(op, b, level, nest+1)}
		return n
	}
	return e.cutNode(text, true, "not a literal")
}
