// Package gametest reads, checks and runs game tests: scenarios written in GDL's own notation
// next to a game (GAME.test.kif, GAME.test.hrf, or any file whose first form names its game)
// that say "after these joint moves, this holds" (docs/testing.md).
//
// A test file is parsed by package syntax like any GDL file (so it is lossless and error
// tolerant, and formats and converts like a game); Read gives its structure (the tests, their
// steps and expectations, with their spans) and the diagnostics of a shape that is not a test;
// Check compares it with the game's analysis (unknown relations, roles, arities, moves that can
// never be played); Run plays it on the game API (package game) and, for the two bounded
// expectations, the searches of package verify. Everything is in byte offsets of the test file,
// for the command line and the editor alike.
package gametest

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Kind is the kind of a step of a test.
type Kind uint8

const (
	Play        Kind = iota // (play M1 ... Mn): one joint move, one move per role in role order
	SetState                // (state F1 ... Fn): the state is exactly these fluents
	Holds                   // (holds L1 ... Ln): the conjunction has an answer
	NotHolds                // (not (holds L1 ... Ln)): it has none
	Terminal                // terminal
	NotTerminal             // (not terminal)
	Goal                    // (goal ROLE V): ROLE's goal values are exactly V
	LegalMoves              // (legal-moves ROLE M1 ... Mk): ROLE's legal moves are exactly these
	Illegal                 // (illegal M1 ... Mn): this joint move cannot be played here
	CanForce                // (can-force ROLE V N): ROLE can force a goal of at least V within N joint moves; negated, it cannot
	EndsWithin              // (ends-within N): every continuation reaches a terminal state within N joint moves; negated, some does not
)

// Keyword returns the name a step of kind k is written with.
func (k Kind) Keyword() string { return kindWords[k] }

var kindWords = [...]string{"play", "state", "holds", "holds", "terminal", "terminal", "goal", "legal-moves", "illegal", "can-force", "ends-within"}

// IsExpectation reports whether a step of kind k checks the state rather than changing it.
func (k Kind) IsExpectation() bool { return k != Play && k != SetState }

// MaxDepth bounds N in can-force and ends-within: the searches recurse once per joint move.
const MaxDepth = 1000

// Suite is the structure of a test file.
type Suite struct {
	File *syntax.File
	// Game is the path the file's (game PATH) form names, as written ("" when it has none);
	// GameSpan is that form's span.
	Game     string
	GameSpan syntax.Span
	Tests    []*Test
}

// Test is a named scenario.
type Test struct {
	Name     string
	NameSpan syntax.Span
	Span     syntax.Span // the whole (test ...) form
	Doc      string      // the comment lines right above the form
	Steps    []Step
	Broken   bool // the form has syntax errors or steps that could not be read: it is not run
	// Dialect is the notation of the test file, in which its terms and literals are written.
	Dialect syntax.Dialect
}

// Step is a joint move played, a state set, or an expectation.
type Step struct {
	Kind Kind
	Span syntax.Span // the step as written, (not ...) included
	Text string      // the step's text
	// Args are the step's terms: the moves of a joint move (play, illegal), the fluents of a
	// state, the literals of holds, the moves of legal-moves (after the role).
	Args []syntax.Cursor
	Role syntax.Cursor // goal, legal-moves, can-force: the role
	// Value is the goal value (goal, can-force); Depth the bound in joint moves (can-force,
	// ends-within).
	Value, Depth int
	// Negated is true for a step written (not E): NotHolds and NotTerminal, and can-force and
	// ends-within negated (the role cannot force the value; some continuation goes on longer).
	Negated bool
}

// Read gives the structure of a parsed test file, and a diagnostic for each form or step whose
// shape is not one the format has. It never fails: what it cannot read it reports and skips.
func Read(f *syntax.File) (*Suite, []analysis.Diagnostic) {
	r := &reader{suite: &Suite{File: f}}
	names := map[string]syntax.Span{}
	for _, form := range f.Forms() {
		head := form.Head()
		key := ""
		if form.Kind() == syntax.List && head.Valid() && head.Kind() == syntax.Word {
			key = head.Symbol().Key()
		}
		switch key {
		case "game":
			r.game(form)
		case "test":
			t := r.test(form)
			if t == nil {
				continue
			}
			if prev, dup := names[syntax.Fold(t.Name)]; dup {
				r.report(t.NameSpan, CodeName, "a second test named "+t.Name+": names must differ, so that --run and the editor can tell them apart",
					analysis.Related{Span: prev, Message: "the first test named " + t.Name})
			} else {
				names[syntax.Fold(t.Name)] = t.NameSpan
			}
			r.suite.Tests = append(r.suite.Tests, t)
		default:
			r.report(form.Span(), CodeForm, "a test file holds (game PATH) and (test NAME STEP...) forms, not "+clip(form.Text()))
		}
	}
	return r.suite, r.diags
}

type reader struct {
	suite *Suite
	diags []analysis.Diagnostic
}

func (r *reader) report(span syntax.Span, code, msg string, related ...analysis.Related) {
	r.diags = append(r.diags, newDiagnostic(span, code, msg, related...))
}

func (r *reader) game(form syntax.Form) {
	args := operands(form.Cursor)
	if len(args) != 1 || args[0].Kind() != syntax.Word {
		r.report(form.Span(), CodeForm, "(game PATH) names the game under test by its path, relative to the test file: (game tictactoe.kif)")
		return
	}
	if r.suite.Game != "" {
		r.report(form.Span(), CodeForm, "a second (game ...) form: a test file tests one game",
			analysis.Related{Span: r.suite.GameSpan, Message: "the first"})
		return
	}
	r.suite.Game = args[0].Symbol().Name()
	r.suite.GameSpan = form.Span()
}

func (r *reader) test(form syntax.Form) *Test {
	args := operands(form.Cursor)
	t := &Test{Span: form.Span(), Doc: form.Doc(), Broken: form.HasErrors(), Dialect: r.suite.File.Dialect()}
	if len(args) == 0 || args[0].Kind() != syntax.Word {
		span := form.Span()
		if len(args) > 0 {
			span = args[0].Span()
		}
		r.report(span, CodeName, "a test starts with its name, a constant: (test x-wins-diagonal STEP...)")
		return nil
	}
	t.Name, t.NameSpan = args[0].Symbol().Name(), args[0].Span()
	for _, c := range args[1:] {
		st, ok := r.step(c)
		if !ok {
			t.Broken = true
			continue
		}
		t.Steps = append(t.Steps, st)
	}
	return t
}

// step reads one step of a test.
func (r *reader) step(c syntax.Cursor) (Step, bool) {
	st := Step{Span: c.Span(), Text: c.Text()}
	neg := false
	inner := c
	if key := HeadKey(c); key == "not" {
		args := operands(c)
		if len(args) != 1 {
			r.report(c.Span(), CodeStep, "(not E) negates one expectation: (not terminal), (not (holds L...)), (not (can-force ROLE V N)), (not (ends-within N))")
			return st, false
		}
		neg, inner = true, args[0]
	}
	if inner.Kind() == syntax.Word {
		if inner.Symbol().Key() == "terminal" {
			st.Kind = Terminal
			if neg {
				st.Kind = NotTerminal
			}
			return st, true
		}
		r.report(c.Span(), CodeStep, "a step is a list such as (play M...) or (holds L...), or terminal; "+stepHelp)
		return st, false
	}
	key := HeadKey(inner)
	if neg && key != "holds" && key != "terminal" && key != "can-force" && key != "ends-within" {
		r.report(c.Span(), CodeStep, "only holds, terminal, can-force and ends-within can be negated: (not (holds L...)), (not terminal), (not (can-force ROLE V N)), (not (ends-within N))")
		return st, false
	}
	st.Negated = neg
	read, ok := stepReaders[key]
	if !ok {
		r.unknownStep(c, inner, key)
		return st, false
	}
	need := func(ok bool, shape string) bool {
		if !ok {
			r.report(c.Span(), CodeStep, "expected "+shape)
		}
		return ok
	}
	return st, read(&st, key, operands(inner), need)
}

// unknownStep reports step c, whose inner list has head key, as a step gdl test does not know,
// with the nearest known words.
func (r *reader) unknownStep(c, inner syntax.Cursor, key string) {
	what := key
	if what == "" {
		what = clip(inner.Text())
	}
	msg := "unknown step " + what + "; " + stepHelp
	if near := analysis.Closest(key, stepWords); key != "" && len(near) > 0 {
		msg = "unknown step " + what + "; did you mean " + strings.Join(near, " or ") + "? " + stepHelp
	}
	r.report(c.Span(), CodeStep, msg)
}

// stepReader reads the operands args of a step with head key into st (whose Negated is set),
// calling need with false and the step's expected shape when they do not fit it.
type stepReader func(st *Step, key string, args []syntax.Cursor, need func(ok bool, shape string) bool) bool

// stepReaders are the readers of the steps, by head word.
var stepReaders = map[string]stepReader{
	"play":        readPlayStep,
	"illegal":     readPlayStep,
	"state":       readStateStep,
	"holds":       readHoldsStep,
	"terminal":    readTerminalStep,
	"goal":        readGoalStep,
	"legal-moves": readLegalMovesStep,
	"can-force":   readCanForceStep,
	"ends-within": readEndsWithinStep,
}

// readPlayStep reads (play M1 ... Mn) and (illegal M1 ... Mn).
func readPlayStep(st *Step, key string, args []syntax.Cursor, need func(bool, string) bool) bool {
	st.Kind = Play
	if key == "illegal" {
		st.Kind = Illegal
	}
	if !need(len(args) > 0, "("+key+" M1 ... Mn), one move per role in the order of the role facts") {
		return false
	}
	st.Args = args
	return true
}

// readStateStep reads (state F1 ... Fn).
func readStateStep(st *Step, _ string, args []syntax.Cursor, _ func(bool, string) bool) bool {
	st.Kind, st.Args = SetState, args
	return true
}

// readHoldsStep reads (holds L1 ... Ln), negated or not.
func readHoldsStep(st *Step, _ string, args []syntax.Cursor, need func(bool, string) bool) bool {
	st.Kind = Holds
	if st.Negated {
		st.Kind = NotHolds
	}
	if !need(len(args) > 0, "(holds L1 ... Ln), literals of the game such as (true (cell 1 1 x)) or (line x)") {
		return false
	}
	st.Args = args
	return true
}

// readTerminalStep reads (terminal), negated or not.
func readTerminalStep(st *Step, _ string, args []syntax.Cursor, need func(bool, string) bool) bool {
	st.Kind = Terminal
	if st.Negated {
		st.Kind = NotTerminal
	}
	return need(len(args) == 0, "terminal")
}

// readGoalStep reads (goal ROLE V).
func readGoalStep(st *Step, _ string, args []syntax.Cursor, need func(bool, string) bool) bool {
	st.Kind = Goal
	if !need(len(args) == 2, "(goal ROLE V), V a goal value from 0 to 100") {
		return false
	}
	st.Role = args[0]
	v, ok := number(args[1], 0, 100)
	if !need(ok, "(goal ROLE V), V a goal value from 0 to 100") {
		return false
	}
	st.Value = v
	return true
}

// readLegalMovesStep reads (legal-moves ROLE M1 ... Mk).
func readLegalMovesStep(st *Step, _ string, args []syntax.Cursor, need func(bool, string) bool) bool {
	st.Kind = LegalMoves
	if !need(len(args) >= 1, "(legal-moves ROLE M1 ... Mk): every legal move of ROLE, and only those") {
		return false
	}
	st.Role, st.Args = args[0], args[1:]
	return true
}

// readCanForceStep reads (can-force ROLE V N), negated or not.
func readCanForceStep(st *Step, _ string, args []syntax.Cursor, need func(bool, string) bool) bool {
	st.Kind = CanForce
	shape := "(can-force ROLE V N): ROLE can force a goal of at least V (0 to 100) within N joint moves (0 to " + strconv.Itoa(MaxDepth) + ")"
	if !need(len(args) == 3, shape) {
		return false
	}
	v, ok1 := number(args[1], 0, 100)
	n, ok2 := number(args[2], 0, MaxDepth)
	if !need(ok1 && ok2, shape) {
		return false
	}
	st.Role, st.Value, st.Depth = args[0], v, n
	return true
}

// readEndsWithinStep reads (ends-within N), negated or not.
func readEndsWithinStep(st *Step, _ string, args []syntax.Cursor, need func(bool, string) bool) bool {
	st.Kind = EndsWithin
	shape := "(ends-within N): every continuation reaches a terminal state within N joint moves (0 to " + strconv.Itoa(MaxDepth) + ")"
	if !need(len(args) == 1, shape) {
		return false
	}
	n, ok := number(args[0], 0, MaxDepth)
	if !need(ok, shape) {
		return false
	}
	st.Depth = n
	return true
}

var stepWords = []string{"play", "state", "holds", "terminal", "goal", "legal-moves", "illegal", "can-force", "ends-within", "not"}

const stepHelp = "the steps are play, state, holds, terminal, goal, legal-moves, illegal, can-force, ends-within, and not of holds or terminal"

// elements returns a list's elements (its head first), or nothing for a word.
func elements(c syntax.Cursor) []syntax.Cursor {
	if c.Kind() != syntax.List {
		return nil
	}
	return c.Elements()
}

// operands returns a list's elements after its head.
func operands(c syntax.Cursor) []syntax.Cursor {
	el := elements(c)
	if len(el) == 0 {
		return nil
	}
	return el[1:]
}

// HeadKey returns the case-folded name heading a list, or "".
func HeadKey(c syntax.Cursor) string {
	if c.Kind() != syntax.List {
		return ""
	}
	h := c.Head()
	if !h.Valid() || h.Kind() != syntax.Word {
		return ""
	}
	return h.Symbol().Key()
}

// number reads a constant that is an integer from lo to hi.
func number(c syntax.Cursor, lo, hi int) (int, bool) {
	if c.Kind() != syntax.Word {
		return 0, false
	}
	n, err := strconv.Atoi(c.Symbol().Name())
	return n, err == nil && n >= lo && n <= hi
}

// clip shortens text for a message.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// TestExt lists the endings of test files' names.
var TestExt = []string{".test.kif", ".test.hrf", ".test.gdl"}

// IsTestPath reports whether a file's name marks it as a test file (GAME.test.kif,
// GAME.test.hrf, GAME.test.gdl).
func IsTestPath(path string) bool {
	lower := strings.ToLower(filepath.Base(path))
	for _, e := range TestExt {
		if strings.HasSuffix(lower, e) && len(lower) > len(e) {
			return true
		}
	}
	return false
}

// IsTestFile reports whether a file is a test file: by its name (IsTestPath), or, whatever its
// name, because its first form is (game PATH) and a (test ...) form follows.
func IsTestFile(path string, f *syntax.File) bool {
	if IsTestPath(path) {
		return true
	}
	first := true
	game := false
	for form := range f.FormSeq() {
		key := HeadKey(form.Cursor)
		if first {
			if key != "game" {
				return false
			}
			first, game = false, true
			continue
		}
		if key == "test" {
			return game
		}
	}
	return false
}

// GameCandidates returns the paths where the game of the test file at path may be, best
// first: the path its (game ...) form names, relative to the test file's folder; else, for
// GAME.test.kif (or .hrf, .gdl), GAME.kif, GAME.hrf and GAME.gdl beside it, the test file's own
// notation first.
func GameCandidates(path string, s *Suite) []string {
	dir := filepath.Dir(path)
	if s.Game != "" {
		if filepath.IsAbs(s.Game) {
			return []string{s.Game}
		}
		return []string{filepath.Join(dir, filepath.FromSlash(s.Game))}
	}
	base := filepath.Base(path)
	lower := strings.ToLower(base)
	for _, e := range TestExt {
		if strings.HasSuffix(lower, e) && len(lower) > len(e) {
			stem := base[:len(base)-len(e)]
			own := base[len(base)-len(e)+len(".test"):]
			out := []string{filepath.Join(dir, stem+own)}
			for _, x := range []string{".kif", ".hrf", ".gdl"} {
				if !strings.EqualFold(x, own) {
					out = append(out, filepath.Join(dir, stem+x))
				}
			}
			return out
		}
	}
	return nil
}
