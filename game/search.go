package game

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/gdl-lsp/gdl/eval"
)

// Searches over the state space (verification, solving) keep states as their keys and play
// every joint move of a state in a row; these two calls spare them a State per successor and
// the per-move overhead of Next.

// appendBitsKey appends the key of a compiled state with the given bits.
func appendBitsKey(b []byte, bits []uint64) []byte {
	b = append(b, 'c')
	for _, w := range bits {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}

// le64 reads a little-endian number of up to 8 bytes.
func le64(s string) uint64 {
	var v uint64
	for i := min(len(s), 8) - 1; i >= 0; i-- {
		v = v<<8 | uint64(s[i])
	}
	return v
}

// StateOfKey returns the state whose Key is key. The key must be one of this game's states.
func (g *Game) StateOfKey(key string) (*State, error) {
	if key == "" {
		return nil, fmt.Errorf("an empty state key")
	}
	switch body := key[1:]; key[0] {
	case 'c':
		if g.net == nil {
			return nil, fmt.Errorf("not a state key of this game's compiled engine")
		}
		b := make([]uint64, g.net.Words())
		if err := g.bitsOfKey(key, b); err != nil {
			return nil, err
		}
		return &State{bits: b, key: key, g: g}, nil
	case 'i':
		if len(body)%4 != 0 {
			return nil, fmt.Errorf("not a state key of this game")
		}
		fl := make([]eval.Term, len(body)/4)
		for i := range fl {
			fl[i] = eval.Term(le64(body[4*i : 4*i+4]))
		}
		return &State{es: g.ev.NewState(fl), key: key, g: g}, nil
	}
	return nil, fmt.Errorf("not a state key of this game")
}

// bitsOfKey reads the key of a compiled state into b (Words() words).
func (g *Game) bitsOfKey(key string, b []uint64) error {
	if len(key) != 1+8*len(b) || key[0] != 'c' {
		return fmt.Errorf("not a state key of this game's compiled engine")
	}
	for i := range b {
		b[i] = le64(key[1+8*i:])
	}
	if n := len(g.gr.Fluents); n%64 != 0 && b[len(b)-1]>>uint(n%64) != 0 {
		return fmt.Errorf("not a state key of this game's compiled engine")
	}
	return nil
}

// SuccessorKeys plays joint moves of the legal moves given (one list per role, as Legal returns
// them for s) in s, in the order of JointMoves (the last role's moves vary fastest), the first
// limit of them (limit <= 0: all), and calls fn with the number of each joint move and the key
// of the state it leads to, as StateOfKey takes it. key is valid only during the call. It fails
// like Next: a *GameOverError when s is terminal, an *IllegalMoveError when a move given is not
// legal in s, a *JointError when legal does not have one list per role.
func (g *Game) SuccessorKeys(ctx context.Context, s *State, legal [][]eval.Term, limit int, fn func(k int, key []byte)) error {
	if len(legal) != len(g.roles) {
		return &JointError{Roles: len(g.roles), Moves: len(legal)}
	}
	total := 1
	for _, ms := range legal {
		if len(ms) == 0 {
			return nil
		}
		if total > 1<<40/len(ms) {
			total = 1 << 40 // saturated: only a limit makes such a state playable
		} else {
			total *= len(ms)
		}
	}
	if limit > 0 && total > limit {
		total = limit
	}
	if total >= 1<<40 {
		return fmt.Errorf("the state has more than 2^40 joint moves")
	}
	if !g.compiled(s) {
		for k := 0; k < total; k++ {
			next, err := g.Next(ctx, s, jointNumber(legal, k))
			if err != nil {
				return err
			}
			fn(k, []byte(next.Key()))
		}
		return nil
	}
	// The joint moves are played in batches, the keys of a batch in one buffer: memory does not
	// grow with the number of joint moves (ten roles of ten moves have 10^10), and fn runs
	// without the game's lock.
	keyLen := 1 + 8*g.net.Words()
	idx, err := g.compiledMoves(s, legal)
	if err != nil {
		return err
	}
	batch := max(1, successorBatch/keyLen)
	buf := make([]byte, 0, min(total, batch)*keyLen)
	pos := make([]int, len(legal))
	for k := 0; k < total; {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(batch, total-k)
		if buf, err = g.compiledSuccessors(ctx, s, idx, pos, n, buf[:0]); err != nil {
			return err
		}
		for i := range n {
			fn(k+i, buf[i*keyLen:(i+1)*keyLen])
		}
		k += n
	}
	return nil
}

// successorBatch is the most bytes of keys SuccessorKeys computes before handing them on.
const successorBatch = 64 << 10

// compiledMoves checks that s is not terminal and that the moves are legal in it, and returns
// their input propositions.
func (g *Game) compiledMoves(s *State, legal [][]eval.Term) ([][]int32, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.m.SetState(s.bits)
	if g.m.Terminal() {
		return nil, &GameOverError{}
	}
	idx := make([][]int32, len(legal))
	for r, ms := range legal {
		idx[r] = make([]int32, len(ms))
		for j, m := range ms {
			i, ok := g.moveIdx[r][m]
			if !ok || !g.m.IsLegal(r, i) {
				return nil, &IllegalMoveError{Role: g.names[r], Move: g.ev.String(m), Index: r}
			}
			idx[r][j] = i
		}
	}
	return idx, nil
}

// compiledSuccessors plays n joint moves on the network from the one whose move index per
// role is pos (moved on past them), and appends their keys to buf, one after the other.
func (g *Game) compiledSuccessors(ctx context.Context, s *State, idx [][]int32, pos []int, n int, buf []byte) ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.m.SetState(s.bits)
	joint := make([]int32, len(idx))
	next := make([]uint64, g.net.Words())
	for k := range n {
		if k&1023 == 1023 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for r := range joint {
			joint[r] = idx[r][pos[r]]
		}
		g.m.Next(joint, next)
		buf = appendBitsKey(buf, next)
		for r := len(pos) - 1; r >= 0; r-- {
			if pos[r]++; pos[r] < len(idx[r]) {
				break
			}
			pos[r] = 0
		}
	}
	return buf, nil
}

// jointNumber returns joint move number k of the legal moves (the last role's moves varying
// fastest).
func jointNumber(legal [][]eval.Term, k int) []eval.Term {
	joint := make([]eval.Term, len(legal))
	for r := len(legal) - 1; r >= 0; r-- {
		n := len(legal[r])
		joint[r] = legal[r][k%n]
		k /= n
	}
	return slices.Clip(joint)
}
