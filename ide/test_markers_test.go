package ide

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/markers"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestTestDocMarkers: the features of game test documents, on testdata/tests/NAME.test.kif,
// whose markers ask about the text of their line: @hover, @def (the spans in the game),
// @complete (at the end of the text); and about the whole file: @diagnostics (the static ones,
// then the failures of a run) and @lenses (their titles before and after a run). NAME.golden
// holds the answers (refresh with -update).
func TestTestDocMarkers(t *testing.T) {
	cases, _ := filepath.Glob("testdata/tests/*.test.*")
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/tests")
	}
	for _, path := range cases {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			d := syntax.Detect(path, src)
			snap := NewSnapshotIn(1, src, d)
			if !IsTestDocument(path, snap) {
				t.Fatalf("%s is not a test document", path)
			}
			doc := NewTestDoc(path, snap, openFromDisk)
			if doc.Game == nil {
				t.Fatalf("no game: tried %v", doc.Tried)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			runs := NewTestRuns(ctx)
			limits := eval.Limits{}
			ms, errs := markers.ParseComments(src, d.CommentMarks()[0])
			for _, e := range errs {
				t.Error(e)
			}
			var out markers.Output
			gameWhere := func(sp syntax.Span) string {
				p := doc.Game.Lines().Position(sp.Start, syntax.UTF16)
				return filepath.Base(doc.GamePath) + ":" + itoa(p.Line+1) + ":" + itoa(p.Column+1) + " " + doc.Game.Text()[sp.Start:sp.End]
			}
			for _, m := range ms {
				out.Section(m.Title())
				switch m.Name {
				case "diagnostics":
					ds, err := TestDiagnostics(ctx, doc)
					if err != nil {
						t.Fatal(err)
					}
					results, err := runs.Run(ctx, "case", doc, nil, TestOptions{Limits: limits, Bounded: DefaultTestBounded})
					if err != nil {
						t.Fatal(err)
					}
					for _, x := range append(ds, FailureDiagnostics(results, ds)...) {
						p := snap.Lines().Position(x.Span.Start, syntax.UTF16)
						out.Printf("%d:%d %s %s: %s\n", p.Line+1, p.Column+1, x.Severity, x.Code, x.Message)
					}
					continue
				case "lenses":
					for _, l := range TestLenses(doc, runs, "case") {
						out.Printf("line %d: %s [%s]\n", snap.Line(l.Offset)+1, l.Title, l.Test)
					}
					continue
				}
				start, end, err := m.Find(src, m.Args[0])
				if err != nil {
					t.Error(err)
					continue
				}
				switch m.Name {
				case "hover":
					h := TestHover(ctx, doc, start+1, TestHoverOptions{Markdown: true, Runs: runs, Name: "case", Limits: limits, Budget: patience})
					if h == nil {
						out.Line("(none)")
					} else {
						out.Line(h.Text)
					}
				case "def":
					for _, sp := range TestDefinition(doc, start+1) {
						out.Line(gameWhere(sp))
					}
				case "complete":
					for _, it := range TestCompletion(ctx, doc, end, TestCompletionOptions{Snippets: true, Runs: runs, Limits: limits, Budget: patience}) {
						out.Printf("%s [%d] %q replaces %q (%s)\n", it.Label, it.Kind, it.Text, src[it.Replace.Start:it.Replace.End], it.Detail)
					}
				default:
					t.Errorf("line %d: unknown marker @%s", m.Line+1, m.Name)
				}
			}
			markers.Check(t, strings.TrimSuffix(strings.TrimSuffix(path, filepath.Ext(path)), ".test")+".golden", out.String(), *update)
		})
	}
}

// openFromDisk is the game lookup of the tests: the file on disk.
func openFromDisk(path string) (*Snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, err
	}
	return NewSnapshotIn(0, string(data), syntax.Detect(path, string(data))), nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTestRunsGames: the game of a test document is made once per version of the game file;
// a newer version replaces it, and the results of a run are the last results until the test
// file or the game changes.
func TestTestRunsGames(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	v1 := NewSnapshotIn(1, string(data), syntax.Prefix)
	v2 := NewSnapshotIn(2, string(data)+"\n(bonus 1)\n", syntax.Prefix)
	test := NewSnapshotIn(1, "(test a (not terminal))\n", syntax.Prefix)
	doc := func(g *Snapshot) *TestDoc {
		return NewTestDoc("/w/ttt.test.kif", test, func(p string) (*Snapshot, error) {
			if p == "/w/ttt.kif" {
				return g, nil
			}
			return nil, fs.ErrNotExist
		})
	}
	runs := NewTestRuns(ctx)
	g1, err := runs.Game(ctx, doc(v1), eval.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := runs.Game(ctx, doc(v1), eval.Limits{}); again != g1 {
		t.Error("the same version of the game made twice")
	}
	d2 := doc(v2)
	g2, err := runs.Game(ctx, d2, eval.Limits{})
	if err != nil || g2 == g1 {
		t.Fatalf("a new version of the game: %v, the same game %v", err, g2 == g1)
	}
	if _, err := runs.Run(ctx, "t", d2, nil, TestOptions{}); err != nil {
		t.Fatal(err)
	}
	if r, ok := runs.Last("t", d2, "A"); !ok || r.Status != "passed" {
		t.Errorf("last result: %v %+v", ok, r)
	}
	if _, ok := runs.Last("t", doc(v1), "a"); ok {
		t.Error("a result of another version of the game")
	}
}
