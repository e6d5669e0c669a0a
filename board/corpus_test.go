package board

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/corpus"
)

// TestCorpusBoards detects the boards of every corpus game (with -short, a fixed sample) and
// draws the initial state with them; the summary lists which games got a board and its size.
func TestCorpusBoards(t *testing.T) {
	games := corpus.Games(t)
	games = corpus.ShortSample(t, games, 10, "ticTacToe/", "connectFour/", "breakthrough/", "chess/", "othello/")
	sizes := map[string][]string{}
	var none, failed []string
	for _, e := range games {
		src, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		g, _, err := game.Load(ctx, string(src), game.Options{Engine: game.Interpreted, Limits: eval.Limits{Timeout: 2 * time.Second}})
		if err != nil {
			cancel()
			failed = append(failed, e.Path)
			continue
		}
		lay, err := ForGame(ctx, g, analysis.BoardConfig{}, SampleOptions{})
		if err != nil {
			cancel()
			failed = append(failed, e.Path)
			continue
		}
		init, err := g.Initial(ctx)
		cancel()
		if err != nil {
			failed = append(failed, e.Path)
			continue
		}
		v := lay.Draw(g.Strings(init.Fluents()))
		if len(v.Boards) == 0 {
			none = append(none, e.Path)
			continue
		}
		var desc []string
		for _, b := range v.Boards {
			desc = append(desc, fmt.Sprintf("%s %dx%d", b.Relation, len(b.Columns), len(b.Rows)))
		}
		d := strings.Join(desc, " + ")
		sizes[d] = append(sizes[d], e.Path)
		if testing.Verbose() {
			t.Logf("%s: %s (row arg %d, column arg %d)\n%s", e.Path, d, v.Boards[0].RowArg, v.Boards[0].ColumnArg, v.Text())
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
