package analysis

import (
	"github.com/gdl-lsp/gdl/syntax"
)

// Result is what Analyze returns: the model and every diagnostic, sorted by position.
type Result struct {
	Model       *Model
	Diagnostics []Diagnostic
}

// Analyze builds the semantic model of f and runs every registered check on its complete forms. cfg may be nil; its
// severity overrides apply to every diagnostic, including the parser's, and "off" drops a code.
func Analyze(f *syntax.File, cfg *Config) *Result {
	m := NewModel(f)
	// Checks run on complete forms only: a form being typed is reported by the parser, not
	// picked apart by every check.
	checked := m
	if m.incomplete {
		checked = completeModel(f)
	}
	var ds []Diagnostic
	for _, d := range syntaxDiagnostics(f) {
		d.Severity = cfg.severityFor(d.Code, d.Severity)
		if d.Severity != SeverityOff {
			ds = append(ds, d)
		}
	}
	for _, c := range Checks {
		sev := cfg.severityFor(c.Code, c.Severity)
		if sev == SeverityOff {
			continue
		}
		r := &Reporter{check: c, severity: sev}
		c.Run(checked, r)
		ds = append(ds, r.out...)
	}
	sortDiagnostics(ds)
	return &Result{Model: m, Diagnostics: ds}
}

// Check is one semantic check. Each lives in its own file and is listed in Checks.
type Check struct {
	Code     string   // stable kebab-case code
	Severity Severity // default severity
	Category Category
	Summary  string // one line for documentation and `gdl check --list`
	Example  string // a short bad example for docs/diagnostics.md
	Fix      string // how to fix it, for docs/diagnostics.md
	Run      func(m *Model, r *Reporter)
}

// Reporter collects one check's diagnostics.
type Reporter struct {
	check    *Check
	severity Severity
	out      []Diagnostic
}

// Report adds a diagnostic with the check's code, category and configured severity.
func (r *Reporter) Report(span syntax.Span, message string, related []Related, fixes ...syntax.Fix) {
	r.out = append(r.out, Diagnostic{
		Span: span, Severity: r.severity, Code: r.check.Code, Category: r.check.Category,
		Message: message, Related: related, Fixes: fixes,
	})
}

// KnownCode reports whether code is a diagnostic code of the parser or of a check.
func KnownCode(code string) bool {
	for _, c := range syntax.Codes {
		if c == code {
			return true
		}
	}
	for _, c := range Checks {
		if c.Code == code {
			return true
		}
	}
	return false
}
