package analysis

import (
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// A small valid game around one rule; %s is that rule.
const fixGame = `(role robot)
(init (line red 1 1))
(index 1)
(index 2)
%s
(<= (next (line red ?i ?j))
    (does robot (mark ?i ?j)))
(<= (next (line ?c ?i ?j))
    (true (line ?c ?i ?j)))
(<= terminal
    (true (line red 2 2)))
(goal robot 100)
`

func analyzeText(src string) *Result {
	f, _ := syntax.Parse(src)
	return Analyze(f, nil)
}

// onlyFix returns the one diagnostic with code and its one fix.
func onlyFix(t *testing.T, res *Result, code string) (Diagnostic, syntax.Fix) {
	t.Helper()
	var ds []Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == code {
			ds = append(ds, d)
		} else if d.Severity == Error || d.Severity == Warning {
			t.Fatalf("unexpected %s: %s", d.Code, d.Message)
		}
	}
	if len(ds) != 1 || len(ds[0].Fixes) != 1 {
		t.Fatalf("want one %s with one fix, got %+v", code, ds)
	}
	return ds[0], ds[0].Fixes[0]
}

// clean asserts that src has no diagnostic at all but hints of other codes than the ones given.
func clean(t *testing.T, src string, codes ...string) {
	t.Helper()
	for _, d := range analyzeText(src).Diagnostics {
		for _, c := range codes {
			if d.Code == c {
				t.Errorf("after the fix, still %s at %q: %s", d.Code, src[d.Span.Start:d.Span.End], d.Message)
			}
		}
		if d.Severity == Error || d.Severity == Warning {
			t.Errorf("after the fix: %s %s: %s", d.Severity, d.Code, d.Message)
		}
	}
}

func TestUnsafeHelperFix(t *testing.T) {
	rule := `(<= (legal robot (mark ?i ?j))
    (index ?i)
    (index ?j)
    (not (true (line ?anyColor ?i ?j))))`
	src := strings.Replace(fixGame, "%s", rule, 1)
	d, fix := onlyFix(t, analyzeText(src), "unsafe-variable")
	if got := src[d.Span.Start:d.Span.End]; got != "?anyColor" {
		t.Fatalf("range %q, want ?anyColor", got)
	}
	got := applyFix(src, fix)
	want := strings.Replace(fixGame, "%s", `(<= (legal robot (mark ?i ?j))
    (index ?i)
    (index ?j)
    (not (hasLine ?i ?j)))
(<= (hasLine ?i ?j)
    (true (line ?anyColor ?i ?j)))`, 1)
	if got != want {
		t.Fatalf("fixed text:\n%s\nwant:\n%s", got, want)
	}
	clean(t, got, "unsafe-variable", "order-hint")

	// The helper's name does not clash with a relation of the game.
	taken := strings.Replace(src, "(index 1)", "(index 1)\n(<= (hasLine 1 1) (index 1))\n(<= (legal robot noop) (hasLine 1 1))", 1)
	_, fix = onlyFix(t, analyzeText(taken), "unsafe-variable")
	if !strings.Contains(applyFix(taken, fix), "(not (hasLine2 ?i ?j))") {
		t.Errorf("want the fresh name hasLine2, got:\n%s", applyFix(taken, fix))
	}
}

// No helper when the unsafe variable occurs outside the negated atom: projecting it away would
// leave the other occurrence unsafe and change the rule's meaning.
func TestUnsafeHelperFixOnlyForLocalVariables(t *testing.T) {
	rule := `(<= (legal robot (mark ?i ?c))
    (index ?i)
    (not (true (line ?c ?i ?i))))`
	res := analyzeText(strings.Replace(fixGame, "%s", rule, 1))
	n := 0
	for _, d := range res.Diagnostics {
		if d.Code == "unsafe-variable" {
			n++
			if len(d.Fixes) != 0 {
				t.Errorf("unexpected fix %q for %s", d.Fixes[0].Title, d.Message)
			}
		}
	}
	if n != 1 {
		t.Errorf("want ?c unsafe once (in the head and in the not), got %d diagnostics", n)
	}
}

func TestOrderHintFix(t *testing.T) {
	rule := `(<= (legal robot (mark ?i ?j))
    ; free cells only
    (not (true (line red ?i ?j))) ; taken
    (index ?i)
    (distinct ?i ?j)
    (index ?j))`
	src := strings.Replace(fixGame, "%s", rule, 1)
	res := analyzeText(src)
	var hints []string
	var fixes []syntax.Fix
	for _, d := range res.Diagnostics {
		if d.Code == "order-hint" {
			hints = append(hints, src[d.Span.Start:d.Span.End])
			fixes = append(fixes, d.Fixes...)
		}
	}
	if strings.Join(hints, "|") != "(not (true (line red ?i ?j)))|(distinct ?i ?j)" || len(fixes) != 2 {
		t.Fatalf("hints %q, %d fixes", hints, len(fixes))
	}
	want := strings.Replace(fixGame, "%s", `(<= (legal robot (mark ?i ?j))
    ; free cells only
    (index ?i) ; taken
    (index ?j)
    (not (true (line red ?i ?j)))
    (distinct ?i ?j))`, 1)
	for _, fix := range fixes {
		got := applyFix(src, fix)
		if got != want {
			t.Fatalf("fixed text:\n%s\nwant:\n%s", got, want)
		}
		clean(t, got, "order-hint")
	}
}

// An or whose not needs a variable bound only after the or: the hint names that variable only
// (not ?y, which the or binds itself), and the fix moves the or after the atom binding ?x.
func TestOrderHintFixInsideOr(t *testing.T) {
	rule := `(<= (legal robot (mark ?i ?j))
    (or (index ?k) (not (true (line red ?i ?j))))
    (index ?i)
    (index ?j))`
	src := strings.Replace(fixGame, "%s", rule, 1)
	d, fix := onlyFix(t, analyzeText(src), "order-hint")
	if got := src[d.Span.Start:d.Span.End]; got != "(or (index ?k) (not (true (line red ?i ?j))))" {
		t.Fatalf("range %q", got)
	}
	if !strings.Contains(d.Message, "uses ?i, ?j before") {
		t.Errorf("message %q, want it to name ?i, ?j", d.Message)
	}
	got := applyFix(src, fix)
	want := strings.Replace(fixGame, "%s", `(<= (legal robot (mark ?i ?j))
    (index ?i)
    (index ?j)
    (or (index ?k) (not (true (line red ?i ?j)))))`, 1)
	if got != want {
		t.Fatalf("fixed text:\n%s\nwant:\n%s", got, want)
	}
	clean(t, got, "order-hint")
}

// TestUnsafeHelperNames applies every fix of one analysis at once: two different negated atoms
// over line get two helpers, the same atom with other variable names shares the first, moves
// give doesSomething and doesMark, and HASLINE, taken in another spelling, is avoided.
// Applying the fixes one by one, re-analysing in between as an editor does, reuses the helper
// the first fix added instead of defining a second one.
func TestUnsafeHelperNames(t *testing.T) {
	rules := `(<= (HASLINE ?i) (index ?i))
(<= (legal robot (mark ?i ?j))
    (index ?i)
    (index ?j)
    (HASLINE ?i)
    (not (true (line ?anyColor ?i ?j)))) ; taken?
(<= (legal robot (fill ?i))
    (index ?i)
    (not (true (line red ?i ?anyJ))))
(<= (legal robot (cross ?x ?y))
    (index ?x)
    (index ?y)
    (not (true (line ?k ?x ?y))))
(<= (next (idle ?r))
    (role ?r)
    (not (does ?r ?m)))
(<= (next (unmarked ?i))
    (index ?i)
    (not (does robot (mark ?i ?j))))`
	src := strings.Replace(fixGame, "%s", rules, 1)
	res := analyzeText(src)
	got, applied := applyAllFixes(src, res.Diagnostics)
	if len(applied) != 5 {
		t.Fatalf("%d fixes applied, want 5: %+v", len(applied), res.Diagnostics)
	}
	want := strings.Replace(fixGame, "%s", `(<= (HASLINE ?i) (index ?i))
(<= (legal robot (mark ?i ?j))
    (index ?i)
    (index ?j)
    (HASLINE ?i)
    (not (hasLine2 ?i ?j))) ; taken?
(<= (hasLine2 ?i ?j)
    (true (line ?anyColor ?i ?j)))
(<= (legal robot (fill ?i))
    (index ?i)
    (not (hasLine3 ?i)))
(<= (hasLine3 ?i)
    (true (line red ?i ?anyJ)))
(<= (legal robot (cross ?x ?y))
    (index ?x)
    (index ?y)
    (not (hasLine2 ?x ?y)))
(<= (next (idle ?r))
    (role ?r)
    (not (doesSomething ?r)))
(<= (doesSomething ?r)
    (does ?r ?m))
(<= (next (unmarked ?i))
    (index ?i)
    (not (doesMark ?i)))
(<= (doesMark ?i)
    (does robot (mark ?i ?j)))`, 1)
	if got != want {
		t.Fatalf("all fixes at once:\n%s\nwant:\n%s", got, want)
	}
	clean(t, got, "unsafe-variable")

	// One by one, the last diagnostic first, re-analysing after each fix.
	seq := src
	for {
		var last *Diagnostic
		for _, d := range analyzeText(seq).Diagnostics {
			if d.Code == "unsafe-variable" && len(d.Fixes) > 0 {
				d := d
				last = &d
			}
		}
		if last == nil {
			break
		}
		seq = applyFix(seq, last.Fixes[0])
	}
	for _, h := range []string{"hasLine2", "hasLine3", "doesSomething", "doesMark"} {
		if n := strings.Count(seq, "(<= ("+h+" "); n != 1 {
			t.Errorf("one by one: %s defined %d times, want once:\n%s", h, n, seq)
		}
	}
	if strings.Count(seq, "(not (hasLine2 ") != 2 {
		t.Errorf("one by one: the two negations of the same atom must share hasLine2:\n%s", seq)
	}
	clean(t, seq, "unsafe-variable")
}
