package ide

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/markers"
	"github.com/gdl-lsp/gdl/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files of the marker tests")

// Marker tests: each testdata/markers/NAME.kif is a small game with markers (internal/markers)
// in comments beside the code they ask about; NAME.golden holds the answers, one section per
// marker, refreshed with -update. Columns in the answers are 1-based UTF-16 code units.
//
//	(<= (legal ?r noop) (role ?r))  ; @hover(?r#2) @def(?r#2) @refs(role)
//
// A marker's first argument names a text of its line and asks at its second character (at its
// end for @complete): @hover, @def, @refs, @highlight, @rename(text, new), @complete, @calls,
// @select. @symbols, @folding, @tokens and @diagnostics ask about the whole file.
func TestMarkers(t *testing.T) {
	cases, _ := filepath.Glob("testdata/markers/*.kif")
	if len(cases) == 0 {
		t.Fatal("no marker cases in testdata/markers")
	}
	for _, path := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".kif"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := runMarkers(t, string(data))
			markers.Check(t, strings.TrimSuffix(path, ".kif")+".golden", got, *update)
		})
	}
}

// markerRun is the state of one marker file's run.
type markerRun struct {
	t    *testing.T
	src  string
	snap *Snapshot
	out  markers.Output
}

func runMarkers(t *testing.T, src string) string {
	ms, errs := markers.Parse(src)
	for _, err := range errs {
		t.Error(err)
	}
	r := &markerRun{t: t, src: src, snap: NewSnapshot(1, src)}
	for _, m := range ms {
		r.out.Section(m.Title())
		if r.file(m) {
			continue
		}
		if len(m.Args) == 0 {
			t.Errorf("line %d: @%s needs a text of the line to ask at", m.Line+1, m.Name)
			continue
		}
		start, end, err := m.Find(src, m.Args[0])
		if err != nil {
			t.Error(err)
			continue
		}
		off := start + 1
		if m.Name == "complete" {
			off = end
		}
		r.at(m, off)
	}
	return r.out.String()
}

// where renders a span as 1-based line:column (UTF-16) and the text it covers.
func (r *markerRun) where(sp syntax.Span) string {
	a, b := r.snap.Lines().Position(sp.Start, syntax.UTF16), r.snap.Lines().Position(sp.End, syntax.UTF16)
	text := strings.Join(strings.Fields(r.src[sp.Start:sp.End]), " ")
	return fmt.Sprintf("%d:%d-%d:%d %q", a.Line+1, a.Column+1, b.Line+1, b.Column+1, shorten(text, 50))
}

// at answers a marker about the text at off.
func (r *markerRun) at(m markers.Marker, off int) {
	snap, out := r.snap, &r.out
	switch m.Name {
	case "hover":
		if h := Hover(context.Background(), snap, off, HoverOptions{Markdown: true}); h != nil {
			out.Line(h.Text)
		} else {
			out.Line("(none)")
		}
	case "def":
		for _, sp := range Definition(snap, off) {
			out.Line(r.where(sp))
		}
	case "refs":
		for _, sp := range References(snap, off, true) {
			out.Line(r.where(sp))
		}
	case "highlight":
		for _, h := range Highlights(snap, off) {
			out.Printf("%s %s\n", r.where(h.Span), [...]string{"text", "read", "write"}[h.Kind])
		}
	case "rename":
		edits, err := Rename(snap, off, m.Arg(1))
		if err != nil {
			out.Printf("error: %v\n", err)
		}
		for _, e := range edits {
			out.Printf("%s -> %s\n", r.where(e.Span), e.NewText)
		}
	case "complete":
		for _, it := range Completion(snap, off, true) {
			out.Printf("%s (%s) %s\n", it.Label, it.Detail, it.Text)
		}
	case "calls":
		it, ok := PrepareCallHierarchy(snap, off)
		if !ok {
			out.Line("(none)")
			break
		}
		for _, c := range IncomingCalls(snap, it.Key) {
			out.Printf("from %s at", c.Item.Name)
			for _, sp := range c.Spans {
				out.Printf(" %s", r.where(sp))
			}
			out.Line("")
		}
		for _, c := range OutgoingCalls(snap, it.Key) {
			out.Printf("to %s at", c.Item.Name)
			for _, sp := range c.Spans {
				out.Printf(" %s", r.where(sp))
			}
			out.Line("")
		}
	case "select":
		for _, sp := range SelectionRange(snap, off, 100) {
			out.Line(r.where(sp))
		}
	default:
		r.t.Errorf("line %d: unknown marker @%s", m.Line+1, m.Name)
	}
}

// file answers a marker about the whole file; it reports false for the others.
func (r *markerRun) file(m markers.Marker) bool {
	snap, out := r.snap, &r.out
	switch m.Name {
	case "symbols":
		for _, s := range DocumentSymbols(snap, 0) {
			out.Printf("%s %s %s\n", s.Name, s.Detail, r.where(s.Selection))
			for _, c := range s.Children {
				out.Printf("  %s (%s)\n", c.Name, c.Detail)
			}
		}
	case "folding":
		for _, f := range FoldingRanges(snap) {
			kind := ""
			if f.Comment {
				kind = "comment"
			}
			out.Printf("%d-%d %s\n", snap.Line(f.Span.Start)+1, snap.Line(f.Span.End)+1, kind)
		}
	case "tokens":
		for _, tok := range SemanticTokens(snap, 0, len(r.src)) {
			mod := ""
			if tok.Declaration {
				mod = " declaration"
			}
			out.Printf("%s %s%s\n", r.where(tok.Span), tok.Type, mod)
		}
	case "diagnostics":
		// Only the parser's codes: the analyzer's checks are tested by their own markers and
		// would make these goldens change with every new check.
		ds, _ := snap.Diagnostics(context.Background()) // never cancelled
		for _, d := range ds {
			if isSyntaxCode(d.Code) {
				out.Printf("%s %s: %s\n", r.where(d.Span), d.Code, d.Message)
			}
		}
	default:
		return false
	}
	return true
}

func isSyntaxCode(code string) bool {
	for _, c := range syntax.Codes {
		if c == code {
			return true
		}
	}
	return false
}
