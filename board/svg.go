package board

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// SVG sizes, in pixels.
const (
	svgSquare = 44
	svgLabel  = 28
	svgGap    = 24
	svgLine   = 20
)

// SVG draws the view as a standalone SVG image: each board as squares in two alternating shades
// with the pieces' text in the middle and the coordinates along the edges, one board below the
// other, then the other fluents as lines of text. It needs no fonts or images beyond the
// viewer's default sans-serif and monospace fonts. Each square is a rect of class "square" with
// data-board, data-row and data-column (0-based indexes into Boards, Rows and Columns, as
// MoveSquares counts them), and the texts let clicks through to it, so that a page can play by
// clicking squares.
func (v *View) SVG() string {
	w, h := 0, 0
	type placed struct {
		b    *Board
		y    int
		w, h int
	}
	var boards []placed
	for _, b := range v.Boards {
		bw := svgLabel + len(b.Columns)*svgSquare
		bh := svgLine + svgLabel + len(b.Rows)*svgSquare
		boards = append(boards, placed{b, h, bw, bh})
		w = max(w, bw)
		h += bh + svgGap
	}
	var lines []string
	for _, o := range v.Others {
		l := o.Relation
		if len(o.Values) != 1 || o.Values[0] != "" {
			l += ": " + strings.Join(o.Values, ", ")
		}
		lines = append(lines, l)
		w = max(w, 8*width(l)+16)
	}
	if v.Omitted > 0 {
		lines = append(lines, v.omittedLine())
	}
	h += len(lines) * svgLine
	w, h = max(w, 1)+8, max(h, 1)+8
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`+"\n", w, h, w, h)
	fmt.Fprintf(&s, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", w, h)
	for bi, p := range boards {
		b := p.b
		x0, y0 := 4+svgLabel, 4+p.y+svgLine+svgLabel
		fmt.Fprintf(&s, `<g class="board" data-relation="%s">`+"\n", esc(b.Relation))
		fmt.Fprintf(&s, `<text x="4" y="%d" font-size="14" font-weight="bold" fill="#222222">%s</text>`+"\n", 4+p.y+15, esc(b.Relation))
		for c, col := range b.Columns {
			fmt.Fprintf(&s, `<text x="%d" y="%d" font-size="12" text-anchor="middle" fill="#555555">%s</text>`+"\n",
				x0+c*svgSquare+svgSquare/2, y0-8, esc(col))
		}
		for r, row := range b.Rows {
			fmt.Fprintf(&s, `<text x="%d" y="%d" font-size="12" text-anchor="end" fill="#555555">%s</text>`+"\n",
				x0-6, y0+r*svgSquare+svgSquare/2+4, esc(row))
		}
		for r, cells := range b.Cells {
			for c, cell := range cells {
				fill := "#f0e6d2"
				if (r+c)%2 == 1 {
					fill = "#d2b48c"
				}
				x, y := x0+c*svgSquare, y0+r*svgSquare
				fmt.Fprintf(&s, `<rect class="square" data-board="%d" data-row="%d" data-column="%d" x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#8b7355" stroke-width="1"><title>%s</title></rect>`+"\n",
					bi, r, c, x, y, svgSquare, svgSquare, fill, esc(squareTitle(cell)))
				if cell.Text != "" {
					size := 20
					if n := width(cell.Text); n > 2 {
						size = max(9, 40/n)
					} else if r, _ := utf8.DecodeRuneInString(cell.Text); n == 1 && r >= '♔' && r <= '♟' {
						size = 34 // a chess symbol fills its square
					}
					fmt.Fprintf(&s, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" dominant-baseline="central" fill="#111111" pointer-events="none">%s</text>`+"\n",
						x+svgSquare/2, y+svgSquare/2, size, esc(cell.Text))
				}
			}
		}
		s.WriteString("</g>\n")
	}
	y := 4 + h - 8 - len(lines)*svgLine
	for i, l := range lines {
		fmt.Fprintf(&s, `<text x="4" y="%d" font-size="13" font-family="monospace" fill="#222222">%s</text>`+"\n", y+i*svgLine+14, esc(l))
	}
	s.WriteString("</svg>\n")
	return s.String()
}

// squareTitle is a square's tooltip: its coordinates and fluents.
func squareTitle(c Cell) string {
	t := fmt.Sprintf("row %s, column %s", c.Row, c.Column)
	if len(c.Fluents) > 0 {
		t += ": " + strings.Join(c.Fluents, " ")
	}
	return t
}

func esc(s string) string { return html.EscapeString(s) }
