package analysis

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

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

// BenchmarkAnalyzeFamily parses and analyses a 3 MB member of each hostile family
// (gengame.Families), as `gdl check` does, and keeps the diagnostics it would show: the
// benchmark to profile when a family's check is slow (-cpuprofile), e.g.
// go test ./analysis -run '^$' -bench 'AnalyzeFamily/unknown' -benchtime 3x -cpuprofile cpu.out
func BenchmarkAnalyzeFamily(b *testing.B) {
	for _, fam := range gengame.Families {
		b.Run(fam.Name, func(b *testing.B) {
			src := fam.Make(3 << 20)
			b.SetBytes(int64(len(src)))
			b.ResetTimer()
			start := cputime.Now()
			for i := 0; i < b.N; i++ {
				f, _ := syntax.Parse(src)
				Shown(f, Analyze(f, nil).Diagnostics)
			}
			cputime.Report(b, start, b.N)
		})
	}
}

// BenchmarkReanalyzeFamily is the language server's work per edit on a 3 MB member of each
// hostile family: a character typed where Family.EditAt says (after the first parenthesis
// past the middle; for many-roles, of the first legal rule past it), as BenchmarkScale's edits,
// or deleted, and the incremental analysis.
func BenchmarkReanalyzeFamily(b *testing.B) {
	for _, fam := range gengame.Families {
		b.Run(fam.Name, func(b *testing.B) {
			src := fam.Make(3 << 20)
			reanalyzeEdits(b, src, fam.EditAt(src))
		})
	}
}

// BenchmarkReanalyzeRemoveLegal is the incremental analysis after an edit that removes one of the
// 16,000 legal rules of a 3 MB many-roles file (a character typed before its "<="), and, apart,
// after the edit that puts it back: legal's roles are anything (more than maxSetConsts
// constants), and the removal must not compute them again from every legal rule.
func BenchmarkReanalyzeRemoveLegal(b *testing.B) {
	src := gengame.ManyRoles(3 << 20)
	at := gengame.Families[familyIndex(b, "many-roles")].EditAt(src)
	f, _ := syntax.Parse(src)
	prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
	var remove, add time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := f.Edit(at, at, "x")
		runtime.GC() // each edit starts a collection afresh: neither is charged the other's garbage
		start := cputime.Now()
		res, err := AnalyzeContext(context.Background(), g, nil, prev)
		remove += cputime.Now() - start
		if err != nil {
			b.Fatal(err)
		}
		f = g.Edit(at, at+1, "")
		runtime.GC()
		start = cputime.Now()
		prev, err = AnalyzeContext(context.Background(), f, nil, res)
		add += cputime.Now() - start
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(remove)/float64(b.N)/1e6, "remove-cpu-ms/op")
	b.ReportMetric(float64(add)/float64(b.N)/1e6, "add-cpu-ms/op")
}

func familyIndex(b *testing.B, name string) int {
	for i, fam := range gengame.Families {
		if fam.Name == name {
			return i
		}
	}
	b.Fatalf("no family %s", name)
	return -1
}
