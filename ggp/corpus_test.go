package ggp

import (
	"context"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

const corpus = "../../shared/games"

// corpusSample lists a deterministic sample of the corpus games: those whose path hashes to 0
// modulo 12 (a sample that stays put as games are added), sorted by path; the GDL-II games of
// sjl/scully (the ones with sees) come first.
func corpusSample(t *testing.T) []string {
	data, err := os.ReadFile(filepath.Join(corpus, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("SKIPPED: ../shared/games/MANIFEST.tsv is not there; the corpus matches need the shared corpus beside the repository")
	}
	var ii, rest []string
	for _, line := range strings.Split(string(data), "\n")[1:] {
		cols := strings.Split(line, "\t")
		if len(cols) != 7 || cols[6] != "game" {
			continue
		}
		path := cols[0]
		if strings.HasPrefix(path, "sjl__scully/") {
			if text, err := os.ReadFile(filepath.Join(corpus, path)); err == nil && strings.Contains(string(text), "sees") {
				ii = append(ii, path)
				continue
			}
		}
		h := fnv.New32a()
		h.Write([]byte(path))
		if h.Sum32()%12 == 0 {
			rest = append(rest, path)
		}
	}
	sort.Strings(ii)
	sort.Strings(rest)
	return append(ii, rest...)
}

// TestCorpusMatches runs a match between random players over HTTP on each game of the sample
// (in -short mode, the first two GDL-II games and four others): no message goes wrong, and the
// record replays to the same states and goals. A game the manager refuses (a defect of the
// game) or that does not end within 300 joint moves is reported, not failed.
func TestCorpusMatches(t *testing.T) {
	games := corpusSample(t)
	if testing.Short() {
		var short []string
		nII := 0
		for _, g := range games {
			if strings.HasPrefix(g, "sjl__scully/") {
				if nII < 2 {
					short = append(short, g)
				}
				nII++
			} else if len(short) < 6 {
				short = append(short, g)
			}
		}
		games = short
	}
	played, refused := 0, 0
	for _, path := range games {
		t.Run(path, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(corpus, path))
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			seats := []Seat{}
			// One player per role but the random role; how many roles is known once the
			// game is read: Prepare and a first look by the manager decide.
			n, err := countSeats(src)
			if err != nil {
				refused++
				t.Logf("refused: %v", err)
				return
			}
			for i := range n {
				seats = append(seats, httpPlayer(t, RandomStrategy, uint64(i)))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			rec, err := RunMatch(ctx, path, mustRules(t, src), seats, MatchOptions{StartClock: 60 * time.Second, PlayClock: 60 * time.Second, MaxSteps: 300, Seed: 5})
			var ge *GameError
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
	t.Logf("%d matches played, %d games refused, of %d", played, refused, len(games))
}

// countSeats says how many players a game needs: one per role but GDL-II's random role.
func countSeats(src string) (int, error) {
	rules, err := Prepare(src)
	if err != nil {
		return 0, err
	}
	es, err := ReadExprs(rules)
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
