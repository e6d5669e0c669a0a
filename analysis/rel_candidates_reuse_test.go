package analysis

import (
	"context"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestPatchCandidates checks the previous version's "did you mean" candidates patched for a new
// version against the reference, the list built anew (candidateList) and compared entry by
// entry, on random edits of files in both notations: renamed, respelt and added relations,
// other arities, forms being typed.
func TestPatchCandidates(t *testing.T) {
	infix, err := os.ReadFile("../testdata/syntax/infix-game.hrf")
	if err != nil {
		t.Fatal(err)
	}
	files := []struct {
		src     string
		dialect syntax.Dialect
	}{
		{gengame.UnknownRelations(4 << 10), syntax.Prefix},
		{gengame.RulesOfOneRelation(2 << 10), syntax.Prefix},
		{gengame.ManyArities(4 << 10), syntax.Prefix},
		{string(infix), syntax.Infix},
	}
	pieces := []string{" ", "(", ")", "r1", "R1", "?x", "(r1 a b)", "(<= (q2 ?x) (r2 ?x))", "(p a)", "x", "Role", "(true ", "; c\n", "\n"}
	rng := rand.New(rand.NewPCG(21, 1))
	same, differ, patched, touched := 0, 0, 0, 0
	for _, file := range files {
		src := file.src
		f := parse(src, file.dialect)
		prevRes := Analyze(f, nil)
		prevModel := prevRes.Model
		for range 200 {
			at := rng.IntN(len(src) + 1)
			end := min(len(src), at+rng.IntN(4))
			if rng.IntN(2) == 0 {
				end = at
			}
			piece := pieces[rng.IntN(len(pieces))]
			src = src[:at] + piece + src[end:]
			m := Analyze(parse(src, file.dialect), nil).Model
			want, ok := checkPatch(t, prevModel, m)
			// The same edit analysed reusing the previous version's: the candidates are
			// patched from the relations the edit touched (touchedRelations) alone.
			f = f.Edit(at, end, piece)
			res, err := AnalyzeContext(context.Background(), f, nil, prevRes)
			if err != nil {
				t.Fatal(err)
			}
			if res.Model.touchedOK {
				touched++
				if w, _ := checkPatch(t, prevRes.Model, res.Model); w != want {
					t.Fatalf("the lists are the same: %v with reuse, %v without", w, want)
				}
			}
			prevRes = res
			if !want && ok {
				patched++
			}
			if want {
				same++
			} else {
				differ++
			}
			prevModel = m
		}
	}
	if touched < 100 {
		t.Fatalf("the candidates were patched from the touched relations %d times: that path is not exercised", touched)
	}
	if same == 0 || patched == 0 || differ == patched {
		t.Fatalf("the edits kept the candidates %d times and changed them %d times (patched %d): each must occur", same, differ, patched)
	}
}

func parse(src string, d syntax.Dialect) *syntax.File {
	f, _ := syntax.ParseDialect(src, d)
	return f
}

// TestSameCandidatesEdgeCases: a relation whose name the notation cannot write, a keyword
// relation defined by the game, an arity added or removed, a spelling that becomes the most
// common one.
func TestSameCandidatesEdgeCases(t *testing.T) {
	base := "(role a)\n(<= (p ?x) (q ?x))\n(q 1)\n(<= (s ?x) (p ?x) (nope ?x))\n"
	cases := []struct {
		name, next string
		same       bool
		prev       string // base when empty
	}{
		{"a use added", base + "(<= (t 1) (q 1))\n(<= (t 2) (q 2))\n", false, ""},
		{"nothing", base + "; comment\n", true, ""},
		{"another arity", base + "(q 1 2)\n", false, ""},
		{"a respelling, not the most common", base + "(<= (s 2) (Q 2))\n", true, ""},
		{"a respelling, now the most common", base + "(<= (s 2) (Q 2))\n(<= (s 3) (Q 3))\n(<= (s 4) (Q 4))\n", false, ""},
		{"a relation's last clause removed", strings.Replace(base, "(q 1)\n", "", 1), false, ""},
		{"true defined", base + "(true 1)\n", true, ""},
		{"true defined with two arguments", base + "(true 1 2)\n", false, ""},
		{"distinct defined with one argument", base + "(distinct 1)\n", false, ""},
		{"true's own spelling removed", base, false, base + "(TRUE 1)\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prev := c.prev
			if prev == "" {
				prev = base
			}
			prevModel := Analyze(parse(prev, syntax.Prefix), nil).Model
			m := Analyze(parse(c.next, syntax.Prefix), nil).Model
			if got, _ := checkPatch(t, prevModel, m); got != c.same {
				t.Fatalf("the lists are the same: %v, want %v", got, c.same)
			}
		})
	}
}

// sameCandidates is the reference: the two lists compared entry by entry.
func sameCandidates(a, b []relCandidate) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameCandidate(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameIndex reports whether list, indexed by byKey or else searched (relCandidates.index), finds
// each key where want does, and no other.
func sameIndex(list []relCandidate, byKey, want map[string]int) bool {
	if byKey != nil {
		return maps.Equal(byKey, want)
	}
	c := &relCandidates{list: list}
	for k, i := range want {
		if j, ok := c.index(k); !ok || i != j {
			return false
		}
	}
	_, ok := c.index("\x00 no such relation")
	return len(list) == len(want) && !ok
}

// checkPatch checks m.patchCandidates from prevModel's list against m.candidateList and
// changedCandidates, and returns whether the two lists are the same and whether
// patchCandidates decided.
func checkPatch(t *testing.T, prevModel, m *Model) (same, ok bool) {
	t.Helper()
	list, byKey := prevModel.candidateList()
	prev := &relCandidates{list: list, byKey: byKey}
	want, wantIndex := m.candidateList()
	wantChanged := changedCandidates(prev, want, wantIndex)
	slices.Sort(wantChanged)
	same = sameCandidates(list, want)
	got, gotIndex, changed, ok := m.patchCandidates(prev)
	switch {
	case !ok && len(wantChanged) <= maxChanged:
		t.Fatalf("patchCandidates gave up with %d relations changed", len(wantChanged))
	case !ok:
	case !slices.Equal(changed, wantChanged):
		t.Fatalf("patchCandidates changed %q, want %q", changed, wantChanged)
	case same && got != nil:
		t.Fatalf("patchCandidates made a list for an edit that changed none")
	case !same && (!slices.EqualFunc(got, want, sameCandidate) || !sameIndex(got, gotIndex, wantIndex)):
		t.Fatalf("patchCandidates made\n%v\nwant\n%v", got, want)
	}
	return same, ok
}
