package ide

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/board"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// Every document has a current state: the initial state followed by the joint moves played with
// the state commands. Hovers, lenses, hints and queries evaluate in that state. A new version of
// the document keeps the moves and replays them on the new rules; when a joint move no longer
// applies, the state stops there and says why.

// Session is a document's game session as one request sees it: the document's game for the
// snapshot's clauses (made on first use), the joint moves played in the document, and the user's
// limits. It is the Evaluation of the evaluated features, and runs the commands: RunQuery and
// the state commands.
type Session struct {
	gs     *Games
	name   string
	snap   *Snapshot
	limits eval.Limits
	boards analysis.BoardConfig

	once sync.Once
	c    *docGame
}

// Session returns the session of document name at snapshot snap, evaluating under limits and
// drawing boards as the gdl.json board section says.
func (gs *Games) Session(name string, snap *Snapshot, limits eval.Limits, boards analysis.BoardConfig) *Session {
	return &Session{gs: gs, name: name, snap: snap, limits: limits, boards: boards}
}

// game returns the document's game for the session's snapshot, looked up once per session (a
// snapshot that is no longer current gets a game of its own, made once).
func (s *Session) game() *docGame {
	s.once.Do(func() { s.c = s.gs.gameOf(s.name, s.snap, s.limits) })
	return s.c
}

// History returns the joint moves played in the document, one move (KIF) per role.
func (s *Session) History() [][]string { return s.gs.sessions.history(s.name) }

// Timeout is the time limit of one evaluation under the user's limits.
func (s *Session) Timeout() time.Duration {
	if s.limits.Timeout > 0 {
		return s.limits.Timeout
	}
	return eval.DefaultLimits.Timeout
}

// Explain words an evaluation error for the session's snapshot.
func (s *Session) Explain(err error) string { return s.game().explain(s.snap, err) }

func (s *Session) timeout(w Wait) time.Duration {
	if w.Timeout > 0 {
		return min(w.Timeout, s.Timeout())
	}
	return s.Timeout()
}

// Answers returns the memoised answers of a query in the document's current state.
func (s *Session) Answers(ctx context.Context, query string, w Wait) (*Answers, error) {
	w, err := s.analysed(ctx, w)
	if err != nil {
		return nil, err
	}
	return waitFor(ctx, s.gs, s.game().answersOf(s.History(), query, s.timeout(w), w.Urgent), w)
}

// Position returns the memoised current state of the document.
func (s *Session) Position(ctx context.Context, w Wait) (*Position, error) {
	w, err := s.analysed(ctx, w)
	if err != nil {
		return nil, err
	}
	return waitFor(ctx, s.gs, s.game().position(s.History(), s.timeout(w), w.Urgent), w)
}

// analysed waits, within w's budget, for the snapshot's analysis, which the game is made from
// (its diagnostics say which relations have no defined meaning): a hover or a lens during a
// slow analysis gets ErrStillRunning, and a refresh when it is done, instead of waiting for it.
// Unless another caller computes the analysis (the language server's diagnostics), it is
// computed under ctx. It returns w with what is left of its budget.
func (s *Session) analysed(ctx context.Context, w Wait) (Wait, error) {
	done := s.snap.analysisDone()
	select {
	case <-done:
		return w, nil
	default:
	}
	go s.snap.AnalysisContext(ctx)
	start := time.Now()
	t := time.NewTimer(max(w.Budget, 0))
	defer t.Stop()
	select {
	case <-done:
		w.Budget -= time.Since(start)
		return w, nil
	case <-t.C:
		if w.Refresh {
			s.gs.refreshWhenDone(done)
		}
		return w, ErrStillRunning
	case <-ctx.Done():
		return w, context.Cause(ctx)
	}
}

func waitFor[T any](ctx context.Context, gs *Games, r *result[T], w Wait) (T, error) {
	val, err := r.wait(ctx, max(w.Budget, 0))
	if errors.Is(err, ErrStillRunning) && w.Refresh {
		gs.refreshWhenDone(r.done)
	}
	return val, err
}

// QueryResult is the result of RunQuery. A query about a joint move (one that depends on does,
// like next and sees) is answered after each legal joint move of the current state (at most
// 1000 of them, in the order of the roles' legal moves): ByMove has the answers per joint move,
// JointMoves counts them all, and Answers are those that hold after at least one.
type QueryResult struct {
	Query      string
	State      []string // the current state's fluents
	Answers    []string
	Elapsed    time.Duration
	NeedsMove  bool
	ByMove     []MoveAnswers
	JointMoves int
	Error      string // why there are no answers, or not all of them
}

// RunQuery answers a query (KIF) in the document's current state under the full limits, without
// the memo: it waits for the evaluation in progress.
func (s *Session) RunQuery(ctx context.Context, query string) *QueryResult {
	start := time.Now()
	c := s.game()
	res := &QueryResult{Query: query, State: []string{}, Answers: []string{}}
	pos, err := c.replay(ctx, s.History())
	if err == nil {
		res.State = pos.Fluents
		var q *eval.Query
		if q, err = c.g.ParseQuery(query); err == nil {
			var a *game.Answers
			if a, err = c.g.Evaluate(ctx, pos.state, q, game.QueryOptions{MaxMoves: commandJointMoves}); err == nil {
				qa := c.answersFrom(a, len(pos.Played))
				res.Answers, res.NeedsMove, res.ByMove, res.JointMoves = qa.Answers, qa.NeedsMove, qa.ByMove, qa.JointMoves
				err = qa.Stopped
			}
		}
	}
	if err != nil {
		res.Error = c.explain(s.snap, err)
	}
	res.Elapsed = time.Since(start)
	return res
}

// Text is the result as a log message: a summary line, then the answers, grouped by joint move
// for a query about a joint move.
func (res *QueryResult) Text() string {
	var b strings.Builder
	ms := float64(res.Elapsed.Microseconds()) / 1000
	if res.NeedsMove {
		fmt.Fprintf(&b, "%s: answered after %d of %d legal joint moves in %.1f ms", res.Query, len(res.ByMove), res.JointMoves, ms)
	} else {
		fmt.Fprintf(&b, "%s: %d answers in %.1f ms", res.Query, len(res.Answers), ms)
	}
	if res.Error != "" {
		fmt.Fprintf(&b, " (%s)", res.Error)
	}
	if res.NeedsMove {
		for _, m := range res.ByMove {
			fmt.Fprintf(&b, "\nafter %s: %s", strings.Join(m.Move, " "), plural(len(m.Answers), "answer"))
			if m.Err != nil {
				fmt.Fprintf(&b, " (%v)", m.Err)
			}
			for _, a := range m.Answers {
				b.WriteString("\n  " + a)
			}
		}
		return b.String()
	}
	for _, a := range res.Answers {
		b.WriteString("\n" + a)
	}
	return b.String()
}

// GameState is the result of the state commands: the document's current state described.
type GameState struct {
	Roles    []string
	State    []string   // the fluents, sorted
	Step     int        // the joint moves played
	History  [][]string // the joint moves played, one move per role
	Line     [][]string // History and the joint moves after it that GotoStep can go forward to
	Terminal bool
	Legal    [][]string // per role (in role order), its legal moves, sorted; nil when unknown
	Goals    [][]int    // per role, its goal values, sorted; nil when unknown
	Error    string     // what went wrong: a move refused, a joint move that no longer applies, an evaluation error

	// The state drawn (game_view.go): its boards and other fluents, and as ASCII text.
	View  *board.View
	Board string
	// Squares gives, per role and legal move (as Legal), the squares of View's boards the move
	// mentions (board.View.MoveSquares), for playing by clicking a square.
	Squares [][][]board.Square
	// Random says, per role, whether it is GDL-II's random role.
	Random []bool
	// Percepts are, in a game with sees (GDL-II), what each role perceived after each joint
	// move of History: Percepts[i][r] after History[i]. Nil in a game without sees.
	Percepts [][][]string
	// Notes say what the gdl.json board section asked for and could not be done.
	Notes []string
	// Computer is what the search of ComputerMove found, for that command only.
	Computer []ComputerSearch
	// Why explains a move refused as not legal: the why-not of (legal role move) in the state
	// (its Markdown has no links; the tree is in Why.Tree).
	Why *ExplainResult
}

// ShowState describes the current state.
func (s *Session) ShowState(ctx context.Context) (*GameState, error) {
	return s.change(ctx, func(c *docGame, history [][]string) ([][]string, error) { return history, nil })
}

// Reset goes back to the initial state.
func (s *Session) Reset(ctx context.Context) (*GameState, error) {
	return s.change(ctx, func(c *docGame, history [][]string) ([][]string, error) { return nil, nil })
}

// SetHistory replaces the joint moves played in the document with the given ones (a
// verification's witness, a match's moves), in the document's turn, and describes the state
// their replay reaches; moves that no longer apply stop the replay where they do, as for any
// history.
func (s *Session) SetHistory(ctx context.Context, history [][]string) (*GameState, error) {
	return s.change(ctx, func(c *docGame, _ [][]string) ([][]string, error) { return history, nil })
}

// Play plays a joint move (one move per role, in role order, as KIF) in the current state. A
// joint move that cannot be played (the game is over, a move is not legal) is refused: the state
// stays, and its description says why (game.Next's error).
func (s *Session) Play(ctx context.Context, moves []string) (*GameState, error) {
	return s.play(ctx, func(c *docGame, pos *Position) ([]eval.Term, error) {
		joint, err := c.g.ParseMoves(moves)
		var je *game.JointError
		if err != nil && !errors.As(err, &je) {
			err = fmt.Errorf("joint move %q: %v", strings.Join(moves, " "), err)
		}
		return joint, err
	})
}

// PlayRandom plays a uniformly random legal move for every role.
func (s *Session) PlayRandom(ctx context.Context) (*GameState, error) {
	return s.play(ctx, func(c *docGame, pos *Position) ([]eval.Term, error) {
		if t, err := c.g.Terminal(ctx, pos.state); err != nil {
			return nil, err
		} else if t {
			return nil, &game.GameOverError{}
		}
		legal, err := c.g.Legal(ctx, pos.state)
		if err != nil {
			return nil, err
		}
		joint := make([]eval.Term, len(legal))
		s.gs.randMu.Lock()
		defer s.gs.randMu.Unlock()
		for i, ms := range legal {
			if len(ms) == 0 {
				return nil, fmt.Errorf("role %s has no legal move in the current state", c.g.RoleNames()[i])
			}
			joint[i] = ms[s.gs.opts.Rand(len(ms))]
		}
		return joint, nil
	})
}

// Undo takes back the last joint move played.
func (s *Session) Undo(ctx context.Context) (*GameState, error) {
	return s.change(ctx, func(c *docGame, history [][]string) ([][]string, error) {
		pos, err := c.replay(ctx, history)
		if err != nil {
			return nil, err
		}
		if len(pos.Played) == 0 {
			return nil, &refusal{pos, errors.New("no joint move to undo: the state is the initial state")}
		}
		return pos.Played[:len(pos.Played)-1], nil
	})
}

// refusal is a state command that cannot be done in the current position: the state stays and
// the description says why.
type refusal struct {
	pos *Position
	err error
}

func (r *refusal) Error() string { return r.err.Error() }

// play plays the joint move that choose picks in the current state.
func (s *Session) play(ctx context.Context, choose func(c *docGame, pos *Position) ([]eval.Term, error)) (*GameState, error) {
	return s.change(ctx, func(c *docGame, history [][]string) ([][]string, error) {
		pos, err := c.replay(ctx, history)
		if err != nil {
			return nil, err
		}
		joint, err := choose(c, pos)
		if err == nil {
			_, err = c.g.Next(ctx, pos.state, joint)
		}
		if err != nil {
			return nil, &refusal{pos, err}
		}
		return append(pos.Played, c.moveTexts(joint)), nil
	})
}

// change runs a state command in the document's turn (so that concurrent commands cannot lose a
// move): it reads the history, computes the new one with f, replays it, keeps what was replayed
// and describes the state reached; then the features are asked for again. The error is for a
// command that never got the turn (ctx ended first).
func (s *Session) change(ctx context.Context, f func(c *docGame, history [][]string) ([][]string, error)) (*GameState, error) {
	release, err := s.gs.sessions.take(ctx, s.name)
	if err != nil {
		return nil, err
	}
	defer release()
	c := s.game()
	history, err := f(c, s.gs.sessions.history(s.name))
	var ref *refusal
	if errors.As(err, &ref) {
		st := c.describe(ctx, ref.pos)
		st.Error = ref.err.Error()
		var ill *game.IllegalMoveError
		if errors.As(ref.err, &ill) {
			why := s.explainIn(ctx, c, ref.pos, nil, s.snap.Dialect().Atom("legal", ill.Role, ill.Move), "In the "+stateName(len(ref.pos.Played)), ExplainOptions{})
			if why.Error == "" {
				st.Why = why
			}
		}
		s.drawState(ctx, c, st)
		return st, nil
	}
	var pos *Position
	if err == nil {
		pos, err = c.replay(ctx, history)
	}
	if err != nil {
		return &GameState{Error: err.Error()}, nil
	}
	s.gs.sessions.set(s.name, pos.Played)
	st := c.describe(ctx, pos)
	s.drawState(ctx, c, st)
	s.gs.refreshNow() // lenses, hints and hovers now show the new state
	return st, nil
}

// describe describes a position with the game API: its legal moves, whether it is terminal, the
// goal values.
func (c *docGame) describe(ctx context.Context, p *Position) *GameState {
	g := c.g
	st := &GameState{Roles: append([]string(nil), g.RoleNames()...), State: p.Fluents, History: p.Played, Step: len(p.Played)}
	var errs []string
	if p.Err != nil {
		errs = append(errs, p.Err.Error())
	}
	if t, err := g.Terminal(ctx, p.state); err != nil {
		errs = append(errs, "terminal: "+err.Error())
	} else {
		st.Terminal = t
	}
	if legal, err := g.Legal(ctx, p.state); err != nil {
		errs = append(errs, "legal: "+err.Error())
	} else {
		for _, ms := range legal {
			st.Legal = append(st.Legal, g.Strings(ms))
		}
	}
	if goals, err := g.Goals(ctx, p.state); err != nil {
		errs = append(errs, "goal: "+err.Error())
	} else {
		for _, vs := range goals {
			vals := []int{}
			for _, t := range vs {
				if n, ok := g.Int(t); ok {
					vals = append(vals, n)
				}
			}
			sort.Ints(vals)
			st.Goals = append(st.Goals, vals)
		}
	}
	st.Error = strings.Join(errs, "; ")
	return st
}

// sessions holds the joint moves played per document. Moves are KIF texts, one per role, so
// they survive a new game. A state command reads the history, plays on it and writes it back:
// it holds the document's turn (take) throughout, so concurrent commands cannot lose a move.
//
// Each document keeps a line of joint moves and how far along it the current state is: going
// back (undo, reset, a jump to an earlier step) keeps the moves after it, so that the state can
// go forward again (GotoStep); playing the next move of the line keeps the line, and any other
// move starts a new line from the current state.
type sessions struct {
	mu    sync.Mutex
	lines map[string]*line
	turns map[string]chan struct{}
	// stops cuts short the thinking of the command holding a document's turn (a computer
	// move): a command that has to wait for the turn calls it, so that it waits a moment, not
	// for a whole search.
	stops map[string]func()
	// waiting counts, per document, the commands waiting for its turn: thinking that starts
	// while one waits (the computer move took the turn, then replayed the history and found
	// the legal moves before it began to search) is cut short at once, or the command would
	// wait for the whole search (a minute with a playout budget).
	waiting map[string]int
}

type line struct {
	moves [][]string
	cur   int // the current state is after moves[:cur]
}

func (ss *sessions) history(name string) [][]string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	l := ss.lines[name]
	if l == nil {
		return nil
	}
	return append([][]string(nil), l.moves[:l.cur]...)
}

// line returns the whole line of joint moves of a document: the history and the moves after it.
func (ss *sessions) line(name string) [][]string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	l := ss.lines[name]
	if l == nil {
		return nil
	}
	return append([][]string(nil), l.moves...)
}

// set makes h the history: a prefix of the line moves along it, anything else starts a new line.
func (ss *sessions) set(name string, h [][]string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.lines == nil {
		ss.lines = map[string]*line{}
	}
	l := ss.lines[name]
	if l != nil && len(h) <= len(l.moves) && prefix(h, l.moves) {
		l.cur = len(h)
		return
	}
	if len(h) == 0 {
		delete(ss.lines, name)
		return
	}
	ss.lines[name] = &line{moves: append([][]string(nil), h...), cur: len(h)}
}

func prefix(h, of [][]string) bool {
	for i := range h {
		if !slices.Equal(h[i], of[i]) {
			return false
		}
	}
	return true
}

// forget drops what is kept for a document that was closed: its moves and its turn.
func (ss *sessions) forget(name string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.lines, name)
	delete(ss.turns, name)
	delete(ss.stops, name)
}

// take waits for the document's turn to change its state and returns the function that gives
// it back; it fails when ctx ends first (the command was cancelled or superseded).
func (ss *sessions) take(ctx context.Context, name string) (func(), error) {
	ss.mu.Lock()
	if ss.turns == nil {
		ss.turns = map[string]chan struct{}{}
	}
	turn, ok := ss.turns[name]
	if !ok {
		turn = make(chan struct{}, 1)
		ss.turns[name] = turn
	}
	ss.mu.Unlock()
	select {
	case turn <- struct{}{}:
		return func() { <-turn }, nil
	default:
	}
	ss.mu.Lock()
	if ss.waiting == nil {
		ss.waiting = map[string]int{}
	}
	ss.waiting[name]++
	stop := ss.stops[name]
	ss.mu.Unlock()
	defer func() {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		if ss.waiting[name]--; ss.waiting[name] <= 0 {
			delete(ss.waiting, name)
		}
	}()
	if stop != nil {
		stop()
	}
	select {
	case turn <- struct{}{}:
		return func() { <-turn }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// thinking records, for the command holding the document's turn, how to cut its thinking
// short (see stops), and returns the function that forgets it. When a command already waits
// for the turn, the thinking is cut short at once.
func (ss *sessions) thinking(name string, stop func()) func() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.stops == nil {
		ss.stops = map[string]func(){}
	}
	ss.stops[name] = stop
	if ss.waiting[name] > 0 {
		stop()
	}
	return func() {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		delete(ss.stops, name)
	}
}
