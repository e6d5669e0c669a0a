package gametest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Check compares a test file with the analysis of its game, without playing: relations, roles
// and arities the game does not have, joint moves without one move per role, variables where a
// ground term is needed, and moves and fluents no rule of the game can ever produce (by the
// analyzer's over-approximation, so a warning here is never wrong). The diagnostics are in the
// test file's offsets.
func Check(s *Suite, game *analysis.Result) []analysis.Diagnostic {
	c := &checker{m: game.Model, defined: map[analysis.Rel]bool{}, names: map[string]bool{}}
	for _, cl := range c.m.Clauses {
		c.defined[cl.Rel()] = true
		c.names[cl.Key()] = true
	}
	for key := range c.m.Broken {
		c.names[key] = true
	}
	for _, t := range s.Tests {
		for i := range t.Steps {
			c.step(&t.Steps[i])
		}
	}
	return c.diags
}

type checker struct {
	m       *analysis.Model
	defined map[analysis.Rel]bool // relations with a clause
	names   map[string]bool       // relation names with a clause or a broken form
	diags   []analysis.Diagnostic
}

func (c *checker) report(span syntax.Span, code, msg string) {
	c.diags = append(c.diags, newDiagnostic(span, code, msg))
}

func (c *checker) step(st *Step) {
	switch st.Kind {
	case Play, Illegal:
		if n := len(c.m.Roles); n > 0 && len(st.Args) != n {
			c.report(st.Span, CodeJoint, fmt.Sprintf("a joint move has one move per role, in the order of the role facts (%s): %s here",
				c.roleList(), plural(len(st.Args), "move")))
		}
		for _, a := range st.Args {
			if c.ground(a) && st.Kind == Play {
				c.never(a, analysis.Rel{Key: "legal", Arity: 2}, 1, "no rule of the game makes %s a legal move of any role, so this joint move can never be played")
			}
		}
	case SetState:
		for _, a := range st.Args {
			if c.ground(a) {
				c.never(a, analysis.Rel{Key: "true", Arity: 1}, 0, "no rule of the game makes %s a fluent (init and next never give it)")
			}
		}
	case Holds, NotHolds:
		for _, a := range st.Args {
			c.literal(syntax.Literal{Cursor: a})
		}
	case Goal, CanForce:
		c.role(st.Role)
	case LegalMoves:
		if c.role(st.Role) {
			for _, a := range st.Args {
				if c.ground(a) {
					c.never(a, analysis.Rel{Key: "legal", Arity: 2}, 1, "no rule of the game makes %s a legal move of any role")
				}
			}
		}
	}
}

// ground reports a term with variables (or of a shape that is not a term).
func (c *checker) ground(a syntax.Cursor) bool {
	t := syntax.Term{Cursor: a}
	if t.Kind() == syntax.TermInvalid {
		c.report(a.Span(), CodeTerm, "expected a term of the game, such as noop or (mark 1 1), not "+clip(a.Text()))
		return false
	}
	if v := firstVariable(a); v.Valid() {
		c.report(v.Span(), CodeTerm, "a variable where a ground term is needed: moves, fluents and roles of a test are written out")
		return false
	}
	return true
}

func (c *checker) never(a syntax.Cursor, rel analysis.Rel, arg int, format string) {
	if !c.m.CanStand(rel, arg, syntax.Term{Cursor: a}) {
		c.report(a.Span(), CodeNever, fmt.Sprintf(format, clip(a.Text())))
	}
}

// role reports a role the game does not declare.
func (c *checker) role(r syntax.Cursor) bool {
	if !c.ground(r) {
		return false
	}
	if r.Kind() != syntax.Word || !c.m.IsRole(r.Symbol().Key()) {
		msg := fmt.Sprintf("%s is not a role of the game; its roles are %s", clip(r.Text()), c.roleList())
		if r.Kind() == syntax.Word {
			var names []string
			for _, d := range c.m.Roles {
				names = append(names, d.Name)
			}
			if near := analysis.Closest(r.Symbol().Name(), names); len(near) > 0 {
				msg = fmt.Sprintf("%s is not a role of the game; did you mean %s?", r.Symbol().Name(), strings.Join(near, " or "))
			}
		}
		c.report(r.Span(), CodeRole, msg)
		return false
	}
	return true
}

func (c *checker) roleList() string {
	var names []string
	for _, d := range c.m.Roles {
		names = append(names, d.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// literal checks the relations a literal of holds names. The walk goes through an explicit
// stack: a literal's nesting is the user's.
func (c *checker) literal(l syntax.Literal) {
	stack := []syntax.Literal{l}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch l.Kind() {
		case syntax.LitNot, syntax.LitOr:
			stack = append(stack, l.Operands()...)
		case syntax.LitDistinct:
		case syntax.LitAtom:
			c.atom(l.Atom())
		default:
			c.report(l.Span(), CodeStep, "expected a literal of the game, such as (line x) or (true (cell 1 1 x)), not "+clip(l.Text()))
		}
	}
}

func (c *checker) atom(a syntax.Atom) {
	name := a.Name()
	if !name.Valid() {
		return
	}
	key, arity := name.Key(), a.Arity()
	if want, kw := analysis.RelationKeywords[key]; kw {
		if arity != want {
			c.report(a.Span(), CodeRelation, fmt.Sprintf("%s has %s, not %d", name.Name(), plural(want, "argument"), arity))
			return
		}
		switch key {
		case "true":
			if t := a.Args()[0]; c.m.Defines("init") && !hasVariable(t.Cursor) && t.Kind() != syntax.TermInvalid {
				c.never(t.Cursor, analysis.Rel{Key: "true", Arity: 1}, 0, "no rule of the game makes %s a fluent (init and next never give it)")
			}
		case "legal", "goal", "does", "sees", "input":
			if r := a.Args()[0]; r.Kind() == syntax.TermConstant && !c.m.IsRole(r.Name().Key()) {
				c.role(r.Cursor)
			}
			if m := a.Args()[1]; (key == "legal" || key == "does") && m.Kind() != syntax.TermInvalid && !hasVariable(m.Cursor) {
				c.never(m.Cursor, analysis.Rel{Key: "legal", Arity: 2}, 1, "no rule of the game makes %s a legal move of any role")
			}
		}
		return
	}
	if c.defined[analysis.Rel{Key: key, Arity: arity}] {
		return
	}
	if c.names[key] {
		var arities []string
		for r := range c.defined {
			if r.Key == key {
				arities = append(arities, fmt.Sprint(r.Arity))
			}
		}
		sort.Strings(arities)
		if len(arities) > 0 {
			has := strings.Join(arities, " or ") + " arguments"
			if arities[0] == "1" && len(arities) == 1 {
				has = "1 argument"
			}
			c.report(a.Span(), CodeRelation, fmt.Sprintf("the game's %s has %s, not %d", name.Name(), has, arity))
		}
		return
	}
	var names []string
	for k := range c.names {
		if !analysis.IsKeyword(k) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	msg := fmt.Sprintf("the game has no relation %s", name.Name())
	if near := analysis.Closest(name.Name(), names); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, " or ") + "?"
	}
	c.report(name.Span(), CodeRelation, msg)
}

// firstVariable returns the first variable in a term (an invalid cursor when there is none).
func firstVariable(c syntax.Cursor) syntax.Cursor {
	stack := []syntax.Cursor{c}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x.Kind() {
		case syntax.Variable:
			return x
		case syntax.List:
			el := x.Elements()
			for i := len(el) - 1; i >= 0; i-- {
				stack = append(stack, el[i])
			}
		}
	}
	return syntax.Cursor{}
}

func hasVariable(c syntax.Cursor) bool { return firstVariable(c).Valid() }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
