package eval

import (
	"fmt"
	"strconv"
	"strings"
)

// Shared groups: a group of literals that splitRule splits off from several rules of one
// relation, the same literals but for the names of their variables, becomes one auxiliary
// relation that those rules read. Chess's legal has two capture rules, "not in check" and "in
// check, capturing the checking piece", that end alike: (piece_owner_type ?king ?player king)
// (true (cell ?kx ?ky ?king)) (not (threatened_with_capture ?player ?x ?y ?kx ?ky ?u ?v)), the
// king not left in check. Split off apart, each group had its auxiliary relation of 229,376
// ground rules (per move and king square), and threatened_with_capture/7, read negated by both,
// kept its copy rules (ground_alias.go: about 790,000); shared, the group's ground rules are
// made once and each atom of threatened_with_capture/7 has one reader.
//
// The rules' binders differ (the first rule binds the move's squares by legal2, the second by
// the checking piece's square and the piece's): the shared relation reads one domain of the
// head variables the group does not bind, whose rules are each rule's binders (findBinders),
// so it holds an atom for what any of its readers asks. It is done in the restricted pass only
// (relaxed with magic sets, made when the grounding as written proved too big), as the other
// choices that trade ground rules for an auxiliary relation's gates.

// A groupShare is the state of shared groups while one relation's rules are split: per key of
// a group (groupKey), the rules that split it off, and the auxiliary relations made for it.
type groupShare struct {
	users map[string]int
	made  map[string]*sharedGroup
}

// A sharedGroup is the auxiliary relation of a shared group, and its domain (nil when the group
// binds every head variable it mentions).
type sharedGroup struct {
	aux, dom *relation
}

// shareGroups readies rg.share for splitting rules, the rules of one relation: the groups that
// splitRule would split off from two rules or more.
func (rg *session) shareGroups(rules []*rule, dynamic func(*lit) bool) {
	sh := &groupShare{users: map[string]int{}, made: map[string]*sharedGroup{}}
	rg.share = sh
	for _, ru := range rules {
		s := newRuleSplit(ru, dynamic)
		s.groupLocals()
		if len(s.order) == 0 || len(s.order) == 1 && !s.worthSplitting() {
			continue // as splitRule: not split
		}
		if _, ok := s.findBinders(len(s.order) > 1); !ok {
			continue
		}
		seen := map[string]bool{}
		for _, root := range s.order {
			if k, _ := s.groupKey(root); !seen[k] {
				seen[k] = true
				sh.users[k]++
			}
		}
	}
}

// groupKey returns a key of the group of root that does not depend on the numbers of its
// variables (but on which are head variables), and its variables in the order the key numbers
// them.
func (s *ruleSplit) groupKey(root int) (string, []int) {
	canon := map[int]int{}
	var order []int
	var b strings.Builder
	var walk func(p *pnode)
	walk = func(p *pnode) {
		switch {
		case p == nil:
			b.WriteString("_")
		case p.kind == pVar:
			c, ok := canon[p.v]
			if !ok {
				c = len(order)
				canon[p.v] = c
				order = append(order, p.v)
			}
			if s.head[p.v] {
				b.WriteString("H")
			}
			b.WriteString("v" + strconv.Itoa(c))
		case p.kind == pConst:
			b.WriteString("c" + strconv.Itoa(int(p.t)))
		default:
			b.WriteString("f" + strconv.Itoa(int(p.fn)) + "(")
			for _, a := range p.args {
				walk(a)
				b.WriteByte(' ')
			}
			b.WriteByte(')')
		}
	}
	for _, i := range s.groups[root] {
		r := s.all[i]
		fmt.Fprintf(&b, "[%t %d ", r.dropped, r.l.kind)
		if r.l.rel != nil {
			b.WriteString(strconv.Itoa(int(r.l.rel.fn)))
		}
		for _, p := range []*pnode{r.l.atom, r.l.a, r.l.b} {
			b.WriteByte(' ')
			walk(p)
		}
		b.WriteByte(']')
	}
	return b.String(), order
}

// varsAtom returns the atom of relation r whose arguments are variables vs.
func varsAtom(rg *session, r *relation, vs []int) *pnode {
	if len(vs) == 0 {
		return &pnode{kind: pConst, t: rg.st.intern(r.fn, nil)}
	}
	args := make([]*pnode, len(vs))
	for i, v := range vs {
		args[i] = &pnode{kind: pVar, v: v}
	}
	return &pnode{kind: pFunc, fn: r.fn, args: args, flat: true}
}

// sharedAux returns the atom that replaces group (of root) in the rule being split when
// another rule splits off the same group, or false. The first such rule makes the shared
// relation; each adds a rule of its binders to its domain.
func (s *ruleSplit) sharedAux(rg *session, root int, binders []binder) (lit, bool) {
	sh := rg.share
	if sh == nil {
		return lit{}, false
	}
	key, vars := s.groupKey(root)
	if sh.users[key] < 2 {
		return lit{}, false
	}
	ru := s.ru
	bound := make([]bool, ru.nvars)
	for _, i := range s.groups[root] {
		if !s.all[i].dropped && s.all[i].l.kind == litPos {
			markVars(s.all[i].l.atom, bound, true)
		}
	}
	var iface, need []int // the group's head variables, and those it does not bind
	for _, v := range vars {
		if s.head[v] {
			iface = append(iface, v)
			if !bound[v] {
				need = append(need, v)
			}
		}
	}
	sg := sh.made[key]
	if sg == nil {
		sg = &sharedGroup{aux: rg.relation(fmt.Sprintf("aux %d", len(rg.auxDynamic)), len(iface))}
		rg.auxDynamic[sg.aux.fn] = false
		ar := &rule{rel: sg.aux, head: varsAtom(rg, sg.aux, iface), nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
		dyn := false
		for _, i := range s.groups[root] {
			if s.all[i].dropped {
				ar.dropped = append(ar.dropped, *s.all[i].l)
			} else {
				ar.body = append(ar.body, *s.all[i].l)
			}
			dyn = dyn || (s.all[i].l.rel != nil && s.dynamic(s.all[i].l))
		}
		rg.auxDynamic[sg.aux.fn] = dyn
		if len(need) > 0 {
			sg.dom = rg.relation(fmt.Sprintf("aux %d", len(rg.auxDynamic)), len(need))
			rg.auxDynamic[sg.dom.fn] = false // decided by the join: no ground rule mentions it
			ar.body = append(ar.body, lit{kind: litPos, rel: sg.dom, atom: varsAtom(rg, sg.dom, need)})
		}
		sg.aux.rules = append(sg.aux.rules, rg.eliminateVars(rg.splitByMove(ar, s.dynamic), s.dynamic))
		sh.made[key] = sg
	}
	if sg.dom != nil {
		dr := &rule{rel: sg.dom, head: varsAtom(rg, sg.dom, need), nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
		for _, b := range binders {
			dr.body = append(dr.body, *s.all[b.i].l)
		}
		sg.dom.rules = append(sg.dom.rules, dr)
	}
	return lit{kind: litPos, rel: sg.aux, atom: varsAtom(rg, sg.aux, iface)}, true
}
