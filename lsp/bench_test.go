package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// Benchmarks, not timed tests: `go test ./lsp -run '^$' -bench .` prints the numbers that
// docs/performance.md records. Each reports its 95th percentile as p95-ms.

// corpusDir is the shared corpus beside the repository; benchmarks that need it skip without it.
const corpusDir = "../../shared/games"

// benchInputs are the largest corpus games and a generated 400 KB game.
func benchInputs(b *testing.B) map[string]string { return gengame.Inputs(corpusDir, b.Logf) }

func p95(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return float64(ds[len(ds)*95/100]) / float64(time.Millisecond)
}

// BenchmarkDidChangeToDiagnostics types into a rule in the middle of a file (a character
// inserted, then deleted) through the real dispatcher and framing in process, and reports the
// server's compute time from each didChange to the end of writing that version's diagnostics
// (server-ms/op and its p95, the figures the goals name), and the time until the client has
// read and decoded them (p95-client-ms; the client's decoding runs in the same process).
func BenchmarkDidChangeToDiagnostics(b *testing.B) {
	for name, text := range benchInputs(b) {
		b.Run(fmt.Sprintf("%s-%dKB", name, len(text)>>10), func(b *testing.B) {
			c := startInProcess(b, nil)
			server := make(chan time.Duration, 1)
			var mu sync.Mutex
			var want int32 = -1
			c.server.published = func(_ protocol.DocumentURI, version int32, d time.Duration) {
				mu.Lock()
				defer mu.Unlock()
				if version == want {
					server <- d
				}
			}
			c.initialize()
			uri := protocol.DocumentURI("file:///bench/" + name)
			c.open(uri, text)
			c.diagnosticsFor(uri, 1)
			mid := gengame.MiddleRule(text)
			p := syntax.NewLineIndex(text).Position(mid, syntax.UTF16)
			at := protocol.Position{Line: uint32(p.Line), Character: uint32(p.Column)}
			var ds, cs []time.Duration
			var total time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				mu.Lock()
				want = int32(i + 2)
				mu.Unlock()
				start := time.Now()
				var v int32
				if i%2 == 0 {
					v = c.change(uri, protocol.Range{Start: at, End: at}, "x")
				} else {
					v = c.change(uri, protocol.Range{Start: at, End: protocol.Position{Line: at.Line, Character: at.Character + 1}}, "")
				}
				c.diagnosticsFor(uri, v)
				cs = append(cs, time.Since(start))
				d := <-server
				ds = append(ds, d)
				total += d
			}
			b.ReportMetric(float64(total)/float64(b.N)/float64(time.Millisecond), "server-ms/op")
			b.ReportMetric(p95(ds), "p95-ms")
			b.ReportMetric(p95(cs), "p95-client-ms")
		})
	}
}

// BenchmarkOpenCorpus opens every corpus game in one server, waits for all their diagnostics
// and reports the heap that stays in use.
func BenchmarkOpenCorpus(b *testing.B) {
	var files []string
	filepath.Walk(corpusDir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.HasSuffix(path, ".kif") || strings.HasSuffix(path, ".gdl")) {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		b.Skipf("skipping: no corpus games in %s (the shared corpus is not beside the repository)", corpusDir)
	}
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c := startInProcess(b, nil)
		c.initialize()
		total := 0
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			total += len(data)
			c.open(protocol.DocumentURI("file://"+f), string(data))
		}
		for _, f := range files {
			c.diagnosticsFor(protocol.DocumentURI("file://"+f), 1)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MB")
		b.ReportMetric(float64(total)/(1<<20), "text-MB")
		b.ReportMetric(float64(len(files)), "files")
		c.shutdown()
	}
}

// BenchmarkEvaluatedHover measures, through the real dispatcher in process, a hover on `legal`
// that shows its answers in the initial state:
//   - warm: the answers of this version are known;
//   - after-comment-edit: the first hover after a comment changed (the game carries over);
//   - after-clause-edit: the first hover after a clause changed (a new game: it answers within
//     the hover budget, saying the evaluation is still running when it is), with answers-ms, the
//     time from the edit until a hover shows the answers.
func BenchmarkEvaluatedHover(b *testing.B) {
	inputs := map[string]string{}
	if data, err := os.ReadFile("../testdata/games/tictactoe.kif"); err == nil {
		inputs["tictactoe.kif"] = string(data)
	}
	if data, err := os.ReadFile(filepath.Join(corpusDir, "ggp-org__ggp-repository/war/root/games/chess/chess.kif")); err == nil {
		inputs["chess.kif"] = string(data)
	} else {
		b.Logf("skipping chess.kif: %v (the shared corpus is not beside the repository)", err)
	}
	for name, text := range inputs {
		for _, mode := range []string{"warm", "after-comment-edit", "after-clause-edit"} {
			b.Run(name+"/"+mode, func(b *testing.B) {
				c := startInProcess(b, nil)
				c.initialize()
				uri := protocol.DocumentURI("file:///bench/" + name)
				doc := text + "\n"
				c.open(uri, doc)
				c.diagnosticsFor(uri, 1)
				off := strings.Index(strings.ToLower(doc), "(legal ") + 2
				p := syntax.NewLineIndex(doc).Position(off, syntax.UTF16)
				at := tdppBench(uri, uint32(p.Line), uint32(p.Column))
				hover := func() string {
					var h protocol.Hover
					c.mustCall("textDocument/hover", at, &h)
					return h.Contents.Value
				}
				answered := func(s string) bool { return strings.Contains(s, "In the initial state") }
				for !answered(hover()) {
					time.Sleep(5 * time.Millisecond)
				}
				last := syntax.NewLineIndex(doc).Position(len(doc), syntax.UTF16)
				end := protocol.Position{Line: uint32(last.Line), Character: uint32(last.Column)}
				var ds, toAnswers []time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					start := time.Now()
					switch mode {
					case "after-comment-edit":
						c.change(uri, protocol.Range{Start: end, End: end}, fmt.Sprintf("; edit %d\n", i))
					case "after-clause-edit":
						c.change(uri, protocol.Range{Start: end, End: end}, fmt.Sprintf("(bench_fact %d)\n", i))
					}
					end.Line++
					end.Character = 0
					if mode == "warm" {
						end.Line--
						start = time.Now()
					}
					b.StartTimer()
					h := hover()
					ds = append(ds, time.Since(start))
					b.StopTimer()
					for !answered(h) {
						time.Sleep(2 * time.Millisecond)
						h = hover()
					}
					toAnswers = append(toAnswers, time.Since(start))
					b.StartTimer()
				}
				b.ReportMetric(p95(ds), "p95-ms")
				b.ReportMetric(p95(toAnswers), "answers-p95-ms")
			})
		}
	}
}

func tdppBench(uri protocol.DocumentURI, line, char uint32) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: line, Character: char}}
}

// BenchmarkCodeLens measures on chess textDocument/codeLens (listing the lenses) and resolving
// every lens of the document in the same state (warm: the answers are known after the first
// round).
func BenchmarkCodeLens(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(corpusDir, "ggp-org__ggp-repository/war/root/games/chess/chess.kif"))
	if err != nil {
		b.Skipf("skipping: %v (the shared corpus is not beside the repository)", err)
	}
	c := startInProcess(b, nil)
	c.initialize()
	uri := protocol.DocumentURI("file:///bench/chess.kif")
	c.open(uri, string(data))
	c.diagnosticsFor(uri, 1)
	list := func() []protocol.CodeLens {
		var lenses []protocol.CodeLens
		c.mustCall("textDocument/codeLens", protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &lenses)
		return lenses
	}
	resolveAll := func(lenses []protocol.CodeLens) (pending int) {
		for _, l := range lenses {
			var r protocol.CodeLens
			c.mustCall("codeLens/resolve", l, &r)
			if strings.HasSuffix(r.Command.Title, "evaluating…") {
				pending++
			}
		}
		return pending
	}
	for resolveAll(list()) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	for _, mode := range []string{"list", "resolve-all"} {
		b.Run(mode, func(b *testing.B) {
			var ds []time.Duration
			lenses := list()
			b.ReportMetric(float64(len(lenses)), "lenses")
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if mode == "list" {
					list()
				} else {
					resolveAll(lenses)
				}
				ds = append(ds, time.Since(start))
			}
			b.ReportMetric(p95(ds), "p95-ms")
		})
	}
}

// BenchmarkReferenceLocations is the server's side of a references answer on a name with
// thousands of uses in the generated 400 KB game, in process: the references found, the 2,000
// nearest the cursor kept, their LSP locations (locs), and those encoded as JSON (json).
func BenchmarkReferenceLocations(b *testing.B) {
	text := gengame.Layered(400 << 10)
	snap := &Snapshot{Snapshot: ide.NewSnapshot(1, text), URI: "file:///bench/generated.kif"}
	snap.m = mapper{lines: snap.Lines(), enc: syntax.UTF16}
	var heavy []int // offsets of names with more references than an answer holds
	for _, o := range snap.Model().AllOccurrences() {
		if len(heavy) < 50 && len(ide.References(snap.Snapshot, o.Span.Start, true)) > maxReferences {
			heavy = append(heavy, o.Span.Start)
		}
	}
	if len(heavy) == 0 {
		b.Fatal("no name with more than maxReferences references")
	}
	locations := func(i int) []protocol.Location {
		off := heavy[i%len(heavy)]
		refs := ide.Nearest(ide.References(snap.Snapshot, off, true), func(s syntax.Span) int { return s.Start }, off, maxReferences)
		return snap.locations(refs)
	}
	b.Run("locs", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			locations(i)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := segjson.Marshal(locations(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
