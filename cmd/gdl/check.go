package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/internal/gctune"
	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register("check", command{
		summary: "report syntax and semantic problems of game descriptions",
		run:     runCheck,
	})
}

// jsonDiagnostic is one element of `gdl check --format json`. Other tools read it: fields are
// only ever added.
type jsonDiagnostic struct {
	File      string        `json:"file"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Severity  string        `json:"severity"`
	Code      string        `json:"code"`
	Category  string        `json:"category"`
	Message   string        `json:"message"`
	Related   []jsonRelated `json:"related,omitempty"`
	Fixes     []jsonFix     `json:"fixes,omitempty"`
}

type jsonRelated struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Message   string `json:"message"`
}

type jsonFix struct {
	Title string     `json:"title"`
	Safe  bool       `json:"safe,omitempty"` // keeps the game's meaning: gdl check --fix applies it
	Edits []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	NewText   string `json:"newText"`
}

// checked is the result for one input.
type checked struct {
	path  string
	lines *syntax.LineIndex
	diags []analysis.Diagnostic // those shown (analysis.Shown)
	// errors: the input has an error-severity diagnostic, shown or not
	errors bool
}

// checkUsage is gdl check -h.
const checkUsage = "Usage: gdl check [--format text|json|sarif] [--fix] PATH...\n\n" +
	"Checks game descriptions. PATH is a file, a directory (every *.kif, *.gdl and *.hrf below it)\n" +
	"or - for standard input. A .hrf file is infix GDL; other files are read in the notation\n" +
	"their content is written in. --fix applies the safe fixes (those that keep the game's\n" +
	"meaning) to the files, prints each one it applied, and reports what remains. Flags may come\n" +
	"before or after the paths. Exit status: 0 no errors, 1 errors found, 2 usage or I/O problem.\n" +
	"Severities can be changed per code in a gdl.json file (see README.md).\n"

// runCheck is gdl check: the diagnostics of game descriptions, their safe fixes applied with
// --fix.
func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "text", "output format: text, json or sarif (SARIF 2.1.0, for code scanning)")
	list := fl.Bool("list", false, "list every diagnostic code with its default severity and exit")
	fix := fl.Bool("fix", false, "apply the safe fixes to the files, print what changed, then report what remains")
	paths, code, ok := parseCommandArgs(fl, args, stderr, checkUsage, 0, -1)
	if !ok {
		return code
	}
	if *list {
		listCodes(stdout)
		return 0
	}
	if !oneOf(stderr, "check", "format", *format, "text", "json", "sarif") {
		return 2
	}
	if len(paths) == 0 {
		fl.Usage()
		return 2
	}
	if *fix && slices.Contains(paths, "-") {
		fmt.Fprintln(stderr, "gdl check: --fix rewrites files: standard input (-) cannot be fixed")
		return 2
	}
	// What --fix applied goes to standard output with text, to standard error with the machine
	// formats (their output stays one document).
	fixOut := stdout
	if *format != "text" {
		fixOut = stderr
	}
	results, ioFailed := checkPaths(paths, stdin, *fix, fixOut, stderr)
	errorsFound := false
	for _, r := range results {
		errorsFound = errorsFound || r.errors
	}
	switch *format {
	case "json":
		writeJSON(stdout, results)
	case "sarif":
		writeSARIF(stdout, results)
	default:
		writeText(stdout, results)
	}
	switch {
	case ioFailed:
		return 2
	case errorsFound:
		return 1
	}
	return 0
}

// checkPaths checks the files paths name (fixing them when fix is set, saying what it applied on
// fixOut) and returns the results sorted by file. An input that cannot be read is reported on
// stderr and sets ioFailed, but the others are still checked.
func checkPaths(paths []string, stdin io.Reader, fix bool, fixOut, stderr io.Writer) (results []checked, ioFailed bool) {
	files, errs := expandPaths(paths)
	for _, err := range errs {
		fmt.Fprintf(stderr, "gdl check: %v\n", err)
		ioFailed = true
	}
	for _, in := range files {
		r, err := checkOne(in, stdin, fix, fixOut)
		if err != nil {
			fmt.Fprintf(stderr, "gdl check: %v\n", err)
			ioFailed = true
			if r.lines == nil {
				continue
			}
		}
		results = append(results, r)
	}
	// Sorted by file, then position (Analyze sorts each file's diagnostics by position).
	sort.SliceStable(results, func(i, j int) bool { return results[i].path < results[j].path })
	return results, ioFailed
}

// found is a file to read: a path as named, or found below a directory named (root).
type found struct {
	path string
	root string // the directory argument it was found below; "" for a path named itself
}

// expandPaths turns the arguments into the files to check: files and - as given, a directory's
// GDL files below it. A path named twice is checked once. An argument that does not exist or a
// directory that cannot be walked is an error; the others are still returned.
func expandPaths(args []string) ([]found, []error) {
	var out []found
	var errs []error
	seen := map[string]bool{}
	add := func(p, root string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, found{p, root})
		}
	}
	for _, a := range args {
		if a == "-" {
			add(a, "")
			continue
		}
		info, err := os.Stat(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !info.IsDir() {
			add(a, "")
			continue
		}
		files, werrs := walkFiles(a, isGDLFile, nil)
		for _, p := range files {
			add(p, a)
		}
		errs = append(errs, werrs...)
	}
	return out, errs
}

// pathList keeps paths in the order they are added, each once.
type pathList struct {
	list []string
	seen map[string]bool
}

func (l *pathList) add(p string) {
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	if !l.seen[p] {
		l.seen[p] = true
		l.list = append(l.list, p)
	}
}

// walkFiles lists the files below dir whose path match accepts, in walk order, leaving out the
// directories below dir that skipDir (when set) names. A directory that cannot be read is an
// error; the rest is still walked.
func walkFiles(dir string, match func(string) bool, skipDir func(fs.DirEntry) bool) ([]string, []error) {
	var out []string
	var errs []error
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != dir && skipDir != nil && skipDir(d) {
				return fs.SkipDir
			}
			return nil
		}
		if match(p) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return out, errs
}

func isGDLFile(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".kif" || ext == ".gdl" || ext == syntax.InfixExt
}

// analysisBytesPerByte is about what the tree and the analysis of a file keep per byte of it,
// at most (files of many unknown names, or of deep terms: 170 bytes).
const analysisBytesPerByte = 200

func checkOne(in found, stdin io.Reader, fix bool, fixOut io.Writer) (checked, error) {
	path := in.path
	dir := filepath.Dir(path)
	if path == "-" {
		dir = "."
	}
	data, shown, err := readInput(path, stdin)
	if err != nil {
		return checked{}, err
	}
	cfg, err := analysis.FindConfig(dir)
	if err != nil {
		return checked{}, fmt.Errorf("config for %s: %v", shown, err)
	}
	// The tree and the analysis of a file keep about 170 bytes per byte of it (gctune.Check).
	gctune.Expect(int64(len(data)) * analysisBytesPerByte)
	f := parseInput(path, data)
	if gametest.IsTestFile(path, f) {
		// A test file is checked as one (its format, and against its game), never as a game.
		ds := checkTestFile(path, f)
		errs := false
		for _, d := range ds {
			errs = errs || d.Severity == analysis.Error
		}
		return checked{path: shown, lines: f.Lines(), diags: ds, errors: errs}, nil
	}
	res := analysis.Analyze(f, cfg)
	if fix {
		// The fixes applied are printed once the file is rewritten: a file gdl refuses to
		// rewrite is reported as it is, with the error (analysed again: only the analysis of
		// the fixed text is kept meanwhile, the file's own can go, as it must for a 15 MB file).
		var applied bytes.Buffer
		var src string
		var changed bool
		src, f, res, changed = applySafeFixes(shown, f, res, cfg, &applied)
		if changed {
			if err := rewriteAll([]rewrite{{in, string(data), src}}); err != nil {
				f = parseInput(path, data)
				return checked{path: shown, lines: f.Lines(), diags: analysis.Analyze(f, cfg).Diagnostics}, err
			}
			fixOut.Write(applied.Bytes())
		}
	}
	errs := false
	for _, d := range res.Diagnostics {
		errs = errs || d.Severity == analysis.Error
	}
	return checked{path: shown, lines: f.Lines(), diags: analysis.Shown(f, res.Diagnostics), errors: errs}, nil
}

// maxFixRounds bounds --fix: a fix may make another one possible (a flattened and shows the
// or inside it), so the fixes are applied in rounds, each on the analysis of the last one's
// result.
const maxFixRounds = 8

// applySafeFixes applies the safe fixes of a file, in rounds, and prints each one applied with
// the position of its diagnostic (in the text of its round). It returns the fixed text, its
// tree and analysis (f and res when nothing changed), and whether it changed.
func applySafeFixes(shown string, f *syntax.File, res *analysis.Result, cfg *analysis.Config, out io.Writer) (string, *syntax.File, *analysis.Result, bool) {
	src := f.Source()
	dialect := f.Dialect()
	changed := false
	for range maxFixRounds {
		next, applied := analysis.ApplyFixes(src, res.Diagnostics, func(_ analysis.Diagnostic, fx syntax.Fix) bool { return fx.Safe })
		if len(applied) == 0 || next == src {
			break
		}
		printed := map[string]bool{} // one line per fix, though several diagnostics offer it
		for _, a := range applied {
			key := fmt.Sprint(a.Fix.Title, a.Fix.Edits)
			if printed[key] {
				continue
			}
			printed[key] = true
			line, col := pos(f.Lines(), a.Diagnostic.Span.Start)
			fmt.Fprintf(out, "%s:%d:%d: fixed: %s [%s]\n", shown, line, col, a.Fix.Title, a.Diagnostic.Code)
		}
		src, changed = next, true
		if len(src) > 1<<20 {
			// The last round's tree and analysis are no longer read: collected now, their
			// address space is reused for the next ones (ulimit -v counts all the heap has
			// mapped; a 15 MB file's analysis is 1.2 GB).
			runtime.GC()
		}
		f, _ = syntax.ParseDialect(src, dialect)

		res = analysis.Analyze(f, cfg)
	}
	return src, f, res, changed
}

// pos converts a byte offset to a 1-based line and a 1-based column counted in characters.
func pos(li *syntax.LineIndex, off int) (int, int) {
	p := li.Position(off, syntax.UTF32)
	return p.Line + 1, p.Column + 1
}

func writeText(out io.Writer, results []checked) {
	// One write per 64 KB, not per line: a file shows up to 1,000 diagnostics, with their notes
	// and fixes.
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	for _, r := range results {
		for _, d := range r.diags {
			line, col := pos(r.lines, d.Span.Start)
			fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", r.path, line, col, d.Severity, d.Message, d.Code)
			for _, rel := range d.Related {
				l, c := pos(r.lines, rel.Span.Start)
				fmt.Fprintf(w, "%s:%d:%d: note: %s\n", r.path, l, c, rel.Message)
			}
			if len(d.Fixes) > 0 {
				fx := d.Fixes[0]
				how := "a quick fix in an editor"
				if fx.Safe {
					how = "gdl check --fix applies it"
				}
				more := ""
				if n := len(d.Fixes) - 1; n > 0 {
					more = fmt.Sprintf("; %s in an editor or with --format json", counted(n, "other fix", "other fixes"))
				}
				fmt.Fprintf(w, "%s:%d:%d: fix: %s (%s%s)\n", r.path, line, col, fx.Title, how, more)
			}
		}
	}
}

// counted writes n with the noun in singular or plural.
func counted(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", n, plural)
}

func writeJSON(w io.Writer, results []checked) {
	out := []jsonDiagnostic{}
	for _, r := range results {
		for _, d := range r.diags {
			out = append(out, toJSONDiagnostic(r, d))
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}

// toJSONDiagnostic writes a diagnostic of a file as gdl check --format json does.
func toJSONDiagnostic(r checked, d analysis.Diagnostic) jsonDiagnostic {
	line, col := pos(r.lines, d.Span.Start)
	endLine, endCol := pos(r.lines, d.Span.End)
	jd := jsonDiagnostic{
		File: r.path, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
		Severity: d.Severity.String(), Code: d.Code, Category: string(d.Category), Message: d.Message,
	}
	for _, rel := range d.Related {
		l, c := pos(r.lines, rel.Span.Start)
		el, ec := pos(r.lines, rel.Span.End)
		jd.Related = append(jd.Related, jsonRelated{r.path, l, c, el, ec, rel.Message})
	}
	for _, fx := range d.Fixes {
		jf := jsonFix{Title: fx.Title, Safe: fx.Safe, Edits: []jsonEdit{}}
		for _, e := range fx.Edits {
			l, c := pos(r.lines, e.Span.Start)
			el, ec := pos(r.lines, e.Span.End)
			jf.Edits = append(jf.Edits, jsonEdit{l, c, el, ec, e.NewText})
		}
		jd.Fixes = append(jd.Fixes, jf)
	}
	return jd
}

func listCodes(w io.Writer) {
	for _, c := range syntax.Codes {
		fmt.Fprintf(w, "%-26s %-8s syntax     %s\n", c, "error", analysis.SyntaxSummary(c))
	}
	for _, c := range analysis.Checks {
		fmt.Fprintf(w, "%-26s %-8s %-10s %s\n", c.Code, c.Severity, c.Category, c.Summary)
	}
	fmt.Fprintf(w, "%-26s %-8s %-10s %s\n", analysis.CodeTooMany, analysis.Info, analysis.CategorySyntax, analysis.TooManySummary)
}
