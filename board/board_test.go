package board

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/markers"
)

func boolp(b bool) *bool { return &b }

// TestDetect checks the heuristics on hand-made samples: what is a board, which argument is
// the row, which way rows run, how coordinates are ordered, and what gdl.json overrides.
func TestDetect(t *testing.T) {
	for _, c := range []struct {
		name  string
		facts Facts
		cfg   analysis.BoardConfig
		want  string // relation rowArg colArg rows(top..bottom) columns, per board; notes
	}{
		{"a matrix: first argument the row, rows from the top",
			Facts{States: [][]string{{"(cell 1 1 b)", "(cell 1 2 x)", "(cell 2 1 o)", "(cell 2 2 b)", "(control x)"}}},
			analysis.BoardConfig{}, "cell 1 2 [1 2] [1 2]"},
		{"the rules say the first argument is a column (nextcol, a move of one coordinate): the row comes after it, upwards",
			Facts{States: [][]string{{"(cell 1 1 b)", "(cell 1 2 x)", "(cell 2 1 o)", "(cell 2 2 b)"}},
				Hints: map[string][]Hint{"cell": {{Column: 2}, {}, {}}}},
			analysis.BoardConfig{}, "cell 2 1 [2 1] [1 2]"},
		{"the rules say the second argument is a row: a matrix, from the top",
			Facts{States: [][]string{{"(at 1 1 b)", "(at 1 2 x)", "(at 2 1 o)", "(at 2 2 b)"}},
				Hints: map[string][]Hint{"at": {{}, {Row: 1}, {}}}},
			analysis.BoardConfig{}, "at 2 1 [2 1] [1 2]"},
		{"a rank is a row upwards, whichever argument it is",
			Facts{States: [][]string{{"(at 1 1 b)", "(at 1 2 x)", "(at 2 1 o)", "(at 2 2 b)"}},
				Hints: map[string][]Hint{"at": {{Row: 1, Up: 1}}}},
			analysis.BoardConfig{}, "at 1 2 [2 1] [1 2]"},
		{"init facts written row by row: the argument that stays is the row (ticTacToe, eightPuzzle)",
			Facts{States: [][]string{{"(cell 1 1 b)", "(cell 1 2 x)", "(cell 2 1 o)", "(cell 2 2 b)"}},
				InitLayout: []string{"(cell 1 1 b)", "(cell 1 2 x)", "(control x)", "(cell 2 1 o)", "(cell 2 2 b)"}},
			analysis.BoardConfig{}, "cell 1 2 [1 2] [1 2]"},
		{"init facts that keep the second argument: it is the row, after the column, upwards (breakthrough)",
			Facts{States: [][]string{{"(cell 1 1 w)", "(cell 2 1 w)", "(cell 1 2 b)", "(cell 2 2 b)"}},
				InitLayout: []string{"(cell 1 1 w)", "(cell 2 1 w)", "(cell 1 2 b)", "(cell 2 2 b)"}},
			analysis.BoardConfig{}, "cell 2 1 [2 1] [1 2]"},
		{"the rules win over the init layout",
			Facts{States: [][]string{{"(cell 1 1 w)", "(cell 2 1 w)", "(cell 1 2 b)", "(cell 2 2 b)"}},
				InitLayout: []string{"(cell 1 1 w)", "(cell 2 1 w)", "(cell 1 2 b)", "(cell 2 2 b)"},
				Hints:      map[string][]Hint{"cell": {{Row: 1}, {Column: 1}}}},
			analysis.BoardConfig{}, "cell 1 2 [1 2] [1 2]"},
		{"a relation on a few squares of its grid is no board beside one that covers its grid (chess's check markers)",
			Facts{States: [][]string{{"(check white 1 1)", "(check white 5 4)", "(cell 1 1 k)", "(cell 1 2 b)", "(cell 1 3 b)", "(cell 2 1 b)", "(cell 2 2 b)"},
				{"(check black 2 3)", "(cell 1 1 b)", "(cell 1 2 k)", "(cell 1 3 b)", "(cell 2 1 b)", "(cell 2 2 b)"}}},
			analysis.BoardConfig{}, "cell 1 2 [1 2] [1 2 3]"},
		{"a few pieces on a grid seen once are no board: the relation must cover its grid",
			Facts{States: [][]string{{"(at white 1 4)", "(at white 4 1)", "(at black 1 7)", "(step 1)"}, {"(at white 2 4)", "(at white 4 1)", "(at black 1 7)", "(step 2)"}}},
			analysis.BoardConfig{}, ""},
		{"a relation that is the same in every state is no board (walls)",
			Facts{States: [][]string{{"(wall 1 1)", "(wall 2 2)", "(wall 1 2)", "(at 1)"}, {"(wall 1 1)", "(wall 2 2)", "(wall 1 2)", "(at 2)"}}},
			analysis.BoardConfig{}, ""},
		{"chess: letters are columns, numbers rows, upwards",
			Facts{States: [][]string{{"(cell a 1 wr)", "(cell b 1 wn)", "(cell a 3 b)", "(cell c 2 wp)"}}},
			analysis.BoardConfig{}, "cell 2 1 [3 2 1] [a b c]"},
		{"gaps in a number range are filled",
			Facts{States: [][]string{{"(p 1 1 w)", "(p 4 1 w)", "(p 1 3 b)"}, {"(p 4 3 w)", "(p 1 2 w)", "(p 4 2 b)"}}},
			analysis.BoardConfig{}, "p 1 2 [1 2 3 4] [1 2 3]"},
		{"a succ chain orders symbols",
			Facts{States: [][]string{{"(sq r2 c1 x)", "(sq r1 c2 o)", "(sq r3 c3 x)"}},
				Orders: [][]string{{"r3", "r1", "r2"}, {"c1", "c2", "c3"}}},
			analysis.BoardConfig{}, "sq 1 2 [r3 r1 r2] [c1 c2 c3]"},
		{"symbols without an order are no coordinates",
			Facts{States: [][]string{{"(owner red north 3)", "(owner blue south 2)"}}},
			analysis.BoardConfig{}, ""},
		{"coordinates that do not determine the content are no board",
			Facts{States: [][]string{{"(cell 1 1 x)", "(cell 1 1 o)", "(cell 1 2 x)", "(cell 2 1 o)"}}},
			analysis.BoardConfig{}, ""},
		{"a board of two arguments (walls)",
			Facts{States: [][]string{{"(wall 1 1)", "(wall 2 3)", "(wall 3 2)"}}},
			analysis.BoardConfig{}, "wall 1 2 [1 2 3] [1 2 3]"},
		{"the pair of coordinates that determines the content wins over the first pair",
			Facts{States: [][]string{{"(tile 1 1 1 wp)", "(tile 1 1 2 wp)", "(tile 1 2 1 bp)", "(tile 1 2 2 bp)"}}},
			analysis.BoardConfig{}, "tile 2 3 [1 2] [1 2]"},
		{"gdl.json names the board and its rows",
			Facts{States: [][]string{{"(cell 1 1 b)", "(cell 1 2 x)", "(cell 2 1 o)", "(cell 2 2 b)", "(mark 1 1 q)", "(mark 2 2 r)"}}},
			analysis.BoardConfig{Boards: []analysis.BoardSpec{{Relation: "CELL", Row: 2, Column: 1, RowsUp: boolp(true)}}},
			"cell 2 1 [2 1] [1 2]; mark 1 2 [1 2] [1 2]"},
		{"gdl.json turns detection off and names a relation no fluent has",
			Facts{States: [][]string{{"(cell 1 1 b)", "(cell 1 2 x)", "(cell 2 1 o)", "(cell 2 2 b)"}}},
			analysis.BoardConfig{Detect: boolp(false), Boards: []analysis.BoardSpec{{Relation: "square", Row: 1, Column: 2}}},
			`note: gdl.json names the board "square" (row argument 1, column argument 2), but no fluent seen has that relation with that many arguments`},
		{"gdl.json orders coordinates that are no numbers as text",
			Facts{States: [][]string{{"(cell r10 north x)", "(cell r2 south o)"}}},
			analysis.BoardConfig{Boards: []analysis.BoardSpec{{Relation: "cell", Row: 1, Column: 2}}},
			"cell 1 2 [r2 r10] [north south]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lay := Detect(c.facts, c.cfg)
			var got []string
			for _, b := range lay.Boards {
				s := b.Relation + " " + itoa(b.Row+1) + " " + itoa(b.Column+1) + " [" + strings.Join(b.Rows, " ") + "] [" + strings.Join(b.Columns, " ") + "]"
				got = append(got, s)
			}
			for _, n := range lay.Notes {
				got = append(got, "note: "+n)
			}
			if g := strings.Join(got, "; "); g != c.want {
				t.Errorf("got  %s\nwant %s", g, c.want)
			}
		})
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestPieces: blanks are empty squares, long words with distinct initials become their
// initials, gdl.json's pieces win, two arguments show the relation's initial.
func TestPieces(t *testing.T) {
	facts := Facts{States: [][]string{{"(cell 1 1 blank)", "(cell 1 2 red)", "(cell 2 1 black)", "(cell 2 2 (king red))", "(wall 1 1)", "(wall 2 2)"}}}
	v := Detect(facts, analysis.BoardConfig{}).Draw(facts.States[0])
	if got := v.Text(); got != "cell (2 rows, 2 columns)\n  1          2\n1 .          red\n2 black      (king red)\n\nwall (2 rows, 2 columns)\n  1 2\n1 W .\n2 . W\n" {
		t.Errorf("a compound content keeps the words:\n%s", got)
	}
	facts.States[0] = facts.States[0][:3]
	v = Detect(facts, analysis.BoardConfig{}).Draw(facts.States[0])
	if got := v.Boards[0].Cells[0][1].Text + v.Boards[0].Cells[1][0].Text + v.Boards[0].Cells[0][0].Text; got != "RB" {
		t.Errorf("red, black and blank show as %q, want R, B and nothing", got)
	}
	v = Detect(facts, analysis.BoardConfig{Pieces: map[string]string{"red": "●", " blank ": "_"}}).Draw(facts.States[0])
	if got := v.Boards[0].Cells[0][1].Text + v.Boards[0].Cells[0][0].Text; got != "●_" {
		t.Errorf("gdl.json's pieces: %q", got)
	}
}

// TestMoveSquares: a move mentions the squares whose coordinates it has one after the other,
// in the relation's order; a one-argument move, a whole column.
func TestMoveSquares(t *testing.T) {
	chess := Facts{States: [][]string{{"(cell a 1 wr)", "(cell b 1 wn)", "(cell a 2 b)", "(cell b 2 b)", "(cell b 3 b)"}}}
	v := Detect(chess, analysis.BoardConfig{}).Draw(chess.States[0])
	sq := func(move string) string {
		var out []string
		for _, s := range v.MoveSquares(move) {
			b := v.Boards[s.Board]
			out = append(out, b.Columns[s.Column]+b.Rows[s.Row])
		}
		return strings.Join(out, " ")
	}
	for move, want := range map[string]string{
		"(move wn b 1 a 3)": "b1 a3",
		"(move wr a 1 a 2)": "a1 a2",
		"(drop b)":          "b3 b2 b1",
		"noop":              "",
		"(move 1 a)":        "",
		"(mark (pos a 1))":  "a1",
		"(mark (a 1))":      "",
	} {
		if got := sq(move); got != want {
			t.Errorf("%s: squares %q, want %q", move, got, want)
		}
	}
	nums := Facts{States: [][]string{{"(cell 1 1 b)", "(cell 1 2 b)", "(cell 2 1 b)", "(cell 2 2 b)", "(cell 1 3 b)", "(cell 2 3 b)"}}}
	v = Detect(nums, analysis.BoardConfig{}).Draw(nums.States[0])
	if got := v.MoveSquares("(move 1 2 1 3)"); len(got) != 2 {
		t.Errorf("(move 1 2 1 3) mentions 1,2 and 1,3 only: %+v", got)
	}
	ttt := Facts{States: [][]string{{"(cell 1 1 b)", "(cell 1 2 b)", "(cell 2 1 b)", "(cell 2 2 b)"}}}
	v = Detect(ttt, analysis.BoardConfig{Boards: []analysis.BoardSpec{{Relation: "cell", Row: 2, Column: 1}}}).Draw(ttt.States[0])
	if got := v.MoveSquares("(mark 1 2)"); len(got) != 1 || v.Boards[0].Rows[got[0].Row] != "2" || v.Boards[0].Columns[got[0].Column] != "1" {
		t.Errorf("(mark 1 2) with the row second: %+v", got)
	}
}

// TestDrawings draws a game written for this project as text and SVG (golden files).
func TestDrawings(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g, _, err := game.Load(ctx, string(src), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lay, err := ForGame(ctx, g, analysis.BoardConfig{}, SampleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	joints, _ := g.ParseJointMoves("((mark 2 2) noop) (noop (mark 1 3)) ((mark 3 1) noop)")
	p, err := g.Replay(ctx, joints)
	if err != nil || p.Err != nil {
		t.Fatal(err, p.Err)
	}
	v := lay.Draw(g.Strings(p.State().Fluents()))
	var out markers.Output
	out.Section("text")
	out.Printf("%s", v.Text())
	out.Section("svg")
	out.Printf("%s", v.SVG())
	markers.Check(t, "testdata/drawings.golden", out.String(), *update)
	lines := strings.Split(v.SVG(), "\n")
	if !slices.Contains(lines, `<text x="142" y="74" font-size="20" text-anchor="middle" dominant-baseline="central" fill="#111111" pointer-events="none">o</text>`) {
		t.Errorf("the o at row 1, column 3 is not where it belongs in the SVG")
	}
	// Its square says which it is, as MoveSquares counts (0-based), for a page to play by clicks.
	if !slices.ContainsFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, `<rect class="square" data-board="0" data-row="0" data-column="2" x="120" y="52" `)
	}) {
		t.Errorf("the square at row 1, column 3 does not carry its indexes in the SVG")
	}
}

// TestOddText: texts that are not terms, deep terms and huge coordinates neither crash nor
// make a board; they are listed with the other fluents.
func TestOddText(t *testing.T) {
	deep := strings.Repeat("(f ", 100000) + "x" + strings.Repeat(")", 100000)
	state := []string{"(", ")", "((a) b)", "(cell 1 1 x", "cell 1 1 x)", deep, "(cell 1 99999 x)", "(cell 1 2 x)", "()"}
	lay := Detect(Facts{States: [][]string{state}, Possible: state}, analysis.BoardConfig{})
	if len(lay.Boards) != 0 {
		t.Errorf("boards of odd texts: %+v", lay.Boards[0])
	}
	v := lay.Draw(state)
	n := 0
	for _, o := range v.Others {
		n += len(o.Values)
	}
	if n != len(state) {
		t.Errorf("%d of %d fluents listed: %+v", n, len(state), v.Others)
	}
	if _, ok := parseTerm(deep); !ok {
		t.Errorf("a deep term is a term")
	}
}

// TestInfixGame: an infix game's boards are found and drawn as in KIF, and its moves (written
// in infix) mention their squares.
func TestInfixGame(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/noughts.hrf")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g, _, err := game.Load(ctx, string(src), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lay, err := ForGame(ctx, g, analysis.BoardConfig{}, SampleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	joints, err := g.ParseJointMoves("(play(2,2), wait) (wait, play(1,3))")
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.Replay(ctx, joints)
	if err != nil || p.Err != nil {
		t.Fatal(err, p.Err)
	}
	v := lay.Draw(g.Strings(p.State().Fluents()))
	if len(v.Boards) != 1 || v.Boards[0].Relation != "cell" || len(v.Boards[0].Rows) != 3 || len(v.Boards[0].Columns) != 3 {
		t.Fatalf("boards of noughts.hrf: %s", v.Text())
	}
	b := v.Boards[0]
	if o := b.Cells[slices.Index(b.Rows, "1")][slices.Index(b.Columns, "3")]; o.Text != "o" {
		t.Errorf("the o at 1,3:\n%s", v.Text())
	}
	var cell *Cell
	for r := range b.Cells {
		for c := range b.Cells[r] {
			if b.Cells[r][c].Text == "x" {
				cell = &b.Cells[r][c]
			}
		}
	}
	if cell == nil || cell.Row != "2" || cell.Column != "2" || !slices.Contains(cell.Fluents, "cell(2,2,x)") {
		t.Errorf("the x: %+v (fluents are shown in the game's notation)", cell)
	}
	sq := v.MoveSquares("play(3,1)")
	if len(sq) != 1 || b.Rows[sq[0].Row] != "3" || b.Columns[sq[0].Column] != "1" {
		t.Errorf("play(3,1) mentions %+v", sq)
	}
}

// TestCoordinateHints: what the rules say of rows and columns (relations named after them, a
// move of one coordinate) and the init facts in the order written.
func TestCoordinateHints(t *testing.T) {
	src := `; a game
(init (cell 1 1 b)) (init (cell 1 2 b)) (init (control x))
(<= (init (cell ?m 3 b)) (index ?m))
(<= (row ?m ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)))
(<= (legal ?p (drop ?c)) (true (spot ?c 6 b)))
(<= (next (spot ?c ?r2 ?p)) (does ?p (drop ?c)) (true (spot ?c ?r b)) (next_rank ?r ?r2))
(<= (adjacent ?a ?b) (nextcol ?a ?b) (true (color ?a red)))
`
	forms := readForms(src)
	got := fmt.Sprint(coordinateHints(forms))
	// cell: its first argument shares ?m with row, once per atom (and its mark ?x, no
	// coordinate); spot: its first argument is the column of drop (once per atom of spot), the
	// second two ranks; nextcol's ?a makes color's first argument a column, and adjacent's (no
	// board relation, no harm).
	want := "map[adjacent:[{0 0 1} {0 0 1}] cell:[{2 0 0} {0 0 0} {2 0 0}] color:[{0 0 1}] spot:[{0 0 3} {2 2 0}]]"
	if got != want {
		t.Errorf("hints\n got %s\nwant %s", got, want)
	}
	if got := strings.Join(initLayout(forms), " "); got != "(cell 1 1 b) (cell 1 2 b) (control x)" {
		t.Errorf("init layout %s", got)
	}
	for name, want := range map[string]string{"row": "row", "nextrow": "row", "clear_row_ig": "row", "rank2": "rank",
		"next_file": "column", "colinc": "column", "nextcolumn": "column", "color": "", "chocolate": "", "crowas": "", "rows": "row"} {
		h, ok := axisHint(name)
		got := ""
		switch {
		case !ok:
		case h.Up > 0:
			got = "rank"
		case h.Row > 0:
			got = "row"
		default:
			got = "column"
		}
		if got != want {
			t.Errorf("axisHint(%s) = %q, want %q", name, got, want)
		}
	}
}

// TestChessGlyphs: the pieces of chess show as Unicode chess symbols, in any of the spellings
// games use; checkers' men and kings, two kinds, stay letters.
func TestChessGlyphs(t *testing.T) {
	for _, c := range []struct{ contents, want string }{
		{"wk bq wr bn wp b", "♔ ♛ ♖ ♞ ♙ "},
		{"whiteKing black_queen WhiteRook blackpawn", "♔ ♛ ♖ ♟"},
		{"wp bp wk bk b", "wp bp wk bk "},
	} {
		var states []string
		for i, ct := range strings.Fields(c.contents) {
			states = append(states, fmt.Sprintf("(cell %d 1 %s)", i+1, ct))
		}
		states = append(states, "(cell 1 2 b)", "(cell 2 2 b)")
		v := Detect(Facts{States: [][]string{states}}, analysis.BoardConfig{}).Draw(states)
		var got []string
		for _, row := range v.Boards[0].Cells {
			for _, cell := range row {
				if cell.Column == "1" {
					got = append(got, cell.Text)
				}
			}
		}
		if g := strings.Join(got, " "); !strings.HasPrefix(g, c.want) {
			t.Errorf("%s: %q, want %q", c.contents, g, c.want)
		}
	}
	two := []string{"(cell 1 1 white king)", "(cell 1 2 black rook)", "(cell 2 1 white pawn)", "(cell 2 2 blank)"}
	v := Detect(Facts{States: [][]string{two}}, analysis.BoardConfig{}).Draw(two)
	if got := v.Text(); !strings.Contains(got, "1 ♔ ♜\n2 ♙ .") {
		t.Errorf("contents of two arguments:\n%s", got)
	}
}
