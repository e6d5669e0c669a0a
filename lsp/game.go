package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/eval"
)

// The evaluation side of the server: every document has a current state, the initial state
// followed by the joint moves played with the state commands. Lenses, hovers, hints and queries
// evaluate in that state. A new version of the document keeps the moves and replays them on the
// new rules; when a move is no longer legal the state stops there and says why.

// sessions holds the joint moves played per document. Moves are KIF texts, one per role, so
// they survive recompilation. A state command reads the history, plays on it and writes it back:
// it holds the document's turn (take) throughout, so concurrent commands cannot lose a move.
type sessions struct {
	mu    sync.Mutex
	moves map[protocol.DocumentURI][][]string
	turns map[protocol.DocumentURI]chan struct{}
}

func (ss *sessions) history(uri protocol.DocumentURI) [][]string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return append([][]string(nil), ss.moves[uri]...)
}

func (ss *sessions) set(uri protocol.DocumentURI, h [][]string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.moves == nil {
		ss.moves = map[protocol.DocumentURI][][]string{}
	}
	if len(h) == 0 {
		delete(ss.moves, uri)
		return
	}
	ss.moves[uri] = h
}

// forget drops what is kept for a document that was closed: its moves and its turn.
func (ss *sessions) forget(uri protocol.DocumentURI) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.moves, uri)
	delete(ss.turns, uri)
}

// take waits for the document's turn to change its state and returns the function that gives
// it back; it fails when ctx ends first (the command was cancelled or superseded).
func (ss *sessions) take(ctx context.Context, uri protocol.DocumentURI) (func(), error) {
	ss.mu.Lock()
	if ss.turns == nil {
		ss.turns = map[protocol.DocumentURI]chan struct{}{}
	}
	turn, ok := ss.turns[uri]
	if !ok {
		turn = make(chan struct{}, 1)
		ss.turns[uri] = turn
	}
	ss.mu.Unlock()
	select {
	case turn <- struct{}{}:
		return func() { <-turn }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// evalContext bounds one evaluation by the user's limits: the evaluator enforces them all, the
// time limit included, and says which one stopped it and where.
func evalContext(ctx context.Context, g *eval.Game, st EvalSettings) (context.Context, context.CancelFunc) {
	g.SetLimits(eval.Limits{MaxFacts: st.MaxFacts, MaxDepth: st.MaxTermDepth,
		Timeout: time.Duration(st.TimeoutMs) * time.Millisecond})
	return context.WithCancel(ctx)
}

// position is a document's current state: the state reached by replaying the history.
type position struct {
	state   *eval.State
	fluents []string   // the state's propositions, sorted
	played  [][]string // the moves actually replayed
	err     error      // why the replay stopped early, if it did
}

// replay computes the current state of a document from its history.
func replay(ctx context.Context, g *eval.Game, history [][]string) (*position, error) {
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	p := &position{state: s}
	defer func() { p.fluents = g.Strings(p.state.Fluents()) }()
	for i, move := range history {
		joint := make([]eval.Term, len(move))
		for k, m := range move {
			if joint[k], err = g.ParseTerm(m); err != nil {
				p.err = fmt.Errorf("move %d: %v", i+1, err)
				return p, nil
			}
		}
		next, err := g.NextLegal(ctx, p.state, joint)
		if err != nil {
			p.err = fmt.Errorf("move %d (%s) no longer applies: %v", i+1, strings.Join(move, " "), err)
			return p, nil
		}
		p.state = next
		p.played = append(p.played, move)
	}
	return p, nil
}

// gameState is the result of the state commands (gdl.showState, gdl.playMove, ...).
type gameState struct {
	Roles    []string            `json:"roles"`
	State    []string            `json:"state"`
	Step     int                 `json:"step"`
	History  [][]string          `json:"history"`
	Terminal bool                `json:"terminal"`
	Legal    map[string][]string `json:"legal"`
	Goals    map[string][]int    `json:"goals"`
	Error    string              `json:"error,omitempty"`
}

func describe(ctx context.Context, g *eval.Game, p *position) gameState {
	gs := gameState{Roles: []string{}, History: p.played, Step: len(p.played),
		Legal: map[string][]string{}, Goals: map[string][]int{}}
	for _, r := range g.Roles() {
		gs.Roles = append(gs.Roles, g.String(r))
	}
	if gs.History == nil {
		gs.History = [][]string{}
	}
	gs.State = p.fluents
	var errs []string
	if p.err != nil {
		errs = append(errs, p.err.Error())
	}
	if t, err := g.Terminal(ctx, p.state); err != nil {
		errs = append(errs, "terminal: "+err.Error())
	} else {
		gs.Terminal = t
	}
	if legal, err := g.Legal(ctx, p.state); err != nil {
		errs = append(errs, "legal: "+err.Error())
	} else {
		for i, r := range gs.Roles {
			gs.Legal[r] = g.Strings(legal[i])
		}
	}
	if goals, err := g.Goals(ctx, p.state); err != nil {
		errs = append(errs, "goal: "+err.Error())
	} else {
		for i, r := range gs.Roles {
			vals := []int{}
			for _, t := range goals[i] {
				if n, ok := g.Int(t); ok {
					vals = append(vals, n)
				}
			}
			sort.Ints(vals)
			gs.Goals[r] = vals
		}
	}
	gs.Error = strings.Join(errs, "; ")
	return gs
}

// queryResult is the result of gdl.runQuery. A query about a joint move (one that depends on
// does, like next and sees) is answered after each legal joint move of the current state: ByMove
// has the answers per joint move (at most JointMoves of them, in the order of the roles' legal
// moves), and Answers those that hold after at least one.
type queryResult struct {
	Query      string        `json:"query"`
	State      []string      `json:"state"`
	Answers    []string      `json:"answers"`
	ElapsedMs  float64       `json:"elapsedMs"`
	ByMove     []moveAnswers `json:"byMove,omitempty"`
	JointMoves int           `json:"jointMoves,omitempty"`
	Error      string        `json:"error,omitempty"`
}

// moveAnswers are the answers of a query about a joint move after one joint move.
type moveAnswers struct {
	Move    []string `json:"move"` // one move per role, in role order
	Answers []string `json:"answers"`
	Error   string   `json:"error,omitempty"`
}

// queryAnswers is what a query gives in a state.
type queryAnswers struct {
	count      int      // distinct answers
	answers    []string // spelled out: all of them sorted, or the first keep in derivation order
	needsMove  bool
	byMove     []moveAnswers // for a query about a joint move
	moveCounts []int         // the count of answers after each joint move of byMove
	jointMoves int           // legal joint moves in the state
	stopped    error         // why not every joint move was evaluated
	played     int           // the joint moves played to reach the state
}

// Caps on the joint moves a query about a joint move is evaluated after (lenses are best effort;
// a query run on purpose goes further), and on the answers a memoised result spells out (chess's
// queen_move_ig has 300,000; a hover shows 12).
const (
	lensJointMoves    = 64
	commandJointMoves = 1000
	keptAnswers       = 1000
)

// evaluate answers a KIF query in the position's state. A query about a joint move is answered
// after each legal joint move of the state, the first maxMoves of them. keep > 0 bounds the
// answers spelled out per list.
func evaluate(ctx context.Context, g *eval.Game, p *position, text string, maxMoves, keep int) (*queryAnswers, error) {
	q, err := g.ParseQuery(text)
	if err != nil {
		return nil, err
	}
	if !q.NeedsMove() {
		answers, n, err := askIn(ctx, g, p.state, nil, q, keep)
		if err != nil {
			return nil, err
		}
		return &queryAnswers{count: n, answers: answers}, nil
	}
	moves, total, err := jointMoves(ctx, g, p.state, maxMoves)
	if err != nil {
		return nil, err
	}
	res := &queryAnswers{needsMove: true, jointMoves: total}
	union := map[string]bool{}
	for _, joint := range moves {
		if ctx.Err() != nil {
			res.stopped = context.Cause(ctx)
			break
		}
		ma := moveAnswers{Move: canonicalMove(g, joint), Answers: []string{}}
		answers, n, err := askIn(ctx, g, p.state, joint, q, keep)
		if err != nil {
			if ctx.Err() != nil {
				res.stopped = err
				break
			}
			ma.Error = err.Error()
		}
		for _, a := range answers {
			ma.Answers = append(ma.Answers, a)
			union[a] = true
		}
		res.byMove = append(res.byMove, ma)
		res.moveCounts = append(res.moveCounts, n)
	}
	for a := range union {
		res.answers = append(res.answers, a)
	}
	sort.Strings(res.answers)
	res.count = len(res.answers)
	if len(res.byMove) < total && res.stopped == nil {
		res.stopped = fmt.Errorf("only the first %d of %d joint moves are evaluated", len(res.byMove), total)
	}
	return res, nil
}

// askIn evaluates a query in state s with the joint move joint (nil: none). It returns the
// answers spelled out, sorted (keep > 0 and more answers than keep: the first keep in derivation
// order), and how many there are.
func askIn(ctx context.Context, g *eval.Game, s *eval.State, joint []eval.Term, q *eval.Query, keep int) ([]string, int, error) {
	answers, err := g.Ask(ctx, s, joint, q)
	if err != nil {
		return nil, 0, err
	}
	n := len(answers)
	if keep > 0 && n > keep {
		answers = answers[:keep]
	}
	seen := map[string]bool{}
	out := []string{}
	for _, a := range answers {
		if t := q.Format(a); !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if keep <= 0 || n <= keep {
		sort.Strings(out)
		n = len(out)
	}
	return out, n, nil
}

// jointMoves lists the legal joint moves of state s (one legal move per role, roles in order,
// each role's moves in derivation order), the first max of them, and how many there are.
func jointMoves(ctx context.Context, g *eval.Game, s *eval.State, max int) ([][]eval.Term, int, error) {
	legal, err := g.Legal(ctx, s)
	if err != nil {
		return nil, 0, err
	}
	total := 1
	for _, ms := range legal {
		total *= len(ms)
		if total > 1<<30 {
			total = 1 << 30
		}
	}
	if len(legal) == 0 {
		total = 0
	}
	var out [][]eval.Term
	idx := make([]int, len(legal))
	for len(out) < total && len(out) < max {
		joint := make([]eval.Term, len(legal))
		for i, ms := range legal {
			joint[i] = ms[idx[i]]
		}
		out = append(out, joint)
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < len(legal[i]) {
				break
			}
			idx[i] = 0
		}
	}
	return out, total, nil
}

// refreshEvaluations asks the client to fetch code lenses and inlay hints again after the
// current state changed, when the client said it can.
func (s *Server) refreshEvaluations() {
	s.mu.Lock()
	ws := s.clientCaps.Workspace
	s.mu.Unlock()
	var methods []string
	if ws != nil && ws.CodeLens != nil && ws.CodeLens.RefreshSupport {
		methods = append(methods, "workspace/codeLens/refresh")
	}
	if ws != nil && ws.InlayHint != nil && ws.InlayHint.RefreshSupport {
		methods = append(methods, "workspace/inlayHint/refresh")
	}
	for _, method := range methods {
		go func(method string) {
			ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
			defer cancel()
			var res any
			if _, err := s.conn.Call(ctx, method, nil, &res); err != nil {
				s.log.Printf("%s: %v", method, err)
			}
		}(method)
	}
}

// refreshWhenDone asks the client to fetch lenses and hints again once r, an evaluation a lens,
// hint or hover could not wait for, has finished. Refreshes that fall close together are sent
// once.
func (s *Server) refreshWhenDone(r *result) {
	go func() {
		select {
		case <-r.done:
		case <-s.ctx.Done():
			return
		}
		s.refreshMu.Lock()
		defer s.refreshMu.Unlock()
		if s.refreshPending {
			return
		}
		s.refreshPending = true
		time.AfterFunc(100*time.Millisecond, func() {
			s.refreshMu.Lock()
			s.refreshPending = false
			s.refreshMu.Unlock()
			s.refreshEvaluations()
		})
	}()
}
