package analysis

import (
	"strconv"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "goal-value",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "A goal value that is not an integer from 0 to 100.",
		Example:  "(<= (goal white win) (true (won white)))",
		Fix:      "Use an integer from 0 to 100, for example 100 for a win and 0 for a loss.",
		Run: func(m *Model, r *Reporter) {
			for _, c := range m.Clauses {
				if c.Key() != "goal" || c.Head.Arity() != 2 {
					continue
				}
				v := c.Head.Args()[1]
				switch v.Kind() {
				case syntax.TermConstant:
					if n, err := strconv.Atoi(v.Text()); err != nil || n < 0 || n > 100 || v.Text()[0] == '+' {
						r.Report(v.Span(), "goal value "+v.Text()+" is not an integer from 0 to 100", nil)
					}
				case syntax.TermFunction:
					r.Report(v.Span(), "goal value "+v.Text()+" is a function term; goal values are integers from 0 to 100", nil)
				}
			}
		},
	})
}
