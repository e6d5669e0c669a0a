package analysis

import "github.com/gdl-lsp/gdl/syntax"

func init() {
	register(&Check{
		Code:     "keyword-placement",
		Severity: Error,
		Category: CategorySemantics,
		Summary: "A keyword where GDL forbids it: true or does defined by a fact or rule; init, next, base or input used " +
			"in a rule body; role defined by a rule, or a role that is not a constant.",
		Example: "(<= (legal ?p noop) (role ?p) (next (control ?p)))",
		Fix: "true and does are given by the game manager: use them in bodies only. Use true instead of init or next " +
			"in bodies. Declare roles as facts whose argument is a constant, like (role white).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			name := c.Head.Name()
			switch k := name.Key(); {
			case k == "true" || k == "does":
				r.Report(name.Span(), k+" cannot be defined by a fact or rule: the game manager provides the state and the moves", nil)
			case k == "role" && c.IsRule:
				r.Report(name.Span(), "role must be declared by ground facts, not defined by a rule", nil)
			case k == "role" && c.Head.Arity() == 1 && c.Head.Args()[0].Kind() == syntax.TermFunction:
				a := c.Head.Args()[0]
				r.Report(a.Span(), "a role must be a constant, not the function term "+a.Text()+": players name roles by constants", nil)
			}
			for _, o := range c.Occurrences(m) {
				if o.Kind != OccRelation || o.Def {
					continue
				}
				switch o.Key {
				case "init", "next":
					r.Report(o.Span, o.Name+" cannot be used in a rule body: use "+m.Notation().Atom("true", "...")+" to test the current state", nil)
				case "base", "input":
					r.Report(o.Span, o.Name+" cannot be used in a rule body: it only describes the game to the game manager", nil)
				}
			}
		},
	})
}
