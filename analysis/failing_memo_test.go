package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestFailingUsesVisitsOnlyUsers edits a legal rule of a game with no does (its sets of does
// change): the clauses that do not use does store no failingUses memo, so the edit costs in
// proportion to the uses, not to the file (issue 21's many-roles family).
func TestFailingUsesVisitsOnlyUsers(t *testing.T) {
	src := gengame.ManyRoles(8 << 10)
	at := strings.Index(src, "(<= (legal p20 ") + 1
	f, _ := syntax.Parse(src)
	prev, err := AnalyzeContext(context.Background(), f, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if i%2 == 0 {
			f = f.Edit(at, at, "x")
		} else {
			f = f.Edit(at, at+1, "")
		}
		m, err := Prepare(context.Background(), f, prev.Model)
		if err != nil {
			t.Fatal(err)
		}
		before := make([]*[]failingMemo, len(m.Clauses))
		for j, c := range m.Clauses {
			before[j] = c.failing.Load()
		}
		res, err := CheckModel(context.Background(), m, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		stored := 0
		for j, c := range m.Clauses {
			if c.failing.Load() != before[j] {
				stored++
			}
		}
		if stored > 2 {
			t.Errorf("edit %d: %d of %d clauses stored a failingUses memo; want at most the edited clauses", i, stored, len(m.Clauses))
		}
		want := Analyze(f, nil)
		if len(res.Diagnostics) != len(want.Diagnostics) {
			t.Errorf("edit %d: %d diagnostics, a full analysis %d", i, len(res.Diagnostics), len(want.Diagnostics))
		}
		prev = res
	}
}

// TestProducersKeptWhenNeighbourParsedAgain: the incremental parser parses the form beside an
// edited one again; the same text gives the same contributions, so the producers keep the
// previous version's sets (and with them the failingUses memos keyed by them).
func TestProducersKeptWhenNeighbourParsedAgain(t *testing.T) {
	src := "(role a)\n(role b)\n(init (s 0))\n(<= (legal a (m 1)) (true (s 0)))\n(<= (legal b (m 2)) (true (s 0)))\n(<= (next (s 1)) (does a (m 1)))\n"
	f, _ := syntax.Parse(src)
	prev, err := AnalyzeContext(context.Background(), f, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	roles, moves := prev.Model.producersAt(KeywordRel("does"), 0), prev.Model.producersAt(KeywordRel("does"), 1)
	// Replace the "l" of the second legal rule by itself: the form is parsed again, unchanged.
	at := strings.Index(src, "(<= (legal b") + 5
	g := f.Edit(at, at+1, "l")
	m, err := Prepare(context.Background(), g, prev.Model)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.walked) == 0 {
		t.Fatal("no clause walked anew: the test does not test what it says")
	}
	if m.producersAt(KeywordRel("does"), 0) != roles || m.producersAt(KeywordRel("does"), 1) != moves {
		t.Errorf("does's sets computed again after an edit that changed no clause's text")
	}
}

// TestProducersKeptWhenClauseAddedToAnything: a legal rule put back beside one whose role is
// unbound (legal's roles: anything) leaves does's roles as they were: the previous version's
// set itself.
func TestProducersKeptWhenClauseAddedToAnything(t *testing.T) {
	src := "(role a)\n(init (s 0))\n(<= (legal ?r noop) (true (s 0)))\n(<= (legal a (m 1)) (true (s 0)))\n(<= (next (s 1)) (does a (m 1)))\n"
	at := strings.Index(src, "(<= (legal a") + 1
	f, _ := syntax.Parse(src)
	f = f.Edit(at, at, "x") // the rule is gone: (x<= ...) is a fact of another relation
	prev, err := AnalyzeContext(context.Background(), f, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	roles := prev.Model.producersAt(KeywordRel("does"), 0)
	if !roles.any {
		t.Fatal("legal's roles are not anything: the test does not test what it says")
	}
	m, err := Prepare(context.Background(), f.Edit(at, at+1, ""), prev.Model)
	if err != nil {
		t.Fatal(err)
	}
	if m.producersAt(KeywordRel("does"), 0) != roles {
		t.Errorf("does's roles computed again after a legal rule was added to a set of anything")
	}
	res, err := CheckModel(context.Background(), m, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := Analyze(m.File, nil); len(res.Diagnostics) != len(want.Diagnostics) {
		t.Errorf("%d diagnostics, a full analysis %d", len(res.Diagnostics), len(want.Diagnostics))
	}
}
