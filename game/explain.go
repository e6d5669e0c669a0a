package game

import (
	"context"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/syntax"
)

// Explain says why a literal (one, written as gdl query reads it, with or without variables)
// holds or does not hold in state s: proofs of minimal height, or why-nots (package explain).
// A literal about a joint move (it mentions does, next or sees, or a relation whose rules read
// does) needs joint, which must be legal in s; for the others joint may be nil. A state of the
// compiled engine is explained on the interpreter.
func (g *Game) Explain(ctx context.Context, s *State, joint []eval.Term, literal string, opts explain.Options) (*explain.Explanation, error) {
	if joint != nil {
		if _, err := g.Next(ctx, s, joint); err != nil {
			return nil, err
		}
	}
	return explain.Explain(ctx, g.ev, g.res, s.interp(), joint, literal, opts)
}

// ExplainLiteral is Explain for a literal of the game's own text (a rule's head or body
// literal), with the variables in bind (by syntax.VarKey) replaced by their values.
func (g *Game) ExplainLiteral(ctx context.Context, s *State, joint []eval.Term, lit syntax.Literal, bind map[string]eval.Term, opts explain.Options) (*explain.Explanation, error) {
	if joint != nil {
		if _, err := g.Next(ctx, s, joint); err != nil {
			return nil, err
		}
	}
	return explain.ExplainLiteral(ctx, g.ev, g.res, s.interp(), joint, lit, bind, opts)
}
