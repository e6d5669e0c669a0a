package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

func analyzeCorpusFile(t *testing.T, rel string) (*Result, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, rel))
	if err != nil {
		corpus.Skipf(t, "SKIPPED: %s is not there (../shared/games is needed beside the repository)", rel)
	}
	f, _ := syntax.Parse(string(data))
	return Analyze(f, nil), string(data)
}

func count(res *Result, sev Severity, code string) int {
	n := 0
	for _, d := range res.Diagnostics {
		if d.Severity == sev && (code == "" || d.Code == code) {
			n++
		}
	}
	return n
}

// TestGGPBaseStaticValidation: what ggp-base's StaticValidationTest asserts of its test games.
func TestGGPBaseStaticValidation(t *testing.T) {
	dir := "ggp-org__ggp-base/games/test/"
	for _, n := range []string{"connectFour", "simpleMutex", "test_case_1b", "test_case_2a", "test_case_2b", "test_case_2c",
		"test_case_3c", "test_case_3d", "test_case_4a", "test_case_5a", "test_case_5b", "test_case_5c", "ticTacToe"} {
		res, _ := analyzeCorpusFile(t, dir+n+".kif")
		if c := count(res, Error, ""); c > 0 {
			t.Errorf("%s must validate, got %d errors, first: %s", n, c, firstError(res))
		}
	}
	// ggp-base warns on these: an empty-bodied rule, a zero-arity sentence in parentheses
	// ((<= (open2) ...), which its test calls empty-bodied), and arities that differ.
	for _, c := range []struct{ file, code string }{
		{"test_case_1a", "empty-body"},
		{"test_case_3a", "unnecessary-parentheses"},
		{"test_invalid_function_arities_differ", "arity-mismatch"},
		{"test_invalid_sentence_arities_differ", "arity-mismatch"},
	} {
		res, _ := analyzeCorpusFile(t, dir+c.file+".kif")
		if count(res, Warning, c.code) == 0 {
			t.Errorf("%s: ggp-base warns; we report no %s warning: %v", c.file, c.code, res.Diagnostics)
		}
		if n := count(res, Error, ""); n > 0 {
			t.Errorf("%s: ggp-base only warns; we report %d errors, first: %s", c.file, n, firstError(res))
		}
	}
	for _, n := range []string{"test_case_3b", "test_case_3e", "test_case_3f"} {
		res, _ := analyzeCorpusFile(t, dir+n+".kif")
		if count(res, Error, "unsafe-variable") == 0 {
			t.Errorf("%s: ggp-base rejects it as unsafe; we report no unsafe-variable error", n)
		}
	}
	// ggp-base's validator rejects (not (distinct ...)), which its own GdlCleaner then rewrites;
	// players accept it, so we warn (gdl-reference.md: quirks other players accept get a warning).
	res, _ := analyzeCorpusFile(t, dir+"test_clean_not_distinct.kif")
	if count(res, Warning, "negated-distinct") == 0 || count(res, Error, "") > 0 {
		t.Errorf("test_clean_not_distinct: want negated-distinct warnings and no error, got %v", res.Diagnostics)
	}
}

// TestGDLValidationRanges: the exact ranges gdl-validation's tests expect.
func TestGDLValidationRanges(t *testing.T) {
	dir := "AlexLandau__gdl-validation/testgames/"
	for _, c := range []struct {
		file, code string
		start, end int
	}{
		{"misplacedDatalogKeyword1", "keyword-as-term", 0, 18},
		{"misplacedDatalogKeyword2", "keyword-as-term", 5, 8},
		{"misplacedDatalogKeyword3", "keyword-as-term", 6, 9},
		{"varInTopLevelSentence", "variable-in-fact", 10, 15},
		{"emptyDisjunction", "bad-disjunction", 31, 36},
		{"baseDependsOnTrue", "state-dependent", 15, 25},
	} {
		res, _ := analyzeCorpusFile(t, dir+c.file+".kif")
		found := false
		for _, d := range res.Diagnostics {
			if d.Code == c.code && d.Span.Start == c.start && d.Span.End == c.end {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want %s at [%d,%d), got %v", c.file, c.code, c.start, c.end, res.Diagnostics)
		}
	}
	// The complete games among them have exactly that one problem.
	for _, n := range []string{"varInTopLevelSentence", "emptyDisjunction", "baseDependsOnTrue"} {
		res, _ := analyzeCorpusFile(t, dir+n+".kif")
		if c := count(res, Error, ""); c != 1 {
			t.Errorf("%s: want exactly 1 error, got %d: %v", n, c, res.Diagnostics)
		}
	}
}

// TestLibGDLMustFail: libgdl's parser tests that must be rejected, with the code we give each.
func TestLibGDLMustFail(t *testing.T) {
	dir := "sumedhghaisas__libgdl/data/parser_tests/"
	for _, c := range []struct{ file, code string }{
		{"notunstrat", "unstratified-negation"},
		{"recurseunstrat", "recursion-restriction"}, // (test (fun ?x)) from (test ?x): unbounded recursion
		{"headsafe", "unsafe-variable"},
		{"notsafe", "unsafe-variable"},
		{"orsafe", "unsafe-variable"},
		{"base_depen", "state-dependent"},
		{"input_depen", "state-dependent"},
		{"init_depen", "state-dependent"},
		{"legal_depen", "state-dependent"},
		{"ndef_role", "missing-role"},
		{"ndef_legal", "missing-legal"},
		{"ndef_terminal", "missing-terminal"},
		{"ndef_goal", "missing-goal"},
	} {
		res, _ := analyzeCorpusFile(t, dir+c.file+".kif")
		if c.code == "" || count(res, Error, c.code) == 0 {
			t.Errorf("%s must fail with %q; errors: %v", c.file, c.code, res.Diagnostics)
		}
	}
}

func firstError(res *Result) string {
	for _, d := range res.Diagnostics {
		if d.Severity == Error {
			return d.Code + ": " + d.Message
		}
	}
	return ""
}

// TestGDLValidationExactlyOne: gdl-validation's misplaced-keyword files are fragments, not games;
// apart from the missing-role/legal/goal/terminal of a fragment, each has exactly its one error.
// Its commentEof file (";;;" without a newline) has no forms and gets no error, only the
// empty-file warning.
func TestGDLValidationExactlyOne(t *testing.T) {
	dir := "AlexLandau__gdl-validation/testgames/"
	for _, n := range []string{"misplacedDatalogKeyword1", "misplacedDatalogKeyword2", "misplacedDatalogKeyword3"} {
		res, _ := analyzeCorpusFile(t, dir+n+".kif")
		var others []string
		for _, d := range res.Diagnostics {
			if d.Severity == Error && !strings.HasPrefix(d.Code, "missing-") {
				others = append(others, d.Code)
			}
		}
		if len(others) != 1 || others[0] != "keyword-as-term" {
			t.Errorf("%s: want exactly one keyword-as-term error, got %v", n, others)
		}
	}
	res, _ := analyzeCorpusFile(t, dir+"commentEof.kif")
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "empty-file" || res.Diagnostics[0].Severity != Warning {
		t.Errorf("commentEof: want only the empty-file warning, got %v", res.Diagnostics)
	}
}

// TestLibGDLGamesParse: libgdl's GameParsingTest parses every game of data/games, and its parser
// rejects unsafe, unstratified and incomplete games, so none of them may get an error from us.
func TestLibGDLGamesParse(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "sumedhghaisas__libgdl/data/games/*.kif"))
	if len(paths) == 0 {
		corpus.Skipf(t, "SKIPPED: %s has no libgdl games (../shared/games is needed beside the repository)", corpusDir)
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(corpusDir, p)
		res, _ := analyzeCorpusFile(t, rel)
		if c := count(res, Error, ""); c > 0 {
			t.Errorf("%s parses in libgdl; we report %d errors, first: %s", rel, c, firstError(res))
		}
	}
}
