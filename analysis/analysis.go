package analysis

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/gdl-lsp/gdl/syntax"
)

// Result is what Analyze returns: the model the checks ran on and every diagnostic, sorted by
// position.
type Result struct {
	// Model is the model of the file's complete forms: when some forms have syntax errors they
	// are left out (see Model.Incomplete; NewModel takes them in as far as their shape allows).
	Model       *Model
	Diagnostics []Diagnostic
}

// Analyze builds the semantic model of f and runs every registered check on its complete forms.
// cfg may be nil; its severity overrides apply to every diagnostic, including the parser's, and
// "off" drops a code. It never fails.
func Analyze(f *syntax.File, cfg *Config) *Result {
	res, _ := analyze(context.Background(), f, cfg, nil)
	return res
}

// AnalyzeContext is Analyze for the language server. It reuses what prev (the analysis of an
// earlier version of the document, or nil) found in the forms that the incremental parser
// shared between the two versions, and gives up as soon as it notices that ctx is done,
// returning ctx's error: the analysis of a version the user has typed past is not worth
// finishing. The result equals Analyze's. When it completes, its model records where each
// form's part is (by the form's identity), so that the analysis of the next version can reuse it
// in turn. It is Prepare then CheckModel.
func AnalyzeContext(ctx context.Context, f *syntax.File, cfg *Config, prev *Result) (*Result, error) {
	var pm *Model
	if prev != nil {
		pm = prev.Model
	}
	m, err := Prepare(ctx, f, pm)
	if err != nil {
		return nil, err
	}
	return CheckModel(ctx, m, cfg, nil)
}

// Prepare is the first half of AnalyzeContext, without the whole-file checks: the model of f's
// complete forms (reusing prev's parts for the forms f shares with prev's file, as
// AnalyzeContext does) with the per-clause checks run on each clause not reused. The model is
// complete and never changed again but for its guarded memos: the language server answers the
// requests that need only the model (hover, definition, completion...) from it while
// CheckModel runs, and it may be the prev of the next version's Prepare even if its CheckModel
// never finishes.
func Prepare(ctx context.Context, f *syntax.File, prev *Model) (*Model, error) {
	m, err := prepare(ctx, f, prev)
	if err != nil {
		return nil, err
	}
	m.markReusable()
	return m, nil
}

// CheckModel is the second half of AnalyzeContext, on a model Prepare made: the parser's
// diagnostics, the per-clause ones Prepare found, and the whole-file checks. progress, when not
// nil, is called after each whole-file check with how many of them are done and their number
// (from the goroutines that run them). It gives up, returning ctx's error, when ctx is done.
func CheckModel(ctx context.Context, m *Model, cfg *Config, progress func(done, total int)) (*Result, error) {
	var ds []Diagnostic
	keep := func(d Diagnostic) {
		if d.Severity = cfg.severityFor(d.Code, d.Severity); d.Severity != SeverityOff {
			ds = append(ds, d)
		}
	}
	for _, d := range syntaxDiagnostics(m.File) {
		keep(d)
	}
	nSyntax := len(ds)
	for i := range m.parts {
		for _, d := range m.parts[i].diags {
			keep(d)
		}
	}
	for _, c := range Checks {
		if c.Amend == nil || cfg.severityFor(c.Code, c.Severity) == SeverityOff {
			continue
		}
		var mine []*Diagnostic
		for i := range ds {
			if ds[i].Code == c.Code && ds[i].Category != CategorySyntax {
				mine = append(mine, &ds[i])
			}
		}
		if len(mine) > 0 {
			c.Amend(m, mine)
		}
	}
	outs, err := runChecks(ctx, m, cfg, progress)
	m.forgetPrev()
	if err != nil {
		return nil, err
	}
	// The runs mergeDiagnostics merges: the parser's, the clauses', each check's.
	runs := append([][]Diagnostic{ds[:nSyntax], ds[nSyntax:]}, outs...)
	return &Result{Model: m, Diagnostics: mergeDiagnostics(runs)}, nil
}

func analyze(ctx context.Context, f *syntax.File, cfg *Config, prev *Model) (*Result, error) {
	m, err := prepare(ctx, f, prev)
	if err != nil {
		return nil, err
	}
	return CheckModel(ctx, m, cfg, nil)
}

// prepare builds the model the checks run on and runs the per-clause checks on the clauses of
// forms not reused from prev (a reused form's diagnostics came with it, moved, in its part).
func prepare(ctx context.Context, f *syntax.File, prev *Model) (*Model, error) {
	// Checks run on complete forms only: a form being typed is reported by the parser, not
	// picked apart by every check.
	m, err := newModel(ctx, f, true, prev)
	if err != nil {
		return nil, err
	}
	for i := range m.parts {
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if p := &m.parts[i]; p.clause >= 0 && !p.checked {
			p.diags, p.checked = clauseDiagnostics(m, m.Clauses[p.clause]), true
		}
	}
	return m, nil
}

// runChecks runs the whole-file checks on up to GOMAXPROCS goroutines (four at most): a check
// only reads the model, whose lazily computed parts (DependsOn, the producers, the split strata)
// are guarded by its lock. It returns each check's diagnostics in the registry's order, so the result does not
// depend on the schedule. A panic in a check is raised again in the caller's goroutine.
func runChecks(ctx context.Context, m *Model, cfg *Config, progress func(done, total int)) ([][]Diagnostic, error) {
	outs := make([][]Diagnostic, len(Checks))
	var next, done atomic.Int32
	total := 0
	for _, c := range Checks {
		if c.Run != nil && cfg.severityFor(c.Code, c.Severity) != SeverityOff {
			total++
		}
	}
	if progress != nil {
		progress(0, total)
	}
	var failed atomic.Value // the first panic's value
	// Each check's reporter starts with room for what it reported on the previous version: the
	// base check reports thousands of clauses, and growing the list was a tenth of its time.
	var hint []int
	if p := m.reportHint.Load(); p != nil && len(*p) == len(Checks) {
		hint = *p
	}
	work := func() {
		defer func() {
			if p := recover(); p != nil {
				failed.CompareAndSwap(nil, panicValue{p, debug.Stack()})
			}
		}()
		for {
			i := int(next.Add(1) - 1)
			if i >= len(Checks) || ctx.Err() != nil || failed.Load() != nil {
				return
			}
			c := Checks[i]
			if c.Run == nil {
				continue
			}
			sev := cfg.severityFor(c.Code, c.Severity)
			if sev == SeverityOff {
				continue
			}
			r := &Reporter{check: c, severity: sev}
			if hint != nil && hint[i] > 0 {
				r.out = make([]Diagnostic, 0, hint[i])
			}
			c.Run(m, r)
			outs[i] = r.out
			if progress != nil {
				progress(int(done.Add(1)), total)
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 4) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	if p, ok := failed.Load().(panicValue); ok {
		panic(fmt.Sprintf("%v\n(in a check, on another goroutine)\n%s", p.value, p.stack))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	counts := make([]int, len(Checks))
	for i, out := range outs {
		counts[i] = len(out)
	}
	m.reportHint.Store(&counts)
	return outs, nil
}

// alongside runs f on another goroutine while g runs on this one, and returns when both are
// done. A panic in f is raised again here.
func alongside(f, g func()) {
	var p any
	var stack []byte
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p = recover(); p != nil {
				stack = debug.Stack()
			}
		}()
		f()
	}()
	g()
	<-done
	if p != nil {
		panic(fmt.Sprintf("%v\n(on another goroutine)\n%s", p, stack))
	}
}

// panicValue is a panic recovered in a check's goroutine, with where it happened.
type panicValue struct {
	value any
	stack []byte
}

// clauseDiagnostics runs every per-clause check on c, with default severities.
func clauseDiagnostics(m *Model, c *Clause) []Diagnostic {
	// One reporter for every check: a file of a million clauses made thirty million of them.
	r := &Reporter{}
	for _, ch := range Checks {
		if ch.Clause != nil {
			r.check, r.severity = ch, ch.Severity
			ch.Clause(m, c, r)
		}
	}
	return r.out
}

// movedDiagnostics returns diagnostics of a form that moved by d bytes: every span, related
// location and fix edit moves with it.
func movedDiagnostics(ds []Diagnostic, d int) []Diagnostic {
	if d == 0 || len(ds) == 0 {
		return ds
	}
	shift := func(s syntax.Span) syntax.Span { return syntax.Span{Start: s.Start + d, End: s.End + d} }
	out := make([]Diagnostic, len(ds))
	for i, x := range ds {
		x.Span = shift(x.Span)
		if x.Related != nil {
			rel := make([]Related, len(x.Related))
			for j, r := range x.Related {
				rel[j] = Related{Span: shift(r.Span), Message: r.Message}
			}
			x.Related = rel
		}
		if x.Fixes != nil {
			fixes := make([]syntax.Fix, len(x.Fixes))
			for j, f := range x.Fixes {
				f.Edits = append([]syntax.TextEdit(nil), f.Edits...)
				for k := range f.Edits {
					f.Edits[k].Span = shift(f.Edits[k].Span)
				}
				fixes[j] = f
			}
			x.Fixes = fixes
		}
		out[i] = x
	}
	return out
}

// Check is one semantic check. Each lives in its own file and is listed in Checks. A check sets
// exactly one of Run and Clause.
type Check struct {
	Code     string   // stable kebab-case code
	Severity Severity // default severity
	Category Category
	Summary  string // one line for documentation and `gdl check --list`
	Example  string // a short bad example for docs/diagnostics.md
	Fix      string // how to fix it, for docs/diagnostics.md
	// Run checks the whole file.
	Run func(m *Model, r *Reporter)
	// Clause checks one clause and reads nothing but that clause: its syntax, its occurrences
	// (Clause.Occurrences) and its variables. What it reports is kept with the form and reused,
	// in the language server, for as long as the form is unchanged.
	Clause func(m *Model, c *Clause, r *Reporter)
	// Amend, for a Clause check, completes that check's diagnostics of the whole file (in source
	// order) with what needs the whole file, such as fixes whose new names must not clash with
	// any name of the file. It runs on every analysis, on copies: the diagnostics kept with the
	// forms stay as Clause reported them.
	Amend func(m *Model, ds []*Diagnostic)
}

// Reporter collects one check's diagnostics.
type Reporter struct {
	check    *Check
	severity Severity
	out      []Diagnostic
}

// Report adds a diagnostic with the check's code, category and configured severity.
func (r *Reporter) Report(span syntax.Span, message string, related []Related, fixes ...syntax.Fix) {
	r.out = append(room(r.out, 1), Diagnostic{
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
