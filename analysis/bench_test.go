package analysis

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/syntax"
)

// BenchmarkAnalyzeLargest analyses the largest corpus games (goal: under 10 ms for 70 KB).
func BenchmarkAnalyzeLargest(b *testing.B) {
	games := corpusGameFiles(b)
	type sized struct {
		path string
		size int64
	}
	var all []sized
	for _, g := range games {
		if st, err := os.Stat(filepath.Join(corpusDir, g)); err == nil {
			all = append(all, sized{g, st.Size()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].size > all[j].size })
	for _, g := range all[:3] {
		data, _ := os.ReadFile(filepath.Join(corpusDir, g.path))
		f, _ := syntax.Parse(string(data))
		b.Run(filepath.Base(g.path), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			start := cputime.Now()
			for i := 0; i < b.N; i++ {
				Analyze(f, nil)
			}
			cputime.Report(b, start, b.N)
		})
	}
}
