// Package explain says why a literal holds or does not hold in a state of a game: for a literal
// that holds, a proof tree of minimal height, each step a rule of the game as written with its
// variable bindings, `true` and `does` leaves, negations and `distinct` shown as checked, and
// shared subproofs given once and referred to; for one that does not hold (why not), for each
// rule whose head can match, the body literal that fails under the best partial binding (the
// one that satisfies the most literals), recursively to a depth, and plain reasons: no rule has
// this head, an argument never takes that value (from the analyzer's value sets), a fluent is
// not in the state; for a literal with variables, every answer with its proof, up to a limit.
//
// The engine works on the game's clauses as written (analysis.Clause), in either notation, and
// asks the interpreter (package eval) only for the answers of rule bodies and literals: a state
// of the compiled engine is explained on the interpreter (package game converts it). Every
// explanation is bounded: a depth, a node limit, a proof height, a limit on the answers and
// bindings looked at, and the evaluator's own limits; what is left out is marked "cut here".
//
// Results are plain values (Explanation, Node) with renderers to text and Graphviz DOT; the
// JSON of the command line is the values themselves.
package explain

import (
	"context"
	"errors"
	"fmt"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

// Options bound an explanation. Zero fields take the defaults.
type Options struct {
	// Depth is how many levels of rules are explained: 1 shows the rules of the literal asked
	// and their body literals, without explaining those further. 0: 3 for a literal that does
	// not hold, no limit but MaxHeight for one that holds.
	Depth int
	// MaxNodes bounds the nodes of the whole explanation (0: 400).
	MaxNodes int
	// MaxAnswers bounds the answers of a literal with variables that are explained (0: 20).
	MaxAnswers int
	// MaxHeight is the tallest proof looked for (0: 512).
	MaxHeight int
	// MaxInstances bounds the instances of one rule for one atom looked at (0: 256), and
	// MaxTried the partial bindings of a failing rule compared (0: 16).
	MaxInstances, MaxTried int
	// Text, when set, is the analysis whose clauses the explanation names: a later version of
	// the game's text with the same clauses (an edit of comments or layout moved them), whose
	// rules and lines the explanation then gives. Nil: the analysis the game was compiled from.
	Text *analysis.Result
}

// Defaults of Options.
const (
	DefaultWhyNotDepth  = 3
	DefaultMaxNodes     = 400
	DefaultMaxAnswers   = 20
	DefaultMaxHeight    = 512
	DefaultMaxInstances = 256
	DefaultMaxTried     = 16
)

func (o Options) withDefaults() Options {
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxAnswers <= 0 {
		o.MaxAnswers = DefaultMaxAnswers
	}
	if o.MaxHeight <= 0 {
		o.MaxHeight = DefaultMaxHeight
	}
	if o.MaxInstances <= 0 {
		o.MaxInstances = DefaultMaxInstances
	}
	if o.MaxTried <= 0 {
		o.MaxTried = DefaultMaxTried
	}
	return o
}

// Explanation is why a literal holds or does not hold in a state (with a joint move).
type Explanation struct {
	Literal string `json:"literal"` // as asked
	Holds   bool   `json:"holds"`
	// Ground says whether the literal asked has no variables. A ground literal that holds has
	// one proof in Proofs; one with variables has one proof per answer (at most MaxAnswers;
	// More says there are others). A literal that does not hold has its why-not in WhyNot.
	Ground bool    `json:"ground"`
	Proofs []*Node `json:"proofs,omitempty"`
	More   bool    `json:"more,omitempty"`
	WhyNot *Node   `json:"why_not,omitempty"`
	// Cut says that some part was left out (a node of kind cut stands for it).
	Cut bool `json:"cut,omitempty"`
	// Notation is the game's notation, in which literals are written.
	Notation string `json:"notation"`
}

// Kind is what a node of an explanation stands for.
type Kind string

const (
	KindRule      Kind = "rule"      // an instance of a rule (a fact is a rule without body): its children are its body literals, in written order (why-not: in the order checked)
	KindState     Kind = "state"     // a `true` literal: the fluent is (not) in the state
	KindMove      Kind = "move"      // a `does` literal: the move is (not) in the joint move
	KindAtom      Kind = "atom"      // an atom that does not hold (its children are the rules that could give it), or one that holds and is not expanded
	KindNot       Kind = "not"       // a negation: checked when it holds; when it does not, its child proves the atom negated
	KindDistinct  Kind = "distinct"  // a distinct literal, checked
	KindOr        Kind = "or"        // a disjunction: the disjunct that holds, or each disjunct's why-not
	KindRef       Kind = "ref"       // the same as the node with ID Ref, given before
	KindCut       Kind = "cut"       // left out: the depth or the node limit was reached
	KindUnreached Kind = "unreached" // why-not: a body literal after the failing one (Holds under the binding shown)
)

// Node is one step of an explanation.
type Node struct {
	// ID numbers the rule nodes that other nodes refer to (Ref); 0 for the others.
	ID      int    `json:"id,omitempty"`
	Kind    Kind   `json:"kind"`
	Literal string `json:"literal"` // instantiated, in the game's notation (unbound variables keep their names)
	Holds   bool   `json:"holds"`
	// Height is a proof's height: 0 for a `true` or `does` leaf, 1 for a fact, one more than
	// its tallest subproof for a rule.
	Height int `json:"height,omitempty"`
	// Rule is the clause of a rule node.
	Rule     *Rule     `json:"rule,omitempty"`
	Bindings []Binding `json:"bindings,omitempty"`
	// Tried is, for a rule that fails, how many bindings of the literals before the failing
	// one were compared to choose the one shown (the one that satisfies the most literals).
	Tried int `json:"tried,omitempty"`
	// Others are other bindings tried, up to 4, each as Bindings.
	Others [][]Binding `json:"others,omitempty"`
	// Note says in words what the node's kind and children do not: why a fluent or move is
	// missing, that no rule has this head, that an argument never takes a value.
	Note     string  `json:"note,omitempty"`
	Ref      int     `json:"ref,omitempty"`
	Children []*Node `json:"children,omitempty"`
}

// Rule is a clause of the game: its place (byte span of its form; 1-based line and column)
// and its index among the clauses of the analysis.
type Rule struct {
	Clause int    `json:"clause"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Fact   bool   `json:"fact,omitempty"`
	Head   string `json:"head"` // the head as written
}

// Binding is a variable of a rule, as written, and its value.
type Binding struct {
	Var   string `json:"var"`
	Value string `json:"value"`
}

// ErrNeedsMove is returned for a literal about a joint move (it mentions does, next or sees, or
// a relation whose rules read does) asked without one.
var ErrNeedsMove = errors.New("the literal is about a joint move: give one (--joint)")

// Explain explains the literal text (one literal, in either notation, as `gdl query` reads
// it) in state s with the joint move joint (nil: none) of the game ev analysed as res.
func Explain(ctx context.Context, ev *eval.Program, res *analysis.Result, s *eval.State, joint []eval.Term, text string, opts Options) (*Explanation, error) {
	q, err := ev.ParseQuery(text)
	if err != nil {
		return nil, err
	}
	lits := q.Literals()
	if len(lits) != 1 {
		return nil, fmt.Errorf("%q: explain takes one literal, not %d", text, len(lits))
	}
	if q.NeedsMove() && joint == nil {
		return nil, ErrNeedsMove
	}
	e := newEngine(ctx, ev, res, s, joint, opts)
	return e.explain(q, lits[0])
}

// ExplainLiteral explains a literal of the game's own text (a body literal, a head), with the
// variables in bind (by syntax.VarKey) replaced by their values, as Explain does.
func ExplainLiteral(ctx context.Context, ev *eval.Program, res *analysis.Result, s *eval.State, joint []eval.Term, lit syntax.Literal, bind map[string]eval.Term, opts Options) (*Explanation, error) {
	q, err := ev.BodyQuery([]syntax.Literal{lit}, bind)
	if err != nil {
		return nil, err
	}
	if q.NeedsMove() && joint == nil {
		return nil, ErrNeedsMove
	}
	e := newEngine(ctx, ev, res, s, joint, opts)
	e.topBind = bind
	return e.explain(q, lit)
}

// explain answers the query of the one literal lit and explains it.
func (e *engine) explain(q *eval.Query, lit syntax.Literal) (*Explanation, error) {
	answers, more, err := e.ev.AskFirst(e.ctx, e.st, e.joint, q, e.opts.MaxAnswers)
	if err != nil {
		return nil, err
	}
	x := &Explanation{Literal: e.format(lit.Cursor, e.topBind), Holds: len(answers) > 0, Ground: len(q.Vars()) == 0,
		More: more, Notation: e.ev.Notation().String()}
	if x.Holds {
		e.depth = e.opts.Depth
		if e.depth <= 0 {
			e.depth = e.opts.MaxHeight + 1
		}
		for _, a := range answers {
			bind := e.extend(e.topBind, q.Vars(), a)
			x.Proofs = append(x.Proofs, e.proveLiteral(lit, bind, 0))
			if e.err != nil {
				return nil, e.err
			}
		}
	} else {
		e.depth = e.opts.Depth
		if e.depth <= 0 {
			e.depth = DefaultWhyNotDepth
		}
		x.WhyNot = e.whyNotLiteral(lit, e.topBind, 0)
		if e.err != nil {
			return nil, e.err
		}
	}
	x.Cut = e.cut
	return x, nil
}
