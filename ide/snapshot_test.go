package ide

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// answers is what the navigation features answer at every offset of a snapshot, and its
// document-wide results, written out so that two snapshots can be compared.
func answers(snap *Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diagnostics %v\n", snap.Analysis().Diagnostics)
	fmt.Fprintf(&b, "symbols %v\n", snap.Symbols())
	fmt.Fprintf(&b, "outline %v\n", DocumentSymbols(snap, 1000))
	fmt.Fprintf(&b, "tokens %v\n", SemanticTokens(snap, 0, len(snap.Text())))
	fmt.Fprintf(&b, "folds %v\n", FoldingRanges(snap))
	for off := 0; off <= len(snap.Text()); off++ {
		h := Hover(context.Background(), snap, off, HoverOptions{})
		fmt.Fprintf(&b, "%d: def %v refs %v", off, Definition(snap, off), References(snap, off, true))
		if h != nil {
			fmt.Fprintf(&b, " hover %v %q", h.Span, h.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestReleasedSnapshotAnswersAlike: a snapshot whose tree and analysis were released (the
// server does so for documents out of use) computes them again from its text and answers every
// feature as before; so does the next version made from it.
func TestReleasedSnapshotAnswersAlike(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/games/*.kif")
	infix, _ := filepath.Glob("../testdata/games/*.hrf")
	paths = append(paths, infix...)
	if len(paths) < 10 {
		t.Fatalf("found only %d test games", len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		t.Run(filepath.Base(p), func(t *testing.T) {
			snap := NewSnapshot(1, text)
			want := answers(snap)
			if !snap.Release() {
				t.Fatal("Release: nothing to release after the analysis")
			}
			if snap.Release() {
				t.Fatal("Release: something to release twice")
			}
			if !snap.Analysed() {
				t.Fatal("the diagnostics were forgotten by Release")
			}
			if got := answers(snap); got != want {
				t.Errorf("after Release the answers differ:\n%s", firstDiff(want, got))
			}
			if d := snap.Dialect(); d != snap.File().Dialect() {
				t.Errorf("parsed again in %v, not in %v", snap.File().Dialect(), d)
			}

			// The next version of a released snapshot equals a fresh one of its text.
			snap.Release()
			at := strings.Index(text, "\n") + 1
			next := snap.Next(2, snap.File().Edit(at, at, "\n"))
			fresh := NewSnapshot(2, next.Text())
			if !reflect.DeepEqual(next.Analysis().Diagnostics, fresh.Analysis().Diagnostics) {
				t.Errorf("the next version of a released snapshot has other diagnostics than a fresh one")
			}
		})
	}
}

// firstDiff returns the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(al), len(bl))
}

// compute runs one computation of a value at a time: a caller waits for the one running, or
// for its own context, and computes the value itself when that one gave up.
func TestSnapshotCompute(t *testing.T) {
	s := NewSnapshot(1, "(role robot)\n")
	var running chan struct{}
	value := 0
	known := func() bool { return value != 0 }
	release, started := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- s.compute(context.Background(), &running, known, func() error {
			close(started)
			<-release
			return context.Canceled // the first caller gives up
		})
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if err := s.compute(ctx, &running, known, func() error { ran = true; return nil }); err != context.Canceled || ran {
		t.Fatalf("a cancelled caller waiting for another: err %v, computed %v; want context.Canceled without computing", err, ran)
	}
	second := make(chan error, 1)
	go func() {
		second <- s.compute(context.Background(), &running, known, func() error {
			s.mu.Lock()
			value = 42
			s.mu.Unlock()
			return nil
		})
	}()
	close(release)
	if err := <-first; err != context.Canceled {
		t.Fatalf("first caller: %v, want its own error", err)
	}
	if err := <-second; err != nil {
		t.Fatalf("second caller, computing after the first gave up: %v", err)
	}
	if err := s.compute(context.Background(), &running, known, func() error { t.Error("computed a known value"); return nil }); err != nil || value != 42 {
		t.Fatalf("third caller: %v, value %d", err, value)
	}
}

// TestChangedRegion checks the changed part that Next finds between two versions against a
// byte-by-byte reading, on edits of every kind, some longer than the 64-byte steps.
func TestChangedRegion(t *testing.T) {
	base := strings.Repeat("(<= (r ?x) (role ?x))\n", 20)
	for _, tc := range []struct{ a, b string }{
		{base, base},
		{base, base[:100] + "x" + base[100:]},
		{base, base[:100] + base[101:]},
		{base, base[:3] + "zzz" + base[300:]},
		{base, "x" + base},
		{base, base + "x"},
		{"", base},
		{base, ""},
		{"aaaa", "aa"}, // the shared prefix and suffix may overlap: the prefix wins
	} {
		lo, hi := changedRegion(tc.a, tc.b)
		wantLo := 0
		for wantLo < min(len(tc.a), len(tc.b)) && tc.a[wantLo] == tc.b[wantLo] {
			wantLo++
		}
		k := 0
		for k < min(len(tc.a), len(tc.b))-wantLo && tc.a[len(tc.a)-1-k] == tc.b[len(tc.b)-1-k] {
			k++
		}
		if lo != wantLo || hi != len(tc.a)-k {
			t.Errorf("changedRegion(%d bytes, %d bytes) = %d, %d; want %d, %d", len(tc.a), len(tc.b), lo, hi, wantLo, len(tc.a)-k)
		}
	}
}

// TestAnswering: while a version's model is not built, a request outside what changed since the
// newest version with a model answers from that version (through two edits), with offsets and
// spans taken across; a request inside the change, or on a version whose model is built,
// answers from the version itself.
func TestAnswering(t *testing.T) {
	text := strings.Repeat("(<= (r ?x) (role ?x))\n", 10)
	v1 := NewSnapshot(1, text)
	v1.Model()
	v2 := v1.Next(2, v1.File().Edit(22, 22, "xy")) // line 1 starts "xy(<= ..."
	v3 := v2.Next(3, v2.File().Edit(100, 101, "")) // one byte deleted further on
	from, at, back := v3.Answering(5)
	if from != v1 || at != 5 {
		t.Errorf("before the changes: from version %d at %d, want 1 at 5", from.Version, at)
	}
	if sp, ok := back(syntax.Span{Start: 1, End: 3}); !ok || sp != (syntax.Span{Start: 1, End: 3}) {
		t.Errorf("a span before the changes taken back: %v %v, want 1-3", sp, ok)
	}
	from, at, back = v3.Answering(200)
	if from != v1 || at != 199 {
		t.Errorf("after the changes: from version %d at %d, want 1 at 199", from.Version, at)
	}
	if sp, ok := back(syntax.Span{Start: 198, End: 200}); !ok || sp != (syntax.Span{Start: 199, End: 201}) {
		t.Errorf("a span after the changes taken back: %v %v, want 199-201", sp, ok)
	}
	if _, ok := back(syntax.Span{Start: 20, End: 30}); ok {
		t.Error("a span overlapping the changes taken back")
	}
	if from, _, _ = v3.Answering(50); from != v3 {
		t.Errorf("inside the changes: from version %d, want 3", from.Version)
	}
	v3.Model()
	if from, at, _ = v3.Answering(200); from != v3 || at != 200 {
		t.Errorf("once its model is built: from version %d at %d, want 3 at 200", from.Version, at)
	}
}
