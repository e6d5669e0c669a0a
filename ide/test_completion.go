package ide

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestCompletionOptions shape the completion of a test document.
type TestCompletionOptions struct {
	Snippets bool
	Runs     *TestRuns
	Limits   eval.Limits
	Budget   time.Duration // how long it waits for the game and the state (0: 500 ms)
}

// stepSnippets are the steps a test may hold, as snippets in each notation.
var stepSnippets = []struct{ key, prefix, infix string }{
	{"play", "(play ${1:moves})", "play(${1:moves})"},
	{"holds", "(holds ${1:literal})", "holds(${1:literal})"},
	{"not", "(not ${1:terminal})", "not(${1:terminal})"},
	{"terminal", "terminal", "terminal"},
	{"goal", "(goal ${1:role} ${2:100})", "goal(${1:role},${2:100})"},
	{"legal-moves", "(legal-moves ${1:role} ${2:moves})", "legal-moves(${1:role},${2:moves})"},
	{"illegal", "(illegal ${1:moves})", "illegal(${1:moves})"},
	{"state", "(state ${1:fluents})", "state(${1:fluents})"},
	{"can-force", "(can-force ${1:role} ${2:100} ${3:1})", "can-force(${1:role},${2:100},${3:1})"},
	{"ends-within", "(ends-within ${1:1})", "ends-within(${1:1})"},
}

// TestCompletion offers, by place in a test document: the steps where a step may start; in a
// play or illegal step, the moves of the role whose move is being written that are legal in the
// state the step is played in; in legal-moves the roles, then the legal moves of the role
// named; the roles in goal and can-force; the fluents of the state in a state step and in
// (true ...); the game's relations where a literal of holds may start. What items insert is
// written in the test file's notation.
func TestCompletion(ctx context.Context, d *TestDoc, off int, opts TestCompletionOptions) []CompletionItem {
	c := newTestCompletion(d, off, opts)
	if a, ok := c.stepArgument(); ok {
		c.argument(ctx, a)
	}
	return c.items
}

// testCompletion is the context of one completion in a test document: the word being typed,
// the lists around the cursor, and the items offered so far.
type testCompletion struct {
	d       *TestDoc
	opts    TestCompletionOptions
	dialect syntax.Dialect
	off     int
	word    syntax.Span      // the word being typed
	path    []syntax.Cursor  // the lists around the cursor, outermost first
	items   []CompletionItem // never nil
}

func newTestCompletion(d *TestDoc, off int, opts TestCompletionOptions) *testCompletion {
	c := &testCompletion{d: d, opts: opts, dialect: d.Snap.Dialect(), off: off, items: []CompletionItem{}}
	f := d.Snap.File()
	src := d.Snap.Text()
	start := off
	for start > 0 && isWordByte(src[start-1], c.dialect) {
		start--
	}
	c.word = syntax.Span{Start: start, End: off}
	_, path := f.LeafAt(max(start, off))
	// The cursor right after a '(' is inside that list.
	c.path = listsAround(path, off)
	return c
}

// add offers an item: text is what it inserts, a snippet when snippet is set (the label
// without snippets).
func (c *testCompletion) add(label string, kind CompletionKind, detail, text string, snippet bool, replace syntax.Span, group int) {
	it := CompletionItem{Label: label, Kind: kind, Detail: detail, SortText: fmt.Sprintf("%d%04d", group, len(c.items)),
		Text: label, Replace: replace}
	if c.opts.Snippets && snippet {
		it.Text, it.Snippet = text, true
	} else if text != "" && !snippet {
		it.Text = text
	}
	c.items = append(c.items, it)
}

// steps offers the steps of a test, those of keys only when there are some.
func (c *testCompletion) steps(keys ...string) {
	for _, sn := range stepSnippets {
		if len(keys) > 0 && !containsFold(keys, sn.key) {
			continue
		}
		c.add(sn.key, CompletionKeyword, "step", pick(c.dialect, sn.prefix, sn.infix), true, c.word, 0)
	}
}

// stepArg is an argument of a step being written, whose completion needs the game.
type stepArg struct {
	t       *gametest.Test
	step    syntax.Cursor
	key     string      // the step's keyword
	i       int         // the argument being written (0: the first after the keyword)
	replace syntax.Span // the argument: a word, or a list being typed, replaced from its start
}

// stepArgument offers what the place allows without the game: the forms of a test file at top
// level, the steps in a test. In an argument of a step it returns that argument instead.
func (c *testCompletion) stepArgument() (stepArg, bool) {
	path := c.path
	if len(path) == 0 {
		for _, kw := range []struct{ label, prefix, infix string }{
			{"test", "(test ${1:name}\n    ${2:(play)})", "test(${1:name},\n    ${2:play()})"},
			{"game", "(game ${1:game.kif})", "game(\"${1:game.hrf}\")"},
		} {
			c.add(kw.label, CompletionKeyword, "test file", pick(c.dialect, kw.prefix, kw.infix), true, c.word, 0)
		}
		return stepArg{}, false
	}
	if gametest.HeadKey(path[0]) != "test" {
		return stepArg{}, false
	}
	if len(path) == 1 {
		if argIndex(path[0], c.off) >= 1 {
			c.steps()
		}
		return stepArg{}, false
	}
	a := stepArg{step: path[1], key: gametest.HeadKey(path[1]), replace: c.word}
	switch {
	case a.key == "":
		c.steps()
		return a, false
	case a.key == "not" && len(path) == 2:
		c.steps("holds", "terminal", "can-force", "ends-within")
		return a, false
	}
	if a.i = argIndex(a.step, c.off) - 1; a.i < 0 {
		return a, false
	}
	if len(path) > 2 {
		a.replace = syntax.Span{Start: path[2].Span().Start, End: c.off}
	}
	for _, x := range c.d.Suite().Tests {
		if x.Span.Start == path[0].Span().Start {
			a.t = x
		}
	}
	return a, a.t != nil && c.d.Game != nil && c.opts.Runs != nil
}

// argument offers what fits an argument of a step, in the state the step is played in: the
// legal moves, the roles, the fluents of the state, the literals of holds.
func (c *testCompletion) argument(ctx context.Context, a stepArg) {
	budget := c.opts.Budget
	if budget <= 0 {
		budget = 500 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	g, p, err := c.opts.Runs.StateAt(ctx, c.d, a.t, stepsBefore(a.t, a.step.Span().Start), c.opts.Limits)
	if err != nil {
		return
	}
	switch a.key {
	case "play", "illegal":
		if len(c.path) <= 3 && a.i < len(g.Roles()) {
			c.moves(ctx, g, p.State, a.i, a.replace)
		}
	case "legal-moves":
		if a.i == 0 {
			c.roles(g, a.replace)
		} else if args := operandsOf(a.step); len(args) > 0 {
			if r := roleIndex(g, args[0]); r >= 0 {
				c.moves(ctx, g, p.State, r, a.replace)
			}
		}
	case "goal", "can-force":
		if a.i == 0 {
			c.roles(g, a.replace)
		}
	case "state":
		for _, fl := range gametest.SortedTexts(g, p.State.Fluents(), c.dialect) {
			c.add(fl, CompletionFluent, "in the state before this step", "", false, a.replace, 0)
		}
	case "holds":
		c.holds(g, p.State)
	}
}

// roles offers the roles of the game.
func (c *testCompletion) roles(g *game.Game, replace syntax.Span) {
	for _, r := range g.Roles() {
		c.add(g.StringIn(r, c.dialect), CompletionRole, "role", "", false, replace, 0)
	}
}

// moves offers the moves of role legal in state.
func (c *testCompletion) moves(ctx context.Context, g *game.Game, state *game.State, role int, replace syntax.Span) {
	legal, err := g.Legal(ctx, state)
	if err != nil || role < 0 || role >= len(legal) {
		return
	}
	why := fmt.Sprintf("legal for %s here", g.RoleNames()[role])
	for _, m := range gametest.SortedTexts(g, legal[role], c.dialect) {
		c.add(m, CompletionMove, why, "", false, replace, 0)
	}
}

// holds offers what a holds step may say: the fluents of the state inside (true ...), else the
// literals.
func (c *testCompletion) holds(g *game.Game, state *game.State) {
	path := c.path
	if len(path) > 2 && gametest.HeadKey(path[2]) == "true" {
		inner := c.word
		if len(path) > 3 {
			inner = syntax.Span{Start: path[3].Span().Start, End: c.off}
		}
		for _, fl := range gametest.SortedTexts(g, state.Fluents(), c.dialect) {
			c.add(fl, CompletionFluent, "holds here", "", false, inner, 0)
		}
		return
	}
	switch {
	case len(path) == 2:
		c.literals(g, state, true)
	case len(path) == 3 && argIndex(path[2], c.off) == 0:
		// The name of a literal being written after its '(': the relations.
		c.literals(g, state, false)
	}
}

// literals offers the literals a holds may start with: (true F) for each fluent of the state,
// then the game's relations; with whole false, only the relations' names (a '(' is typed
// already).
func (c *testCompletion) literals(g *game.Game, s *game.State, whole bool) {
	dialect, replace := c.dialect, c.word
	for _, fl := range gametest.SortedTexts(g, s.Fluents(), dialect) {
		if !whole {
			break
		}
		lit := "(true " + fl + ")"
		if dialect == syntax.Infix {
			lit = "true(" + fl + ")"
		}
		c.add(lit, CompletionFluent, "holds here", "", false, replace, 1)
	}
	m := c.d.Game.Model()
	keys := make([]string, 0, len(m.Relations))
	for k := range m.Relations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if analysis.IsKeyword(k) && k != "legal" && k != "goal" && k != "terminal" {
			continue
		}
		sym := m.Relations[k]
		arity := mostCommonArity(sym)
		name := written(dialect, sym.Name(m))
		args := make([]string, arity)
		for i := range args {
			args[i] = fmt.Sprintf("${%d}", i+1)
		}
		snip := name
		if arity > 0 && whole {
			snip = pick(dialect, "("+name+" "+strings.Join(args, " ")+")", name+"("+strings.Join(args, ",")+")")
		}
		c.add(name, CompletionRelation, fmt.Sprintf("relation/%d", arity), snip, true, replace, 2)
	}
}

func pick(d syntax.Dialect, prefix, infix string) string {
	if d == syntax.Infix {
		return infix
	}
	return prefix
}

// roleIndex returns the role a word names, or -1.
func roleIndex(g *game.Game, c syntax.Cursor) int {
	if c.Kind() != syntax.Word {
		return -1
	}
	for i, n := range g.RoleNames() {
		if syntax.Fold(n) == c.Symbol().Key() {
			return i
		}
	}
	return -1
}

// listsAround keeps the lists of a path that contain off strictly inside their parentheses.
func listsAround(path []syntax.Cursor, off int) []syntax.Cursor {
	var out []syntax.Cursor
	for _, c := range path {
		sp := c.Span()
		if c.Kind() != syntax.List || off <= sp.Start {
			break
		}
		if off >= sp.End && c.Node().Kind == syntax.List && strings.HasSuffix(c.Text(), ")") && !c.Node().Unclosed {
			break
		}
		out = append(out, c)
	}
	return out
}

// argIndex returns how many elements of a list (its head included) start before off: the
// index of the element being written at off.
func argIndex(list syntax.Cursor, off int) int {
	n := 0
	for _, el := range list.Elements() {
		if el.Span().Start < off && off <= el.Span().End {
			return n // inside it, or right after its last character
		}
		if el.Span().End < off {
			n++
		}
	}
	return n
}

// operandsOf returns a list's elements after its head.
func operandsOf(c syntax.Cursor) []syntax.Cursor {
	el := c.Elements()
	if len(el) == 0 {
		return nil
	}
	return el[1:]
}
