package ide

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/board"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
)

// The game view: the current state drawn as boards (package board), a jump to any step of the
// line of joint moves, a move chosen by the built-in player (package player), and random
// playouts with their statistics. The state commands describe the state with all of it
// (GameState's View, Board, Squares, Percepts), so the editors' state commands print the board
// and the VS Code game view draws it.
//
// The boards of a game are detected once per game and gdl.json board section, from the
// initial state, the fluents of base and short random walks (board.Sample, at most 1 s on the
// document's interpreter). The computer's moves and the playouts run on the compiled engine
// when the game grounds (game.Cache with game.Auto: one game per text, shared), since the
// interpreter is some hundred times slower at playouts.

// viewState keeps, per game, what the view computed once: the boards' layouts and the players
// whose trees carry over from one computer move to the next.
type viewState struct {
	mu      sync.Mutex
	layouts map[string]*board.Layout // by board section (JSON)
	fast    *game.Game               // the game the players search
	build   *result[*game.Game]      // the compiled game being made, or made (fast)
	began   time.Time                // when build began
	players map[int]*player.MCTS     // by role
}

// sampleTime bounds the sampling of a game for its boards.
const sampleTime = time.Second

// layoutFor returns the boards of the game under a board section.
func (c *docGame) layoutFor(ctx context.Context, cfg analysis.BoardConfig) *board.Layout {
	key, _ := json.Marshal(cfg)
	c.view.mu.Lock()
	defer c.view.mu.Unlock()
	if l := c.view.layouts[string(key)]; l != nil {
		return l
	}
	l, err := board.ForGame(ctx, c.g, cfg, board.SampleOptions{Time: sampleTime})
	if err != nil {
		// Without an initial state there is nothing to draw; the state's own error says why.
		// A cancelled request does not leave its empty layout behind.
		l = &board.Layout{}
		if ctx.Err() != nil {
			return l
		}
	}
	if c.view.layouts == nil {
		c.view.layouts = map[string]*board.Layout{}
	}
	c.view.layouts[string(key)] = l
	return l
}

// drawState adds to st the line of joint moves, the state drawn and, in a GDL-II game, the
// percepts of each role along the history.
func (s *Session) drawState(ctx context.Context, c *docGame, st *GameState) {
	st.Line = s.gs.sessions.line(s.name)
	if len(st.Line) < len(st.History) {
		st.Line = st.History
	}
	st.Random = make([]bool, len(st.Roles))
	for r := range st.Roles {
		st.Random[r] = c.g.IsRandom(r)
	}
	lay := c.layoutFor(ctx, s.boards)
	st.Notes = lay.Notes
	st.View = lay.Draw(st.State)
	st.Board = st.View.Text()
	if st.Legal != nil {
		st.Squares = make([][][]board.Square, len(st.Legal))
		for r, ms := range st.Legal {
			st.Squares[r] = make([][]board.Square, len(ms))
			for i, m := range ms {
				st.Squares[r][i] = st.View.MoveSquares(m)
			}
		}
	}
	if _, sees := c.g.Analysis().Model.Relations["sees"]; sees {
		st.Percepts = c.percepts(ctx, st.History)
	}
}

// percepts replays a history and returns what each role perceived after each joint move.
func (c *docGame) percepts(ctx context.Context, history [][]string) [][][]string {
	out := [][][]string{}
	s, err := c.g.Initial(ctx)
	if err != nil {
		return out
	}
	for _, moves := range history {
		joint, err := c.g.ParseMoves(moves)
		if err != nil {
			return out
		}
		sees, err := c.g.Sees(ctx, s, joint)
		if err != nil {
			return out
		}
		step := make([][]string, len(sees))
		for r, ps := range sees {
			step[r] = c.g.Strings(ps)
		}
		out = append(out, step)
		if s, err = c.g.Next(ctx, s, joint); err != nil {
			return out
		}
	}
	return out
}

// GotoStep goes to the state after the first step joint moves of the line: back (the moves
// after it are kept, to go forward again) or forward along the line.
func (s *Session) GotoStep(ctx context.Context, step int) (*GameState, error) {
	return s.change(ctx, func(c *docGame, history [][]string) ([][]string, error) {
		line := s.gs.sessions.line(s.name)
		if step < 0 || step > len(line) {
			pos, err := c.replay(ctx, history)
			if err != nil {
				return nil, err
			}
			return nil, &refusal{pos, fmt.Errorf("no step %d: the line of joint moves has steps 0 to %d", step, len(line))}
		}
		return line[:step], nil
	})
}

// ComputerOptions bound the search of ComputerMove.
type ComputerOptions struct {
	// MoveTime is the time to think, shared by the roles that have a choice (0: 1 s, or a
	// minute with a playout budget).
	MoveTime time.Duration
	// Playouts is a playout budget per role as well (0: none): a search with a budget and a
	// seed plays the same move on any machine, unless the move time ends it first.
	Playouts int
	Seed     uint64
}

// ComputerSearch is what the built-in player found for one role.
type ComputerSearch struct {
	Role     string
	Move     string
	Playouts int           // of this search
	States   int           // the states searched from: 1 when the role knows the state (GDL-II: those it may be in)
	Value    float64       // the mean goal value (0 to 100) of the playouts through the move
	Elapsed  time.Duration // the time the search took
	Engine   game.Engine   // the engine that ran the search
}

// ComputerMove plays a joint move chosen by Monte Carlo tree search (player.MCTS) for every
// role that has a choice (GDL-II's random role plays at random; a role with one legal move
// plays it). Each role chooses from what it knows, as in a match: in GDL-II the states its own
// moves and percepts allow (player.BeliefAfter), never the true state. The searches share the
// time to think and, when the state is known, keep their trees for the next computer move in
// the same line. A state command of the document sent while they think cuts them short: the
// computer plays the best moves found so far, then the command runs.
func (s *Session) ComputerMove(ctx context.Context, opts ComputerOptions) (*GameState, error) {
	if opts.MoveTime <= 0 {
		opts.MoveTime = time.Second
		if opts.Playouts > 0 {
			opts.MoveTime = time.Minute
		}
	}
	var found []ComputerSearch
	st, err := s.play(ctx, func(c *docGame, pos *Position) ([]eval.Term, error) {
		return s.computerJoint(ctx, c, pos, opts, &found)
	})
	if st != nil {
		st.Computer = found
	}
	return st, err
}

// computerJoint chooses the computer's joint move in pos on the game the players run on,
// adding the searches it ran to found.
func (s *Session) computerJoint(ctx context.Context, c *docGame, pos *Position, opts ComputerOptions, found *[]ComputerSearch) ([]eval.Term, error) {
	fg, err := c.fast(ctx)
	if err != nil {
		return nil, err
	}
	joints, err := jointsOn(fg, pos.Played)
	if err != nil {
		return nil, err
	}
	fs, err := replayOn(ctx, fg, pos.Played)
	if err != nil {
		return nil, err
	}
	if t, err := fg.Terminal(ctx, fs); err != nil {
		return nil, err
	} else if t {
		return nil, &game.GameOverError{}
	}
	legal, err := fg.Legal(ctx, fs)
	if err != nil {
		return nil, err
	}
	deciding := 0
	for r, ms := range legal {
		if len(ms) == 0 {
			return nil, fmt.Errorf("role %s has no legal move in the current state", fg.RoleNames()[r])
		}
		if len(ms) > 1 && !fg.IsRandom(r) {
			deciding++
		}
	}
	moves := make([]string, len(legal))
	for r, ms := range legal {
		switch {
		case len(ms) == 1:
			moves[r] = fg.String(ms[0])
		case fg.IsRandom(r):
			s.gs.randMu.Lock()
			moves[r] = fg.String(ms[s.gs.opts.Rand(len(ms))])
			s.gs.randMu.Unlock()
		default:
			think := opts.MoveTime / time.Duration(deciding)
			cs, err := s.computerSearch(ctx, c, fg, r, fs, joints, opts, think)
			if err != nil {
				return nil, err
			}
			moves[r] = cs.Move
			*found = append(*found, cs)
		}
	}
	return c.g.ParseMoves(moves)
}

// computerSearch chooses role r's move in state fs, reached by joints, within think: from what
// the role knows (in GDL-II, its own moves and percepts).
func (s *Session) computerSearch(ctx context.Context, c *docGame, fg *game.Game, r int, fs *game.State, joints [][]eval.Term, opts ComputerOptions, think time.Duration) (ComputerSearch, error) {
	tctx, cancel := context.WithTimeout(ctx, think)
	defer cancel()
	forget := s.gs.sessions.thinking(s.name, cancel)
	defer forget()
	b := player.Known(fg, r, fs)
	if player.GDLII(fg) {
		var err error
		if b, err = player.BeliefAfter(tctx, fg, r, opts.Seed, joints); err != nil {
			return ComputerSearch{}, err
		}
	}
	sr, err := c.player(fg, r, opts).SearchBelief(tctx, b)
	if err != nil {
		return ComputerSearch{}, err
	}
	if ctx.Err() != nil {
		return ComputerSearch{}, context.Cause(ctx)
	}
	cs := ComputerSearch{Role: fg.RoleNames()[r], Move: fg.String(sr.Move), Playouts: sr.Playouts, States: sr.States, Elapsed: sr.Elapsed, Engine: fg.Engine()}
	if len(sr.Moves) > 0 {
		cs.Value = sr.Moves[0].Value
	}
	return cs, nil
}

// fastWait is how long the requests wait for the game the players and the playouts run on
// after its making began (fast): a game that grounds in milliseconds, as most do, is compiled
// for the first computer move; one whose network takes seconds (chess, once it fits the budget
// of grounding) is built in the background while the requests run on the document's
// interpreter, as before the build began, without waiting again.
const fastWait = 500 * time.Millisecond

// fast returns the game the players and the playouts run on: compiled when the game grounds,
// the document's interpreter while the compiled game is still being made after fastWait.
func (c *docGame) fast(ctx context.Context) (*game.Game, error) {
	c.view.mu.Lock()
	r := c.view.build
	if r == nil {
		r = newResult[*game.Game]()
		c.view.build, c.view.began = r, time.Now()
		go func() {
			r.finish(protect(c.ctx, func(ctx context.Context) (*game.Game, error) {
				return c.cache.Game(ctx, c.g.Analysis(), game.Options{Engine: game.Auto, Limits: c.limits})
			}))
		}()
	}
	wait := fastWait - time.Since(c.view.began)
	c.view.mu.Unlock()
	g, err := r.wait(ctx, max(wait, 0))
	if errors.Is(err, ErrStillRunning) {
		g, err = c.g, nil
	}
	if err != nil {
		return nil, err
	}
	c.view.mu.Lock()
	defer c.view.mu.Unlock()
	if c.view.fast != g {
		c.view.fast, c.view.players = g, nil
	}
	return g, nil
}

// player returns the MCTS player of role r on fg, the same one from move to move so that its
// tree carries over.
func (c *docGame) player(fg *game.Game, r int, opts ComputerOptions) *player.MCTS {
	c.view.mu.Lock()
	defer c.view.mu.Unlock()
	if c.view.fast != fg || c.view.players == nil {
		c.view.fast, c.view.players = fg, map[int]*player.MCTS{}
	}
	p := c.view.players[r]
	if p == nil || opts.Playouts > 0 {
		// A playout budget is for reproducible moves: a fresh tree, seeded.
		p = player.NewMCTS(fg, r, player.Options{Playouts: opts.Playouts, Seed: opts.Seed})
		if opts.Playouts == 0 {
			c.view.players[r] = p
		}
	}
	return p
}

// jointsOn reads a history (one move per role, KIF) as g's joint moves.
func jointsOn(g *game.Game, history [][]string) ([][]eval.Term, error) {
	joints := make([][]eval.Term, 0, len(history))
	for _, moves := range history {
		j, err := g.ParseMoves(moves)
		if err != nil {
			return nil, err
		}
		joints = append(joints, j)
	}
	return joints, nil
}

// replayOn plays a history (one move per role, KIF) on g from the initial state.
func replayOn(ctx context.Context, g *game.Game, history [][]string) (*game.State, error) {
	joints, err := jointsOn(g, history)
	if err != nil {
		return nil, err
	}
	p, err := g.Replay(ctx, joints)
	if err != nil {
		return nil, err
	}
	if p.Err != nil {
		return nil, p.Err
	}
	return p.State(), nil
}

// PlayoutStats are the statistics of random playouts from the initial state, in the report
// `gdl play --format json` gives.
type PlayoutStats struct {
	Report game.PlayReport // empty when Error is set
	Error  string          // why there are no statistics
}

// PlayoutsMaxDepth is the number of joint moves after which a playout of Playouts stops without
// a terminal state (gdl play's default --max-depth).
const PlayoutsMaxDepth = 1000

// Playouts runs random playouts from the initial state (game.Playouts on the compiled engine when
// the game grounds) and returns their statistics: goal values per role, lengths, how the first
// role fares, violations. timeLimit bounds the run (0: 10 s).
func (s *Session) Playouts(ctx context.Context, n int, seed uint64, timeLimit time.Duration) *PlayoutStats {
	if timeLimit <= 0 {
		timeLimit = 10 * time.Second
	}
	if n <= 0 {
		n = 1000
	}
	c := s.game()
	fg, err := c.fast(ctx)
	if err != nil {
		return &PlayoutStats{Report: game.EmptyReport(), Error: c.explain(s.snap, err)}
	}
	st, err := fg.Playouts(ctx, game.PlayOptions{Playouts: n, Seed: seed, MaxDepth: PlayoutsMaxDepth, Time: timeLimit})
	if err != nil {
		var ref *eval.RefusedError
		msg := c.explain(s.snap, err)
		if errors.As(err, &ref) {
			msg = fmt.Sprintf("%s has no defined meaning (unsafe or unstratified rules, or syntax errors): fix the errors in the file", ref.Relation)
		}
		return &PlayoutStats{Report: game.EmptyReport(), Error: strings.TrimSpace(msg)}
	}
	return &PlayoutStats{Report: fg.Report(st, PlayoutsMaxDepth)}
}
