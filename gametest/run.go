package gametest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
	"github.com/gdl-lsp/gdl/verify"
)

// Status is the outcome of a test.
type Status string

const (
	Passed  Status = "passed"
	Failed  Status = "failed"  // an expectation does not hold, or a joint move cannot be played
	Errored Status = "errored" // the test cannot be run to its end: it has errors, an evaluation stopped, a search ran out of budget
)

// Result is the outcome of one test.
type Result struct {
	Test     *Test
	Status   Status
	Failures []Failure
	Elapsed  time.Duration
}

// Failure is a step that failed.
type Failure struct {
	Step     int // 1-based position of the step in its test
	Span     syntax.Span
	Kind     Kind
	Code     string // CodeFailed, CodeUnknown, CodeEvalErr, or a code of a step that cannot be read
	Text     string // the step as written
	Expected string // what the step expects, in words
	Found    string // what was found instead
	// Moves are the joint moves played to reach the state (in the game's notation), from the
	// initial state, or from the last (state ...) step when FromState.
	Moves     []string
	FromState bool
	State     []string // the state's fluents
	Line      []string // can-force, ends-within: joint moves from the state that show the answer
	// Context is what the Explainer wrote of the failure (the state, its legal moves, ...).
	Context string
}

// maxText bounds the texts of a failure (a step, what was expected and found), so that a step
// of a hostile file or an error quoting it does not flood the report: its span says where it is.
const maxText = 400

// shorten cuts s to at most n bytes (at a character boundary), marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// Message writes the failure in one line: what was expected and what was found.
func (f *Failure) Message() string {
	if f.Found == "" {
		return f.Expected
	}
	return f.Expected + "; " + f.Found
}

// Explainer writes the context of a failure: by default the state, its legal moves and goals
// (DescribeState). The state is the one the step was checked in (the state before a joint move
// that cannot be played).
type Explainer func(ctx context.Context, g *game.Game, s *game.State, f *Failure) string

// Options configure Run.
type Options struct {
	Bounded verify.BoundedOptions // the budget of can-force and ends-within
	Explain Explainer             // nil: DescribeState
}

// Run runs tests of a suite on g, in order. The error is for the end of ctx only.
func Run(ctx context.Context, g *game.Game, tests []*Test, opts Options) ([]Result, error) {
	if opts.Explain == nil {
		opts.Explain = DescribeState
	}
	out := make([]Result, 0, len(tests))
	for _, t := range tests {
		r := RunTest(ctx, g, t, opts)
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		out = append(out, r)
	}
	return out, nil
}

// runner plays one test.
type runner struct {
	ctx   context.Context
	g     *game.Game
	test  *Test
	opts  Options
	res   *Result
	state *game.State
	// prev and joint are the state before the last joint move played and that move, for the
	// literals about a joint move (does, next, sees); nil after a (state ...) step.
	prev      *game.State
	joint     []eval.Term
	moves     []string
	fromState bool
}

// RunTest plays one test: its steps in order, each expectation checked in the state the steps
// before it reach. A joint move that cannot be played ends the test; a failed expectation does
// not.
func RunTest(ctx context.Context, g *game.Game, t *Test, opts Options) Result {
	if opts.Explain == nil {
		opts.Explain = DescribeState
	}
	start := time.Now()
	res := Result{Test: t, Status: Passed}
	r := &runner{ctx: ctx, g: g, test: t, opts: opts, res: &res}
	defer func() { res.Elapsed = time.Since(start) }()
	if t.Broken {
		res.Status = Errored
		res.Failures = append(res.Failures, Failure{Span: t.NameSpan, Code: CodeStep, Text: t.Name,
			Expected: "the test has errors (see the file's diagnostics) and is not run"})
		return res
	}
	s, err := g.Initial(ctx)
	if err != nil {
		res.Status = Errored
		res.Failures = append(res.Failures, Failure{Span: t.NameSpan, Code: CodeEvalErr, Text: t.Name,
			Expected: "the initial state cannot be computed: " + err.Error()})
		return res
	}
	r.state = s
	for i := range t.Steps {
		if ctx.Err() != nil {
			break
		}
		if !r.step(i+1, &t.Steps[i]) {
			break
		}
	}
	res.Elapsed = time.Since(start)
	return res
}

// fail records a failure of step st (numbered i) checked in state s; it returns false, so
// that a step can end with `return r.fail(...)` when the test cannot go on.
func (r *runner) fail(i int, st *Step, code, expected, found string, line []string) bool {
	f := Failure{Step: i, Span: st.Span, Kind: st.Kind, Code: code, Text: shorten(st.Text, maxText), Expected: shorten(expected, maxText),
		Found: shorten(found, maxText), Moves: slices.Clone(r.moves), FromState: r.fromState, Line: line}
	if r.state != nil {
		f.State = r.g.Strings(r.state.Fluents())
		f.Context = r.opts.Explain(r.ctx, r.g, r.state, &f)
	}
	r.res.Failures = append(r.res.Failures, f)
	if code == CodeFailed && r.res.Status == Passed {
		r.res.Status = Failed
	} else if code != CodeFailed {
		r.res.Status = Errored
	}
	return false
}

// evalError records an evaluation that stopped.
func (r *runner) evalError(i int, st *Step, err error) bool {
	return r.fail(i, st, CodeEvalErr, "the evaluation stopped: "+err.Error(), "", nil)
}

// step runs one step; false ends the test.
func (r *runner) step(i int, st *Step) bool {
	switch st.Kind {
	case Play:
		return r.play(i, st)
	case SetState:
		return r.setState(i, st)
	case Holds, NotHolds:
		r.holds(i, st)
	case Terminal, NotTerminal:
		return r.terminal(i, st)
	case Goal:
		return r.goal(i, st)
	case LegalMoves:
		r.legalMoves(i, st)
	case Illegal:
		r.illegal(i, st)
	case CanForce:
		return r.canForce(i, st)
	case EndsWithin:
		return r.endsWithin(i, st)
	}
	return true
}

// play runs (play M...): the state becomes the next one; a move that cannot be played ends the
// test.
func (r *runner) play(i int, st *Step) bool {
	g := r.g
	joint, ok := r.readJoint(i, st, st.Args)
	if !ok {
		return false
	}
	next, err := g.Next(r.ctx, r.state, joint)
	if err != nil {
		if refusal(err) {
			return r.fail(i, st, CodeFailed, "the joint move "+g.FormatJoint(joint)+" can be played", "it cannot: "+err.Error(), nil)
		}
		return r.evalError(i, st, err)
	}
	r.prev, r.joint, r.state = r.state, joint, next
	r.moves = append(r.moves, g.FormatJoint(joint))
	return true
}

// setState runs (state F...): the state becomes the one of those fluents, with no moves before
// it.
func (r *runner) setState(i int, st *Step) bool {
	fluents := make([]eval.Term, 0, len(st.Args))
	for _, a := range st.Args {
		t, err := r.g.ParseTerm(a.Text())
		if err != nil {
			return r.fail(i, st, CodeTerm, "a fluent of the game", err.Error(), nil)
		}
		fluents = append(fluents, t)
	}
	r.state, r.prev, r.joint = r.g.StateOf(fluents), nil, nil
	r.moves, r.fromState = nil, true
	return true
}

// terminal checks terminal and (not terminal).
func (r *runner) terminal(i int, st *Step) bool {
	term, err := r.g.Terminal(r.ctx, r.state)
	if err != nil {
		return r.evalError(i, st, err)
	}
	if want := st.Kind == Terminal; term != want {
		if want {
			r.fail(i, st, CodeFailed, "the state is terminal", "it is not", nil)
		} else {
			r.fail(i, st, CodeFailed, "the state is not terminal", "it is terminal", nil)
		}
	}
	return true
}

// goal checks (goal ROLE V): the role has that one goal value in the state.
func (r *runner) goal(i int, st *Step) bool {
	g := r.g
	ri, ok := r.role(i, st)
	if !ok {
		return true
	}
	goals, err := g.Goals(r.ctx, r.state)
	if err != nil {
		return r.evalError(i, st, err)
	}
	got := g.Strings(goals[ri])
	if len(got) != 1 || got[0] != fmt.Sprint(st.Value) {
		r.fail(i, st, CodeFailed, fmt.Sprintf("the goal of %s is %d", g.RoleNames()[ri], st.Value), goalText(got), nil)
	}
	return true
}

// illegal checks (illegal M...): the joint move cannot be played in the state.
func (r *runner) illegal(i int, st *Step) {
	joint, ok := r.readJoint(i, st, st.Args)
	if !ok {
		return
	}
	_, err := r.g.Next(r.ctx, r.state, joint)
	switch {
	case err == nil:
		r.fail(i, st, CodeFailed, "the joint move "+r.g.FormatJoint(joint)+" cannot be played", "it can: every move is legal", nil)
	case !refusal(err):
		r.evalError(i, st, err)
	}
}

// canForce checks (can-force ROLE V N) and its negation with a bounded search.
func (r *runner) canForce(i int, st *Step) bool {
	g := r.g
	ri, ok := r.role(i, st)
	if !ok {
		return true
	}
	b, err := verify.CanForce(r.ctx, g, r.state, ri, st.Value, st.Depth, r.opts.Bounded)
	if err != nil {
		return r.evalError(i, st, err)
	}
	want := fmt.Sprintf("%s can force a goal of at least %d within %s", g.RoleNames()[ri], st.Value, plural(st.Depth, "joint move"))
	if st.Negated {
		want = fmt.Sprintf("%s cannot force a goal of at least %d within %s", g.RoleNames()[ri], st.Value, plural(st.Depth, "joint move"))
	}
	r.verdict(i, st, b, want,
		func() (string, []string) { return forceFound(b), b.Joints },
		func() (string, []string) { return forcedFound(b), b.Joints })
	return true
}

// endsWithin checks (ends-within N) and its negation with a bounded search.
func (r *runner) endsWithin(i int, st *Step) bool {
	b, err := verify.EndsWithin(r.ctx, r.g, r.state, st.Depth, r.opts.Bounded)
	if err != nil {
		return r.evalError(i, st, err)
	}
	want := fmt.Sprintf("every continuation reaches a terminal state within %s", plural(st.Depth, "joint move"))
	if st.Negated {
		want = fmt.Sprintf("some continuation goes on beyond %s", plural(st.Depth, "joint move"))
	}
	r.verdict(i, st, b, want,
		func() (string, []string) { return endsFound(b), b.Joints },
		func() (string, []string) { return "every continuation ends within it", nil })
	return true
}

// verdict records what bounded search b says of step st, which expects want: a failure when b
// could not decide, when b does not hold and st is not negated (found says what was found
// instead, and the joint moves that show it), or when b holds and st is negated (foundNegated).
func (r *runner) verdict(i int, st *Step, b *verify.Bounded, want string, found, foundNegated func() (string, []string)) {
	var text string
	var joints []string
	switch {
	case !b.Known:
		r.fail(i, st, CodeUnknown, want, "undecided: "+b.Why, nil)
		return
	case !b.Holds && !st.Negated:
		text, joints = found()
	case b.Holds && st.Negated:
		text, joints = foundNegated()
	default:
		return
	}
	r.fail(i, st, CodeFailed, want, text, joints)
}

// refusal reports the errors of a joint move itself (not of evaluating the game).
func refusal(err error) bool {
	var ill *game.IllegalMoveError
	var over *game.GameOverError
	var je *game.JointError
	return errors.As(err, &ill) || errors.As(err, &over) || errors.As(err, &je)
}

// readJoint reads the moves of a joint move.
func (r *runner) readJoint(i int, st *Step, args []syntax.Cursor) ([]eval.Term, bool) {
	if n := len(r.g.Roles()); len(args) != n {
		r.fail(i, st, CodeJoint, fmt.Sprintf("one move per role (%s)", strings.Join(r.g.RoleNames(), ", ")),
			plural(len(args), "move"), nil)
		return nil, false
	}
	joint := make([]eval.Term, len(args))
	for k, a := range args {
		t, err := r.g.ParseTerm(a.Text())
		if err != nil {
			r.fail(i, st, CodeTerm, "a move of the game", err.Error(), nil)
			return nil, false
		}
		joint[k] = t
	}
	return joint, true
}

// role finds the role a step names; a role the game does not have is a failure.
func (r *runner) role(i int, st *Step) (int, bool) {
	name := st.Role.Symbol().Name()
	for k, n := range r.g.RoleNames() {
		if syntax.Fold(n) == syntax.Fold(name) && st.Role.Kind() == syntax.Word {
			return k, true
		}
	}
	r.fail(i, st, CodeRole, "a role of the game ("+strings.Join(r.g.RoleNames(), ", ")+")", clip(st.Role.Text())+" is not one", nil)
	return 0, false
}

// holds checks (holds L...) and (not (holds L...)). (holds (not A)) is (not (holds A)), so
// that A may have variables.
func (r *runner) holds(i int, st *Step) {
	g := r.g
	args, want := st.Args, st.Kind == Holds
	if len(args) == 1 {
		if l := (syntax.Literal{Cursor: args[0]}); l.Kind() == syntax.LitNot && len(l.Operands()) == 1 {
			args, want = []syntax.Cursor{l.Operands()[0].Cursor}, !want
		}
	}
	texts := make([]string, len(args))
	for k, a := range args {
		texts[k] = a.Text()
	}
	sep := " "
	if r.test.Dialect == syntax.Infix {
		sep = " & "
	}
	q, err := g.ParseQuery(strings.Join(texts, sep))
	if err != nil {
		r.fail(i, st, CodeTerm, "a literal of the game", err.Error(), nil)
		return
	}
	s, opts := r.state, game.QueryOptions{Keep: 3}
	if q.NeedsMove() {
		if r.joint == nil {
			r.fail(i, st, CodeStep, "a joint move played before: does, next, sees and the relations that read does are about the last joint move", "none was played since the start or the last (state ...)", nil)
			return
		}
		s, opts.Joint = r.prev, r.joint
	}
	ans, err := g.Evaluate(r.ctx, s, q, opts)
	if err != nil {
		r.evalError(i, st, err)
		return
	}
	for _, ma := range ans.ByMove {
		if ma.Err != nil {
			r.evalError(i, st, ma.Err)
			return
		}
	}
	lits := strings.Join(texts, " ")
	switch {
	case want && ans.Count == 0:
		r.fail(i, st, CodeFailed, lits+" holds", "it does not", nil)
	case !want && ans.Count > 0:
		found := "it does: " + strings.Join(ans.Answers, ", ")
		if ans.More {
			found += ", ..."
		}
		r.fail(i, st, CodeFailed, lits+" does not hold", found, nil)
	}
}

// legalMoves checks (legal-moves ROLE M...).
func (r *runner) legalMoves(i int, st *Step) {
	g := r.g
	ri, ok := r.role(i, st)
	if !ok {
		return
	}
	want := map[eval.Term]bool{}
	var listed []eval.Term
	for _, a := range st.Args {
		t, err := g.ParseTerm(a.Text())
		if err != nil {
			r.fail(i, st, CodeTerm, "a move of the game", err.Error(), nil)
			return
		}
		want[t] = true
		listed = append(listed, t)
	}
	legal, err := g.Legal(r.ctx, r.state)
	if err != nil {
		r.evalError(i, st, err)
		return
	}
	var missing, extra []string
	have := map[eval.Term]bool{}
	for _, m := range legal[ri] {
		have[m] = true
		if !want[m] {
			extra = append(extra, g.String(m))
		}
	}
	for _, t := range listed {
		if !have[t] {
			missing = append(missing, g.String(t))
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return
	}
	var found []string
	if len(missing) > 0 {
		found = append(found, "not legal: "+strings.Join(missing, " "))
	}
	if len(extra) > 0 {
		found = append(found, "legal but not listed: "+strings.Join(extra, " "))
	}
	expected := fmt.Sprintf("the legal moves of %s are exactly %s", g.RoleNames()[ri], orNone(g.Strings(listed)))
	r.fail(i, st, CodeFailed, expected, strings.Join(found, "; "), nil)
}

func orNone(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	return strings.Join(ss, " ")
}

// goalText writes the goal values found.
func goalText(vs []string) string {
	switch len(vs) {
	case 0:
		return "no goal value"
	case 1:
		return "goal " + vs[0]
	}
	return "several goal values: " + strings.Join(vs, " ")
}

// forceFound says why a can-force does not hold: the others' reply to each of the role's
// moves, and how the line of the search ends.
func forceFound(b *verify.Bounded) string {
	var parts []string
	for k, rp := range b.Replies {
		if k == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(b.Replies)-k))
			break
		}
		parts = append(parts, rp.Move+" is answered by "+rp.Joint)
	}
	if len(b.Joints) == 0 {
		switch b.End {
		case verify.EndTerminal:
			return "it cannot: the game is over here, with a lower goal"
		case verify.EndNoMove:
			return "it cannot: a role has no legal move here"
		}
		return "it cannot: the game is not over here, and no joint move is left to play"
	}
	end := "is not over after them"
	switch b.End {
	case verify.EndTerminal:
		end = "ends with a lower goal"
	case verify.EndNoMove:
		end = "reaches a state where a role has no legal move"
	}
	return fmt.Sprintf("it cannot: %s; along %s the game %s", strings.Join(parts, "; "), joinMoves(b.Joints), end)
}

// forcedFound says why a negated can-force does not hold: the move that forces the value, and
// a line that reaches it.
func forcedFound(b *verify.Bounded) string {
	if b.Move == nil {
		return "it can: the game is over here, with such a goal"
	}
	return fmt.Sprintf("it can, starting with %s: along %s, for one", b.Move.Text, joinMoves(b.Joints))
}

// endsFound says why an ends-within does not hold.
func endsFound(b *verify.Bounded) string {
	if len(b.Joints) == 0 {
		if b.End == verify.EndNoMove {
			return "a role has no legal move here"
		}
		return "the state is not terminal"
	}
	if b.End == verify.EndNoMove {
		return fmt.Sprintf("%s reach a state where a role has no legal move", joinMoves(b.Joints))
	}
	return fmt.Sprintf("the game is not over after %s", joinMoves(b.Joints))
}

// joinMoves writes joint moves one after the other, introduced by how many there are.
func joinMoves(joints []string) string {
	if len(joints) == 1 {
		return "the joint move " + joints[0]
	}
	return fmt.Sprintf("the %d joint moves %s", len(joints), strings.Join(joints, " "))
}

// DescribeState is the default Explainer: the state's fluents, whether it is terminal, the
// legal moves of each role (at most 12 each) or the goals of a terminal state.
func DescribeState(ctx context.Context, g *game.Game, s *game.State, f *Failure) string {
	var b strings.Builder
	fl := g.Strings(s.Fluents())
	fmt.Fprintf(&b, "state: %s\n", orNone(fl))
	term, err := g.Terminal(ctx, s)
	if err != nil {
		return b.String()
	}
	if term {
		goals, err := g.Goals(ctx, s)
		if err != nil {
			return b.String()
		}
		var parts []string
		for k, vs := range goals {
			parts = append(parts, g.RoleNames()[k]+" "+goalText(g.Strings(vs)))
		}
		fmt.Fprintf(&b, "terminal; %s\n", strings.Join(parts, ", "))
		return b.String()
	}
	legal, err := g.Legal(ctx, s)
	if err != nil {
		return b.String()
	}
	for k, ms := range legal {
		texts := g.Strings(ms)
		more := ""
		if len(texts) > 12 {
			more = fmt.Sprintf(" ... (%d in all)", len(texts))
			texts = texts[:12]
		}
		fmt.Fprintf(&b, "legal %s: %s%s\n", g.RoleNames()[k], orNone(texts), more)
	}
	return b.String()
}

// Position is where the steps of a test before a given step lead.
type Position struct {
	State     *game.State
	Moves     []string // joint moves played since the initial state or the last (state ...)
	FromState bool
}

// StateAt plays the steps of t before step k (0-based) that change the state and returns the
// state step k is checked in, for the editor's hover and completion. The error says why a
// step before k cannot be played.
func StateAt(ctx context.Context, g *game.Game, t *Test, k int) (*Position, error) {
	res := Result{Test: t, Status: Passed}
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	r := &runner{ctx: ctx, g: g, test: t, opts: Options{Explain: func(context.Context, *game.Game, *game.State, *Failure) string { return "" }}, res: &res, state: s}
	for i := 0; i < k && i < len(t.Steps); i++ {
		st := &t.Steps[i]
		if st.Kind != Play && st.Kind != SetState {
			continue
		}
		if !r.step(i+1, st) {
			f := res.Failures[len(res.Failures)-1]
			return nil, fmt.Errorf("step %d, %s: %s", i+1, clip(st.Text), f.Message())
		}
	}
	return &Position{State: r.state, Moves: r.moves, FromState: r.fromState}, nil
}

// StepAt returns the test and the index of its step that contains offset off (-1 when off is
// in the test but not in a step), or nil.
func (s *Suite) StepAt(off int) (*Test, int) {
	for _, t := range s.Tests {
		if off < t.Span.Start || off > t.Span.End {
			continue
		}
		for i, st := range t.Steps {
			if st.Span.Start <= off && off <= st.Span.End {
				return t, i
			}
		}
		return t, -1
	}
	return nil, -1
}
