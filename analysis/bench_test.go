package analysis

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/internal/gengame"
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

// BenchmarkReanalyze measures what the language server does per keystroke: one character typed
// into (or deleted from) a rule in the middle of a file, the incremental reparse, and the
// analysis that reuses the previous version's results for the forms the parser reused.
func BenchmarkReanalyze(b *testing.B) {
	inputs := map[string]string{"generated-400KB": gengame.Layered(400 << 10)}
	for _, kb := range []int{400, 800} { // the sizes: 800 KB at most 2.2x the cost of 400 KB
		if src, err := gengame.Corpus(corpusDir, kb<<10); err == nil {
			inputs[fmt.Sprintf("corpus-%dKB", kb)] = src
		}
	}
	if data, err := os.ReadFile(filepath.Join(corpusDir, "ggp-org__ggp-repository/war/root/games/duplicateStateLarge/duplicateStateLarge.kif")); err == nil {
		inputs["duplicateStateLarge-67KB"] = string(data)
	}
	for name, src := range inputs {
		b.Run(name, func(b *testing.B) { reanalyzeEdits(b, src, gengame.MiddleRule(src)) })
	}
}

// reanalyzeEdits types a character at offset at of src and deletes it, in turns, b.N times, each
// version analysed reusing the previous one's analysis, and reports the CPU time per edit.
func reanalyzeEdits(b *testing.B, src string, at int) {
	f, _ := syntax.Parse(src)
	prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
	start := cputime.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			f = f.Edit(at, at, "x")
		} else {
			f = f.Edit(at, at+1, "")
		}
		res, err := AnalyzeContext(context.Background(), f, nil, prev)
		if err != nil {
			b.Fatal(err)
		}
		prev = res
	}
	cputime.Report(b, start, b.N)
}
