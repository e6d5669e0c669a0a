package syntax

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The shared corpus of third-party games lives beside the repository, never inside it.
const corpusDir = "../../shared/games"

type corpusFile struct {
	path string // relative to corpusDir
	kind string // game, validator-test, prover-test or other
	src  string
}

var (
	corpusOnce  sync.Once
	corpusFiles []corpusFile
	corpusErr   error
)

// loadCorpus reads every file listed in MANIFEST.tsv. It skips the test when the corpus is absent.
func loadCorpus(tb testing.TB) []corpusFile {
	tb.Helper()
	corpusOnce.Do(func() {
		fh, err := os.Open(filepath.Join(corpusDir, "MANIFEST.tsv"))
		if err != nil {
			corpusErr = err
			return
		}
		defer fh.Close()
		sc := bufio.NewScanner(fh)
		first := true
		for sc.Scan() {
			if first {
				first = false
				continue
			}
			cols := strings.Split(sc.Text(), "\t")
			if len(cols) < 7 {
				continue
			}
			data, err := os.ReadFile(filepath.Join(corpusDir, cols[0]))
			if err != nil {
				corpusErr = err
				return
			}
			corpusFiles = append(corpusFiles, corpusFile{path: cols[0], kind: cols[6], src: string(data)})
		}
		corpusErr = sc.Err()
	})
	if corpusErr != nil {
		if os.IsNotExist(corpusErr) {
			tb.Skipf("SKIP: the shared game corpus is absent (%v); clone it to ../shared beside the repository to run this test", corpusErr)
		}
		tb.Fatalf("reading the shared game corpus: %v", corpusErr)
	}
	if len(corpusFiles) == 0 {
		tb.Fatalf("the shared game corpus manifest %s lists no files", filepath.Join(corpusDir, "MANIFEST.tsv"))
	}
	return corpusFiles
}

// corpusKind returns the corpus files of one kind.
func corpusKind(tb testing.TB, kind string) []corpusFile {
	var out []corpusFile
	for _, cf := range loadCorpus(tb) {
		if cf.kind == kind {
			out = append(out, cf)
		}
	}
	return out
}

// corpusText returns the text of one corpus file, or skips when the corpus is absent.
func corpusText(tb testing.TB, path string) string {
	tb.Helper()
	for _, cf := range loadCorpus(tb) {
		if cf.path == path {
			return cf.src
		}
	}
	tb.Fatalf("%s is not listed in the corpus manifest", path)
	return ""
}
