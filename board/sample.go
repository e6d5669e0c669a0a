package board

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/format"
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
// of base, states of short random walks, the chains of static relations of two arguments and
// the variable names of the rules. The initial state is required; everything else is best
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
	f.Infix = g.Eval().Notation() == syntax.Infix
	kif := func(ss []string) []string {
		if f.Infix {
			return kifTexts(ss)
		}
		return ss
	}
	f.States = append(f.States, kif(g.Strings(init.Fluents())))
	res := g.Analysis()
	src := res.Model.File.Source()
	if f.Infix {
		if out, err := format.Convert(res.Model.File, syntax.Prefix); err == nil {
			src = out
		} else {
			src = ""
		}
	}
	f.Vars = ruleVars(src)
	if _, ok := res.Model.Relations["base"]; ok {
		f.Possible = kif(answers(ctx, g, init, "(base ?f)"))
		for i, p := range f.Possible {
			f.Possible[i] = p[len("(base ") : len(p)-1]
		}
	}
	f.Orders = chains(ctx, g, init, res)
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6a09e667f3bcc909))
	seen := map[string]bool{init.Key(): true}
	sampled := len(init.Fluents())
	for w := 0; w < opts.Walks && ctx.Err() == nil && sampled < maxSampleFluents; w++ {
		s := init
		for step := 0; step < opts.Steps && ctx.Err() == nil; step++ {
			if t, err := g.Terminal(ctx, s); err != nil || t {
				break
			}
			legal, err := g.Legal(ctx, s)
			if err != nil {
				break
			}
			joint := make([]eval.Term, len(legal))
			stuck := false
			for r, ms := range legal {
				if len(ms) == 0 {
					stuck = true
					break
				}
				joint[r] = ms[rng.IntN(len(ms))]
			}
			if stuck {
				break
			}
			if s, err = g.Next(ctx, s, joint); err != nil {
				break
			}
			n := len(s.Fluents())
			if n > maxSampleState || sampled+n > maxSampleFluents {
				break
			}
			if !seen[s.Key()] {
				seen[s.Key()] = true
				sampled += n
				f.States = append(f.States, kif(g.Strings(s.Fluents())))
			}
		}
	}
	return f, nil
}

// answers evaluates a query without variables bound by the state and returns its answers, or
// none when it cannot be evaluated.
func answers(ctx context.Context, g *game.Game, s *game.State, query string) []string {
	q, err := g.Eval().ParseQuery(query)
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
		if _, two := sym.Arities[2]; !two || analysis.IsKeyword(key) {
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
	var out [][]string
	for _, name := range names {
		q, err := g.Eval().ParseQuery("(" + name + " ?a ?b)")
		if err != nil || q.NeedsState() || q.NeedsMove() {
			continue
		}
		a, err := g.Evaluate(ctx, s, q, game.QueryOptions{Keep: 20000})
		if err != nil || a.Count > len(a.Answers) {
			continue
		}
		next, prev := map[string]string{}, map[string]string{}
		ok := true
		for _, ans := range a.Answers {
			vs := a.Bindings[ans]
			if len(vs) != 2 || strings.ContainsAny(vs[0]+vs[1], "( ") || vs[0] == vs[1] {
				ok = false
				break
			}
			if _, dup := next[vs[0]]; dup {
				ok = false
				break
			}
			if _, dup := prev[vs[1]]; dup {
				ok = false
				break
			}
			next[vs[0]], prev[vs[1]] = vs[1], vs[0]
		}
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

// ruleVars reads, from the text of a game, the variable names written at each argument
// position of each relation or function: (cell ?x ?y ?p) gives cell: [[x] [y] [p]].
func ruleVars(src string) map[string][][]string {
	out := map[string][][]string{}
	type open struct {
		name string
		arg  int // the next argument's position
	}
	var stack []open
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
			stack = append(stack, open{arg: -1})
			i++
			continue
		case c == ')':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 {
					stack[len(stack)-1].arg++
				}
			}
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
		if len(stack) == 0 {
			continue
		}
		top := &stack[len(stack)-1]
		switch {
		case top.arg == -1:
			top.name = strings.ToLower(tok)
		case strings.HasPrefix(tok, "?") && top.name != "":
			vs := out[top.name]
			for len(vs) <= top.arg && top.arg < 64 {
				vs = append(vs, nil)
			}
			if top.arg < len(vs) {
				vs[top.arg] = append(vs[top.arg], tok[1:])
			}
			out[top.name] = vs
		}
		top.arg++
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
