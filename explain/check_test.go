package explain_test

// An independent checker of explanations. It reads a proof or a why-not as its JSON would
// (texts and clause indexes), instantiates the game's clauses itself (its own substitution and
// its own unifier on syntax trees), and asks the interpreter only whether ground literals and
// ground conjunctions hold, as a user could with gdl query: nothing of the explanation engine's
// search is reused. Brute force replaces the engine's partial bindings: a rule that a why-not
// says gives nothing is tried with every assignment of its variables over the terms of the state,
// the moves and the game's constants.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/syntax"
)

type checker struct {
	ctx   context.Context
	ev    *eval.Program
	res   *analysis.Result
	st    *eval.State
	joint []eval.Term
	ids   map[int]*explain.Node
	brute int // the largest number of assignments the brute force tries per rule (0: none)
	tried int // rules checked by brute force
}

func newChecker(ev *eval.Program, res *analysis.Result, st *eval.State, joint []eval.Term) *checker {
	return &checker{ctx: context.Background(), ev: ev, res: res, st: st, joint: joint, ids: map[int]*explain.Node{}}
}

// check checks a whole explanation of the literal text.
func (c *checker) check(x *explain.Explanation, text string) error {
	holds, err := c.holds(text)
	if err != nil {
		return err
	}
	if holds != x.Holds {
		return fmt.Errorf("%s: the explanation says holds=%v, the interpreter %v", text, x.Holds, holds)
	}
	if x.Holds {
		if len(x.Proofs) == 0 {
			return fmt.Errorf("%s holds but has no proof", text)
		}
		for _, p := range x.Proofs {
			if err := c.proof(p); err != nil {
				return fmt.Errorf("proof of %s: %v", p.Literal, err)
			}
		}
		return nil
	}
	if x.WhyNot == nil {
		return fmt.Errorf("%s does not hold but has no why-not", text)
	}
	return c.whyNot(x.WhyNot)
}

// holds asks whether a literal (or conjunction) written as text has an answer.
func (c *checker) holds(text string) (bool, error) {
	q, err := c.ev.ParseQuery(text)
	if err != nil {
		return false, err
	}
	as, _, err := c.ev.AskFirst(c.ctx, c.st, c.joint, q, 1)
	return len(as) > 0, err
}

// subst writes the syntax c with variables replaced by the texts in bind, in notation d.
func subst(c syntax.Cursor, bind map[string]string, d syntax.Dialect) string {
	switch c.Kind() {
	case syntax.Variable:
		if v, ok := bind[c.Symbol().Key()]; ok {
			return v
		}
		return c.Text()
	case syntax.List:
		el := c.Elements()
		parts := make([]string, len(el))
		for i, e := range el {
			parts[i] = subst(e, bind, d)
		}
		if d == syntax.Prefix {
			if len(parts) == 1 {
				return parts[0]
			}
			return "(" + strings.Join(parts, " ") + ")"
		}
		head := el[0].Symbol()
		switch {
		case head.IsOperator() && head.Key() == "not":
			return "~" + parts[1]
		case head.IsOperator():
			return "(" + strings.Join(parts[1:], " | ") + ")"
		case len(parts) == 1:
			return parts[0]
		}
		return parts[0] + "(" + strings.Join(parts[1:], ",") + ")"
	}
	return c.Text()
}

func (c *checker) term(text string) (eval.Term, error) { return c.ev.ParseTerm(text) }

func (c *checker) sameTerm(a, b string) error {
	ta, err := c.term(a)
	if err != nil {
		return err
	}
	tb, err := c.term(b)
	if err != nil {
		return err
	}
	if ta != tb {
		return fmt.Errorf("%s is not %s", a, b)
	}
	return nil
}

func (c *checker) clause(n *explain.Node) (*analysis.Clause, map[string]string, error) {
	if n.Rule == nil || n.Rule.Clause < 0 || n.Rule.Clause >= len(c.res.Model.Clauses) {
		return nil, nil, fmt.Errorf("%s: a rule node without a clause", n.Literal)
	}
	cl := c.res.Model.Clauses[n.Rule.Clause]
	if sp := cl.Form.Span(); sp.Start != n.Rule.Start || sp.End != n.Rule.End {
		return nil, nil, fmt.Errorf("%s: clause %d is at %v, not %d-%d", n.Literal, cl.Index, sp, n.Rule.Start, n.Rule.End)
	}
	bind := map[string]string{}
	for _, b := range n.Bindings {
		bind[syntax.VarKey(b.Var)] = b.Value
	}
	return cl, bind, nil
}

// proof checks a proof node: every rule node an instance of its clause whose head is the
// node's literal and whose body literals hold, each positive one proved by its child; leaves
// in the state or the joint move; heights one more than the tallest child's.
func (c *checker) proof(n *explain.Node) error {
	if !n.Holds {
		return fmt.Errorf("%s: a node of a proof that does not hold", n.Literal)
	}
	d := c.ev.Notation()
	switch n.Kind {
	case explain.KindState:
		f, err := c.term(n.Literal)
		if err != nil {
			return err
		}
		_, args := c.ev.Decompose(f)
		if len(args) != 1 || !slices.Contains(c.st.Fluents(), args[0]) {
			return fmt.Errorf("%s is not in the state", n.Literal)
		}
		return nil
	case explain.KindMove:
		t, err := c.term(n.Literal)
		if err != nil {
			return err
		}
		_, args := c.ev.Decompose(t)
		for i, r := range c.ev.Roles() {
			if len(args) == 2 && r == args[0] && c.joint != nil && c.joint[i] == args[1] {
				return nil
			}
		}
		return fmt.Errorf("%s is not in the joint move", n.Literal)
	case explain.KindRef:
		p, ok := c.ids[n.Ref]
		if !ok {
			return fmt.Errorf("%s refers to #%d, not given before", n.Literal, n.Ref)
		}
		return c.sameTerm(p.Literal, n.Literal)
	case explain.KindCut:
		ok, err := c.holds(n.Literal)
		if err == nil && !ok {
			err = fmt.Errorf("%s (cut) does not hold", n.Literal)
		}
		return err
	case explain.KindNot, explain.KindDistinct:
		ok, err := c.holds(n.Literal)
		if err == nil && !ok {
			err = fmt.Errorf("%s is shown checked but does not hold", n.Literal)
		}
		return err
	case explain.KindOr:
		if len(n.Children) != 1 {
			return fmt.Errorf("%s: a disjunction proved by %d disjuncts", n.Literal, len(n.Children))
		}
		return c.proof(n.Children[0])
	case explain.KindRule:
	default:
		return fmt.Errorf("%s: a node of kind %s in a proof", n.Literal, n.Kind)
	}
	cl, bind, err := c.clause(n)
	if err != nil {
		return err
	}
	if n.ID > 0 {
		c.ids[n.ID] = n
	}
	if err := c.sameTerm(subst(cl.Head.Cursor, bind, d), n.Literal); err != nil {
		return fmt.Errorf("the head of the rule at line %d: %v", n.Rule.Line, err)
	}
	if len(n.Children) != len(cl.Body) {
		return fmt.Errorf("%s: %d children for %d body literals", n.Literal, len(n.Children), len(cl.Body))
	}
	tallest, cut := 0, false
	for i, l := range cl.Body {
		ch := n.Children[i]
		want := subst(l.Cursor, bind, d)
		if l.Kind() == syntax.LitAtom {
			if err := c.sameTerm(want, ch.Literal); err != nil {
				return fmt.Errorf("body literal %d of the rule at line %d: %v", i+1, n.Rule.Line, err)
			}
		} else if l.Kind() == syntax.LitOr {
			// The disjunct that holds is proved as the child's; it must be one of the operands.
			if err := c.disjunctOf(l, bind, ch); err != nil {
				return fmt.Errorf("body literal %d of the rule at line %d: %v", i+1, n.Rule.Line, err)
			}
		} else if ok, err := c.holds(want); err != nil || !ok {
			return fmt.Errorf("body literal %s of the rule at line %d does not hold (%v)", want, n.Rule.Line, err)
		}
		if err := c.proof(ch); err != nil {
			return err
		}
		if ch.Kind == explain.KindOr {
			ch = ch.Children[0]
		}
		cut = cut || ch.Kind == explain.KindCut
		tallest = max(tallest, ch.Height)
	}
	if !cut && n.Height != tallest+1 || n.Height < tallest+1 {
		return fmt.Errorf("%s: height %d, its tallest child's %d", n.Literal, n.Height, tallest)
	}
	return nil
}

// disjunctOf checks that the child of an `or` node is an instance of one of the operands of
// the disjunction l under bind.
func (c *checker) disjunctOf(l syntax.Literal, bind map[string]string, n *explain.Node) error {
	if n.Kind != explain.KindOr || len(n.Children) != 1 {
		return fmt.Errorf("%s: not a disjunction proved by one disjunct", n.Literal)
	}
	got, err := c.parseLiteral(n.Children[0].Literal)
	if err != nil {
		return err
	}
	for _, op := range l.Operands() {
		b := map[string]string{}
		for k, v := range bind {
			b[k] = v
		}
		if matchText(op.Cursor, got.Cursor, b, c.ev.Notation()) {
			return nil
		}
	}
	return fmt.Errorf("%s is none of the disjuncts of %s", n.Children[0].Literal, l.Text())
}

// whyNot checks a why-not node: what it says fails fails, what it says holds holds, each rule
// that could match is there, and brute force finds no instance of a rule said to give nothing.
func (c *checker) whyNot(n *explain.Node) error {
	if n.Holds {
		return fmt.Errorf("%s: a why-not that holds", n.Literal)
	}
	if n.Kind == explain.KindCut {
		return nil
	}
	if q, err := c.ev.ParseQuery(n.Literal); err == nil {
		as, _, err := c.ev.AskFirst(c.ctx, c.st, c.joint, q, 1)
		if err != nil {
			return err
		}
		if len(as) > 0 {
			return fmt.Errorf("%s is said to fail, but holds", n.Literal)
		}
	} else if n.Kind != explain.KindNot && n.Kind != explain.KindDistinct && n.Kind != explain.KindOr {
		return fmt.Errorf("%s: %v", n.Literal, err)
	}
	switch n.Kind {
	case explain.KindState, explain.KindMove, explain.KindDistinct:
		return nil
	case explain.KindNot:
		if len(n.Children) == 1 {
			return c.proof(n.Children[0])
		}
		return nil
	case explain.KindOr:
		for _, ch := range n.Children {
			if err := c.whyNot(ch); err != nil {
				return err
			}
		}
		return nil
	case explain.KindAtom:
	default:
		return fmt.Errorf("%s: a node of kind %s in a why-not", n.Literal, n.Kind)
	}
	listed := map[int]bool{}
	cut := false
	for _, r := range n.Children {
		if r.Kind == explain.KindCut {
			cut = true
			continue
		}
		if r.Kind != explain.KindRule {
			return fmt.Errorf("%s: a child of kind %s", n.Literal, r.Kind)
		}
		listed[r.Rule.Clause] = true
		if err := c.ruleFails(n.Literal, r); err != nil {
			return err
		}
	}
	if cut {
		return nil
	}
	// Every clause whose head unifies with the literal is listed.
	lit, err := c.parseLiteral(n.Literal)
	if err != nil {
		return err
	}
	for _, cl := range c.res.Model.Clauses {
		if !cl.Head.Valid() || listed[cl.Index] {
			continue
		}
		if matchText(cl.Head.Cursor, lit.Cursor, map[string]string{}, c.ev.Notation()) {
			return fmt.Errorf("%s: the rule at %d can match but is not listed", n.Literal, cl.Index)
		}
	}
	if len(listed) == 0 && !strings.Contains(n.Note, "no rule has this head") {
		return fmt.Errorf("%s: no rule listed and no reason given", n.Literal)
	}
	return nil
}

func (c *checker) parseLiteral(text string) (syntax.Literal, error) {
	q, err := c.ev.ParseQuery(text)
	if err != nil {
		return syntax.Literal{}, err
	}
	return q.Literals()[0], nil
}

// ruleFails checks a rule said to give nothing for literal: its children are its body
// literals, those before the failing one hold, the failing one fails, those after it are as said;
// and, by brute force, no instance of the rule matching the literal has a body that holds.
func (c *checker) ruleFails(literal string, r *explain.Node) error {
	cl, bind, err := c.clause(r)
	if err != nil {
		return err
	}
	if len(r.Children) != len(cl.Body) {
		return fmt.Errorf("%s: %d children for %d body literals", r.Literal, len(r.Children), len(cl.Body))
	}
	d := c.ev.Notation()
	var texts []string
	for _, l := range cl.Body {
		texts = append(texts, subst(l.Cursor, bind, d))
	}
	failed := false
	for _, ch := range r.Children {
		if !slices.Contains(texts, ch.Literal) {
			return fmt.Errorf("%s: %s is not a body literal under the bindings shown (%v)", r.Literal, ch.Literal, texts)
		}
		switch {
		case ch.Kind == explain.KindUnreached:
			if !failed {
				return fmt.Errorf("%s: %s unreached before the failing literal", r.Literal, ch.Literal)
			}
			if ok, err := c.holds(ch.Literal); err == nil && ok != ch.Holds {
				return fmt.Errorf("%s: %s is said to hold=%v", r.Literal, ch.Literal, ch.Holds)
			}
		case ch.Holds:
			if failed {
				return fmt.Errorf("%s: %s holds after the failing literal", r.Literal, ch.Literal)
			}
			if ok, err := c.holds(ch.Literal); err != nil || !ok {
				return fmt.Errorf("%s: %s is said to hold (%v)", r.Literal, ch.Literal, err)
			}
		default:
			if failed {
				return fmt.Errorf("%s: two failing literals", r.Literal)
			}
			failed = true
			if err := c.whyNot(ch); err != nil {
				return err
			}
		}
	}
	if !failed {
		return fmt.Errorf("%s: no failing literal", r.Literal)
	}
	return c.bruteForce(literal, cl)
}

// bruteForce tries every assignment of the variables of clause cl that its head's match with
// literal leaves free, over the terms of the state and the joint move, the legal moves and the
// game's constants: none may give a body that holds.
func (c *checker) bruteForce(literal string, cl *analysis.Clause) error {
	if c.brute == 0 {
		return nil
	}
	lit, err := c.parseLiteral(literal)
	if err != nil {
		return err
	}
	if len(varsIn(lit.Cursor)) > 0 {
		return nil
	}
	d := c.ev.Notation()
	heads := c.headBindings(cl, lit)
	if len(heads) == 0 {
		return fmt.Errorf("the rule at line %d is listed but its head cannot match %s", cl.Index, literal)
	}
	universe := c.universe()
	var free []string
	for _, v := range clauseVars(cl) {
		if _, ok := heads[0][v]; !ok {
			free = append(free, v)
		}
	}
	total := 1
	for range free {
		total *= len(universe)
		if total > c.brute {
			return nil
		}
	}
	c.tried++
	for _, hb := range heads {
		idx := make([]int, len(free))
		for {
			b := map[string]string{}
			for k, v := range hb {
				b[k] = v
			}
			for i, v := range free {
				b[v] = universe[idx[i]]
			}
			var parts []string
			for _, l := range cl.Body {
				parts = append(parts, subst(l.Cursor, b, d))
			}
			sep := " "
			if d == syntax.Infix {
				sep = " & "
			}
			if len(parts) > 0 {
				if ok, err := c.holds(strings.Join(parts, sep)); err == nil && ok {
					return fmt.Errorf("brute force: the rule at clause %d gives %s with %v", cl.Index, literal, b)
				}
			}
			i := 0
			for ; i < len(idx); i++ {
				idx[i]++
				if idx[i] < len(universe) {
					break
				}
				idx[i] = 0
			}
			if i == len(idx) {
				break
			}
		}
	}
	return nil
}

// headBindings matches the head of cl with a ground literal: the texts its variables take (a
// literal with variables gives nothing: brute force is for ground literals).
func (c *checker) headBindings(cl *analysis.Clause, lit syntax.Literal) []map[string]string {
	b := map[string]string{}
	if !matchText(cl.Head.Cursor, lit.Cursor, b, c.ev.Notation()) {
		return nil
	}
	return []map[string]string{b}
}

// matchText matches the pattern p (a clause's) with the syntax g, binding p's variables to
// g's texts (written in notation d by subst). A variable of g matches anything, and a variable
// of p met twice is compared only where both texts are ground: for a g with variables the
// answer may be yes where they would not unify, never no where they would.
func matchText(p, g syntax.Cursor, b map[string]string, d syntax.Dialect) bool {
	if g.Kind() == syntax.Variable {
		return true
	}
	if p.Kind() == syntax.Variable {
		if len(varsIn(g)) > 0 {
			return true
		}
		txt := subst(g, nil, d)
		if v, ok := b[p.Symbol().Key()]; ok {
			return v == txt
		}
		b[p.Symbol().Key()] = txt
		return true
	}
	pe, ge := p.Elements(), g.Elements()
	if p.Kind() != syntax.List || g.Kind() != syntax.List {
		pn, gn := p, g
		if p.Kind() == syntax.List && len(pe) == 1 {
			pn = pe[0]
		}
		if g.Kind() == syntax.List && len(ge) == 1 {
			gn = ge[0]
		}
		return pn.Kind() != syntax.List && gn.Kind() != syntax.List && syntax.Fold(pn.Symbol().Name()) == syntax.Fold(gn.Symbol().Name())
	}
	if len(pe) != len(ge) {
		return false
	}
	for i := range pe {
		if !matchText(pe[i], ge[i], b, d) {
			return false
		}
	}
	return true
}

func varsIn(c syntax.Cursor) []string {
	var out []string
	stack := []syntax.Cursor{c}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind() == syntax.Variable {
			if k := n.Symbol().Key(); !slices.Contains(out, k) {
				out = append(out, k)
			}
			continue
		}
		stack = append(stack, n.Children()...)
	}
	return out
}

func clauseVars(cl *analysis.Clause) []string { return varsIn(cl.Form.Cursor) }

// universe is the terms brute force assigns: every subterm of the state's fluents, of the
// joint move and of the legal moves, and the game's constants, as text.
func (c *checker) universe() []string {
	seen := map[eval.Term]bool{}
	var stack []eval.Term
	stack = append(stack, c.st.Fluents()...)
	stack = append(stack, c.joint...)
	if legal, err := c.ev.Legal(c.ctx, c.st); err == nil {
		for _, ms := range legal {
			stack = append(stack, ms...)
		}
	}
	stack = append(stack, c.ev.Roles()...)
	for key := range c.res.Model.Constants {
		stack = append(stack, c.ev.Compose(key))
	}
	var out []string
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, c.ev.String(t))
		_, args := c.ev.Decompose(t)
		stack = append(stack, args...)
	}
	slices.Sort(out)
	return out
}
