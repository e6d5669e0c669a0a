package board

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// View is a state drawn: its boards and the other fluents.
type View struct {
	Boards []*Board `json:"boards"`
	Others []Other  `json:"others"` // the fluents on no board, grouped by relation, in relation order
	// Omitted counts the fluents on no board that Others leaves out: it lists maxOthers at
	// most, the first in relation order (a state may have 100,000 fluents).
	Omitted int  `json:"omitted,omitempty"`
	infix   bool // the game writes infix GDL: MoveSquares reads moves through kifText
}

// maxOthers is the most fluents a View lists in Others.
const maxOthers = 1000

// Board is one board of a state.
type Board struct {
	Relation string `json:"relation"`
	// RowArg and ColumnArg are the 1-based positions of the coordinates in the relation's
	// arguments.
	RowArg     int      `json:"rowArg"`
	ColumnArg  int      `json:"columnArg"`
	Rows       []string `json:"rows"`       // row values, top to bottom
	Columns    []string `json:"columns"`    // column values, left to right
	Cells      [][]Cell `json:"cells"`      // [row][column]
	Configured bool     `json:"configured"` // named in gdl.json
}

// Cell is one square.
type Cell struct {
	Row     string   `json:"row"` // its coordinates
	Column  string   `json:"column"`
	Content []string `json:"content"` // the content (KIF) of each fluent on the square, sorted; none when empty
	Fluents []string `json:"fluents"` // those fluents (KIF)
	Text    string   `json:"text"`    // what the square shows ("" for an empty square)
}

// Other is the fluents of one relation that no board shows.
type Other struct {
	Relation string   `json:"relation"`
	Values   []string `json:"values"` // each fluent's arguments as KIF text ("" for a fluent without arguments)
}

// Draw draws a state (its fluents, KIF) with the layout's boards.
func (l *Layout) Draw(fluents []string) *View {
	v := &View{Boards: []*Board{}, Others: []Other{}, infix: l.infix}
	specs := map[string]*Spec{}
	for _, sp := range l.Boards {
		specs[key(sp.Relation, sp.Arity)] = sp
		v.Boards = append(v.Boards, emptyBoard(sp))
	}
	others := otherFluents{byName: map[string]*Other{}}
	for _, text := range fluents {
		kif := text
		if l.infix {
			kif = kifText(text)
		}
		t, ok := parseTerm(kif)
		if ok && !t.isConst() && l.place(v, specs, t, text) {
			continue
		}
		others.add(text, t, ok)
	}
	for bi, b := range v.Boards {
		b.showPieces(l.Boards[bi])
	}
	others.list(v)
	return v
}

// emptyBoard is the board of spec sp without pieces.
func emptyBoard(sp *Spec) *Board {
	b := &Board{Relation: sp.Relation, RowArg: sp.Row + 1, ColumnArg: sp.Column + 1, Configured: sp.Configured,
		Rows: slices.Clone(sp.Rows), Columns: slices.Clone(sp.Columns)}
	b.Cells = make([][]Cell, len(sp.Rows))
	for r := range b.Cells {
		b.Cells[r] = make([]Cell, len(sp.Columns))
		for c := range b.Cells[r] {
			b.Cells[r][c] = Cell{Row: sp.Rows[r], Column: sp.Columns[c], Content: []string{}, Fluents: []string{}}
		}
	}
	return b
}

// place puts fluent t (text as the game writes it) on its square of v's boards (specs by
// relation key); false when no board shows it.
func (l *Layout) place(v *View, specs map[string]*Spec, t term, text string) bool {
	sp := specs[key(t.name, len(t.args))]
	if sp == nil {
		return false
	}
	bi := slices.Index(l.Boards, sp)
	r := slices.Index(sp.Rows, t.args[sp.Row].text)
	c := slices.Index(sp.Columns, t.args[sp.Column].text)
	if r < 0 || c < 0 {
		return false
	}
	cell := &v.Boards[bi].Cells[r][c]
	cell.Content = append(cell.Content, sp.content(t))
	cell.Fluents = append(cell.Fluents, text)
	return true
}

// showPieces sorts each square's content and sets what it shows: the pieces of spec sp.
func (b *Board) showPieces(sp *Spec) {
	for r := range b.Cells {
		for c := range b.Cells[r] {
			cell := &b.Cells[r][c]
			slices.Sort(cell.Content)
			var shown []string
			for _, ct := range cell.Content {
				if s := sp.pieceText(ct); s != "" {
					shown = append(shown, s)
				}
			}
			cell.Text = strings.Join(shown, " ")
		}
	}
}

// otherFluents gathers the fluents no board shows, by relation in the order first seen.
type otherFluents struct {
	byName map[string]*Other
	order  []string
}

// add adds fluent text, parsed as t when ok.
func (o *otherFluents) add(text string, t term, ok bool) {
	name, args := text, ""
	if ok && !t.isConst() {
		name = t.name
		parts := make([]string, len(t.args))
		for k, a := range t.args {
			parts[k] = a.text
		}
		args = strings.Join(parts, " ")
	}
	other := o.byName[name]
	if other == nil {
		other = &Other{Relation: name, Values: []string{}}
		o.byName[name] = other
		o.order = append(o.order, name)
	}
	other.Values = append(other.Values, args)
}

// list sets v.Others: the relations in order of their names (case aside), maxOthers fluents at
// most, counting those left out in v.Omitted.
func (o *otherFluents) list(v *View) {
	slices.SortFunc(o.order, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	room := maxOthers
	for _, name := range o.order {
		other := o.byName[name]
		if room <= 0 {
			v.Omitted += len(other.Values)
			continue
		}
		if len(other.Values) > room {
			v.Omitted += len(other.Values) - room
			other.Values = other.Values[:room]
		}
		room -= len(other.Values)
		v.Others = append(v.Others, *other)
	}
}

// omittedLine is the line that ends the other fluents when some are left out.
func (v *View) omittedLine() string {
	return fmt.Sprintf("… and %d more fluents", v.Omitted)
}

func key(name string, arity int) string {
	return strings.ToLower(name) + "/" + strconv.Itoa(arity)
}

// Text draws the view as ASCII: each board with its column values above and its row values on
// the left, "." on empty squares; then the other fluents, one relation per line. Squares are as
// wide as the widest piece.
func (v *View) Text() string {
	var b strings.Builder
	for i, bd := range v.Boards {
		if i > 0 {
			b.WriteString("\n")
		}
		bd.writeText(&b)
	}
	if len(v.Boards) > 0 && len(v.Others) > 0 {
		b.WriteString("\n")
	}
	for _, o := range v.Others {
		b.WriteString(o.Relation)
		if len(o.Values) != 1 || o.Values[0] != "" {
			b.WriteString(": ")
			b.WriteString(strings.Join(o.Values, ", "))
		}
		b.WriteString("\n")
	}
	if v.Omitted > 0 {
		b.WriteString(v.omittedLine() + "\n")
	}
	return b.String()
}

func width(s string) int { return utf8.RuneCountInString(s) }

func pad(s string, w int, right bool) string {
	if n := w - width(s); n > 0 {
		if right {
			return strings.Repeat(" ", n) + s
		}
		return s + strings.Repeat(" ", n)
	}
	return s
}

func (bd *Board) writeText(b *strings.Builder) {
	cw := 1
	for _, c := range bd.Columns {
		cw = max(cw, width(c))
	}
	for _, row := range bd.Cells {
		for _, c := range row {
			cw = max(cw, width(c.Text))
		}
	}
	rw := 0
	for _, r := range bd.Rows {
		rw = max(rw, width(r))
	}
	b.WriteString(bd.Relation)
	b.WriteString(" (")
	b.WriteString(strconv.Itoa(len(bd.Rows)))
	b.WriteString(" rows, ")
	b.WriteString(strconv.Itoa(len(bd.Columns)))
	b.WriteString(" columns)\n")
	line := func(label string, cells []string) {
		var l strings.Builder
		l.WriteString(pad(label, rw, true))
		for _, c := range cells {
			l.WriteString(" ")
			l.WriteString(pad(c, cw, false))
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteString("\n")
	}
	line("", bd.Columns)
	for r, row := range bd.Cells {
		cells := make([]string, len(row))
		for c, cell := range row {
			cells[c] = cell.Text
			if cells[c] == "" {
				cells[c] = "."
			}
		}
		line(bd.Rows[r], cells)
	}
}
