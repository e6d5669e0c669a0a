package analysis

import "github.com/gdl-lsp/gdl/syntax"

func init() {
	register(&Check{
		Code:     "empty-file",
		Severity: Warning,
		Category: CategorySemantics,
		Summary: "The file has no form at all: it is empty, or holds only comments and blanks. Checking it finds " +
			"nothing else, which is rarely what was meant (a wrong file, or a game that was never saved).",
		Example: "; tic-tac-toe, to be written",
		Fix:     "Check the right file, or write the game: roles, init, legal, next, terminal and goal rules.",
		Run: func(m *Model, r *Reporter) {
			if _, ok := firstForm(m.File); ok || len(m.File.Errors()) > 0 {
				return // a form, or text the parser reports
			}
			what := "the file is empty"
			if len(m.File.Source()) > 0 {
				what = "the file holds only comments and blanks"
			}
			r.Report(syntax.Span{}, what+": it has no fact or rule, so there is no game to check", nil)
		},
	})
}
