package board

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/internal/markers"
)

var update = flag.Bool("update", false, "rewrite the golden drawings in testdata")

// wellKnown are hand-checked boards of well-known corpus games: the relation, the size, which
// argument is the row and which the column, the row drawn on top, and a square's text after
// the joint moves given.
var wellKnown = []struct {
	path           string
	relation       string
	columns, rows  int
	rowArg, colArg int
	top            string // the row value drawn first
	moves          string
	square         [2]string // row, column
	text           string    // what the square shows after moves
	steps          int       // joint moves per sampling walk (0: the default; fewer for the games slow on the interpreter)
}{
	// Written row by row, (init (cell 1 1 b)) (init (cell 1 2 b)) ..., and (row ?m ?x) reads
	// (cell ?m 1 ?x): the first argument is the row, as ggp-base draws it.
	{"ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif", "cell", 3, 3, 1, 2, "1",
		"((mark 2 3) noop)", [2]string{"2", "3"}, "x", 0},
	{"ggp-org__ggp-base/games/games/connectFour/connectFour.kif", "cell", 8, 6, 2, 1, "6",
		"((drop 3) noop) (noop (drop 3))", [2]string{"2", "3"}, "B", 0},
	{"ggp-org__ggp-repository/war/root/games/breakthrough/breakthrough.kif", "cellHolds", 8, 8, 2, 1, "8",
		"", [2]string{"1", "1"}, "W", 0},
	{"ggp-org__ggp-repository/war/root/games/chess/chess.kif", "cell", 8, 8, 2, 1, "8",
		"", [2]string{"1", "e"}, "♔", 2},
	{"ggp-org__ggp-repository/war/root/games/othello-comp2007/othello-comp2007.kif", "cell", 8, 8, 1, 2, "1",
		"", [2]string{"4", "4"}, "B", 0},
	{"ggp-org__ggp-repository/war/root/games/checkers/checkers.kif", "cell", 8, 8, 2, 1, "8",
		"", [2]string{"8", "a"}, "bp", 10},
	// The game says it: (row a) ... (col 1) ... with (cell ?m ?n ?role) over (row ?m) (col ?n).
	{"ggp-org__ggp-repository/war/root/games/hex/hex.kif", "cell", 9, 9, 1, 2, "a",
		"", [2]string{"e", "5"}, "", 0},
	{"ggp-org__ggp-repository/war/root/games/amazons/amazons.kif", "location", 10, 10, 2, 1, "10",
		"", [2]string{"1", "4"}, "W", 12},
	{"ggp-org__ggp-repository/war/root/games/knightThrough/knightThrough.kif", "cell", 8, 8, 2, 1, "8",
		"", [2]string{"8", "8"}, "B", 0},
	{"ggp-org__ggp-repository/war/root/games/minichess/minichess.kif", "cell", 4, 4, 2, 1, "4",
		"", [2]string{"1", "c"}, "wk", 0},
	{"ggp-org__ggp-repository/war/root/games/peg/peg.kif", "hole", 7, 7, 1, 2, "a",
		"", [2]string{"d", "c4"}, "", 0},
	// Written row by row: 8 7 6 / 5 4 3 / 2 1 b.
	{"ggp-org__ggp-repository/war/root/games/eightPuzzle/eightPuzzle.kif", "cell", 3, 3, 1, 2, "1",
		"", [2]string{"1", "1"}, "8", 0},
	{"ggp-org__ggp-repository/war/root/games/gomoku_15x15/gomoku_15x15.kif", "cell", 15, 15, 0, 0, "",
		"", [2]string{}, "", 0},
}

// TestWellKnownBoards checks the boards of well-known games against hand-checked expectations
// and their drawings after a few moves against testdata/wellknown.golden.
func TestWellKnownBoards(t *testing.T) {
	corpus.Games(t)
	var out markers.Output
	for _, w := range wellKnown {
		src, err := os.ReadFile(corpus.Dir() + "/" + w.path)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		g, _, err := game.Load(ctx, string(src), game.Options{Engine: game.Interpreted, Limits: eval.Limits{Timeout: 20 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		// Without a time bound on the walks, so that the sample is the same on any machine.
		lay, err := ForGame(ctx, g, analysis.BoardConfig{}, SampleOptions{Steps: w.steps, Time: time.Hour})
		if err != nil {
			t.Fatalf("%s: %v", w.path, err)
		}
		joints, err := g.ParseJointMoves(w.moves)
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.Replay(ctx, joints)
		cancel()
		if err != nil || p.Err != nil {
			t.Fatalf("%s: %v %v", w.path, err, p.Err)
		}
		v := lay.Draw(g.Strings(p.State().Fluents()))
		if len(v.Boards) == 0 {
			t.Errorf("%s: no board", w.path)
			continue
		}
		b := v.Boards[0]
		got := fmt.Sprintf("%s %dx%d", b.Relation, len(b.Columns), len(b.Rows))
		want := fmt.Sprintf("%s %dx%d", w.relation, w.columns, w.rows)
		if got != want {
			t.Errorf("%s: board %s, want %s", w.path, got, want)
			continue
		}
		if w.rowArg != 0 && (b.RowArg != w.rowArg || b.ColumnArg != w.colArg || b.Rows[0] != w.top) {
			t.Errorf("%s: row argument %d, column argument %d, top row %s; want %d, %d, %s", w.path, b.RowArg, b.ColumnArg, b.Rows[0], w.rowArg, w.colArg, w.top)
		}
		if w.square != [2]string{} {
			r, c := slices.Index(b.Rows, w.square[0]), slices.Index(b.Columns, w.square[1])
			if r < 0 || c < 0 || b.Cells[r][c].Text != w.text {
				t.Errorf("%s: the square at row %s, column %s shows %q, want %q", w.path, w.square[0], w.square[1], cellText(b, r, c), w.text)
			}
		}
		name := w.path[strings.LastIndex(w.path, "/")+1:]
		out.Section(fmt.Sprintf("%s %s", name, w.moves))
		out.Printf("%s", v.Text())
	}
	markers.Check(t, "testdata/wellknown.golden", out.String(), *update)
}

func cellText(b *Board, r, c int) string {
	if r < 0 || c < 0 {
		return "(no such square)"
	}
	return b.Cells[r][c].Text
}
