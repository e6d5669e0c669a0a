package analysis

import (
	"fmt"
	"testing"

	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// BenchmarkAnalyzeCorpusFile analyses files made of real corpus games (renamed per game).
func BenchmarkAnalyzeCorpusFile(b *testing.B) {
	for _, kb := range []int{100, 400} {
		src, err := gengame.Corpus(corpusDir, kb<<10)
		if err != nil {
			b.Skipf("skipping: %v", err)
		}
		f, _ := syntax.Parse(src)
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			start := cputime.Now()
			for i := 0; i < b.N; i++ {
				Analyze(f, nil)
			}
			cputime.Report(b, start, b.N)
		})
	}
}
