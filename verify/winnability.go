package verify

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// winnability: for every role but GDL-II's random, some reachable terminal state gives it goal
// 100 (weak winnability). A game with one player must also be strongly winnable: some sequence
// of the player's own moves reaches 100 whatever the other roles play. With no other role that
// is weak winnability again. Against GDL-II's random it is a plan fixed in advance (the player
// need not see the state, so percepts do not matter) that wins in every branch random can
// take; a chance game seldom has one, so a failure is reported in RoleResult.Strong but is not
// a finding.
type winnability struct {
	g      *game.Game
	best   []int   // per role, the highest goal value found in a terminal state (-1: none)
	bestID []int32 // and the first state found with it
	player int     // the one role that is not random, when the others are all random; else -1
	// For a player against random, per state: the number of legal moves of each role (flat),
	// the player's legal moves, whether it is a terminal state where the player has 100.
	counts []int32
	moves  [][]eval.Term
	win    []bool
}

// maxBeliefs and maxBeliefWork bound the search for a plan of the player against random: the
// beliefs met, and the states of all beliefs expanded together.
const (
	maxBeliefs    = 100_000
	maxBeliefWork = 10_000_000
)

func newWinnability(g *game.Game) check {
	c := &winnability{g: g, player: -1}
	players := 0
	for r := range g.Roles() {
		c.best = append(c.best, -1)
		c.bestID = append(c.bestID, -1)
		if !g.IsRandom(r) {
			players++
			c.player = r
		}
	}
	if players != 1 {
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
			c.moves = append(c.moves, nil)
			c.counts = append(c.counts, make([]int32, nr)...)
		}
		for r, ms := range v.legal {
			c.counts[int(v.id)*nr+r] = int32(len(ms))
		}
		if v.legal != nil {
			c.moves[v.id] = v.legal[c.player]
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
			f, err := c.finding(ctx, x, i)
			if err != nil {
				return err
			}
			r.Findings = append(r.Findings, f)
		}
		if i == c.player {
			if len(c.best) == 1 {
				rr.Strong = rr.Weak
			} else {
				rr.Strong = c.plan(x)
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

// finding reports that role i never reaches 100; the witness leads to its best terminal state.
func (c *winnability) finding(ctx context.Context, x *explorer, i int) (Finding, error) {
	name := c.g.RoleNames()[i]
	gr := &group{kind: "never-100", role: i, id: 0, count: 1}
	msg := fmt.Sprintf("no terminal state is reachable, so %s never reaches goal 100", name)
	if c.bestID[i] >= 0 {
		gr.id = c.bestID[i]
		gr.subject = fmt.Sprint(c.best[i])
		msg = fmt.Sprintf("no reachable terminal state gives %s goal 100; the highest it reaches is %d, in this state", name, c.best[i])
	} else if x.terminal > 0 {
		msg = fmt.Sprintf("no reachable terminal state gives %s goal 100, nor any integer goal value from 0 to 100", name)
	}
	return x.finding(ctx, Winnability, gr, msg, "goal")
}

// plan looks for a sequence of the player's moves that wins against every move of random: a
// breadth-first search over beliefs, the sets of states the moves so far may lead to. A
// terminal state leaves a belief when the player has 100 there and spoils it otherwise; a
// move must be legal in every state of a belief; a belief that empties is won.
func (c *winnability) plan(x *explorer) Status {
	if len(c.win) == 0 {
		return Unknown
	}
	unknown := false
	seen := map[string]bool{}
	queue := [][]int32{{0}}
	seen[beliefKey(queue[0])] = true
	work := 0
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if work += len(b); len(seen) > maxBeliefs || work > maxBeliefWork {
			return Unknown
		}
		live, spoilt, unexplored := c.live(x, b)
		unknown = unknown || unexplored
		if spoilt {
			continue
		}
		if len(live) == 0 {
			return OK
		}
		for _, m := range c.commonMoves(live) {
			next := c.after(x, live, m)
			if len(next) > 0 && next[0] < 0 {
				unknown = true
				continue
			}
			if k := beliefKey(next); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	if unknown {
		return Unknown
	}
	return Failed
}

// beliefKey is the key of a belief (sorted state numbers) in plan's set of beliefs seen.
func beliefKey(b []int32) string {
	buf := make([]byte, 0, 4*len(b))
	for _, id := range b {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(id))
	}
	return string(buf)
}

// live returns the states of belief b where the game goes on. A lost end, a dead end or a state
// the search did not explore spoils the belief; unexplored is true for the last.
func (c *winnability) live(x *explorer, b []int32) (live []int32, spoilt, unexplored bool) {
	for _, id := range b {
		n := x.nodes[id]
		switch {
		case int(id) >= len(c.win) || n.flags&fExplored == 0 || n.flags&fPartial != 0:
			unexplored = true
			spoilt = true
		case n.flags&fTerminal != 0:
			spoilt = spoilt || !c.win[id]
		case n.flags&fDeadEnd != 0:
			spoilt = true
		default:
			live = append(live, id)
		}
	}
	return live, spoilt, unexplored
}

// commonMoves returns the player's moves legal in every state of live.
func (c *winnability) commonMoves(live []int32) []eval.Term {
	common := slices.Clone(c.moves[live[0]])
	for _, id := range live[1:] {
		common = slices.DeleteFunc(common, func(m eval.Term) bool { return !slices.Contains(c.moves[id], m) })
	}
	return common
}

// after returns the belief after the player plays m in the states of live, whatever the others
// play: the successors sorted, without repeats (-1 first for one not in the table).
func (c *winnability) after(x *explorer, live []int32, m eval.Term) []int32 {
	nr, p := len(c.best), c.player
	var next []int32
	for _, id := range live {
		cnt := c.counts[int(id)*nr : int(id)*nr+nr]
		stride := 1
		for r := p + 1; r < nr; r++ {
			stride *= int(cnt[r])
		}
		j := slices.Index(c.moves[id], m)
		for k, to := range x.succ(id) {
			if (k/stride)%int(cnt[p]) == j {
				next = append(next, to)
			}
		}
	}
	slices.Sort(next)
	return slices.Compact(next)
}
