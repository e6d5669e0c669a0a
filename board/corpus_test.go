package board

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/corpus"
)

var pictures = flag.String("pictures", "", "TestCorpusBoards: write each game's initial state as SVG into this folder")

// corpusBoardsFile lists, for every corpus game, the boards drawn and how: the relation, its
// size, which argument is the row and which way rows run, which the column, and the pieces
// shown as chess symbols. TestCorpusBoards compares every game it detects with it; -update
// rewrites the lines of the games it ran.
const corpusBoardsFile = "testdata/corpus-boards.tsv"

// TestCorpusBoards detects the boards of every corpus game (with -short, a fixed sample) and
// draws the initial state with them; each game's boards must be as corpusBoardsFile lists
// them, and the summary counts which games got a board and its size. The sample is seeded and
// bounded in steps, not in time, so that the list is the same on any machine.
func TestCorpusBoards(t *testing.T) {
	games := corpus.Games(t)
	games = corpus.ShortSample(t, games, 10, "ticTacToe/", "connectFour/", "breakthrough/", "chess/", "othello/", "eightPuzzle/")
	want, err := readBoardList(corpusBoardsFile)
	if err != nil && !*update {
		t.Fatal(err)
	}
	got := map[string]string{}
	sizes := map[string][]string{}
	var none, failed []string
	for _, e := range games {
		desc, sizesOf, v := corpusBoards(t, e)
		got[e.Path] = desc
		switch {
		case strings.HasPrefix(desc, "not loaded"):
			failed = append(failed, e.Path)
		case desc == "none":
			none = append(none, e.Path)
		default:
			sizes[sizesOf] = append(sizes[sizesOf], e.Path)
		}
		if w, ok := want[e.Path]; !*update && (!ok || w != desc) {
			t.Errorf("%s:\n got %s\nwant %s", e.Path, desc, w)
		}
		if *pictures != "" && v != nil && len(v.Boards) > 0 {
			name := strings.NewReplacer("/", "_", ".kif", "", ".gdl", "").Replace(e.Path) + ".svg"
			if err := os.WriteFile(*pictures+"/"+name, []byte(v.SVG()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if testing.Verbose() && v != nil {
			t.Logf("%s: %s\n%s", e.Path, desc, v.Text())
		}
	}
	if *update {
		if want == nil {
			want = map[string]string{}
		}
		maps.Copy(want, got)
		if err := writeBoardList(corpusBoardsFile, want); err != nil {
			t.Fatal(err)
		}
	}
	withBoard := len(games) - len(none) - len(failed)
	lines := []string{fmt.Sprintf("%d of %d corpus games got a board (columns x rows); %d got none; %d could not be loaded", withBoard, len(games), len(none), len(failed))}
	var keys []string
	for k := range sizes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(sizes[keys[i]]) != len(sizes[keys[j]]) {
			return len(sizes[keys[i]]) > len(sizes[keys[j]])
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("%s: %d: %s", k, len(sizes[k]), strings.Join(shortNames(sizes[k]), ", ")))
	}
	lines = append(lines, fmt.Sprintf("no board: %d: %s", len(none), strings.Join(shortNames(none), ", ")))
	if len(failed) > 0 {
		lines = append(lines, fmt.Sprintf("not loaded: %d: %s", len(failed), strings.Join(shortNames(failed), ", ")))
	}
	if testing.Short() {
		lines = append(lines, "(-short: a fixed sample of one in ten games; run go test ./board -run TestCorpusBoards for all)")
	}
	for _, l := range lines {
		t.Log(l)
	}
	if err := corpus.WriteSummary("board: boards detected in the corpus games", lines); err != nil {
		t.Error(err)
	}
}

// corpusBoards detects a corpus game's boards and describes them (see corpusBoardsFile), with
// their sizes alone for the summary, and draws the initial state.
func corpusBoards(t *testing.T, e corpus.Entry) (desc, sizes string, v *View) {
	src, err := os.ReadFile(e.Abs())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g, _, err := game.Load(ctx, string(src), game.Options{Engine: game.Interpreted, Limits: eval.Limits{Timeout: 5 * time.Second}})
	if err != nil {
		return "not loaded: " + err.Error(), "", nil
	}
	// Walks bounded in steps, not in time: the same sample on any machine.
	lay, err := ForGame(ctx, g, analysis.BoardConfig{}, SampleOptions{Walks: 4, Steps: 20, Time: time.Hour, Seed: 1})
	if err != nil {
		return "not loaded: no initial state: " + firstLine(err.Error()), "", nil
	}
	init, err := g.Initial(ctx)
	if err != nil {
		return "not loaded: no initial state: " + firstLine(err.Error()), "", nil
	}
	v = lay.Draw(g.Strings(init.Fluents()))
	if len(v.Boards) == 0 {
		return "none", "", v
	}
	var ds, ss []string
	for i, b := range v.Boards {
		sp := lay.Boards[i]
		s := fmt.Sprintf("%s %dx%d", b.Relation, len(b.Columns), len(b.Rows))
		ss = append(ss, s)
		dir := "from the top"
		if sp.RowsUp {
			dir = "upwards"
		}
		d := fmt.Sprintf("%s: rows arg %d (%s to %s, %s), columns arg %d (%s to %s)", s, b.RowArg, b.Rows[0], b.Rows[len(b.Rows)-1], dir,
			b.ColumnArg, b.Columns[0], b.Columns[len(b.Columns)-1])
		if slices.ContainsFunc(slices.Collect(maps.Values(sp.Pieces)), func(p string) bool { return strings.ContainsAny(p, "♔♚") }) {
			d += ", chess symbols"
		}
		ds = append(ds, d)
	}
	return strings.Join(ds, "; "), strings.Join(ss, " + "), v
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// readBoardList reads corpusBoardsFile: a path and a description per line, after comments.
func readBoardList(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, d, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%s: a line without a tab: %q", path, line)
		}
		out[p] = d
	}
	return out, sc.Err()
}

func writeBoardList(path string, list map[string]string) error {
	var b strings.Builder
	b.WriteString("# The boards board.Detect finds in each corpus game (../shared/games), drawn as\n" +
		"# gdl render and the game view draw them: relation, columns x rows, which argument is the row\n" +
		"# and which way rows run, which the column. Written by go test ./board -run TestCorpusBoards\n" +
		"# -update (all games without -short); TestCorpusBoards checks the games it runs against it.\n")
	for _, p := range slices.Sorted(maps.Keys(list)) {
		fmt.Fprintf(&b, "%s\t%s\n", p, list[p])
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// shortNames gives each path's file name without its extension.
func shortNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		base := p[strings.LastIndex(p, "/")+1:]
		out[i] = strings.TrimSuffix(strings.TrimSuffix(base, ".kif"), ".gdl")
	}
	sort.Strings(out)
	return out
}
