package game

import (
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

// ParseTerm reads a ground term written in KIF, like `(mark 1 1)`, or in infix, like
// `mark(1,1)`: a move, a fluent or a role.
func (g *Game) ParseTerm(text string) (eval.Term, error) { return g.ev.ParseTerm(text) }

// ParseQuery compiles a query, a literal or a conjunction of literals in KIF or infix, for
// Evaluate; see eval.Program.ParseQuery.
func (g *Game) ParseQuery(text string) (*eval.Query, error) { return g.ev.ParseQuery(text) }

// Refused returns why the game cannot be played, an *eval.RefusedError naming a relation among
// role, init, legal, next, goal, terminal and sees whose rules have no defined meaning (with the
// analyzer's diagnostics), or nil.
func (g *Game) Refused() error { return g.ev.Refused() }

// StringIn writes a term in notation d whatever the game's (a test file in KIF of an infix
// game writes its moves in KIF).
func (g *Game) StringIn(t eval.Term, d syntax.Dialect) string { return g.ev.StringIn(t, d) }

// Notation returns the notation the game is written in: prefix KIF or infix.
func (g *Game) Notation() syntax.Dialect { return g.ev.Notation() }

// Int returns the value of an integer constant such as a goal value, and false for any other
// term.
func (g *Game) Int(t eval.Term) (int, bool) { return g.ev.Int(t) }
