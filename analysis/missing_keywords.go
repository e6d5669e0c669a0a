package analysis

import "github.com/gdl-lsp/gdl/syntax"

// A game needs roles, legal moves, goals and a terminal condition. Each missing one is reported
// once, at the start of the file, so the problem shows even in an empty editor.
func init() {
	for _, k := range []struct{ key, what, example string }{
		{"role", "no role is declared: a game needs at least one (role name) fact", "(role white)"},
		{"legal", "no legal rule: without one no player can ever move", "(<= (legal white (mark ?x)) (true (free ?x)))"},
		{"goal", "no goal rule: a game must say what each role scores", "(<= (goal white 100) (true (won white)))"},
		{"terminal", "no terminal rule: the game can never end", "(<= terminal (true (step 10)))"},
	} {
		k := k
		register(&Check{
			Code:     "missing-" + k.key,
			Severity: Error,
			Category: CategorySemantics,
			Summary:  "The game defines no " + k.key + ".",
			Example:  "; a file without any " + k.key + " fact or rule",
			Fix:      "Add one, for example " + k.example + ".",
			Run: func(m *Model, r *Reporter) {
				if len(m.File.Forms()) == 0 {
					return // a new, empty file is not a broken game yet
				}
				if !m.Defines(k.key) {
					r.Report(syntax.Span{}, k.what, nil)
				}
			},
		})
	}
}
