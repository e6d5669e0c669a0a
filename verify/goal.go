package verify

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// goal: in every reachable terminal state every role has exactly one goal value, an integer
// from 0 to 100 (GDL-II's random role may have none).
type goal struct {
	g  *game.Game
	gs groups
}

func newGoal(g *game.Game) check { return &goal{g: g} }

// goalValue returns the value of a goal term: an integer from 0 to 100 written as GDL compares
// it (no sign, no leading zero), or -1.
func goalValue(g *game.Game, t eval.Term) int {
	v, ok := g.Int(t)
	if !ok || v < 0 || v > 100 || g.String(t) != strconv.Itoa(v) {
		return -1
	}
	return v
}

func (c *goal) visit(x *explorer, v *visit) {
	if !v.terminal {
		return
	}
	for r, ts := range v.goals {
		kind := ""
		switch {
		case len(ts) == 0:
			if c.g.IsRandom(r) {
				continue
			}
			kind = "no-goal"
		case len(ts) > 1:
			kind = "several-goals"
		case goalValue(c.g, ts[0]) < 0:
			kind = "bad-goal"
		default:
			continue
		}
		gr, isNew := c.gs.add(kind+"\x00"+strconv.Itoa(r), kind, r, v.id)
		if isNew {
			gr.subject = strings.Join(c.g.Strings(ts), " ")
			gr.detail = strings.Join(c.g.Strings(ts), " and ")
		}
	}
}

func (c *goal) finish(ctx context.Context, x *explorer, r *Result) error {
	for _, gr := range c.gs.order {
		role := c.g.RoleNames()[gr.role]
		var msg string
		switch gr.kind {
		case "no-goal":
			msg = fmt.Sprintf("%s has no goal value in this terminal state", role)
		case "several-goals":
			msg = fmt.Sprintf("%s has several goal values in this terminal state: %s", role, gr.detail)
		default:
			msg = fmt.Sprintf("the goal value of %s in this terminal state, %s, is not an integer from 0 to 100", role, gr.subject)
		}
		if gr.count > 1 {
			msg += fmt.Sprintf(" (and in %d more reachable terminal states)", gr.count-1)
		}
		f, err := x.finding(ctx, Goal, gr, msg, "goal", "terminal")
		if err != nil {
			return err
		}
		r.Findings = append(r.Findings, f)
	}
	r.Properties[Goal] = x.verdict(len(c.gs.order) > 0)
	return nil
}
