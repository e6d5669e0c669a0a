package ggp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// What a player knows of the state. In a GDL match it is told every joint move, so it knows the
// state. In GDL-II it is told only its own move and its percepts: it keeps the states that agree
// with everything it was told (a bounded sample of them when there are many), and plays a move
// that is legal in all of them.

const (
	maxBelief       = 256 // states kept
	maxJointsTried  = 256 // joint moves of the other roles tried from one state
	maxRebuildWalks = 200 // walks from the initial state when the sample lost every state
)

// observation is one turn of a GDL-II match as the player saw it.
type observation struct {
	move     eval.Term
	percepts []string // canonical, sorted
}

type belief struct {
	g       *game.Game
	role    int
	states  []*game.State // the states the player may be in (at least one)
	history []observation
	rng     *rand.Rand
	lost    string // why the states kept may not be the true ones ("" when they are)
}

func newBelief(ctx context.Context, g *game.Game, role int, seed uint64) (*belief, error) {
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	return &belief{g: g, role: role, states: []*game.State{s}, rng: rand.New(rand.NewPCG(seed, 0x6767705f62656c))}, nil
}

// observeJoint plays the joint move every role played (GDL): the state stays known.
func (b *belief) observeJoint(ctx context.Context, joint []eval.Term) error {
	next := make([]*game.State, 0, len(b.states))
	var firstErr error
	for _, s := range b.states {
		n, err := b.g.Next(ctx, s, joint)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		next = append(next, n)
	}
	if len(next) == 0 {
		return fmt.Errorf("the joint move %s cannot be played in the state the player knows: %w", b.g.FormatJoint(joint), firstErr)
	}
	b.states = dedupe(next)
	return nil
}

// observe keeps the states that the role's own move and percepts allow (GDL-II). It stops
// early, keeping what it found, when ctx ends. It says when the states kept may not be the true
// ones.
func (b *belief) observe(ctx context.Context, move eval.Term, percepts []string) (note string) {
	b.history = append(b.history, observation{move, percepts})
	next := b.advance(ctx, b.states, move, percepts, true)
	if len(next) == 0 && ctx.Err() == nil {
		// The sample lost the true state: look for states that agree with the whole history,
		// by walks from the initial state.
		next = b.rebuild(ctx)
	}
	if len(next) == 0 {
		// Nothing agrees with what the player was told (or no time was left): go on from the
		// states it had, ignoring the percepts.
		next = b.advance(ctx, b.states, move, nil, false)
		if len(next) > 0 {
			b.lost = fmt.Sprintf("turn %d: no state agrees with the move and the percepts received; the player goes on guessing", len(b.history))
			note = b.lost
		}
	}
	if len(next) == 0 {
		return fmt.Sprintf("turn %d: no state follows from the move received (%s); the player keeps the states it had", len(b.history), b.g.String(move))
	}
	b.states = next
	return note
}

// advance returns the states reached from states by a joint move in which the role plays move
// and, when check is set, perceives percepts.
func (b *belief) advance(ctx context.Context, states []*game.State, move eval.Term, percepts []string, check bool) []*game.State {
	seen := map[string]bool{}
	var out []*game.State
	kept := 0
	order := b.rng.Perm(len(states))
	for _, i := range order {
		if ctx.Err() != nil {
			break
		}
		for _, n := range b.successors(ctx, states[i], move, percepts, check) {
			if seen[n.Key()] {
				continue
			}
			seen[n.Key()] = true
			kept++
			if len(out) < maxBelief {
				out = append(out, n)
			} else if j := b.rng.IntN(kept); j < maxBelief {
				out[j] = n // reservoir sampling: every state found has the same chance to be kept
			}
		}
	}
	return out
}

// successors returns the states reached from s by joint moves in which the role plays move and
// perceives percepts (when check is set); at most maxJointsTried joint moves are tried, at
// random when there are more.
func (b *belief) successors(ctx context.Context, s *game.State, move eval.Term, percepts []string, check bool) []*game.State {
	if t, err := b.g.Terminal(ctx, s); err != nil || t {
		return nil
	}
	legal, err := b.g.Legal(ctx, s)
	if err != nil || !slices.Contains(legal[b.role], move) {
		return nil
	}
	legal[b.role] = []eval.Term{move}
	total := 1
	for _, ms := range legal {
		if len(ms) == 0 {
			return nil
		}
		total = min(total*len(ms), 1<<30)
	}
	var out []*game.State
	try := func(joint []eval.Term) {
		if check {
			sees, err := b.g.Sees(ctx, s, joint)
			if err != nil || !slices.Equal(canonical(b.g, sees[b.role]), percepts) {
				return
			}
		}
		if n, err := b.g.Next(ctx, s, joint); err == nil {
			out = append(out, n)
		}
	}
	if total <= maxJointsTried {
		idx := make([]int, len(legal))
		for range total {
			joint := make([]eval.Term, len(legal))
			for r, ms := range legal {
				joint[r] = ms[idx[r]]
			}
			try(joint)
			for r := len(idx) - 1; r >= 0; r-- {
				if idx[r]++; idx[r] < len(legal[r]) {
					break
				}
				idx[r] = 0
			}
		}
		return out
	}
	for range maxJointsTried {
		if ctx.Err() != nil {
			break
		}
		joint := make([]eval.Term, len(legal))
		for r, ms := range legal {
			joint[r] = ms[b.rng.IntN(len(ms))]
		}
		try(joint)
	}
	return dedupe(out)
}

// rebuild walks from the initial state along the history, at each turn a random joint move
// that agrees with what the role played and perceived, and keeps the states the walks reach.
func (b *belief) rebuild(ctx context.Context) []*game.State {
	init, err := b.g.Initial(ctx)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []*game.State
	for range maxRebuildWalks {
		if ctx.Err() != nil || len(out) >= maxBelief {
			break
		}
		s := init
		for _, o := range b.history {
			next := b.successors(ctx, s, o.move, o.percepts, true)
			if len(next) == 0 {
				s = nil
				break
			}
			s = next[b.rng.IntN(len(next))]
		}
		if s != nil && !seen[s.Key()] {
			seen[s.Key()] = true
			out = append(out, s)
		}
	}
	return out
}

// legal returns the role's moves that are legal in every state it may be in, or, when no move
// is, those legal in the most of them.
func (b *belief) legal(ctx context.Context) ([]eval.Term, error) {
	count := map[eval.Term]int{}
	var order []eval.Term
	var firstErr error
	live := 0
	for _, s := range b.states {
		if t, err := b.g.Terminal(ctx, s); err != nil || t {
			if err != nil && firstErr == nil {
				firstErr = err
			}
			continue
		}
		legal, err := b.g.Legal(ctx, s)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		live++
		for _, m := range legal[b.role] {
			if count[m] == 0 {
				order = append(order, m)
			}
			count[m]++
		}
	}
	if len(order) == 0 {
		if firstErr != nil {
			return nil, firstErr
		}
		return nil, fmt.Errorf("the role has no legal move in the %d states it may be in", len(b.states))
	}
	best := 0
	for _, m := range order {
		best = max(best, count[m])
	}
	var out []eval.Term
	for _, m := range order {
		if count[m] == best {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out, nil
}

// canonical writes percepts as sorted KIF in lower case: the manager may spell them in another
// case than the game does.
func canonical(g *game.Game, ts []eval.Term) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = strings.ToLower(g.String(t))
	}
	slices.Sort(out)
	return out
}

// canonicalText is canonical for percepts received as text.
func canonicalText(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.ToLower(p)
	}
	slices.Sort(out)
	return out
}

func dedupe(states []*game.State) []*game.State {
	seen := map[string]bool{}
	out := states[:0]
	for _, s := range states {
		if !seen[s.Key()] {
			seen[s.Key()] = true
			out = append(out, s)
		}
	}
	return out
}
