package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/gametest"
)

// The machine formats of gdl test: JSON (fields are only ever added), JUnit XML and SARIF.

type testRunJSON struct {
	Files   []testFileJSON `json:"files"`
	Tests   int            `json:"tests"`
	Passed  int            `json:"passed"`
	Failed  int            `json:"failed"`
	Errored int            `json:"errored"`
	Skipped int            `json:"skipped"` // left out by --run
	Seconds float64        `json:"seconds"`
}

type testFileJSON struct {
	File        string           `json:"file"`
	Game        string           `json:"game"` // "" when no game was found
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Tests       []testCaseJSON   `json:"tests"`
}

type testCaseJSON struct {
	Name      string        `json:"name"`
	Status    string        `json:"status"` // passed, failed or errored
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Seconds   float64       `json:"seconds"`
	Failures  []failureJSON `json:"failures"`
}

type failureJSON struct {
	Step      int      `json:"step"` // 0: the test as a whole
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"endLine"`
	EndColumn int      `json:"endColumn"`
	Code      string   `json:"code"`
	Text      string   `json:"text"`
	Expected  string   `json:"expected"`
	Found     string   `json:"found,omitempty"`
	Moves     []string `json:"moves"`
	FromState bool     `json:"from_state,omitempty"`
	State     []string `json:"state"`
	Witness   []string `json:"witness,omitempty"` // can-force, ends-within: the line that shows the answer
	Context   string   `json:"context,omitempty"`
}

func writeTestJSON(w io.Writer, files []*testedFile, sum testSummary) error {
	out := testRunJSON{Files: []testFileJSON{}, Tests: sum.tests, Passed: sum.passed, Failed: sum.failed,
		Errored: sum.errored, Skipped: sum.skipped, Seconds: sum.elapsed.Seconds()}
	for _, tf := range files {
		fj := testFileJSON{File: tf.path, Game: tf.gamePath, Diagnostics: []jsonDiagnostic{}, Tests: []testCaseJSON{}}
		for _, d := range tf.diags {
			fj.Diagnostics = append(fj.Diagnostics, toJSONDiagnostic(checked{path: tf.path, lines: tf.lines}, d))
		}
		for _, r := range tf.results {
			l, c := pos(tf.lines, r.Test.Span.Start)
			el, ec := pos(tf.lines, r.Test.Span.End)
			tc := testCaseJSON{Name: r.Test.Name, Status: string(r.Status), Line: l, Column: c, EndLine: el, EndColumn: ec,
				Seconds: r.Elapsed.Seconds(), Failures: []failureJSON{}}
			for _, f := range r.Failures {
				l, c := pos(tf.lines, f.Span.Start)
				el, ec := pos(tf.lines, f.Span.End)
				fj := failureJSON{Step: f.Step, Line: l, Column: c, EndLine: el, EndColumn: ec, Code: f.Code, Text: oneLine(f.Text),
					Expected: f.Expected, Found: f.Found, Moves: nonNil(f.Moves), FromState: f.FromState, State: nonNil(f.State),
					Witness: f.Line, Context: f.Context}
				tc.Failures = append(tc.Failures, fj)
			}
			fj.Tests = append(fj.Tests, tc)
		}
		out.Files = append(out.Files, fj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// JUnit XML, as CI systems read it (Jenkins, GitLab, GitHub actions' reporters): one
// testsuite per test file, one testcase per test; a failed expectation is a <failure>, a test
// that cannot run to its end an <error>. A test file's error diagnostics are one more testcase
// of its suite, named after the file, with an <error>. TestJUnitShape checks the output
// against the constraints of the common JUnit schema.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func junitTime(sec float64) string { return fmt.Sprintf("%.3f", sec) }

func writeJUnit(w io.Writer, files []*testedFile, sum testSummary) error {
	out := junitSuites{Name: "gdl test", Time: junitTime(sum.elapsed.Seconds())}
	for _, tf := range files {
		classname := strings.TrimSuffix(strings.ReplaceAll(tf.path, "\\", "/"), ".kif")
		su := junitSuite{Name: tf.path, Skipped: tf.skipped, Time: junitTime(tf.elapsed.Seconds())}
		if n := tf.errorCount(); n > 0 {
			var b strings.Builder
			for _, d := range tf.diags {
				if d.Severity == analysis.Error {
					l, c := pos(tf.lines, d.Span.Start)
					fmt.Fprintf(&b, "%s:%d:%d: %s [%s]\n", tf.path, l, c, d.Message, d.Code)
				}
			}
			su.Cases = append(su.Cases, junitCase{Name: tf.path, Classname: classname, File: tf.path, Time: junitTime(0),
				Error: &junitProblem{Message: fmt.Sprintf("the test file has %s", plural(n, "error")), Type: "diagnostics", Text: b.String()}})
			su.Errors++
		}
		for _, r := range tf.results {
			line, _ := pos(tf.lines, r.Test.Span.Start)
			jc := junitCase{Name: r.Test.Name, Classname: classname, File: tf.path, Line: line, Time: junitTime(r.Elapsed.Seconds())}
			if r.Status != gametest.Passed {
				var b strings.Builder
				for k, f := range r.Failures {
					writeFailureText(&b, tf, &f, k > 0 && sameState(&r.Failures[k-1], &f))
				}
				first := r.Failures[0]
				p := &junitProblem{Message: first.Message(), Type: first.Code, Text: b.String()}
				if r.Status == gametest.Failed {
					jc.Failure = p
					su.Failures++
				} else {
					jc.Error = p
					su.Errors++
				}
			}
			su.Cases = append(su.Cases, jc)
		}
		su.Tests = len(su.Cases)
		out.Tests += su.Tests
		out.Failures += su.Failures
		out.Errors += su.Errors
		out.Suites = append(out.Suites, su)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// writeTestSARIF writes the test files' diagnostics and the tests' failures as a SARIF 2.1.0
// log, in the shapes gdl check --format sarif writes: a failure is a result at its step, with
// its rule's code.
func writeTestSARIF(w io.Writer, files []*testedFile) error {
	var extra []sarifRule
	for _, c := range gametest.Codes {
		extra = append(extra, sarifRule{ID: c.Code, ShortDescription: sarifText{c.Summary},
			DefaultConfiguration: sarifConfiguration{sarifLevel(c.Severity)}, Properties: sarifProperties{Tags: []string{"test"}}})
	}
	rules, index := sarifRules(extra...)
	var out []sarifResult
	for _, tf := range files {
		out = append(out, sarifDiagnostics(checked{path: tf.path, lines: tf.lines, diags: tf.diags}, index)...)
		for _, r := range tf.results {
			for _, f := range r.Failures {
				level := "error"
				if f.Code == gametest.CodeUnknown {
					level = "warning"
				}
				msg := fmt.Sprintf("test %s: %s", r.Test.Name, f.Message())
				if len(f.Moves) > 0 {
					msg += "; after " + strings.Join(f.Moves, " ")
				}
				out = append(out, sarifResultAt(index, f.Code, level, msg, sarifURI(tf.path), sarifRegionOf(tf.lines, f.Span)))
			}
		}
	}
	return encodeSARIF(w, rules, out)
}
