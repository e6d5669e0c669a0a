// Package analysis builds the semantic model of a GDL file (symbols, arities, occurrences,
// the rule dependency graph, its strongly connected components and strata) and runs every check a
// valid game must pass. It never fails: it returns a model and diagnostics, and a file with syntax
// errors still gets every check that can run on its complete forms.
package analysis

import (
	"cmp"
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

// sortDiagnostics orders diagnostics by position, then code, for stable output.
// The diagnostics are large values and mostly in order already (each check reports in source
// order): an order of indexes is sorted, and the diagnostics are moved once.
func sortDiagnostics(ds []Diagnostic) {
	less := func(a, b *Diagnostic) int {
		if a.Span.Start != b.Span.Start {
			return cmp.Compare(a.Span.Start, b.Span.Start)
		}
		if a.Span.End != b.Span.End {
			return cmp.Compare(a.Span.End, b.Span.End)
		}
		return strings.Compare(a.Code, b.Code)
	}
	sorted := true
	for i := 1; i < len(ds) && sorted; i++ {
		sorted = less(&ds[i-1], &ds[i]) <= 0
	}
	if sorted {
		return
	}
	order := make([]int32, len(ds))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(i, j int32) int { return less(&ds[i], &ds[j]) })
	moved := make([]Diagnostic, len(ds))
	for k, i := range order {
		moved[k] = ds[i]
	}
	copy(ds, moved)
}

// syntaxDiagnostics turns the parser's errors into diagnostics.
func syntaxDiagnostics(f *syntax.File) []Diagnostic {
	errs := f.Errors()
	out := make([]Diagnostic, 0, len(errs))
	for _, e := range errs {
		d := Diagnostic{Span: e.Span, Severity: Error, Code: e.Code, Category: CategorySyntax, Message: e.Message}
		if e.Fix != nil {
			d.Fixes = []syntax.Fix{*e.Fix}
		}
		out = append(out, d)
	}
	return out
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
