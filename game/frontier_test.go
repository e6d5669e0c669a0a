package game

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
)

// A Frontier finds what Terminal, Goals, Legal and SuccessorKeys find, state by state, for 64
// states at a time and fewer: the states of random walks through testdata's games.
func TestFrontierAgrees(t *testing.T) {
	for _, path := range []string{"../testdata/games/tictactoe.kif", "../testdata/games/race3.kif",
		"../testdata/games/montyhall.kif", "../testdata/games/nim.kif"} {
		g := loadFile(t, path, Compiled)
		f := g.NewFrontier()
		rng := rand.New(rand.NewPCG(4, 5))
		var keys [][]byte
		var states []*State
		for len(states) < 150 {
			s, _ := g.Initial(bg)
			for step := 0; step < 12; step++ {
				states = append(states, s)
				keys = append(keys, []byte(s.Key()))
				if term, _ := g.Terminal(bg, s); term {
					break
				}
				legal, _ := g.Legal(bg, s)
				joint := make([]eval.Term, len(legal))
				for r, ms := range legal {
					if len(ms) == 0 {
						joint = nil
						break
					}
					joint[r] = ms[rng.IntN(len(ms))]
				}
				if joint == nil {
					break
				}
				s, _ = g.Next(bg, s, joint)
			}
		}
		for lo := 0; lo < len(keys); lo += 64 {
			hi := min(len(keys), lo+64-lo%3) // batches of 64 and fewer
			out := make([]Expansion, hi-lo)
			if err := f.Expand(keys[lo:hi], out); err != nil {
				t.Fatal(err)
			}
			limits := make([]int, len(out))
			for i, e := range out {
				s := states[lo+i]
				term, _ := g.Terminal(bg, s)
				if e.Terminal != term {
					t.Fatalf("%s state %d: terminal %v, Terminal %v", path, lo+i, e.Terminal, term)
				}
				if term {
					goals, _ := g.Goals(bg, s)
					if !slices.EqualFunc(e.Goals, goals, slices.Equal) {
						t.Fatalf("%s state %d: goals %v, Goals %v", path, lo+i, e.Goals, goals)
					}
					continue
				}
				legal, _ := g.Legal(bg, s)
				if !slices.EqualFunc(e.Legal, legal, slices.Equal) {
					t.Fatalf("%s state %d: legal %v, Legal %v", path, lo+i, e.Legal, legal)
				}
				limits[i] = 1 + (lo+i)%7 // at most 7 joint moves of each state
			}
			// All the states (in rounds), one state (64 at a time: most of the states have
			// no joint move), and all again (in rounds, the states loaded again).
			one := make([]int, len(limits))
			if j := slices.IndexFunc(limits, func(l int) bool { return l > 1 }); j >= 0 {
				one[j] = limits[j]
			}
			for _, lims := range [][]int{limits, one, limits} {
				var got []string
				f.Successors(lims, func(i, k int, key []byte) {
					got = append(got, string(rune(i))+string(rune(k))+string(key))
				})
				var want []string
				for i, e := range out {
					if e.Terminal || lims[i] == 0 {
						continue
					}
					if slices.ContainsFunc(e.Legal, func(ms []eval.Term) bool { return len(ms) == 0 }) {
						continue
					}
					err := g.SuccessorKeys(bg, states[lo+i], e.Legal, lims[i], func(k int, key []byte) {
						want = append(want, string(rune(i))+string(rune(k))+string(key))
					})
					if err != nil {
						t.Fatal(err)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s states %d to %d, limits %v: %d successors, SuccessorKeys %d, or different", path, lo, hi, lims, len(got), len(want))
				}
			}
		}
	}
}
