package ide

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/gengame"
)

// Benchmarks, not timed tests: `go test ./ide -run '^$' -bench Navigation` prints the numbers
// that docs/performance.md records. Each reports its 95th percentile as p95-ms.

// corpusDir is the shared corpus beside the repository; benchmarks that need it skip without it.
const corpusDir = "../../shared/games"

// BenchmarkNavigation measures hover, definition and references on the symbols of a file,
// cycling through all of its occurrences (the analysis is computed once per version and is
// not part of the measurement): the largest corpus games and a generated 400 KB game.
func BenchmarkNavigation(b *testing.B) {
	inputs := gengame.Inputs(corpusDir, b.Logf)
	for name, text := range inputs {
		snap := NewSnapshot(1, text)
		m := snap.Model()
		if m.NumOccurrences() == 0 {
			b.Fatalf("%s: no occurrences", name)
		}
		for _, feature := range []string{"hover", "definition", "references"} {
			b.Run(fmt.Sprintf("%s/%s-%dKB", feature, name, len(text)>>10), func(b *testing.B) {
				var ds []time.Duration
				ctx := context.Background()
				for i := 0; i < b.N; i++ {
					o := m.Occ((i * 7919) % m.NumOccurrences())
					off := o.Span.Start + 1
					start := time.Now()
					switch feature {
					case "hover":
						Hover(ctx, snap, off, HoverOptions{Markdown: true})
					case "definition":
						Definition(snap, off)
					case "references":
						References(snap, off, true)
					}
					ds = append(ds, time.Since(start))
				}
				sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
				b.ReportMetric(float64(ds[len(ds)*95/100])/float64(time.Millisecond), "p95-ms")
			})
		}
	}
}
