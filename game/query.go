package game

import (
	"context"
	"fmt"
	"sort"

	"github.com/gdl-lsp/gdl/eval"
)

// Answers are what a query gives in a state.
//
// A query about a state (it depends on true, or on nothing) is answered in the state. A query
// about a joint move (it mentions does, next or sees, or a relation whose rules depend on does)
// is answered for each legal joint move of the state, or for the one joint move asked for: the
// answers of each are in ByMove, and Answers holds those that hold after at least one.
type Answers struct {
	Count      int      // distinct answers (with Keep: at most Keep, and More says whether there are others)
	More       bool     // with Keep: there are more answers than Count
	Answers    []string // spelled out, sorted
	NeedsMove  bool
	ByMove     []MoveAnswers // a query about a joint move: per joint move evaluated
	JointMoves int           // a query about a joint move: the legal joint moves of the state
	Stopped    error         // why not every joint move was evaluated
	// Bindings gives for each answer spelled out the values of the query's variables, as text,
	// in the order of the query's Vars.
	Bindings map[string][]string
}

// MoveAnswers are the answers of a query about a joint move after one joint move.
type MoveAnswers struct {
	Move    []eval.Term // one move per role, in role order
	Answers []string
	Count   int
	More    bool // with Keep: more answers than Count
	Err     error
}

// QueryOptions bound the evaluation of a query.
type QueryOptions struct {
	MaxMoves int         // a query about a joint move: evaluate after at most this many joint moves (0: 1000)
	Keep     int         // look for at most this many answers per list (0: all), and say whether there are more
	Joint    []eval.Term // a query about a joint move: this joint move only (it must be legal)
}

// Evaluate answers q in state s; see Answers.
func (g *Game) Evaluate(ctx context.Context, s *State, q *eval.Query, opts QueryOptions) (*Answers, error) {
	if opts.MaxMoves <= 0 {
		opts.MaxMoves = 1000
	}
	bind := map[string][]string{}
	if !q.NeedsMove() {
		answers, n, more, err := g.askIn(ctx, s, nil, q, opts.Keep, bind)
		if err != nil {
			return nil, err
		}
		return &Answers{Count: n, More: more, Answers: answers, Bindings: bind}, nil
	}
	var moves [][]eval.Term
	total := 0
	if opts.Joint != nil {
		if _, err := g.Next(ctx, s, opts.Joint); err != nil {
			return nil, err
		}
		moves, total = [][]eval.Term{opts.Joint}, 1
	} else {
		var err error
		if moves, total, err = g.JointMoves(ctx, s, opts.MaxMoves); err != nil {
			return nil, err
		}
	}
	res := &Answers{NeedsMove: true, JointMoves: total, Bindings: bind}
	union := map[string]bool{}
	for _, joint := range moves {
		if ctx.Err() != nil {
			res.Stopped = context.Cause(ctx)
			break
		}
		ma := MoveAnswers{Move: joint, Answers: []string{}}
		answers, n, more, err := g.askIn(ctx, s, joint, q, opts.Keep, bind)
		if err != nil {
			if ctx.Err() != nil {
				res.Stopped = err
				break
			}
			ma.Err = err
		}
		ma.Count, ma.More = n, more
		res.More = res.More || more
		for _, a := range answers {
			ma.Answers = append(ma.Answers, a)
			union[a] = true
		}
		res.ByMove = append(res.ByMove, ma)
	}
	for a := range union {
		res.Answers = append(res.Answers, a)
	}
	sort.Strings(res.Answers)
	res.Count = len(res.Answers)
	if len(res.ByMove) < total && res.Stopped == nil {
		res.Stopped = fmt.Errorf("only the first %d of %d joint moves are evaluated", len(res.ByMove), total)
	}
	return res, nil
}

// askIn evaluates a query in state s with the joint move joint (nil: none). It returns the
// answers spelled out, sorted, and how many there are; with keep > 0 it looks for the first keep
// only (the evaluator stops there: a relation with millions of facts gives its first thousand in
// milliseconds) and more says whether there are others.
func (g *Game) askIn(ctx context.Context, s *State, joint []eval.Term, q *eval.Query, keep int, bind map[string][]string) ([]string, int, bool, error) {
	var answers []eval.Answer
	var more bool
	var err error
	if keep > 0 {
		answers, more, err = g.ev.AskFirst(ctx, s.interp(), joint, q, keep)
	} else {
		answers, err = g.Ask(ctx, s, joint, q)
	}
	if err != nil {
		return nil, 0, false, err
	}
	seen := map[string]bool{}
	out := []string{}
	for _, a := range answers {
		if t := q.Format(a); !seen[t] {
			seen[t] = true
			out = append(out, t)
			if _, ok := bind[t]; !ok {
				bind[t] = q.Binding(a)
			}
		}
	}
	sort.Strings(out)
	return out, len(out), more, nil
}
