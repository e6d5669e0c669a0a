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
	f := d.Snap.File()
	src := d.Snap.Text()
	dialect := d.Snap.Dialect()
	start := off
	for start > 0 && isWordByte(src[start-1], dialect) {
		start--
	}
	items := []CompletionItem{}
	add := func(label string, kind CompletionKind, detail, text string, snippet bool, replace syntax.Span, group int) {
		it := CompletionItem{Label: label, Kind: kind, Detail: detail, SortText: fmt.Sprintf("%d%04d", group, len(items)),
			Text: label, Replace: replace}
		if opts.Snippets && snippet {
			it.Text, it.Snippet = text, true
		} else if text != "" && !snippet {
			it.Text = text
		}
		items = append(items, it)
	}
	word := syntax.Span{Start: start, End: off}
	_, path := f.LeafAt(max(start, off))
	// path holds the lists around the cursor, outermost first; the cursor right after a '('
	// is inside that list.
	path = listsAround(path, off)
	if len(path) == 0 {
		for _, kw := range []struct{ label, prefix, infix string }{
			{"test", "(test ${1:name}\n    ${2:(play)})", "test(${1:name},\n    ${2:play()})"},
			{"game", "(game ${1:game.kif})", "game(\"${1:game.hrf}\")"},
		} {
			add(kw.label, CompletionKeyword, "test file", pick(dialect, kw.prefix, kw.infix), true, word, 0)
		}
		return items
	}
	if gametest.HeadKey(path[0]) != "test" {
		return items
	}
	s := d.Suite()
	var t *gametest.Test
	for _, x := range s.Tests {
		if x.Span.Start == path[0].Span().Start {
			t = x
		}
	}
	steps := func(keys ...string) {
		for _, sn := range stepSnippets {
			if len(keys) > 0 && !containsFold(keys, sn.key) {
				continue
			}
			add(sn.key, CompletionKeyword, "step", pick(dialect, sn.prefix, sn.infix), true, word, 0)
		}
	}
	if len(path) == 1 {
		if argIndex(path[0], off) >= 1 {
			steps()
		}
		return items
	}
	step := path[1]
	key := gametest.HeadKey(step)
	if key == "" {
		steps()
		return items
	}
	if key == "not" && len(path) == 2 {
		steps("holds", "terminal", "can-force", "ends-within")
		return items
	}
	i := argIndex(step, off) - 1 // the argument being written (0: the first after the keyword)
	if i < 0 {
		return items
	}
	// The argument being written: a word, or a list being typed, replaced from its start.
	replace := word
	if len(path) > 2 {
		replace = syntax.Span{Start: path[2].Span().Start, End: off}
	}
	if t == nil || d.Game == nil || opts.Runs == nil {
		return items
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = 500 * time.Millisecond
	}
	wctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	g, p, err := opts.Runs.StateAt(wctx, d, t, stepsBefore(t, step.Span().Start), opts.Limits)
	if err != nil {
		return items
	}
	term := func(x eval.Term) string { return g.StringIn(x, dialect) }
	roleItems := func() {
		for _, r := range g.Roles() {
			add(term(r), CompletionRole, "role", "", false, replace, 0)
		}
	}
	moveItems := func(role int, why string) {
		legal, err := g.Legal(wctx, p.State)
		if err != nil || role < 0 || role >= len(legal) {
			return
		}
		for _, m := range gametest.SortedTexts(g, legal[role], dialect) {
			add(m, CompletionMove, why, "", false, replace, 0)
		}
	}
	switch key {
	case "play", "illegal":
		if len(path) <= 3 && i < len(g.Roles()) {
			moveItems(i, fmt.Sprintf("legal for %s here", g.RoleNames()[i]))
		}
	case "legal-moves":
		if i == 0 {
			roleItems()
		} else if args := operandsOf(step); len(args) > 0 {
			if r := roleIndex(g, args[0]); r >= 0 {
				moveItems(r, fmt.Sprintf("legal for %s here", g.RoleNames()[r]))
			}
		}
	case "goal", "can-force":
		if i == 0 {
			roleItems()
		}
	case "state":
		for _, fl := range gametest.SortedTexts(g, p.State.Fluents(), dialect) {
			add(fl, CompletionFluent, "in the state before this step", "", false, replace, 0)
		}
	case "holds":
		if len(path) > 2 && gametest.HeadKey(path[2]) == "true" {
			inner := word
			if len(path) > 3 {
				inner = syntax.Span{Start: path[3].Span().Start, End: off}
			}
			for _, fl := range gametest.SortedTexts(g, p.State.Fluents(), dialect) {
				add(fl, CompletionFluent, "holds here", "", false, inner, 0)
			}
			return items
		}
		switch {
		case len(path) == 2:
			literalItems(d, g, p.State, dialect, word, add, true)
		case len(path) == 3 && argIndex(path[2], off) == 0:
			// The name of a literal being written after its '(': the relations.
			literalItems(d, g, p.State, dialect, word, add, false)
		}
	}
	return items
}

// literalItems offers the literals a holds may start with: (true F) for each fluent of the
// state, then the game's relations; with whole false, only the relations' names (a '(' is
// typed already).
func literalItems(d *TestDoc, g *game.Game, s *game.State, dialect syntax.Dialect, replace syntax.Span, add func(string, CompletionKind, string, string, bool, syntax.Span, int), whole bool) {
	for _, fl := range gametest.SortedTexts(g, s.Fluents(), dialect) {
		if !whole {
			break
		}
		lit := "(true " + fl + ")"
		if dialect == syntax.Infix {
			lit = "true(" + fl + ")"
		}
		add(lit, CompletionFluent, "holds here", "", false, replace, 1)
	}
	m := d.Game.Model()
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
		add(name, CompletionRelation, fmt.Sprintf("relation/%d", arity), snip, true, replace, 2)
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
