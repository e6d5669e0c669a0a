package board

import (
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
)

// SampleOptions bound what Sample looks at.
type SampleOptions struct {
	Walks int // random walks from the initial state (0: 4)
	Steps int // joint moves per walk (0: 60)
	// Time bounds everything but the initial state, inside each evaluation: an evaluation still
	// running then is stopped (0: 1 s). The walks are seeded, so the same game gets the same
	// sample unless Time cuts it short.
	Time time.Duration
	Seed uint64 // the walks' seed (the same seed, the same walks)
}

// What a sample holds at most, whatever the game: a state that grows on every move (its
// fluents doubling) would otherwise fill the memory within the time budget. No board has more
// than 32 x 32 squares, so a state of more fluents than maxSampleState ends its walk unsampled.
const (
	maxSampleState   = 10_000  // fluents of one sampled state
	maxSampleFluents = 200_000 // fluents of all the sampled states together
	maxChains        = 64      // static relations of two arguments read for orders
)

// Sample gathers the facts board detection reads from a game: the initial state, the fluents
// of base, states of short random walks, the chains of static relations of two arguments, the
// order of the init facts and what the rules say of rows and columns (coordinateHints). The initial state is required; everything else is best
// effort within the options' bounds (an evaluation error ends that part, not the sampling).
func Sample(ctx context.Context, g *game.Game, opts SampleOptions) (Facts, error) {
	if opts.Walks <= 0 {
		opts.Walks = 4
	}
	if opts.Steps <= 0 {
		opts.Steps = 60
	}
	if opts.Time <= 0 {
		opts.Time = time.Second
	}
	var f Facts
	init, err := g.Initial(ctx)
	if err != nil {
		return f, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Time)
	defer cancel()
	// Detection reads KIF: an infix game's texts are read through kifText.
	f.Infix = g.Notation() == syntax.Infix
	kif := func(ss []string) []string {
		if f.Infix {
			return kifTexts(ss)
		}
		return ss
	}
	f.States = append(f.States, kif(g.Strings(init.Fluents())))
	res := g.Analysis()
	forms := readForms(prefixSource(res, f.Infix))
	f.Hints = coordinateHints(forms)
	f.InitLayout = initLayout(forms)
	if _, ok := res.Model.Relations["base"]; ok {
		f.Possible = kif(answers(ctx, g, init, "(base ?f)"))
		for i, p := range f.Possible {
			f.Possible[i] = p[len("(base ") : len(p)-1]
		}
	}
	f.Orders = chains(ctx, g, init, res)
	for _, s := range randomWalks(ctx, g, init, opts) {
		f.States = append(f.States, kif(g.Strings(s.Fluents())))
	}
	return f, nil
}

// prefixSource is the game's text in KIF: its source, converted when it is infix ("" when it
// cannot be).
func prefixSource(res *analysis.Result, infix bool) string {
	if !infix {
		return res.Model.File.Source()
	}
	// The raw conversion: readForms reads tokens, and format.Convert would parse and lay out the
	// text again (a second tree, 680 MB for a million nested infix ors, while the game's
	// analysis is alive).
	if out, err := res.Model.File.Convert(syntax.Prefix); err == nil {
		return out
	}
	return ""
}

// randomWalks returns the distinct states, other than init, of opts.Walks random walks of
// opts.Steps joint moves from init (seeded by opts.Seed), within maxSampleState fluents a state
// and maxSampleFluents in all; a walk ends at a terminal state, a role without a move, an
// evaluation error, or when ctx ends.
func randomWalks(ctx context.Context, g *game.Game, init *game.State, opts SampleOptions) []*game.State {
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6a09e667f3bcc909))
	seen := map[string]bool{init.Key(): true}
	sampled := len(init.Fluents())
	var out []*game.State
	for w := 0; w < opts.Walks && ctx.Err() == nil && sampled < maxSampleFluents; w++ {
		s := init
		for step := 0; step < opts.Steps && ctx.Err() == nil; step++ {
			var ok bool
			if s, ok = randomStep(ctx, g, s, rng); !ok {
				break
			}
			n := len(s.Fluents())
			if n > maxSampleState || sampled+n > maxSampleFluents {
				break
			}
			if !seen[s.Key()] {
				seen[s.Key()] = true
				sampled += n
				out = append(out, s)
			}
		}
	}
	return out
}

// randomStep plays a uniformly random legal joint move in s; false at a terminal state, where a
// role has no legal move, or when an evaluation fails.
func randomStep(ctx context.Context, g *game.Game, s *game.State, rng *rand.Rand) (*game.State, bool) {
	if t, err := g.Terminal(ctx, s); err != nil || t {
		return nil, false
	}
	legal, err := g.Legal(ctx, s)
	if err != nil {
		return nil, false
	}
	joint := make([]eval.Term, len(legal))
	for r, ms := range legal {
		if len(ms) == 0 {
			return nil, false
		}
		joint[r] = ms[rng.IntN(len(ms))]
	}
	next, err := g.Next(ctx, s, joint)
	if err != nil {
		return nil, false
	}
	return next, true
}

// answers evaluates a query without variables bound by the state and returns its answers, or
// none when it cannot be evaluated.
func answers(ctx context.Context, g *game.Game, s *game.State, query string) []string {
	q, err := g.ParseQuery(query)
	if err != nil {
		return nil
	}
	a, err := g.Evaluate(ctx, s, q, game.QueryOptions{Keep: 20000})
	if err != nil || a.NeedsMove {
		return nil
	}
	return a.Answers
}

// chains finds the orders that static relations of two arguments give: each relation whose
// facts link constants one to the next (every constant with at most one successor and one
// predecessor, no cycle) gives its chains of three constants or more. The relations written as
// facts alone are read first, then those with rules; maxChains of them at most (a generated
// game may have thousands, each costing an evaluation and the memory of its facts).
func chains(ctx context.Context, g *game.Game, s *game.State, res *analysis.Result) [][]string {
	var out [][]string
	for _, name := range chainCandidates(res) {
		q, err := g.ParseQuery("(" + name + " ?a ?b)")
		if err != nil || q.NeedsState() || q.NeedsMove() {
			continue
		}
		a, err := g.Evaluate(ctx, s, q, game.QueryOptions{Keep: 20000})
		if err != nil || a.Count > len(a.Answers) {
			continue
		}
		next, prev, ok := links(a)
		if !ok {
			continue
		}
		var starts []string
		for a := range next {
			if _, has := prev[a]; !has {
				starts = append(starts, a)
			}
		}
		slices.Sort(starts)
		for _, a := range starts {
			ch := []string{a}
			for b, ok := next[a]; ok && len(ch) <= len(next); b, ok = next[b] {
				ch = append(ch, b)
			}
			if len(ch) >= 3 {
				out = append(out, ch)
			}
		}
	}
	return out
}

// chainCandidates returns the names of the static relations of two arguments chains reads,
// sorted: maxChains at most, those written as facts alone before those with rules.
func chainCandidates(res *analysis.Result) []string {
	ruled := map[string]bool{}
	for _, c := range res.Model.Clauses {
		if c.IsRule && c.Rel().Arity == 2 {
			ruled[c.Key()] = true
		}
	}
	type candidate struct {
		name  string
		ruled bool
	}
	var cands []candidate
	for key, sym := range res.Model.Relations {
		if sym.OccsOfArity(2) == nil || analysis.IsKeyword(key) {
			continue
		}
		cands = append(cands, candidate{sym.Name(res.Model), ruled[key]})
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.ruled != b.ruled {
			if a.ruled {
				return 1
			}
			return -1
		}
		return strings.Compare(a.name, b.name)
	})
	names := make([]string, 0, min(len(cands), maxChains))
	for _, c := range cands[:min(len(cands), maxChains)] {
		names = append(names, c.name)
	}
	slices.Sort(names)
	return names
}

// links reads the answers of (R ?a ?b) as links from a to b between constants; ok is false
// unless every constant has at most one successor and one predecessor, other than itself.
func links(a *game.Answers) (next, prev map[string]string, ok bool) {
	next, prev = map[string]string{}, map[string]string{}
	for _, ans := range a.Answers {
		vs := a.Bindings[ans]
		if len(vs) != 2 || strings.ContainsAny(vs[0]+vs[1], "( ") || vs[0] == vs[1] {
			return nil, nil, false
		}
		if _, dup := next[vs[0]]; dup {
			return nil, nil, false
		}
		if _, dup := prev[vs[1]]; dup {
			return nil, nil, false
		}
		next[vs[0]], prev[vs[1]] = vs[1], vs[0]
	}
	return next, prev, true
}

// form is one top-level form of a game's KIF text, read for the evidence of coordinates: its
// lists (relations and function terms at any depth) with their arguments.
type form struct {
	lists []list
}

// list is a relation or function term of a form: its name (lower case) and its arguments,
// each a variable (with its ?), a constant, or another list (child >= 0).
type list struct {
	name string
	args []listArg
}

type listArg struct {
	text  string // a variable or constant; "" for a list
	child int    // the index of the list in form.lists, or -1
}

// readForms reads the top-level forms of KIF text with an explicit stack. Lists nested deeper
// than maxFormDepth are read as if flat (their text is no evidence of a board's coordinates).
func readForms(src string) []form {
	const maxFormDepth = 64
	var out []form
	var cur form
	var stack []int // open lists, as indexes into cur.lists (-1: beyond maxFormDepth)
	addArg := func(a listArg) {
		if n := len(stack); n > 0 && stack[n-1] >= 0 {
			l := &cur.lists[stack[n-1]]
			l.args = append(l.args, a)
		}
	}
	pendingName := false // the token after "(" names the list
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '(':
			if len(stack) >= maxFormDepth || len(stack) > 0 && stack[len(stack)-1] < 0 {
				stack = append(stack, -1)
			} else {
				addArg(listArg{child: len(cur.lists)})
				stack = append(stack, len(cur.lists))
				cur.lists = append(cur.lists, list{})
				pendingName = true
			}
			i++
			continue
		case c == ')':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					out = append(out, cur)
					cur = form{}
				}
			}
			pendingName = false
			i++
			continue
		case c <= ' ':
			i++
			continue
		}
		j := i
		for j < len(src) && src[j] > ' ' && src[j] != '(' && src[j] != ')' && src[j] != ';' {
			j++
		}
		tok := src[i:j]
		i = j
		if len(stack) == 0 || stack[len(stack)-1] < 0 {
			continue
		}
		if pendingName {
			cur.lists[stack[len(stack)-1]].name = strings.ToLower(tok)
			pendingName = false
			continue
		}
		addArg(listArg{text: tok, child: -1})
	}
	return out
}

// coordinateHints reads, from the rules of a game (KIF text), what says which arguments of a
// relation are rows and which columns: a variable that an argument shares with a relation or
// function whose name says row or column ((row ?m ?x), (nextcol ?x ?x2), (next_rank ?r1 ?r2):
// rank also says upwards), and a move of one argument ((drop ?x) in legal, does or input),
// which names a column, since pieces drop down it. The result maps a relation (lower case) to
// a hint per argument position.
func coordinateHints(forms []form) map[string][]Hint {
	out := map[string][]Hint{}
	vote := func(rel string, k int, h Hint) {
		if k >= 64 {
			return
		}
		hs := out[rel]
		for len(hs) <= k {
			hs = append(hs, Hint{})
		}
		hs[k].Row += h.Row
		hs[k].Column += h.Column
		hs[k].Up += h.Up
		out[rel] = hs
	}
	for _, f := range forms {
		type site struct{ list, arg int }
		sites := map[string][]site{}
		for li, l := range f.lists {
			for k, a := range l.args {
				if strings.HasPrefix(a.text, "?") {
					v := strings.ToLower(a.text)
					sites[v] = append(sites[v], site{li, k})
				}
			}
		}
		for _, ss := range sites {
			for _, s := range ss {
				h, ok := axisHint(f.lists[s.list].name)
				if !ok {
					continue
				}
				for _, o := range ss {
					if o.list != s.list {
						vote(f.lists[o.list].name, o.arg, h)
					}
				}
			}
		}
		for _, l := range f.lists {
			if (l.name != "legal" && l.name != "does" && l.name != "input") || len(l.args) != 2 || l.args[1].child < 0 {
				continue
			}
			mv := f.lists[l.args[1].child]
			if len(mv.args) != 1 || !strings.HasPrefix(mv.args[0].text, "?") {
				continue
			}
			for _, o := range sites[strings.ToLower(mv.args[0].text)] {
				if o.list != l.args[1].child {
					vote(f.lists[o.list].name, o.arg, Hint{Column: 1})
				}
			}
		}
	}
	return out
}

// axisName matches the names of relations about rows or columns: row, col, column, file, rank,
// with a prefix such as next or succ and a suffix such as inc or a number (nextcol, next_rank,
// rowinc, clear_row_ig, rank2), but not color or chocolate.
var axisName = regexp.MustCompile(`^(next|succ|prev|pred|n|clear|odd|even|same|adjacent|adj|is|my|get|inc|dec)?(row|col|column|file|rank)s?(inc|dec|open|empty|ig|plus|minus|\d)*$`)

// separators are dropped from names before they are matched (made once: a replacer builds
// tables, and axisHint is asked of every relation of a large game).
var separators = strings.NewReplacer("_", "", "-", "")

// axisHint is the vote of a relation's name: a row (upwards for rank) or a column.
func axisHint(name string) (Hint, bool) {
	n := separators.Replace(name)
	m := axisName.FindStringSubmatch(n)
	if m == nil {
		return Hint{}, false
	}
	switch m[2] {
	case "row":
		return Hint{Row: 1}, true
	case "rank":
		return Hint{Row: 1, Up: 1}, true
	}
	return Hint{Column: 1}, true
}

// initLayout returns the fluents the game's init facts set, in the order they are written (the
// picture of the board an author draws by listing it row by row).
func initLayout(forms []form) []string {
	var out []string
	for _, f := range forms {
		if len(f.lists) < 2 || f.lists[0].name != "init" || len(f.lists[0].args) != 1 || f.lists[0].args[0].child != 1 {
			continue
		}
		l := f.lists[1]
		if len(f.lists) != 2 {
			continue // a fluent with a function term argument: no coordinates there
		}
		parts := []string{l.name}
		ground := true
		for _, a := range l.args {
			ground = ground && !strings.HasPrefix(a.text, "?")
			parts = append(parts, a.text)
		}
		if ground {
			out = append(out, "("+strings.Join(parts, " ")+")")
		}
	}
	return out
}

// ForGame samples a game and detects its boards under the gdl.json board section cfg.
func ForGame(ctx context.Context, g *game.Game, cfg analysis.BoardConfig, opts SampleOptions) (*Layout, error) {
	f, err := Sample(ctx, g, opts)
	if err != nil {
		return nil, err
	}
	return Detect(f, cfg), nil
}
