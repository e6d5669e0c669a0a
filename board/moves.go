package board

import "slices"

// Square is a square of a view: the board's index in View.Boards, the row and the column.
type Square struct {
	Board, Row, Column int
}

// MoveSquares returns the squares a move (KIF) mentions, for playing by clicking a square. A
// move mentions a square when the square's two coordinates appear one right after the other
// among the move's constants, in the order the board's relation has them: (mark 1 2) mentions
// the square at row 1, column 2 of (cell ?row ?col ?mark); (move wp e 2 e 4) mentions e2 and e4
// of a chess board. Pairs are read from the left without overlapping. A move with one argument that mentions no square that way, like
// (drop 3) of connect four, mentions every square of the column with that value.
func (v *View) MoveSquares(move string) []Square {
	if v.infix {
		move = kifText(move)
	}
	t, ok := parseTerm(move)
	if !ok || t.isConst() {
		return nil
	}
	leaves := t.leaves()
	var out []Square
	for bi, b := range v.Boards {
		first, second := b.Rows, b.Columns
		rowFirst := b.RowArg < b.ColumnArg
		if !rowFirst {
			first, second = b.Columns, b.Rows
		}
		// Pairs are taken from the left and do not overlap: (move 1 2 1 3) mentions 1,2 and
		// 1,3, not the 2,1 between them.
		for k := 0; k+1 < len(leaves); k++ {
			i, j := slices.Index(first, leaves[k]), slices.Index(second, leaves[k+1])
			if i < 0 || j < 0 {
				continue
			}
			k++
			sq := Square{Board: bi, Row: i, Column: j}
			if !rowFirst {
				sq.Row, sq.Column = j, i
			}
			if !slices.Contains(out, sq) {
				out = append(out, sq)
			}
		}
	}
	if len(out) > 0 || len(t.args) != 1 || !t.args[0].isConst() {
		return out
	}
	for bi, b := range v.Boards {
		if c := slices.Index(b.Columns, t.args[0].name); c >= 0 {
			for r := range b.Rows {
				out = append(out, Square{Board: bi, Row: r, Column: c})
			}
		}
	}
	return out
}
