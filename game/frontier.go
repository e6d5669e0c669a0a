package game

import (
	"fmt"
	"slices"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/sched"
	"github.com/gdl-lsp/gdl/propnet"
)

// Frontier evaluates compiled states 64 at a time (propnet.Lanes), for searches over the state
// space that evaluate many states at once: verification's breadth-first exploration takes the
// states of its frontier 64 at a time. A Frontier is not safe for concurrent use; make one per
// search.
type Frontier struct {
	g      *Game
	l      *propnet.Lanes
	states [][]uint64  // the states of the last Expand
	legal  [][][]int32 // per state of the last Expand and role: its legal moves, sorted by term
	lanes  [][]int32   // scratch: per lane, its legal moves of a role
	next   [][]uint64  // scratch: the lanes' next states
	keys   []byte      // the successors' keys of the last SuccessorKeys
	counts []int       // and how many of each state
	bufs   [][]uint64  // scratch: room for the states of Expand
	// scratch of rounds: per role and move, the lanes that play it, and the moves played
	masks [][]uint64
	moved [][]int32
	digit []int // per state and role, the index of its move in the joint move of the round
	// loaded: the lanes hold the states of the last Expand, evaluated (Successors' rounds play
	// in them).
	loaded bool
}

// Expansion is what a search needs of a state: whether it is terminal, and then each role's goal
// values, else each role's legal moves, each sorted canonically (as Goals and Legal give them).
type Expansion struct {
	Terminal bool
	Goals    [][]eval.Term
	Legal    [][]eval.Term
}

// NewFrontier returns a Frontier of the game, or nil when the compiled engine does not run it.
func (g *Game) NewFrontier() *Frontier {
	if g.net == nil {
		return nil
	}
	f := &Frontier{g: g, l: g.net.NewLanes(), lanes: make([][]int32, 64), next: make([][]uint64, 64)}
	for i := range f.next {
		f.next[i] = make([]uint64, g.net.Words())
	}
	return f
}

// Expand evaluates the states whose keys are given (at most 64, each a Key of a compiled state
// of this game) and writes what it finds of state i into out[i].
func (f *Frontier) Expand(keys [][]byte, out []Expansion) error {
	sched.Yield() // on js/wasm, a search's deadline fires only if the scheduler gets a turn
	g := f.g
	if len(keys) > 64 {
		return fmt.Errorf("a frontier evaluates 64 states at a time, not %d", len(keys))
	}
	f.states = f.states[:0]
	for i, k := range keys {
		if i == len(f.bufs) {
			f.bufs = append(f.bufs, make([]uint64, g.net.Words()))
		}
		if err := g.bitsOfKey(string(k), f.bufs[i]); err != nil {
			return err
		}
		f.states = append(f.states, f.bufs[i])
	}
	f.l.LoadAll(f.states)
	f.l.Eval()
	f.loaded = true
	term := f.l.Terminal()
	nr := len(g.roles)
	f.legal = slices.Grow(f.legal[:0], len(keys))[:len(keys)]
	for i := range keys {
		f.legal[i] = slices.Grow(f.legal[i][:0], nr)[:nr]
	}
	for r := range nr {
		lanes := f.lanes[:len(keys)]
		for i := range lanes {
			lanes[i] = lanes[i][:0]
		}
		f.l.LegalAll(r, lanes)
		for i, ms := range lanes {
			f.legal[i][r] = append(f.legal[i][r][:0], ms...)
		}
	}
	// The legal moves of the batch's states in one slab, their lists in another.
	size := 0
	for i := range keys {
		if term>>uint(i)&1 == 0 {
			for _, ms := range f.legal[i] {
				size += len(ms)
			}
		}
	}
	slab := make([]eval.Term, 0, size)
	lists := make([][]eval.Term, 0, len(keys)*nr)
	var idx []int
	for i := range keys {
		e := Expansion{Terminal: term>>uint(i)&1 != 0}
		if e.Terminal {
			e.Goals = make([][]eval.Term, nr)
			for r := range nr {
				idx = f.l.Goals(i, r, idx[:0])
				for _, j := range idx {
					e.Goals[r] = append(e.Goals[r], g.gr.Goals[r][j].Value)
				}
				sortTerms(e.Goals[r])
			}
			f.legal[i] = f.legal[i][:0]
		} else {
			e.Legal = lists[len(lists) : len(lists)+nr : len(lists)+nr]
			lists = lists[:len(lists)+nr]
			for r, ms := range f.legal[i] {
				moves := g.gr.Moves[r]
				if !movesSorted(moves, ms) {
					slices.SortFunc(ms, func(a, b int32) int { return int(moves[a]) - int(moves[b]) })
				}
				at := len(slab)
				for _, mv := range ms {
					slab = append(slab, moves[mv])
				}
				e.Legal[r] = slab[at:len(slab):len(slab)]
			}
		}
		out[i] = e
	}
	return nil
}

// movesSorted reports whether the moves ms are in the order of their terms: the lanes list a
// state's legal moves in the network's order, which is mostly the terms' already, and a check
// is cheaper than a sort's comparisons through a function.
func movesSorted(moves []eval.Term, ms []int32) bool {
	for j := 1; j < len(ms); j++ {
		if moves[ms[j-1]] > moves[ms[j]] {
			return false
		}
	}
	return true
}

// Successors plays, in each state i of the last Expand with limits[i] > 0 (a state that is not
// terminal and where every role has a legal move), its first limits[i] joint moves (all when it
// has fewer) in the order
// of JointMoves (the last role's moves varying fastest) over the legal moves Expand gave, and
// calls fn with i, the number of the joint move and the key of the state it leads to (as
// StateOfKey takes it), in the order of i, then of the number. key is valid only during the
// call.
func (f *Frontier) Successors(limits []int, fn func(i, k int, key []byte)) {
	keys, kl, counts := f.SuccessorKeys(limits)
	j := 0
	for i, c := range counts {
		for k := range c {
			fn(i, k, keys[j*kl:(j+1)*kl])
			j++
		}
	}
}

// SuccessorKeys plays the joint moves Successors plays and returns the keys of the states they
// lead to one after the other, kl bytes each, in the order Successors gives them: counts[i]
// keys of state i, then those of state i+1. keys and counts are valid until the next call of a
// method of f.
//
// When the states have about as many joint moves each, they are played in rounds, the k-th
// joint move of every state at once in the lanes where Expand evaluated them; otherwise 64 joint
// moves at a time, their states loaded into the lanes again.
func (f *Frontier) SuccessorKeys(limits []int) (keys []byte, kl int, counts []int) {
	f.counts = slices.Grow(f.counts[:0], len(f.states))[:len(f.states)]
	counts = f.counts
	clear(counts)
	sum, most := 0, 0
	for i, lim := range limits[:len(counts)] {
		if lim > 0 && slices.ContainsFunc(f.legal[i], func(ms []int32) bool { return len(ms) == 0 }) || len(f.legal[i]) == 0 {
			continue // terminal, or a role without a legal move
		}
		total := 1
		for _, ms := range f.legal[i] {
			total = min(total*len(ms), lim)
		}
		counts[i] = min(lim, total)
		sum += counts[i]
		most = max(most, counts[i])
	}
	kl = 1 + 8*f.g.net.Words()
	if most <= 2*((sum+63)/64) {
		f.rounds(counts, sum, most, kl)
	} else {
		f.batches(counts)
	}
	return f.keys, kl, counts
}

// rounds is SuccessorKeys playing in round k the k-th joint move of every state with more than
// k, the keys (kl bytes each) written into f.keys.
func (f *Frontier) rounds(counts []int, sum, most, kl int) {
	if !f.loaded {
		f.l.LoadAll(f.states)
		f.l.Eval()
		f.loaded = true
	}
	f.keys = slices.Grow(f.keys[:0], sum*kl)[:sum*kl]
	at := make([]int, len(counts)) // where the keys of state i begin, in keys
	for i := 1; i < len(counts); i++ {
		at[i] = at[i-1] + counts[i-1]*kl
	}
	if f.masks == nil {
		for _, ms := range f.g.gr.Moves {
			f.masks = append(f.masks, make([]uint64, len(ms)))
			f.moved = append(f.moved, nil)
		}
	}
	nr := len(f.masks)
	f.digit = slices.Grow(f.digit[:0], len(counts)*nr)[:len(counts)*nr]
	clear(f.digit)
	for k := range most {
		f.l.Unplay()
		for i, c := range counts {
			if k < c {
				f.mark(i, f.digit[i*nr:(i+1)*nr])
			}
		}
		for r, mvs := range f.moved {
			for _, mv := range mvs {
				f.l.PlayLanes(r, mv, f.masks[r][mv])
				f.masks[r][mv] = 0
			}
			f.moved[r] = mvs[:0]
		}
		f.l.Next()
		f.l.NextStates(f.next[:len(counts)])
		for i, c := range counts {
			if k < c {
				appendBitsKey(f.keys[at[i]+k*kl:at[i]+k*kl], f.next[i]) // in place: keys has the room
			}
		}
	}
}

// mark adds lane i to the lanes that play the joint move of state i of the last Expand whose
// moves are the digits (masks, moved), and advances the digits to its next joint move (the last
// role's move varying fastest), as JointMoves numbers them, without a division.
func (f *Frontier) mark(i int, digit []int) {
	legal := f.legal[i]
	for r, ms := range legal {
		mv := ms[digit[r]]
		if f.masks[r][mv] == 0 {
			f.moved[r] = append(f.moved[r], mv)
		}
		f.masks[r][mv] |= 1 << uint(i)
	}
	for r := len(legal) - 1; r >= 0; r-- {
		if digit[r]++; digit[r] < len(legal[r]) {
			return
		}
		digit[r] = 0
	}
}

// play sets in lane j joint move number k of state i of the last Expand.
func (f *Frontier) play(j, i, k int) {
	legal := f.legal[i]
	for r := len(legal) - 1; r >= 0; r-- {
		ms := legal[r]
		f.l.Play(j, r, ms[k%len(ms)])
		k /= len(ms)
	}
}

// batches is SuccessorKeys playing 64 joint moves at a time, their states loaded again, the keys
// appended to f.keys.
func (f *Frontier) batches(counts []int) {
	type pair struct{ i, k int }
	var batch [64]pair
	n := 0
	f.keys = f.keys[:0]
	run := func() {
		states := make([][]uint64, n)
		for j := range n {
			states[j] = f.states[batch[j].i]
		}
		f.l.LoadAll(states)
		f.l.Eval()
		f.loaded = false
		for j := range n {
			f.play(j, batch[j].i, batch[j].k)
		}
		f.l.Next()
		f.l.NextStates(f.next[:n])
		for j := range n {
			f.keys = appendBitsKey(f.keys, f.next[j])
		}
		n = 0
	}
	for i, c := range counts {
		for k := range c {
			batch[n] = pair{i, k}
			if n++; n == 64 {
				run()
			}
		}
	}
	if n > 0 {
		run()
	}
}
