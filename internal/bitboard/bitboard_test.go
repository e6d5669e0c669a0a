package bitboard

import (
	"math/bits"
	"testing"

	"github.com/gdl-lsp/gdl/internal/cputime"
)

// rng is wyrand, the generator of gdl's playouts on 64 lanes (propnet.Lanes.intn).
type rng uint64

// intn returns a uniformly random number below n (Lemire's multiply-and-reject).
func (r *rng) intn(n uint32) uint32 {
	for {
		*r += 0xA0761D6478BD642F
		hi, lo := bits.Mul64(uint64(*r), uint64(*r)^0xE7037ED1A0B428DB)
		h, low := bits.Mul32(uint32(hi^lo), n)
		if low >= n || low >= -n%n {
			return h
		}
	}
}

// nth returns the position of the k-th set bit of x (k from 0).
func nth(x uint64, k uint32) int {
	for ; k > 0; k-- {
		x &= x - 1
	}
	return bits.TrailingZeros64(x)
}

// tttLines are the rows, columns and diagonals of the 3x3 board, cell (r, c) being bit 3r+c.
var tttLines = [8]uint16{0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124}

func tttLine(b uint16) bool {
	for _, l := range tttLines {
		if b&l == l {
			return true
		}
	}
	return false
}

// ticTacToe plays a random game of ggp-base's ticTacToe: xplayer marks first; the game ends
// with a line or a full board. It returns the joint moves played and xplayer's goal.
func ticTacToe(r *rng) (moves, goal int) {
	var mine, theirs uint16 // the mover's marks and the other's
	for moves = 0; ; moves++ {
		empty := ^(mine | theirs) & 0777
		if empty == 0 {
			return moves, 50
		}
		k := r.intn(uint32(bits.OnesCount16(empty)))
		mine |= 1 << uint(nth(uint64(empty), k))
		if tttLine(mine) {
			// The mover has won: xplayer moved at even numbers of moves.
			if moves%2 == 0 {
				return moves + 1, 100
			}
			return moves + 1, 0
		}
		mine, theirs = theirs, mine
	}
}

// Connect Four on 8 columns of 6 rows: column c holds bits 7c to 7c+5 (bit 7c+6 stays empty,
// so that lines do not wrap from one column to the next).
const (
	c4Cols   = 8
	c4Height = 7
	c4Bottom = 0x0102040810204081 & (1<<(c4Cols*c4Height) - 1) // bit 7c of each column
	c4Top    = c4Bottom << 5                                   // the sixth row
)

func c4Line(b uint64) bool {
	for _, d := range [4]uint{1, c4Height - 1, c4Height, c4Height + 1} {
		m := b & (b >> d)
		if m&(m>>(2*d)) != 0 {
			return true
		}
	}
	return false
}

// connectFour plays a random game of ggp-base's connectFour: red drops first; a line of four
// or a full board ends it. It returns the joint moves played and red's goal.
func connectFour(r *rng) (moves, goal int) {
	var mine, both uint64
	for moves = 0; ; moves++ {
		open := ^both & c4Top // the columns whose sixth row is free
		if open == 0 {
			return moves, 50
		}
		top := nth(open, r.intn(uint32(bits.OnesCount64(open)))) // the sixth row of the column
		// The lowest free cell of the column: adding the bottom row carries past its pieces.
		cell := (both + c4Bottom) & (0x3F << uint(top-5))
		mine |= cell
		both |= cell
		if c4Line(mine) {
			if moves%2 == 0 {
				return moves + 1, 100
			}
			return moves + 1, 0
		}
		mine ^= both // the other's pieces
	}
}

// The games as gdl plays them: lengths 5 to 9 and 7 to 48, xplayer winning about 58% of
// tic-tac-toe and red about 56% of Connect Four (gdl play on the .kif files).
func TestGames(t *testing.T) {
	r := rng(1)
	for _, c := range []struct {
		name               string
		play               func(*rng) (int, int)
		minLen, maxLen     int
		winLo, winHi, mean float64
	}{
		{"ticTacToe", ticTacToe, 5, 9, 0.56, 0.60, 7.6},
		{"connectFour", connectFour, 7, 48, 0.54, 0.58, 22.3},
	} {
		const n = 100000
		wins, total := 0, 0
		lo, hi := 1000, 0
		for range n {
			m, g := c.play(&r)
			lo, hi = min(lo, m), max(hi, m)
			total += m
			if g == 100 {
				wins++
			}
		}
		w, mean := float64(wins)/n, float64(total)/n
		if lo < c.minLen || hi > c.maxLen || w < c.winLo || w > c.winHi || mean < c.mean-0.1 || mean > c.mean+0.1 {
			t.Errorf("%s: lengths %d to %d, mean %.2f, first role wins %.3f", c.name, lo, hi, mean, w)
		}
		t.Logf("%s: lengths %d to %d, mean %.3f, first role wins %.3f", c.name, lo, hi, mean, w)
	}
}

// BenchmarkPlayout reports random playouts per CPU second (playouts/cpu-s), the figure
// scripts/bench-playouts.sh reads.
func BenchmarkPlayout(b *testing.B) {
	for _, c := range []struct {
		name string
		play func(*rng) (int, int)
	}{{"ticTacToe", ticTacToe}, {"connectFour", connectFour}} {
		b.Run(c.name, func(b *testing.B) {
			r := rng(uint64(b.N))
			moves := 0
			cpu0 := cputime.Now()
			for range b.N {
				m, _ := c.play(&r)
				moves += m
			}
			if cpu := cputime.Now() - cpu0; cpu > 0 {
				b.ReportMetric(float64(b.N)/cpu.Seconds(), "playouts/cpu-s")
			}
			b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
		})
	}
}
