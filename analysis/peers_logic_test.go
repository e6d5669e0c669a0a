package analysis

import (
	"sort"
	"strings"
	"testing"
)

// TestPeersLogic pins what the logic checks (safety, stratification, recursion restriction,
// state dependence) report on the peer projects' must-fail files: the code, the text of each
// range and nothing else of these codes. The files are read from ../shared/games.
func TestPeersLogic(t *testing.T) {
	logic := map[string]bool{"unsafe-variable": true, "unstratified-negation": true, "recursion-restriction": true,
		"state-dependent": true, "keyword-placement": true, "goal-value": true}
	for _, c := range []struct {
		file string
		want []string // "code text", sorted
	}{
		// One report per variable and rule.
		{"ggp-org__ggp-base/games/test/test_case_3b.kif", []string{
			"unsafe-variable ?m", "unsafe-variable ?m", "unsafe-variable ?n", "unsafe-variable ?n",
			"unsafe-variable ?x", "unsafe-variable ?x", "unsafe-variable ?y", "unsafe-variable ?y"}},
		{"ggp-org__ggp-base/games/test/test_case_3e.kif", []string{
			"unsafe-variable ?p", "unsafe-variable ?p"}},
		{"ggp-org__ggp-base/games/test/test_case_3f.kif", []string{ // (legal ?p ?p), and (goal ?p 0) with ?p only under not
			"unsafe-variable ?p", "unsafe-variable ?p"}},
		{"ggp-org__ggp-base/games/test/test_clean_not_distinct.kif", nil}, // safe: ggp-base rejects the negated distinct
		{"sumedhghaisas__libgdl/data/parser_tests/notunstrat.kif", []string{"unstratified-negation (test2 ?x)"}},
		{"sumedhghaisas__libgdl/data/parser_tests/recurseunstrat.kif", []string{
			// (test ?x) under (test (fun ?x)), twice, and (test3 ?x) in the or branch that test2 does not bind
			"recursion-restriction ?x", "recursion-restriction ?x", "recursion-restriction ?x"}},
		{"sumedhghaisas__libgdl/data/parser_tests/headsafe.kif", []string{"recursion-restriction ?y", "unsafe-variable ?x"}},
		{"sumedhghaisas__libgdl/data/parser_tests/notsafe.kif", []string{"unsafe-variable ?y"}},
		{"sumedhghaisas__libgdl/data/parser_tests/orsafe.kif", []string{"unsafe-variable ?x"}},
		{"sumedhghaisas__libgdl/data/parser_tests/base_depen.kif", []string{"state-dependent (does robot ?x)", "state-dependent (true ?x)"}},
		{"sumedhghaisas__libgdl/data/parser_tests/input_depen.kif", []string{"state-dependent (does robot ?x)", "state-dependent (true ?x)"}},
		{"sumedhghaisas__libgdl/data/parser_tests/init_depen.kif", []string{"state-dependent (does robot ?x)", "state-dependent (true ?x)"}},
		{"sumedhghaisas__libgdl/data/parser_tests/legal_depen.kif", []string{"state-dependent (does robot ?x)"}},
		{"AlexLandau__gdl-validation/testgames/baseDependsOnTrue.kif", []string{"state-dependent (true bar)"}},
	} {
		t.Run(c.file[strings.LastIndex(c.file, "/")+1:], func(t *testing.T) {
			res, src := analyzeCorpusFile(t, c.file)
			var got []string
			for _, d := range res.Diagnostics {
				if logic[d.Code] {
					if d.Severity != Error {
						t.Errorf("%s is a %s, want an error", d.Code, d.Severity)
					}
					got = append(got, d.Code+" "+src[d.Span.Start:d.Span.End])
				}
			}
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
