package analysis

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// reanalyzeAfterProducers analyses f reusing prev as the language server does, with the
// producers' fixpoint made before the whole-file checks run (as a check that asks for it first
// does on another goroutine), and checks the result against a fresh analysis.
func reanalyzeAfterProducers(t *testing.T, f *syntax.File, prev *Model) *Result {
	t.Helper()
	ctx := context.Background()
	m, err := Prepare(ctx, f, prev)
	if err != nil {
		t.Fatal(err)
	}
	m.producersAt(Rel{"r1", 1}, 0)
	res, err := CheckModel(ctx, m, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := diagLines(res.Diagnostics), diagLines(Analyze(f, nil).Diagnostics); !slices.Equal(got, want) {
		t.Fatalf("the analysis reusing the previous version's differs from a fresh one")
	}
	return res
}

func diagLines(ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		line := d.Message
		for _, fx := range d.Fixes {
			line += " | " + fx.Title
		}
		out = append(out, line)
	}
	return out
}

// TestSuggestionsReusedAcrossVersions: the "did you mean" answers of a file of many undefined
// relations are taken over by the next version, whatever ran first. It failed when the producers'
// fixpoint, made by an earlier check, dropped the model's link to the previous version before
// undefined-relation looked for its answers: every edit searched the 2,000 names again.
func TestSuggestionsReusedAcrossVersions(t *testing.T) {
	src := gengame.UnknownRelations(20 << 10)
	f, _ := syntax.Parse(src)
	first, err := AnalyzeContext(context.Background(), f, nil, nil)
	if err != nil {
		t.Fatal(err)
	}

	// An edit that changes no relation: the same candidates and answers.
	at := strings.Index(src, "(role ?x)")
	f = f.Edit(at, at, " ")
	second := reanalyzeAfterProducers(t, f, first.Model)
	if second.Model.relCands == nil || second.Model.relCands != first.Model.relCands {
		t.Fatalf("an edit that changes no relation made the suggestions again")
	}

	// A relation added that no name asked is close to or shares a character pair or a deletion
	// variant with: every answer is kept, the ranked ones (q0 to q9, nothing at distance 1)
	// too, and no table of the index is made.
	f = f.Edit(len(src)+1, len(src)+1, "(zzzzzz 1)\n")
	third := reanalyzeAfterProducers(t, f, second.Model)
	if c := third.Model.relCands; c == nil || c == second.Model.relCands || c.idx.dels != nil || c.idx.grams != nil {
		t.Fatalf("adding an unrelated relation searched names again")
	}

	// A relation renamed: the answers it may change are made again, and equal a fresh analysis's.
	at = strings.Index(f.Source(), "(r7 ")
	f = f.Edit(at+1, at+3, "q7")
	reanalyzeAfterProducers(t, f, third.Model)
}
