package lsp

import (
	"context"
	"errors"
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

// Game returns the snapshot's compiled game, built on first use.
func (s *Snapshot) Game() *eval.Game {
	s.gameOnce.Do(func() { s.game = eval.Compile(s.Analysis()) })
	return s.game
}

// evalContext bounds one evaluation by the user's limits.
func evalContext(ctx context.Context, g *eval.Game, st EvalSettings) (context.Context, context.CancelFunc) {
	g.SetLimits(eval.Limits{MaxFacts: st.MaxFacts, MaxDepth: st.MaxTermDepth})
	if st.TimeoutMs > 0 {
		return context.WithTimeout(ctx, time.Duration(st.TimeoutMs)*time.Millisecond)
	}
	return context.WithCancel(ctx)
}

// position is a document's current state: the state reached by replaying the history, the state
// before the last joint move and that move (for questions about does, next and sees).
type position struct {
	state, prev *eval.State
	last        []eval.Term
	played      [][]string // the moves actually replayed
	err         error      // why the replay stopped early, if it did
}

// replay computes the current state of a document from its history.
func replay(ctx context.Context, g *eval.Game, history [][]string) (*position, error) {
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	p := &position{state: s}
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
		p.prev, p.last, p.state = p.state, joint, next
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
	gs.State = g.Strings(p.state.Fluents())
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

// queryResult is the result of gdl.runQuery.
type queryResult struct {
	Query     string   `json:"query"`
	State     []string `json:"state"`
	Answers   []string `json:"answers"`
	ElapsedMs float64  `json:"elapsedMs"`
	Error     string   `json:"error,omitempty"`
}

// ask evaluates a KIF query in the document's current state. Questions about does (next, sees)
// are answered for the last joint move, in the state it was played in.
func ask(ctx context.Context, g *eval.Game, p *position, text string) ([]string, error) {
	q, err := g.ParseQuery(text)
	if err != nil {
		return nil, err
	}
	s, joint := p.state, []eval.Term(nil)
	if q.NeedsMove() {
		if p.last == nil {
			return nil, errors.New(text + " depends on does: play a joint move first (it is answered for the last move)")
		}
		s, joint = p.prev, p.last
	}
	answers, err := g.Ask(ctx, s, joint, q)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, a := range answers {
		if t := q.Format(a); !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out, nil
}

// summarize shortens a list of answers for a title or hover: the first few, then a count.
func summarize(answers []string, max int) string {
	if len(answers) <= max {
		return strings.Join(answers, " ")
	}
	return strings.Join(answers[:max], " ") + fmt.Sprintf(" … (%d more)", len(answers)-max)
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
