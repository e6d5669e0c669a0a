package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestIncrementalNotStale edits a game so that each piece the incremental analysis takes over
// from the previous version would be wrong if it were kept as it was: a finding whose clause
// moved (its place is remembered relative to the clause), a finding that an edit elsewhere
// removes (base now covers the fluent, input the move), a symbol whose key a new form uses
// before the symbol's first occurrence (counted by prev's number, it must find the new form's
// symbol), and a spelling that the edit makes the minority. Each version must equal a fresh
// analysis, and the edits must change what is reported as described.
func TestIncrementalNotStale(t *testing.T) {
	src := strings.Join([]string{
		"(role white)",
		"(base (cell 1 b))",
		"(input white (mark 1))",
		"(init (cell 1 b))",
		"(<= (next (cell 1 o)) (does white (mark 1)))",
		"(<= (legal white (mark 2)) (true (cell 1 b)))",
		"(<= terminal (true (cell 1 o)))",
		"(<= (goal white 100) (true (cell 1 B)))",
	}, "\n") + "\n"
	steps := []struct {
		what        string
		find, write string // the edit: the first occurrence of find replaced by write
		before      string // is found in a diagnostic's message before the edit, not after
		after       string // is found after the edit, not before
	}{
		{"a form inserted before the findings moves them", "(base", "(extra first)\n(base", "", ""},
		{"base covers the fluent next produces", "(base (cell 1 b))", "(base (cell 1 b)) (base (cell 1 o))", "fluent (cell 1 o)", ""},
		{"input covers the move legal gives", "(input white (mark 1))", "(input white (mark 1)) (input white (mark 2))", "move (mark 2)", ""},
		{"a new first form uses terminal's and cell's keys", "(extra first)", "(<= (later) (true (cell 1 B)) terminal)", "", ""},
		{"the spelling B becomes the majority", "(init (cell 1 b))", "(init (cell 1 B)) (init (cell 2 B))", "B is spelled b", "b is spelled B"},
	}
	f := parseCase("stale.kif", src)
	prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
	for _, st := range steps {
		var got *Result
		f, got = replaceAndReanalyze(t, st.what, f, prev, st.find, st.write)
		if got.Model.reused == 0 {
			t.Fatalf("%s: no clause taken over from the previous version", st.what)
		}
		for _, c := range []struct {
			text     string
			was, now bool
		}{{st.before, true, false}, {st.after, false, true}} {
			if c.text == "" {
				continue
			}
			if w, n := reports(prev, c.text), reports(got, c.text); w != c.was || n != c.now {
				t.Errorf("%s: a message with %q before the edit %v, after %v; want %v, %v", st.what, c.text, w, n, c.was, c.now)
			}
		}
		prev = got
	}
}

// reports says whether a diagnostic of res has text in its message.
func reports(res *Result, text string) bool {
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}

// replaceAndReanalyze replaces the first occurrence of from in f's text by to, analyses the new
// version reusing prev, and fails the test (the edit called what) unless that analysis equals a
// fresh one. It returns the new version and its analysis.
func replaceAndReanalyze(t *testing.T, what string, f *syntax.File, prev *Result, from, to string) (*syntax.File, *Result) {
	t.Helper()
	at := strings.Index(f.Source(), from)
	if at < 0 {
		t.Fatalf("%s: %q is not in the text", what, from)
	}
	f = f.Edit(at, at+len(from), to)
	got, err := AnalyzeContext(context.Background(), f, nil, prev)
	if err != nil {
		t.Fatal(err)
	}
	if diff := sameResult(got, Analyze(f, nil)); diff != "" {
		t.Fatalf("%s: the incremental analysis differs from a fresh one: %s", what, diff)
	}
	return f, got
}
