package verify

import (
	"context"
	"fmt"

	"github.com/gdl-lsp/gdl/game"
)

// winnability: for every role but GDL-II's random, some reachable terminal state gives it goal
// 100 (weak winnability). In a game with one player, the player must also be able to reach 100
// by its own moves (strong winnability): with no other role that is the same as weak
// winnability; with GDL-II's random beside it, the player must force 100 whatever random plays,
// which chance games seldom allow, so that is reported in RoleResult.Strong but not as a
// finding.
type winnability struct {
	g      *game.Game
	best   []int   // per role, the highest goal value found in a terminal state (-1: none)
	bestID []int32 // and the first state found with it
	player int     // the one role that is not random, when the others are all random; else -1
	// For a player against random: per state, the number of legal moves of each role (flat),
	// and whether it is a terminal state where the player has 100.
	counts []int32
	win    []bool
}

func newWinnability(g *game.Game) check {
	c := &winnability{g: g, player: -1}
	for r := range g.Roles() {
		c.best = append(c.best, -1)
		c.bestID = append(c.bestID, -1)
		if !g.IsRandom(r) {
			if c.player == -1 {
				c.player = r
			} else {
				c.player = -2
			}
		}
	}
	if c.player < 0 {
		c.player = -1
	}
	return c
}

// againstRandom reports whether the game is one player against GDL-II's random.
func (c *winnability) againstRandom() bool { return c.player >= 0 && len(c.best) > 1 }

func (c *winnability) visit(x *explorer, v *visit) {
	if c.againstRandom() {
		nr := len(c.best)
		for int(v.id) >= len(c.win) {
			c.win = append(c.win, false)
			c.counts = append(c.counts, make([]int32, nr)...)
		}
		for r, ms := range v.legal {
			c.counts[int(v.id)*nr+r] = int32(len(ms))
		}
	}
	if !v.terminal {
		return
	}
	for r, ts := range v.goals {
		if len(ts) != 1 {
			continue
		}
		val := goalValue(c.g, ts[0])
		if val > c.best[r] {
			c.best[r], c.bestID[r] = val, v.id
		}
		if r == c.player && val == 100 && c.againstRandom() {
			c.win[v.id] = true
		}
	}
}

func (c *winnability) finish(ctx context.Context, x *explorer, r *Result) error {
	found := false
	allOK := true
	for i, name := range c.g.RoleNames() {
		rr := RoleResult{Role: name, Random: c.g.IsRandom(i), Best: c.best[i], Strong: Skipped}
		switch {
		case rr.Random:
			rr.Weak = Skipped
		case c.best[i] == 100:
			rr.Weak = OK
		case x.complete():
			rr.Weak = Failed
		default:
			rr.Weak = Unknown
		}
		if rr.Weak == Unknown {
			allOK = false
		}
		if rr.Weak == Failed {
			found = true
			gr := &group{kind: "never-100", role: i, id: 0, count: 1}
			msg := fmt.Sprintf("no terminal state is reachable, so %s never reaches goal 100", name)
			if c.bestID[i] >= 0 {
				gr.id = c.bestID[i]
				gr.subject = fmt.Sprint(c.best[i])
				msg = fmt.Sprintf("no reachable terminal state gives %s goal 100; the highest it reaches is %d, in this state", name, c.best[i])
			} else if x.terminal > 0 {
				msg = fmt.Sprintf("no reachable terminal state gives %s goal 100, nor any integer goal value from 0 to 100", name)
			}
			f, err := x.finding(ctx, Winnability, gr, msg, "goal")
			if err != nil {
				return err
			}
			r.Findings = append(r.Findings, f)
		}
		if i == c.player {
			switch {
			case len(c.best) == 1:
				rr.Strong = rr.Weak
			case c.forced(x):
				rr.Strong = OK
			case x.complete():
				rr.Strong = Failed
			default:
				rr.Strong = Unknown
			}
		}
		r.Roles = append(r.Roles, rr)
	}
	switch {
	case found:
		r.Properties[Winnability] = Failed
	case allOK:
		r.Properties[Winnability] = OK
	default:
		r.Properties[Winnability] = Unknown
	}
	return nil
}

// forced reports whether the player can force goal 100 from the initial state whatever the
// random roles play: the least fixed point of "a terminal state where the player has 100, or a
// state with a move of the player after which every joint move leads to such a state". States
// not explored count as lost, so a true answer holds in the whole game.
func (c *winnability) forced(x *explorer) bool {
	if len(c.win) == 0 {
		return false
	}
	nr := len(c.best)
	p := c.player
	win := c.win
	for changed := true; changed; {
		changed = false
		for id := len(win) - 1; id >= 0; id-- {
			n := x.nodes[id]
			if win[id] || n.flags&fExplored == 0 || n.flags&(fTerminal|fDeadEnd) != 0 {
				continue
			}
			cnt := c.counts[id*nr : id*nr+nr]
			stride := 1
			for r := p + 1; r < nr; r++ {
				stride *= int(cnt[r])
			}
			succ := x.succ(int32(id))
			np := int(cnt[p])
			// good[m]: every joint move with the player's move m reaches a forced state.
			good := make([]bool, np)
			for m := range good {
				good[m] = true
			}
			for k, to := range succ {
				m := (k / stride) % np
				if to < 0 || int(to) >= len(win) || !win[to] {
					good[m] = false
				}
			}
			if len(succ) < int(x.jointCount(cnt)) {
				continue // partly expanded: not every joint move is known
			}
			for _, ok := range good {
				if ok {
					win[id] = true
					changed = true
					break
				}
			}
		}
	}
	return win[0]
}

// jointCount is the number of joint moves of legal move counts.
func (x *explorer) jointCount(cnt []int32) int64 {
	n := int64(1)
	for _, c := range cnt {
		n *= int64(c)
	}
	return n
}
