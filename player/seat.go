package player

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// Seat is a player's place in a match: how the runner (RunMatch) reaches the player of a role.
// The runner calls Start once, then Play once per joint move, then Stop when a terminal state
// is reached or Abort when the match ends before one, each under its clock (ctx's deadline);
// these are GGP's START, PLAY, STOP and ABORT. A seat takes part in one match at a time. Built
// in: LocalSeat, a player in this process; a player at a URL: ggp.HTTPSeat.
type Seat interface {
	// Name is the player as the record shows it: the built-in strategy, or its URL.
	Name() string
	// Start tells the player the match and its role.
	Start(ctx context.Context, m *Setup) (Reply, error)
	// Play tells the player what its role was told of the last joint move and asks for its
	// move (Reply.Move).
	Play(ctx context.Context, t *Turn) (Reply, error)
	// Stop tells the player the last joint move of a match that reached a terminal state.
	Stop(ctx context.Context, t *Turn) (Reply, error)
	// Abort ends a match before a terminal state.
	Abort(ctx context.Context) (Reply, error)
}

// Setup is what a seat is told at the start of a match.
type Setup struct {
	MatchID    string
	Game       *game.Game // the match's game; moves, states and percepts are its terms
	Role       int
	StartClock time.Duration // 0: none
	PlayClock  time.Duration // 0: none
}

// Turn is what a seat's role is told at a PLAY or STOP: in a GDL game the joint move played
// last, in GDL-II (GDLII) only its own move and its percepts.
type Turn struct {
	Step  int         // the joint moves played so far (GDL-II's turn)
	Joint []eval.Term // GDL: the joint move played last (nil before the first)
	Move  eval.Term   // GDL-II: the role's own last move (when Step > 0)
	Sees  []string    // GDL-II: the role's percepts of the last joint move, as text
	// State is the state now (GDL), for a seat in the runner's process: it need not play
	// Joint itself. Nil for GDL-II, whose roles do not know it.
	State *game.State
}

// Reply is a seat's answer.
type Reply struct {
	Text string    // as the player answered (the record shows at most 200 bytes of it)
	Move eval.Term // Play: the move read from Text, a term of the match's game
}

// SeatError is an answer that is not one a player should give: refused, unreadable.
type SeatError struct {
	Kind ErrorKind
	Err  error
}

func (e *SeatError) Error() string { return e.Err.Error() }
func (e *SeatError) Unwrap() error { return e.Err }

// refused is a SeatError of kind Refused.
func refused(format string, args ...any) *SeatError {
	return &SeatError{Refused, fmt.Errorf(format, args...)}
}

// SeatOptions configure a built-in player's seat.
type SeatOptions struct {
	// Playouts bounds an mcts search per move (0: until the play clock).
	Playouts int
	// Seed seeds the player's matches as a GGP player of this seed (ggp.Player) does: the n-th
	// with Seed*1_000_003+n.
	Seed uint64
}

// Built-in strategies.
const (
	RandomStrategy = "random" // a uniformly random legal move
	MCTSStrategy   = "mcts"   // Monte Carlo tree search until the clock or the playout budget
)

// NewSeat makes the seat of a built-in player: random or mcts (any case).
func NewSeat(strategy string, opts SeatOptions) (*LocalSeat, error) {
	s := &LocalSeat{Label: strings.ToLower(strategy), Seed: opts.Seed*1_000_003 + 1}
	switch s.Label {
	case RandomStrategy:
	case MCTSStrategy:
		s.NewPlayer = func(g *game.Game, role int, seed uint64) Player {
			return NewMCTS(g, role, Options{Playouts: opts.Playouts, Seed: seed})
		}
	default:
		return nil, fmt.Errorf("%q is not a built-in player: random or mcts", strategy)
	}
	return s, nil
}

// LocalSeat is a built-in player in this process, over the match's game. It chooses from what
// its role knows (a Belief kept from its turns): a move legal in every state the role may be
// in, by its Player, or uniformly at random when it has none or the player fails. Its n-th match is seeded with Seed+n-1.
type LocalSeat struct {
	Label string
	Seed  uint64
	// NewPlayer makes the player of a match at its start, with the match's seed; nil: random.
	NewPlayer func(g *game.Game, role int, seed uint64) Player
	// Note, when set, gets what the seat could not take in: a GDL-II belief that may have
	// lost the true state, a STOP that does not play.
	Note func(note string)

	matches uint64
	g       *game.Game
	role    int
	b       *Belief
	pl      Player
	rng     *rand.Rand
}

func (s *LocalSeat) Name() string { return s.Label }

// Start makes the role's belief (the initial state) and its player.
func (s *LocalSeat) Start(ctx context.Context, m *Setup) (Reply, error) {
	seed := s.Seed + s.matches
	s.matches++
	s.g, s.role, s.b, s.pl = m.Game, m.Role, nil, nil
	b, err := NewBelief(ctx, m.Game, m.Role, seed)
	if err != nil {
		return Reply{}, refused("the initial state cannot be computed: %w", err)
	}
	if _, err := m.Game.Legal(ctx, b.States()[0]); err != nil {
		return Reply{}, refused("the legal moves of the initial state cannot be computed: %w", err)
	}
	s.b, s.rng = b, rand.New(rand.NewPCG(seed, 0x706c6179))
	if s.NewPlayer != nil {
		s.pl = s.NewPlayer(m.Game, m.Role, seed)
	}
	return Reply{Text: "ready"}, nil
}

// Play takes in the turn (Observe) and chooses the role's move (Move).
func (s *LocalSeat) Play(ctx context.Context, t *Turn) (Reply, error) {
	if s.b == nil {
		return Reply{}, refused("the match did not start")
	}
	if err := s.Observe(ctx, t); err != nil {
		return Reply{}, refused("%v", err)
	}
	return s.Move(ctx)
}

// Stop takes in the last turn.
func (s *LocalSeat) Stop(ctx context.Context, t *Turn) (Reply, error) {
	if s.b != nil {
		if err := s.Observe(ctx, t); err != nil && s.Note != nil {
			s.Note("STOP: " + err.Error())
		}
	}
	return Reply{Text: "done"}, nil
}

// Abort ends the match.
func (s *LocalSeat) Abort(context.Context) (Reply, error) { return Reply{Text: "done"}, nil }

// Belief returns what the role knows in the match being played (nil before its start).
func (s *LocalSeat) Belief() *Belief { return s.b }

// Observe takes in what the role is told: the state or the joint move played (GDL), or its
// own move and percepts (GDL-II), given at most half the time left to choose the move.
func (s *LocalSeat) Observe(ctx context.Context, t *Turn) error {
	switch {
	case t.State != nil:
		s.b = Known(s.g, s.role, t.State)
	case t.Joint != nil:
		return s.b.ObserveJoint(ctx, t.Joint)
	case t.Step > 0:
		octx := ctx
		if d, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			octx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(d)/2))
			defer cancel()
		}
		if note := s.b.Observe(octx, t.Move, PerceptsText(t.Sees)); note != "" && s.Note != nil {
			s.Note(note)
		}
	}
	return nil
}

// Move chooses the role's move: the player's, or a random one among those legal in every
// state the role may be in when there is no player or the player fails.
func (s *LocalSeat) Move(ctx context.Context) (Reply, error) {
	if s.pl != nil {
		if mv, err := s.pl.Move(ctx, s.b); err == nil {
			return Reply{Text: s.g.String(mv), Move: mv}, nil
		}
	}
	legal, err := s.b.Legal(ctx)
	if err != nil {
		return Reply{}, refused("no move to play: %w", err)
	}
	mv := legal[s.rng.IntN(len(legal))]
	return Reply{Text: s.g.String(mv), Move: mv}, nil
}
