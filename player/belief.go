package player

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// What a role knows of the state. In a GDL game every role is told every joint move, so it
// knows the state. In GDL-II it is told only its own move and its percepts (what `sees` gives
// it): it keeps the states that agree with everything it was told, each with its probability,
// given that the random role plays uniformly at random and that it knows nothing of how the
// other roles choose (each of their legal moves equally likely). When there are many, it keeps
// a sample of them, drawn by probability. Every built-in player chooses from a Belief: the GGP
// player, `gdl play --players` (PlayMatch) and the game view's computer move.

const (
	maxBelief       = 256 // states kept
	maxJointsTried  = 256 // joint moves of the other roles tried from one state
	maxRebuildWalks = 200 // walks from the initial state when the sample lost every state
)

// observation is one turn of a GDL-II match as the role saw it.
type observation struct {
	move     eval.Term
	percepts []string // canonical, sorted (Percepts)
}

// Belief is what one role knows of the state of a match: the states it may be in, with their
// probabilities. A Belief is used by one goroutine at a time.
type Belief struct {
	g       *game.Game
	role    int
	states  []*game.State // the states the role may be in (at least one)
	weights []float64     // the probability of each state; they sum to 1
	history []observation
	rng     *rand.Rand
	lost    string // why the states kept may not hold the true one ("" when they do)
	sampled bool   // some states that agree with what the role was told may be missing
}

// NewBelief returns what role knows at the start of a match: the initial state.
func NewBelief(ctx context.Context, g *game.Game, role int, seed uint64) (*Belief, error) {
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	b := Known(g, role, s)
	b.rng = rand.New(rand.NewPCG(seed, 0x6767705f62656c))
	return b, nil
}

// Known returns the belief of a role that knows the state is s (a GDL game, or the state as
// the game's own random role sees it).
func Known(g *game.Game, role int, s *game.State) *Belief {
	return &Belief{g: g, role: role, states: []*game.State{s}, weights: []float64{1}, rng: rand.New(rand.NewPCG(uint64(role), 0x6b6e6f776e))}
}

// BeliefAfter returns what role knows after the joint moves of history, played from the
// initial state: every joint move in a GDL game; in GDL-II (GDLII) only its own moves and
// its percepts. It stops early, keeping what it found, when ctx ends.
func BeliefAfter(ctx context.Context, g *game.Game, role int, seed uint64, history [][]eval.Term) (*Belief, error) {
	b, err := NewBelief(ctx, g, role, seed)
	if err != nil {
		return nil, err
	}
	if !GDLII(g) {
		for _, joint := range history {
			if err := b.ObserveJoint(ctx, joint); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	s := b.states[0]
	for i, joint := range history {
		sees, err := g.Sees(ctx, s, joint)
		if err != nil {
			return nil, err
		}
		if s, err = g.Next(ctx, s, joint); err != nil {
			return nil, fmt.Errorf("joint move %d: %w", i+1, err)
		}
		b.Observe(ctx, joint[role], Percepts(g, sees[role]))
	}
	return b, nil
}

// GDLII reports whether the game is played with the rules of GDL-II: it has sees, or the
// random role. Its players are told their own moves and percepts only.
func GDLII(g *game.Game) bool {
	if _, sees := g.Analysis().Model.Relations["sees"]; sees {
		return true
	}
	for r := range g.Roles() {
		if g.IsRandom(r) {
			return true
		}
	}
	return false
}

// Game returns the game; Role the role whose knowledge b is.
func (b *Belief) Game() *game.Game { return b.g }
func (b *Belief) Role() int        { return b.role }

// States returns the states the role may be in; Weights their probabilities, in the same
// order.
func (b *Belief) States() []*game.State { return b.states }
func (b *Belief) Weights() []float64    { return b.weights }

// State returns the state when the role knows it: a single state, surely the true one.
func (b *Belief) State() (*game.State, bool) {
	if len(b.states) == 1 && b.lost == "" {
		return b.states[0], true
	}
	return nil, false
}

// Lost says why the states kept may not hold the true one ("" when they do).
func (b *Belief) Lost() string { return b.lost }

// Complete reports whether the states are every state that agrees with what the role was
// told (no sample was drawn, nothing was lost).
func (b *Belief) Complete() bool { return !b.sampled && b.lost == "" }

// ObserveJoint plays the joint move every role played (GDL): the state stays known.
func (b *Belief) ObserveJoint(ctx context.Context, joint []eval.Term) error {
	acc := newAccumulator()
	var firstErr error
	for i, s := range b.states {
		n, err := b.g.Next(ctx, s, joint)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		acc.add(n, b.weights[i])
	}
	if len(acc.states) == 0 {
		return fmt.Errorf("the joint move %s cannot be played in the state the player knows: %w", b.g.FormatJoint(joint), firstErr)
	}
	b.set(acc)
	return nil
}

// Observe keeps the states that the role's own move and its percepts (canonical: Percepts or
// PerceptsText) allow (GDL-II), each with its probability. It stops early, keeping what it
// found, when ctx ends. It says when the states kept may not hold the true one.
func (b *Belief) Observe(ctx context.Context, move eval.Term, percepts []string) (note string) {
	b.history = append(b.history, observation{move, percepts})
	acc := b.advance(ctx, move, percepts, true)
	if len(acc.states) == 0 && ctx.Err() == nil {
		// The sample lost the true state: look for states that agree with the whole history,
		// by walks from the initial state.
		acc = b.rebuild(ctx)
		b.sampled = true
	}
	if len(acc.states) == 0 {
		// Nothing agrees with what the role was told (or no time was left): go on from the
		// states it had, ignoring the percepts.
		acc = b.advance(ctx, move, nil, false)
		if len(acc.states) > 0 {
			b.lost = fmt.Sprintf("turn %d: no state agrees with the move and the percepts received; the player goes on guessing", len(b.history))
			note = b.lost
		}
	}
	if len(acc.states) == 0 {
		return fmt.Sprintf("turn %d: no state follows from the move received (%s); the player keeps the states it had", len(b.history), b.g.String(move))
	}
	if ctx.Err() != nil {
		b.sampled = true // cut short: some states were not followed
	}
	b.set(acc)
	return note
}

// set makes the states accumulated the belief, normalised, drawing a sample by probability
// when there are more than maxBelief.
func (b *Belief) set(acc *accumulator) {
	total := 0.0
	for _, w := range acc.weights {
		total += w
	}
	if total <= 0 {
		for i := range acc.weights {
			acc.weights[i] = 1
		}
		total = float64(len(acc.weights))
	}
	states, weights := acc.states, acc.weights
	for i := range weights {
		weights[i] /= total
	}
	if len(states) > maxBelief {
		b.sampled = true
		states, weights = resample(b.rng, states, weights, maxBelief)
	}
	b.states, b.weights = states, weights
}

// resample draws n states by probability (systematic resampling: the expected number of copies
// of each state is n times its probability) and returns the states drawn, each once, with the
// share of the draws it got.
func resample(rng *rand.Rand, states []*game.State, weights []float64, n int) ([]*game.State, []float64) {
	acc := newAccumulator()
	step := 1 / float64(n)
	u := rng.Float64() * step
	cum := 0.0
	i := 0
	for k := range n {
		target := u + float64(k)*step
		for i < len(states)-1 && cum+weights[i] < target {
			cum += weights[i]
			i++
		}
		acc.add(states[i], step)
	}
	return acc.states, acc.weights
}

// accumulator adds up the probabilities of states reached several ways.
type accumulator struct {
	index   map[string]int
	states  []*game.State
	weights []float64
}

func newAccumulator() *accumulator { return &accumulator{index: map[string]int{}} }

func (a *accumulator) add(s *game.State, w float64) {
	if i, ok := a.index[s.Key()]; ok {
		a.weights[i] += w
		return
	}
	a.index[s.Key()] = len(a.states)
	a.states = append(a.states, s)
	a.weights = append(a.weights, w)
}

// advance returns the states reached from the belief's by a joint move in which the role plays
// move and, when check is set, perceives percepts, with their probabilities (not normalised).
func (b *Belief) advance(ctx context.Context, move eval.Term, percepts []string, check bool) *accumulator {
	acc := newAccumulator()
	for _, i := range b.rng.Perm(len(b.states)) {
		if ctx.Err() != nil {
			break
		}
		for _, n := range b.successors(ctx, b.states[i], move, percepts, check) {
			acc.add(n.state, b.weights[i]*n.p)
		}
	}
	return acc
}

// successor is a state reached from another, with the probability of the joint moves that
// reach it agreeing with what the role was told.
type successor struct {
	state *game.State
	p     float64
}

// successors returns the states reached from s by joint moves in which the role plays move and
// perceives percepts (when check is set), each with the probability of those joint moves: the
// other roles' moves uniformly likely. At most maxJointsTried joint moves are tried, at random
// when there are more (then each joint move tried stands for an equal share).
func (b *Belief) successors(ctx context.Context, s *game.State, move eval.Term, percepts []string, check bool) []successor {
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
	var out []successor
	try := func(joint []eval.Term, p float64) {
		if check {
			sees, err := b.g.Sees(ctx, s, joint)
			if err != nil || !slices.Equal(Percepts(b.g, sees[b.role]), percepts) {
				return
			}
		}
		if n, err := b.g.Next(ctx, s, joint); err == nil {
			out = append(out, successor{n, p})
		}
	}
	if total <= maxJointsTried {
		idx := make([]int, len(legal))
		for range total {
			joint := make([]eval.Term, len(legal))
			for r, ms := range legal {
				joint[r] = ms[idx[r]]
			}
			try(joint, 1/float64(total))
			for r := len(idx) - 1; r >= 0; r-- {
				if idx[r]++; idx[r] < len(legal[r]) {
					break
				}
				idx[r] = 0
			}
		}
		return out
	}
	b.sampled = true
	for range maxJointsTried {
		if ctx.Err() != nil {
			break
		}
		joint := make([]eval.Term, len(legal))
		for r, ms := range legal {
			joint[r] = ms[b.rng.IntN(len(ms))]
		}
		try(joint, 1/float64(maxJointsTried))
	}
	return out
}

// rebuild walks from the initial state along the history, at each turn a random joint move
// that agrees with what the role played and perceived, and keeps the states the walks reach,
// each with the share of the walks that reached it.
func (b *Belief) rebuild(ctx context.Context) *accumulator {
	acc := newAccumulator()
	init, err := b.g.Initial(ctx)
	if err != nil {
		return acc
	}
	for range maxRebuildWalks {
		if ctx.Err() != nil || len(acc.states) >= maxBelief {
			break
		}
		s := init
		for _, o := range b.history {
			next := b.successors(ctx, s, o.move, o.percepts, true)
			if len(next) == 0 {
				s = nil
				break
			}
			s = next[b.rng.IntN(len(next))].state
		}
		if s != nil {
			acc.add(s, 1)
		}
	}
	return acc
}

// Legal returns the role's moves that are legal in every state it may be in, or, when no move
// is, those legal in the most probable share of them; sorted.
func (b *Belief) Legal(ctx context.Context) ([]eval.Term, error) {
	mass := map[eval.Term]float64{}
	var order []eval.Term
	var firstErr error
	for i, s := range b.states {
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
		for _, m := range legal[b.role] {
			if _, ok := mass[m]; !ok {
				order = append(order, m)
			}
			mass[m] += b.weights[i]
		}
	}
	if len(order) == 0 {
		if firstErr != nil {
			return nil, firstErr
		}
		if len(b.states) == 1 {
			return nil, ErrNoMove
		}
		return nil, fmt.Errorf("the role has no legal move in the %d states it may be in", len(b.states))
	}
	best := 0.0
	for _, m := range order {
		best = max(best, mass[m])
	}
	var out []eval.Term
	for _, m := range order {
		if mass[m] >= best*(1-1e-9) {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Percepts writes percepts as the belief compares them: KIF in lower case (a manager may spell
// them in another case than the game does), sorted.
func Percepts(g *game.Game, ts []eval.Term) []string { return PerceptsText(g.Strings(ts)) }

// PerceptsText is Percepts for percepts received as text (a GGP message's).
func PerceptsText(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.ToLower(p)
	}
	slices.Sort(out)
	return out
}
