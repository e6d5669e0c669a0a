package analysis

import (
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestEmptyFile: the empty-file warning, which a marker cannot point at (its span is empty, at
// the start of the file).
func TestEmptyFile(t *testing.T) {
	for _, c := range []struct {
		src, msg string
	}{
		{"", "the file is empty: it has no fact or rule, so there is no game to check"},
		{"; a game, one day\n\n", "the file holds only comments and blanks: it has no fact or rule, so there is no game to check"},
		{"% infix comment only\n", "the file holds only comments and blanks: it has no fact or rule, so there is no game to check"},
		{"(role robot)\n", ""},
		{")\n", ""}, // the parser reports it
	} {
		f, _ := syntax.ParseDialect(c.src, syntax.Detect("x.kif", c.src))
		var got []Diagnostic
		for _, d := range Analyze(f, nil).Diagnostics {
			if d.Code == "empty-file" {
				got = append(got, d)
			}
		}
		switch {
		case c.msg == "" && len(got) != 0:
			t.Errorf("%q: unexpected %v", c.src, got)
		case c.msg != "" && (len(got) != 1 || got[0].Message != c.msg || got[0].Severity != Warning || got[0].Span != (syntax.Span{})):
			t.Errorf("%q: got %v, want one warning %q at 0", c.src, got, c.msg)
		}
	}
}
