package verify

import (
	"context"
	"fmt"

	"github.com/gdl-lsp/gdl/game"
)

// playability: every role has at least one legal move in every reachable non-terminal state.
type playability struct {
	g  *game.Game
	gs groups
}

func newPlayability(g *game.Game) check { return &playability{g: g} }

func (c *playability) visit(x *explorer, v *visit) {
	for r, ms := range v.legal {
		if len(ms) == 0 {
			c.gs.add(fmt.Sprint(r), "no-legal-move", r, v.id)
		}
	}
}

func (c *playability) finish(ctx context.Context, x *explorer, r *Result) error {
	for _, gr := range c.gs.order {
		role := c.g.RoleNames()[gr.role]
		msg := fmt.Sprintf("%s has no legal move in this state, which is not terminal", role)
		if gr.count > 1 {
			msg += fmt.Sprintf(" (nor in %d more reachable states)", gr.count-1)
		}
		f, err := x.finding(ctx, Playability, gr, msg, "legal", "terminal")
		if err != nil {
			return err
		}
		r.Findings = append(r.Findings, f)
	}
	r.Properties[Playability] = x.verdict(len(c.gs.order) > 0)
	return nil
}
