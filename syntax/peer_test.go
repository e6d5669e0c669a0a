package syntax

import (
	"strings"
	"testing"
)

// TestPeerParenCases checks the parenthesis cases of AlexLandau/gdl-validation (see
// ../shared/games/PEER_TESTS.md) with exact ranges. That validator reports only the first stray
// ')'; this parser reports every one, which is intended.
func TestPeerParenCases(t *testing.T) {
	const dir = "AlexLandau__gdl-validation/testgames/"
	type want struct {
		code       string
		start, end int
	}
	for _, tc := range []struct {
		file  string
		crlf  bool
		errs  []want
		forms int
	}{
		{"badparens1.kif", false, []want{{CodeUnclosedOpen, 4, 5}}, 2},                                 // 0123(56789
		{"badparens2.kif", false, []want{{CodeUnmatchedClose, 8, 9}, {CodeUnmatchedClose, 10, 11}}, 4}, // 0123(5)7)9)
		{"badparens3.kif", false, []want{{CodeUnmatchedClose, 16, 17}}, 3},                             // 0123(5;(8\n01)345)
		{"badparens3.kif", true, []want{{CodeUnmatchedClose, 17, 18}}, 3},                              // the same with CRLF
		{"badparens4.kif", false, []want{{CodeListHead, 3, 4}}, 3},                                     // 0( ())6
		{"badparens5.kif", false, []want{{CodeListHead, 2, 3}}, 3},                                     // 0(())56
		{"commentEof.kif", false, nil, 0},                                                              // ;;;
		{"misplacedDatalogKeyword1.kif", false, nil, 1},                                                // a semantic error, not a syntax error
		{"varInTopLevelSentence.kif", false, nil, -1},                                                  // the variable is inside a sentence: the analyzer's business
	} {
		src := corpusText(t, dir+tc.file)
		if tc.crlf {
			src = strings.ReplaceAll(src, "\n", "\r\n")
		}
		f, errs := Parse(src)
		var got []want
		for _, e := range errs {
			got = append(got, want{e.Code, e.Span.Start, e.Span.End})
		}
		if len(got) != len(tc.errs) {
			t.Errorf("%s (crlf %v): errors %v, want %v", tc.file, tc.crlf, got, tc.errs)
			continue
		}
		for i := range got {
			if got[i] != tc.errs[i] {
				t.Errorf("%s (crlf %v): error %d is %v, want %v", tc.file, tc.crlf, i, got[i], tc.errs[i])
			}
		}
		if tc.forms >= 0 && len(f.Forms()) != tc.forms {
			t.Errorf("%s: %d forms, want %d", tc.file, len(f.Forms()), tc.forms)
		}
	}
}

// TestPeerGameParsing is ggp-base's GameParsingTest: comments before, between and after forms
// leave exactly the 4 forms.
func TestPeerGameParsing(t *testing.T) {
	f, errs := Parse("; comment\n(a b)\n; comment two\n(c d e) ; comment three\n(f g)\n(h i j)\n")
	if len(errs) != 0 || len(f.Forms()) != 4 {
		t.Fatalf("%d forms and errors %v, want 4 forms and no error", len(f.Forms()), errs)
	}
	if doc := f.Forms()[1].Doc(); doc != "comment two" {
		t.Errorf("Doc of (c d e) = %q", doc)
	}
	if doc := f.Forms()[2].Doc(); doc != "" {
		t.Errorf("the trailing comment three must not document (f g), got %q", doc)
	}
}
