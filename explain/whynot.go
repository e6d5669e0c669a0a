package explain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

// Why-nots. A literal that does not hold under a binding is explained by its kind: a missing
// fluent or move by the state or the joint move; an atom by each rule whose head can match it,
// with the first body literal that fails under the best partial binding; a negation by the proof
// of what it negates; distinct by the term both sides are; a disjunction by each disjunct.

// whyNotLiteral explains why lit does not hold under bind (for any values of the variables
// bind leaves unbound), at level.
func (e *engine) whyNotLiteral(lit syntax.Literal, bind map[string]eval.Term, level int) *Node {
	return e.whyNotNest(lit, bind, level, 0)
}

func (e *engine) whyNotNest(lit syntax.Literal, bind map[string]eval.Term, level, nest int) *Node {
	text := e.format(lit.Cursor, bind)
	if nest > maxNest {
		e.fail(errTooDeep)
		return e.cutNode(text, false, errTooDeep.Error())
	}
	switch lit.Kind() {
	case syntax.LitAtom:
		return e.whyNotAtom(lit.Atom(), bind, level)
	case syntax.LitNot:
		n := e.newNode(KindNot, text, false)
		ops := lit.Operands()
		if len(ops) != 1 {
			return n
		}
		as, _ := e.ask(ops, bind, 1)
		if len(as) == 0 {
			n.Note = "the literal negated holds"
			return n
		}
		n.Note = fmt.Sprintf("%s holds", e.format(ops[0].Cursor, as[0]))
		n.Children = []*Node{e.proveLiteralNest(ops[0], as[0], level, nest+1)}
		return n
	case syntax.LitDistinct:
		n := e.newNode(KindDistinct, text, false)
		if ts := lit.Terms(); len(ts) == 2 {
			n.Note = fmt.Sprintf("both terms are %s", e.format(ts[0].Cursor, bind))
		}
		return n
	case syntax.LitOr:
		n := e.newNode(KindOr, text, false)
		n.Note = "no disjunct holds"
		for _, op := range lit.Operands() {
			n.Children = append(n.Children, e.whyNotNest(op, bind, level, nest+1))
		}
		return n
	}
	return e.cutNode(text, false, "not a literal")
}

// whyNotAtom explains why the atom a does not hold under bind.
func (e *engine) whyNotAtom(a syntax.Atom, bind map[string]eval.Term, level int) *Node {
	text := e.format(a.Cursor, bind)
	rel := analysis.Rel{Key: a.Name().Key(), Arity: a.Arity()}
	args := a.Args()
	switch {
	case rel == analysis.Rel{Key: "true", Arity: 1}:
		n := e.newNode(KindState, text, false)
		n.Note = e.missingFluent(args[0], bind)
		return n
	case rel == analysis.Rel{Key: "does", Arity: 2}:
		n := e.newNode(KindMove, text, false)
		n.Note = e.missingMove(args[0], args[1], bind)
		return n
	}
	n := e.newNode(KindAtom, text, false)
	var notes []string
	for i, t := range args {
		if note := e.neverValue(rel, a.Name().Name(), i, t, bind); note != "" {
			notes = append(notes, note)
		}
	}
	clauses := e.rules[rel]
	if len(clauses) == 0 {
		notes = append([]string{fmt.Sprintf("no rule has this head: no rule or fact defines %s/%d", a.Name().Name(), rel.Arity)}, notes...)
		n.Note = strings.Join(notes, "; ")
		return n
	}
	if why := e.overLimit(level); why != "" {
		c := e.cutNode(text, false, why)
		c.Note = strings.Join(append(notes, c.Note), "; ")
		return c
	}
	pats := make([]*pat, len(args))
	for i, t := range args {
		pats[i] = e.patOf(t, bind, 1)
	}
	matched := 0
	for _, c := range clauses {
		hb := map[string]eval.Term{}
		ok := true
		for i, h := range c.Head.ArgSeq() {
			if ok = e.unify(h, pats[i], hb, 1); !ok {
				break
			}
		}
		if !ok {
			continue
		}
		matched++
		if e.nodes >= e.opts.MaxNodes {
			n.Children = append(n.Children, e.cutNode(e.format(c.Head.Cursor, hb), false, e.nodeLimit()))
			break
		}
		n.Children = append(n.Children, e.ruleFailure(c, hb, level))
		if e.err != nil {
			break
		}
	}
	if matched == 0 {
		var lines []string
		for _, c := range clauses[:min(len(clauses), 5)] {
			lines = append(lines, fmt.Sprint(e.ruleOf(c).Line))
		}
		if len(clauses) > 5 {
			lines = append(lines, fmt.Sprintf("and %d more", len(clauses)-5))
		}
		what := plural(len(clauses), "the rule", fmt.Sprintf("none of the %d rules and facts", len(clauses)))
		at := plural(len(clauses), "line", "lines")
		verb := plural(len(clauses), "does not match it", "matches it")
		notes = append([]string{fmt.Sprintf("no rule has this head: %s of %s/%d (%s %s) %s",
			what, a.Name().Name(), rel.Arity, at, strings.Join(lines, ", "), verb)}, notes...)
	}
	n.Note = strings.Join(notes, "; ")
	return n
}

// ruleFailure explains why clause c gives no instance of the literal its head was unified
// with (hb: the head's variables): the longest prefix of its body, in the order checked, that
// has an answer, and the literal after it, under the answer of the prefix that satisfies the
// most of the other literals.
func (e *engine) ruleFailure(c *analysis.Clause, hb map[string]eval.Term, level int) *Node {
	order := checkOrder(c.Body, hb)
	f := len(order)
	for k := 1; k <= len(order); k++ {
		if as, _ := e.ask(order[:k], hb, 1); len(as) == 0 {
			f = k - 1
			break
		}
	}
	n := e.newNode(KindRule, e.format(c.Head.Cursor, hb), false)
	n.Rule = e.ruleOf(c)
	if e.err != nil {
		n.Note = e.err.Error()
		return n
	}
	if f == len(order) {
		// Only a literal with variables gets here: the body has an answer, but the head it
		// gives has a shape the literal's pattern excludes (a repeated variable).
		as, _ := e.ask(order, hb, 1)
		if len(as) > 0 {
			n.Bindings = e.bindingsOf(c, as[0])
			n.Literal = e.format(c.Head.Cursor, as[0])
		}
		n.Note = "the body holds, but for a head that does not match the literal"
		return n
	}
	tried := []map[string]eval.Term{hb}
	if f > 0 {
		tried, _ = e.ask(order[:f], hb, e.opts.MaxTried)
	}
	best, bestScore := 0, -1
	for i, b := range tried {
		score := 0
		for _, l := range order[f+1:] {
			if ok, _ := e.holdsUnder(l, b); ok {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	n.Tried = len(tried)
	for i, b := range tried {
		if i != best && len(n.Others) < 4 {
			n.Others = append(n.Others, e.bindingsOf(c, b))
		}
	}
	n.Bindings = e.bindingsOf(c, tried[best])
	bb := tried[best]
	n.Literal = e.format(c.Head.Cursor, bb)
	for _, l := range order[:f] {
		n.Children = append(n.Children, e.satisfied(l, bb))
	}
	n.Children = append(n.Children, e.whyNotLiteral(order[f], bb, level+1))
	for _, l := range order[f+1:] {
		u := e.newNode(KindUnreached, e.format(l.Cursor, bb), false)
		holds, asked := e.holdsUnder(l, bb)
		u.Holds = holds
		switch {
		case !asked:
			u.Note = "not checked: a variable is unbound"
		case holds:
			u.Note = "holds"
		default:
			u.Note = "fails too"
		}
		n.Children = append(n.Children, u)
	}
	return n
}

// satisfied is a body literal that holds under bind, shown without its proof.
func (e *engine) satisfied(l syntax.Literal, bind map[string]eval.Term) *Node {
	kind := KindAtom
	switch l.Kind() {
	case syntax.LitNot:
		kind = KindNot
	case syntax.LitDistinct:
		kind = KindDistinct
	case syntax.LitOr:
		kind = KindOr
	case syntax.LitAtom:
		switch (analysis.Rel{Key: l.Atom().Name().Key(), Arity: l.Atom().Arity()}) {
		case analysis.Rel{Key: "true", Arity: 1}:
			kind = KindState
		case analysis.Rel{Key: "does", Arity: 2}:
			kind = KindMove
		}
	}
	return e.newNode(kind, e.format(l.Cursor, bind), true)
}

// checkOrder is the order in which a rule's body literals are checked: as written, except that
// a negation, a distinct and a disjunction whose variables are not yet bound wait until the
// positive literals before them bind them (as the interpreter's safe order).
func checkOrder(body []syntax.Literal, hb map[string]eval.Term) []syntax.Literal {
	isBound := map[string]bool{}
	for k, v := range hb {
		if v != 0 {
			isBound[k] = true
		}
	}
	ready := func(l syntax.Literal) bool {
		for _, v := range varsOf(l.Cursor) {
			if !isBound[v.key] {
				return false
			}
		}
		return true
	}
	var out, waiting []syntax.Literal
	flush := func() {
		rest := waiting[:0]
		for _, w := range waiting {
			if ready(w) {
				out = append(out, w)
			} else {
				rest = append(rest, w)
			}
		}
		waiting = rest
	}
	for _, l := range body {
		binds := l.Kind() == syntax.LitAtom || l.Kind() == syntax.LitOr && !ready(l)
		if !binds {
			if ready(l) {
				out = append(out, l)
			} else {
				waiting = append(waiting, l)
			}
			continue
		}
		out = append(out, l)
		for _, v := range varsOf(l.Cursor) {
			isBound[v.key] = true
		}
		flush()
	}
	return append(out, waiting...)
}

// missingFluent says why (true f) does not hold: what the state has of f's kind, and whether
// such a fluent can ever hold.
func (e *engine) missingFluent(f syntax.Term, bind map[string]eval.Term) string {
	text := e.format(f.Cursor, bind)
	note := "not in the state"
	if !e.canStand(analysis.Rel{Key: "true", Arity: 1}, 0, text) {
		return fmt.Sprintf("not in the state: no init or next rule ever gives a fluent like %s", text)
	}
	if f.Kind() == syntax.TermVariable {
		return note
	}
	name, arity := f.Name().Name(), f.Arity()
	p := e.patOf(f, bind, 1)
	if p.g != 0 { // the arguments of a ground fluent, as patterns
		_, gargs := e.ev.Decompose(p.g)
		p = &pat{}
		for _, a := range gargs {
			p.args = append(p.args, &pat{g: a})
		}
	}
	type near struct {
		t     eval.Term
		score int
	}
	var close []near
	for _, t := range e.st.Fluents() {
		tn, targs := e.ev.Decompose(t)
		if syntax.Fold(tn) != syntax.Fold(name) || len(targs) != arity {
			continue
		}
		// Agreeing on the first arguments counts most: a board's coordinates come first.
		score, prefix := 0, true
		for i, a := range targs {
			if i < len(p.args) && e.fits(a, p.args[i], 1) {
				score++
				if prefix {
					score += 100
				}
			} else {
				prefix = false
			}
		}
		close = append(close, near{t, score})
	}
	if len(close) == 0 {
		return fmt.Sprintf("%s; the state has no %s fluent", note, name)
	}
	slices.SortStableFunc(close, func(a, b near) int { return b.score - a.score })
	var texts []string
	for _, c := range close[:min(3, len(close))] {
		texts = append(texts, e.ev.String(c.t))
	}
	more := ""
	if len(close) > 3 {
		more = fmt.Sprintf(" and %d more", len(close)-3)
	}
	return fmt.Sprintf("%s; the state has %s%s", note, strings.Join(texts, ", "), more)
}

// missingMove says why (does r m) does not hold.
func (e *engine) missingMove(r, m syntax.Term, bind map[string]eval.Term) string {
	move := e.format(m.Cursor, bind)
	never := ""
	if !e.canStand(analysis.Rel{Key: "does", Arity: 2}, 1, move) {
		never = fmt.Sprintf("; %s is never a legal move", move)
	}
	if e.joint == nil {
		return "no joint move is given" + never
	}
	role, ok := e.ground(r, bind)
	if !ok {
		return fmt.Sprintf("the joint move is %s%s", e.ev.FormatJoint(e.joint), never)
	}
	for i, x := range e.ev.Roles() {
		if x == role {
			return fmt.Sprintf("%s plays %s%s", e.ev.String(role), e.ev.String(e.joint[i]), never)
		}
	}
	return fmt.Sprintf("%s is not a role", e.ev.String(role))
}

// neverValue says that argument i of rel never takes the value t has under bind, or "".
func (e *engine) neverValue(rel analysis.Rel, name string, i int, t syntax.Term, bind map[string]eval.Term) string {
	if t.Kind() == syntax.TermVariable && bind[t.Name().Key()] == 0 {
		return ""
	}
	text := e.format(t.Cursor, bind)
	if e.canStand(rel, i, text) {
		return ""
	}
	return fmt.Sprintf("argument %d of %s/%d never takes the value %s (%s)", i+1, name, rel.Arity, text, e.takes(rel, i))
}

// takes describes the values argument i of rel may take.
func (e *engine) takes(rel analysis.Rel, i int) string {
	all, consts, funcs := e.res.Model.Values(rel, i)
	if all {
		return "it takes any value"
	}
	vals := append(consts, funcs...)
	if len(vals) == 0 {
		return "it takes no value: nothing ever holds"
	}
	const show = 8
	more := ""
	if len(vals) > show {
		more = fmt.Sprintf(" and %d more", len(vals)-show)
		vals = vals[:show]
	}
	return "it takes " + strings.Join(vals, ", ") + more
}

// canStand reports whether the term written as text may stand at argument i of rel
// (analysis.Model.CanStand); a text it cannot read may.
func (e *engine) canStand(rel analysis.Rel, i int, text string) bool {
	f, errs := syntax.ParseDialect(text, e.ev.Notation())
	forms := f.Forms()
	if len(errs) > 0 || len(forms) != 1 {
		return true
	}
	return e.res.Model.CanStand(rel, i, syntax.Term{Cursor: forms[0].Cursor})
}
