package ggp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/player"
	"github.com/gdl-lsp/gdl/syntax"
)

// corpusSample lists the corpus games the matches are played on: the GDL-II games of sjl/scully
// (those with sees) first, then the games whose path hashes to 0 modulo 12 (corpus.Sample: the
// same games every run, a stable choice as games are added), each part sorted by path. Under
// -short: the first two GDL-II games and the first four others. The list is named in the test's
// log and in the summary scripts/test.sh prints.
func corpusSample(t *testing.T) []corpus.Entry {
	games := corpus.Games(t)
	var ii, rest []corpus.Entry
	for _, e := range games {
		if strings.HasPrefix(e.Path, "sjl__scully/") {
			if text, err := os.ReadFile(e.Abs()); err == nil && strings.Contains(string(text), "sees") {
				ii = append(ii, e)
			}
		}
	}
	for _, e := range corpus.Sample(games, 12) {
		if !slices.Contains(ii, e) {
			rest = append(rest, e)
		}
	}
	byPath := func(a, b corpus.Entry) int { return strings.Compare(a.Path, b.Path) }
	slices.SortFunc(ii, byPath)
	slices.SortFunc(rest, byPath)
	head := fmt.Sprintf("%d GDL-II games of sjl/scully and %d others (one in 12 by a hash of the path)", len(ii), len(rest))
	if testing.Short() {
		ii, rest = ii[:min(2, len(ii))], rest[:min(4, len(rest))]
		head = fmt.Sprintf("-short: %d GDL-II games of sjl/scully and %d others, of the sample without -short (every GDL-II game of sjl/scully, one in 12 of the others)", len(ii), len(rest))
	}
	sample := append(ii, rest...)
	t.Logf("%s: %s", head, strings.Join(corpus.Paths(sample), " "))
	corpus.WriteSummary(t.Name()+" "+head, []string{strings.Join(corpus.Paths(sample), " ")})
	return sample
}

// TestCorpusMatches runs a match between random players over HTTP on each game of the sample:
// no message goes wrong, and the record replays to the same states and goals. A game the
// manager refuses (a defect of the game) or that does not end within 300 joint moves is
// reported, not failed.
func TestCorpusMatches(t *testing.T) {
	played, refused := 0, 0
	for _, e := range corpusSample(t) {
		path := e.Path
		t.Run(path, func(t *testing.T) {
			data, err := os.ReadFile(e.Abs())
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			// One player per role but the random role.
			n, err := countSeats(src)
			if err != nil {
				refused++
				t.Logf("refused: %v", err)
				return
			}
			var seats []player.Seat
			for i := range n {
				seats = append(seats, httpPlayer(t, RandomStrategy, uint64(i)))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			rec, err := runMatch(ctx, path, src, seats, player.MatchOptions{StartClock: 60 * time.Second, PlayClock: 60 * time.Second, MaxSteps: 300, Seed: 5})
			var ge *player.GameError
			if errors.As(err, &ge) && rec == nil {
				refused++
				t.Logf("refused: %v", err)
				return
			}
			if rec == nil {
				t.Fatal(err)
			}
			played++
			noErrors(t, rec)
			if err != nil {
				t.Logf("stopped: %v (%d joint moves)", err, len(rec.Moves))
			} else {
				t.Logf("%s (GDL-II %v, %s engine)", rec.Summary(), rec.GDLII, rec.Engine)
			}
			checkRecord(t, src, rec)
		})
	}
	t.Logf("%d matches played, %d games refused", played, refused)
}

// countSeats says how many players a game needs: one per role but GDL-II's random role.
func countSeats(src string) (int, error) {
	f, _ := syntax.ParseDialect(src, syntax.DetectContent(src))
	kif, err := player.MatchFile(f)
	if err != nil {
		return 0, err
	}
	es, err := ReadExprs(kif.Source())
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range es {
		if e.IsList && len(e.List) == 2 && e.List[0].Keyword("role") && !e.List[1].Keyword("random") {
			n++
		}
	}
	if n == 0 {
		return 0, errors.New("no roles")
	}
	return n, nil
}
