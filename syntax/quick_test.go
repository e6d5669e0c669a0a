package syntax

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestQuickIncremental(t *testing.T) {
	files, _ := filepath.Glob("../../shared/games/ggp-org__ggp-base/games/*/*/*.kif")
	files2, _ := filepath.Glob("../../shared/games/arnaudsj__ggpserver/ggpserver/03_add_games/*.kif")
	files = append(files, files2[:40]...)
	rng := rand.New(rand.NewSource(1))
	snippets := []string{"(", ")", "\n(", " ", "\n", "; c\n", "(role x)", "?x", "a", "\r", ")\n(", ""}
	for _, path := range files {
		b, _ := os.ReadFile(path)
		f, _ := Parse(string(b))
		for i := 0; i < 200; i++ {
			src := f.Source()
			s := rng.Intn(len(src) + 1)
			e := s + rng.Intn(min(20, len(src)-s)+1)
			txt := snippets[rng.Intn(len(snippets))]
			if rng.Intn(4) == 0 {
				e = s
			}
			nf := f.Edit(s, e, txt)
			want, _ := Parse(src[:s] + txt + src[e:])
			if nf.Dump() != want.Dump() {
				t.Fatalf("%s: edit %d..%d %q: incremental differs\nfrom %v\nold:%q\ngot:\n%.3000s\nwant:\n%.3000s", path, s, e, txt, nf.reparsed, src[:min(len(src), 200)], nf.Dump(), want.Dump())
			}
			var sb strings.Builder
			nf.Print(&sb)
			if sb.String() != nf.Source() {
				t.Fatal("not lossless")
			}
			f = nf
		}
	}
}
