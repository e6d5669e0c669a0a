// Package analysis builds the semantic model of a GDL file (symbols, arities, occurrences,
// the rule dependency graph, its strongly connected components and strata) and runs every check a
// valid game must pass. It never fails: it returns a model and diagnostics, and a file with syntax
// errors still gets every check that can run on its complete forms.
package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// Severity of a diagnostic. The zero value is not a severity: "off" in a config disables a code.
type Severity uint8

const (
	SeverityOff Severity = iota
	Error
	Warning
	Info
	Hint
)

var severityNames = [...]string{"off", "error", "warning", "info", "hint"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "unknown"
}

// ParseSeverity parses "error", "warning", "info", "hint" or "off".
func ParseSeverity(s string) (Severity, bool) {
	for i, n := range severityNames {
		if n == s {
			return Severity(i), true
		}
	}
	return 0, false
}

// Category groups diagnostics by the stage that found them.
type Category string

const (
	CategorySyntax    Category = "syntax"    // the parser
	CategorySemantics Category = "semantics" // GDL's restrictions: safety, stratification, keywords...
	CategoryStyle     Category = "style"     // valid but suspicious or unidiomatic
)

// Related is a secondary location that explains a diagnostic.
type Related struct {
	Span    syntax.Span
	Message string
}

// Diagnostic is one problem found in a file.
type Diagnostic struct {
	Span     syntax.Span
	Severity Severity
	Code     string
	Category Category
	Message  string
	Related  []Related
	Fixes    []syntax.Fix // machine-applicable repairs, best first
}

// compareDiagnostics orders diagnostics by position, then code.
func compareDiagnostics(a, b *Diagnostic) int {
	if a.Span.Start != b.Span.Start {
		return cmp.Compare(a.Span.Start, b.Span.Start)
	}
	if a.Span.End != b.Span.End {
		return cmp.Compare(a.Span.End, b.Span.End)
	}
	return strings.Compare(a.Code, b.Code)
}

// maxMergedRuns is the most runs of diagnostics mergeDiagnostics merges; past it, it sorts them
// whole.
const maxMergedRuns = 16

// mergeDiagnostics returns the diagnostics of runs, one after another, ordered by position,
// then code, for stable output (ties keep the order given). Each run is one check's, or the
// per-clause checks': every run is sorted on its own, in place (most are already: a check
// reports in source order), and the runs are merged into the result, a pass over the
// diagnostics of each (a file of 120,000 diagnostics spent 40 ms of each edit sorting them
// whole, and copied them twice on the way).
func mergeDiagnostics(runs [][]Diagnostic) []Diagnostic {
	n, live := 0, runs[:0:0]
	for _, r := range runs {
		if len(r) > 0 {
			sortRun(r)
			n += len(r)
			live = append(live, r)
		}
	}
	if len(live) == 1 {
		return live[0]
	}
	ordered := true
	for k := 1; k < len(live) && ordered; k++ {
		ordered = compareDiagnostics(&live[k-1][len(live[k-1])-1], &live[k][0]) <= 0
	}
	out := make([]Diagnostic, 0, n)
	if ordered || len(live) > maxMergedRuns {
		for _, r := range live {
			out = append(out, r...)
		}
		if !ordered {
			sortRun(out)
		}
		return out
	}
	for len(live) > 0 {
		best := 0 // the run whose next diagnostic comes first; ties: the earlier run
		for k := 1; k < len(live); k++ {
			if compareDiagnostics(&live[k][0], &live[best][0]) < 0 {
				best = k
			}
		}
		out = append(out, live[best][0])
		if live[best] = live[best][1:]; len(live[best]) == 0 {
			live = slices.Delete(live, best, best+1)
		}
	}
	return out
}

// sortRun sorts ds by position, then code; ties keep the order given.
func sortRun(ds []Diagnostic) {
	sorted := true
	for i := 1; i < len(ds) && sorted; i++ {
		sorted = compareDiagnostics(&ds[i-1], &ds[i]) <= 0
	}
	if sorted {
		return
	}
	// The positions are sorted apart from the diagnostics, in a compact array: comparing in
	// place reads a cache line per diagnostic. Ties keep the order given: a pattern-defeating
	// quicksort with the index as the last key is stable, and costs a fraction of a merge
	// sort's moves on 120,000 diagnostics.
	type place struct {
		start, end int
		i          int32
	}
	order := make([]place, len(ds))
	for i := range order {
		order[i] = place{ds[i].Span.Start, ds[i].Span.End, int32(i)}
	}
	slices.SortFunc(order, func(a, b place) int {
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		if a.end != b.end {
			return cmp.Compare(a.end, b.end)
		}
		if c := strings.Compare(ds[a.i].Code, ds[b.i].Code); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	idx := make([]int32, len(order))
	for k, p := range order {
		idx[k] = p.i
	}
	moveDiagnostics(ds, idx)
}

// moveDiagnostics puts ds[order[k]] at k.
func moveDiagnostics(ds []Diagnostic, order []int32) {
	moved := make([]Diagnostic, len(ds))
	for k, i := range order {
		moved[k] = ds[i]
	}
	copy(ds, moved)
}

// MaxShown is the most diagnostics of one file that gdl check and the language server show:
// the first ones by position, then a note (CodeTooMany) saying how many more there are. A file
// of junk has as many errors as bytes; a list of a million is of no use, and its notification
// or SARIF log would take hundreds of megabytes.
const MaxShown = 1000

// CodeTooMany is the code of the note that ends a list of diagnostics cut at MaxShown, and
// TooManySummary its summary.
const (
	CodeTooMany    = "too-many-diagnostics"
	TooManySummary = "A note at the end of a file's diagnostics when there are more than 1,000: how many more there are (only the first 1,000 by position are shown)."
)

// Shown returns the diagnostics of file f to show: ds (sorted by position, as Analyze gives
// them) when there are at most MaxShown in all, else the first MaxShown and a note saying how
// many more there are, the parser's errors beyond syntax.MaxErrors (never in ds) included.
func Shown(f *syntax.File, ds []Diagnostic) []Diagnostic {
	more := f.ErrorCount() - len(f.Errors())
	if len(ds) <= MaxShown && more == 0 {
		return ds
	}
	shown := ds[:min(len(ds), MaxShown)]
	more += len(ds) - len(shown)
	at := syntax.Span{}
	switch {
	case len(ds) > MaxShown:
		at = ds[MaxShown].Span
	case len(f.Errors()) > 0:
		last := f.Errors()[len(f.Errors())-1].Span
		at = syntax.Span{Start: last.End, End: last.End}
	}
	note := Diagnostic{Span: at, Severity: Info, Code: CodeTooMany, Category: CategorySyntax,
		Message: fmt.Sprintf("%d more diagnostics in this file are not shown: at most %d are, the first by position", more, MaxShown)}
	if len(ds) > MaxShown {
		note.Category = ds[MaxShown].Category
	}
	return append(slices.Clip(shown), note)
}

// syntaxDiagnostics turns the parser's errors into diagnostics.
func syntaxDiagnostics(f *syntax.File) []Diagnostic {
	errs := f.Errors()
	out := make([]Diagnostic, 0, len(errs))
	for _, e := range errs {
		out = append(out, SyntaxDiagnostic(e))
	}
	return out
}

// SyntaxDiagnostic is the diagnostic of a parser's error, with its default severity.
func SyntaxDiagnostic(e syntax.Error) Diagnostic {
	d := Diagnostic{Span: e.Span, Severity: Error, Code: e.Code, Category: CategorySyntax, Message: e.Message}
	if e.Fix != nil {
		d.Fixes = []syntax.Fix{*e.Fix}
	}
	return d
}

// Undefines reports whether d leaves what it concerns without a defined meaning: a syntax error,
// an unsafe variable, negation through recursion, or a keyword that depends on what GDL forbids
// (legal on does: the legal moves would depend on the moves chosen among them). The evaluator
// refuses the relations such a diagnostic concerns and the Prolog translation refuses the game.
func (d Diagnostic) Undefines() bool {
	return d.Severity == Error &&
		(d.Category == CategorySyntax || d.Code == "unsafe-variable" || d.Code == "unstratified-negation" ||
			d.Code == "state-dependent")
}
