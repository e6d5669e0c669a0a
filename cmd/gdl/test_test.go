package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The tests of gdl test, on the real binary.

// testGame returns the absolute path of a game of testdata/games.
func testGame(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("../../testdata/games", name))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(p)
}

// TestShippedGameTests: the tests shipped for the example games (testdata/gametests) pass; a
// game given as the path runs the test files beside it named after it.
func TestShippedGameTests(t *testing.T) {
	bin := buildGDL(t)
	out, errOut, code := gdl(t, bin, "test", "../../testdata/gametests", "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"--- PASS: x-wins-diagonal", "ok   ../../testdata/gametests/tictactoe.test.kif", "ok   ../../testdata/gametests/noughts.test.hrf", "ok: "} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	dir := t.TempDir()
	data, err := os.ReadFile("../../testdata/games/nim.kif")
	if err != nil {
		t.Fatal(err)
	}
	g := writeFile(t, dir, "nim.kif", string(data))
	writeFile(t, dir, "nim.test.kif", "(test opening (not terminal) (legal-moves second noop))\n")
	writeFile(t, dir, "other.test.kif", "(test wrong terminal)\n")
	out, _, code = gdl(t, bin, "test", g)
	if code != 0 || !strings.Contains(out, "nim.test.kif: 1 test") || strings.Contains(out, "other") {
		t.Errorf("gdl test GAME: exit %d\n%s", code, out)
	}
	if _, errOut, code = gdl(t, bin, "test", "../../testdata/games/nim.kif"); code != 2 || !strings.Contains(errOut, "no test file beside it") {
		t.Errorf("a game without tests: exit %d, %q", code, errOut)
	}
}

// failingTests writes a test file with a passing test and failing ones, for the output formats.
func failingTests(t *testing.T) (dir, path string) {
	dir = t.TempDir()
	path = writeFile(t, dir, "ttt.test.kif", fmt.Sprintf(`(game %s)
(test passes
    (play (mark 2 2) noop)
    (not terminal))
(test wrong-goal
    (play (mark 1 1) noop)
    (play noop (mark 2 1))
    (goal xplayer 100))
(test wrong-move
    (play (mark 1 1) noop)
    (play (mark 1 2) noop)
    terminal)
(test lost-cause
    (state (cell 1 1 o) (cell 2 2 o) (cell 3 3 o) (control xplayer))
    (goal xplayer 100)
    (can-force xplayer 50 2))
`, testGame(t, "tictactoe.kif")))
	return dir, path
}

// runFailingTests runs gdl test on failingTests' file in a format and returns the output; the
// exit status must be 1.
func runFailingTests(t *testing.T, format string) string {
	t.Helper()
	bin := buildGDL(t)
	_, path := failingTests(t)
	out, _, code := gdl(t, bin, "test", path, "--format", format)
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	return out
}

// TestGameTestText: a failure says where, which step, what was expected and found, the moves
// that lead to the state and the state; the exit status is 1.
func TestGameTestText(t *testing.T) {
	bin := buildGDL(t)
	_, path := failingTests(t)
	out, errOut, code := gdl(t, bin, "test", path)
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	for _, want := range []string{
		"--- FAIL: wrong-goal (" + path + ":5, ",
		"    " + path + ":8:5: step 3: (goal xplayer 100)\n" +
			"        expected: the goal of xplayer is 100\n" +
			"        found:    goal 50\n" +
			"        after:    ((mark 1 1) noop) (noop (mark 2 1)) (from the initial state)\n" +
			"        state: (cell 1 1 x) (cell 1 2 b) (cell 1 3 b) (cell 2 1 o) (cell 2 2 b) (cell 2 3 b) (cell 3 1 b) (cell 3 2 b) (cell 3 3 b) (control xplayer)\n",
		"    " + path + ":11:5: step 2: (play (mark 1 2) noop)\n" +
			"        expected: the joint move ((mark 1 2) noop) can be played\n" +
			"        found:    it cannot: (mark 1 2) is not a legal move of role xplayer\n",
		"        found:    it cannot: the game is over here, with a lower goal\n        in the same state\n",
		"FAIL " + path + ": 4 tests, 3 failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "PASS: passes") {
		t.Errorf("a passing test listed without -v:\n%s", out)
	}
	// --run picks tests by name.
	out, _, code = gdl(t, bin, "test", path, "--run", "^pass")
	if code != 0 || !strings.Contains(out, "1 test, 3 not matching --run") {
		t.Errorf("--run: exit %d\n%s", code, out)
	}
	if _, errOut, code = gdl(t, bin, "test", path, "--run", "("); code != 2 || !strings.Contains(errOut, "--run") {
		t.Errorf("bad --run: exit %d, %q", code, errOut)
	}
}

// TestGameTestJSON: the JSON output has every test with its status and every failure with its
// step, position, expectation, finding, moves, state and witness.
func TestGameTestJSON(t *testing.T) {
	out := runFailingTests(t, "json")
	var run testRunJSON
	if err := json.Unmarshal([]byte(out), &run); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if run.Tests != 4 || run.Passed != 1 || run.Failed != 3 || len(run.Files) != 1 {
		t.Fatalf("counts %+v", run)
	}
	f := run.Files[0]
	if !strings.HasSuffix(f.Game, "tictactoe.kif") || len(f.Tests) != 4 || len(f.Diagnostics) != 0 {
		t.Fatalf("file %+v", f)
	}
	lost := f.Tests[3]
	if lost.Name != "lost-cause" || lost.Status != "failed" || len(lost.Failures) != 2 {
		t.Fatalf("test %+v", lost)
	}
	fl := lost.Failures[1]
	if fl.Step != 3 || fl.Line != 16 || fl.Column != 5 || fl.Code != "test-failed" || fl.Text != "(can-force xplayer 50 2)" ||
		fl.Expected != "xplayer can force a goal of at least 50 within 2 joint moves" || len(fl.State) != 4 || !fl.FromState {
		t.Errorf("failure %+v", fl)
	}
}

// junitDoc is what TestJUnitShape reads: every element and attribute the common JUnit schema
// (the Ant/Jenkins one) has, so that anything else is caught.
type junitDoc struct {
	XMLName  xml.Name    `xml:"testsuites"`
	Attrs    []xml.Attr  `xml:",any,attr"`
	Suites   []junitSDoc `xml:"testsuite"`
	Unknown  []anyElem   `xml:",any"`
	CharData string      `xml:",chardata"`
}

type junitSDoc struct {
	Attrs   []xml.Attr  `xml:",any,attr"`
	Cases   []junitCDoc `xml:"testcase"`
	Unknown []anyElem   `xml:",any"`
}

type junitCDoc struct {
	Attrs   []xml.Attr  `xml:",any,attr"`
	Failure []junitPDoc `xml:"failure"`
	Error   []junitPDoc `xml:"error"`
	Unknown []anyElem   `xml:",any"`
}

type junitPDoc struct {
	Attrs []xml.Attr `xml:",any,attr"`
	Text  string     `xml:",chardata"`
}

type anyElem struct {
	XMLName xml.Name
}

// validateJUnit checks a JUnit report against the schema's constraints: the elements and
// attributes it allows, the ones it requires, numbers where it wants numbers, and counts that
// agree with the test cases.
func validateJUnit(data []byte) []string {
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		return []string{"not XML of a testsuites element: " + err.Error()}
	}
	var errs []string
	attrs := func(where string, as []xml.Attr, allowed map[string]string, required ...string) map[string]string {
		got := map[string]string{}
		for _, a := range as {
			kind, ok := allowed[a.Name.Local]
			if !ok || a.Name.Space != "" {
				errs = append(errs, fmt.Sprintf("%s: attribute %s is not in the schema", where, a.Name.Local))
				continue
			}
			switch kind {
			case "int":
				if n, err := strconv.Atoi(a.Value); err != nil || n < 0 {
					errs = append(errs, fmt.Sprintf("%s: %s=%q is not a count", where, a.Name.Local, a.Value))
				}
			case "decimal":
				if f, err := strconv.ParseFloat(a.Value, 64); err != nil || f < 0 {
					errs = append(errs, fmt.Sprintf("%s: %s=%q is not a time in seconds", where, a.Name.Local, a.Value))
				}
			}
			got[a.Name.Local] = a.Value
		}
		for _, r := range required {
			if _, ok := got[r]; !ok {
				errs = append(errs, fmt.Sprintf("%s: attribute %s is required", where, r))
			}
		}
		return got
	}
	unknown := func(where string, es []anyElem) {
		for _, e := range es {
			errs = append(errs, fmt.Sprintf("%s: element %s is not in the schema", where, e.XMLName.Local))
		}
	}
	unknown("testsuites", doc.Unknown)
	root := attrs("testsuites", doc.Attrs, map[string]string{"name": "string", "tests": "int", "failures": "int", "errors": "int", "time": "decimal", "disabled": "int"})
	var total, totalFail, totalErr int
	for i, s := range doc.Suites {
		where := fmt.Sprintf("testsuite[%d]", i)
		unknown(where, s.Unknown)
		sa := attrs(where, s.Attrs, map[string]string{"name": "string", "tests": "int", "failures": "int", "errors": "int", "skipped": "int",
			"time": "decimal", "timestamp": "string", "hostname": "string", "id": "int", "package": "string", "disabled": "int"}, "name", "tests")
		fails, errsN := 0, 0
		for j, c := range s.Cases {
			cw := fmt.Sprintf("%s/testcase[%d]", where, j)
			unknown(cw, c.Unknown)
			attrs(cw, c.Attrs, map[string]string{"name": "string", "classname": "string", "time": "decimal", "file": "string", "line": "int",
				"assertions": "int", "status": "string"}, "name", "classname")
			if len(c.Failure)+len(c.Error) > 1 {
				errs = append(errs, cw+": more than one failure or error")
			}
			for _, p := range append(c.Failure, c.Error...) {
				attrs(cw+"/failure", p.Attrs, map[string]string{"message": "string", "type": "string"})
			}
			fails += len(c.Failure)
			errsN += len(c.Error)
		}
		for name, n := range map[string]int{"tests": len(s.Cases), "failures": fails, "errors": errsN} {
			if v, ok := sa[name]; ok && v != strconv.Itoa(n) {
				errs = append(errs, fmt.Sprintf("%s: %s=%s but it has %d", where, name, v, n))
			}
		}
		total += len(s.Cases)
		totalFail += fails
		totalErr += errsN
	}
	for name, n := range map[string]int{"tests": total, "failures": totalFail, "errors": totalErr} {
		if v, ok := root[name]; ok && v != strconv.Itoa(n) {
			errs = append(errs, fmt.Sprintf("testsuites: %s=%s but the suites have %d", name, v, n))
		}
	}
	return errs
}

// TestJUnitShape: the JUnit report validates, and says which test failed and why.
func TestJUnitShape(t *testing.T) {
	bin := buildGDL(t)
	dir, path := failingTests(t)
	broken := writeFile(t, dir, "broken.test.kif", "(game nowhere.kif)\n(test a terminal)\n")
	out, _, code := gdl(t, bin, "test", path, broken, "--format", "junit")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, e := range validateJUnit([]byte(out)) {
		t.Error(e)
	}
	for _, want := range []string{
		`<testsuites name="gdl test" tests="6" failures="3" errors="2"`,
		`<testcase name="wrong-goal" classname="` + strings.TrimSuffix(path, ".kif") + `" file="` + path + `" line="5"`,
		`<failure message="the goal of xplayer is 100; goal 50" type="test-failed">`,
		`<error message="the test file has 1 error" type="diagnostics">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestJUnitValidatorRejects makes sure the validator is not empty.
func TestJUnitValidatorRejects(t *testing.T) {
	for _, bad := range []string{
		`<testsuite name="a" tests="0"/>`,
		`<testsuites><testsuite tests="0"/></testsuites>`,
		`<testsuites><testsuite name="a" tests="1"><testcase name="x"/></testsuite></testsuites>`,
		`<testsuites><testsuite name="a" tests="2"><testcase name="x" classname="c"/></testsuite></testsuites>`,
		`<testsuites><testsuite name="a" tests="1"><testcase name="x" classname="c" time="soon"/></testsuite></testsuites>`,
		`<testsuites><testsuite name="a" tests="1" failures="0"><testcase name="x" classname="c"><failure/></testcase></testsuite></testsuites>`,
		`<testsuites><testsuite name="a" tests="1"><testcase name="x" classname="c"><oops/></testcase></testsuite></testsuites>`,
		`<testsuites tests="3"><testsuite name="a" tests="1"><testcase name="x" classname="c"/></testsuite></testsuites>`,
	} {
		if errs := validateJUnit([]byte(bad)); len(errs) == 0 {
			t.Errorf("accepted %s", bad)
		}
	}
}

// TestGameTestSARIF: the SARIF log validates, with a result at each failing step.
func TestGameTestSARIF(t *testing.T) {
	out := runFailingTests(t, "sarif")
	typed := validSARIF(t, out)
	results := typed.Runs[0].Results
	if len(results) != 4 {
		t.Fatalf("%d results, want 4\n%s", len(results), out)
	}
	r := results[0]
	if r.RuleID != "test-failed" || r.Locations[0].PhysicalLocation.Region != (sarifRegion{8, 5, 8, 23}) ||
		r.Message.Text != "test wrong-goal: the goal of xplayer is 100; goal 50; after ((mark 1 1) noop) (noop (mark 2 1))" ||
		typed.Runs[0].Tool.Driver.Rules[r.RuleIndex].ID != "test-failed" {
		t.Errorf("result %+v", r)
	}
}

// TestGameTestRecord: --record prints a test that pins the state the moves reach; --write
// appends it to the game's test file, where it passes; a second test of that name is refused.
func TestGameTestRecord(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	data, err := os.ReadFile("../../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	g := writeFile(t, dir, "ttt.kif", string(data))
	out, errOut, code := gdl(t, bin, "test", "--record", "after-two", g, "--moves", "((mark 1 1) noop) (noop (mark 2 2))")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"(test after-two\n    (play (mark 1 1) noop)\n    (play noop (mark 2 2))\n",
		"    (holds (true (cell 1 1 x)))\n", "    (not terminal)\n", "    (legal-moves oplayer noop))\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if _, errOut, code = gdl(t, bin, "test", "--record", "after-two", g, "--moves", "((mark 1 1) noop)", "--write"); code != 0 {
		t.Fatalf("--write: exit %d: %s", code, errOut)
	}
	if _, errOut, code = gdl(t, bin, "test", "--record", "at-the-end", g, "--write", "--moves",
		"((mark 1 1) noop) (noop (mark 2 1)) ((mark 1 2) noop) (noop (mark 2 2)) ((mark 1 3) noop)"); code != 0 {
		t.Fatalf("--write: exit %d: %s", code, errOut)
	}
	tests := filepath.Join(dir, "ttt.test.kif")
	out, errOut, code = gdl(t, bin, "test", tests, "-v")
	if code != 0 || !strings.Contains(out, "PASS: after-two") || !strings.Contains(out, "PASS: at-the-end") {
		t.Fatalf("the recorded tests: exit %d\n%s%s", code, out, errOut)
	}
	if text, _ := os.ReadFile(tests); !strings.Contains(string(text), "    terminal\n    (goal xplayer 100)\n    (goal oplayer 0))\n") {
		t.Errorf("the terminal state's test:\n%s", text)
	}
	if _, errOut, code = gdl(t, bin, "test", "--record", "After-Two", tests, "--write"); code != 1 || !strings.Contains(errOut, "already has a test named after-two") {
		t.Errorf("a second test of a name: exit %d, %q", code, errOut)
	}
	if _, errOut, code = gdl(t, bin, "test", "--record", "two words", g); code != 1 || !strings.Contains(errOut, "cannot be a test's name") {
		t.Errorf("a name with a space: exit %d, %q", code, errOut)
	}
	if _, errOut, code = gdl(t, bin, "test", "--record", "x", g, "--moves", "((mark 1 1) noop) ((mark 1 2) noop)"); code != 1 || !strings.Contains(errOut, "joint move 2") {
		t.Errorf("an illegal move: exit %d, %q", code, errOut)
	}
}

// TestGameTestProblems: no test file, a test file whose game is missing, gdl check on a test
// file (diagnostics of a test file, not of a game).
func TestGameTestProblems(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	if _, errOut, code := gdl(t, bin, "test", dir); code != 2 || !strings.Contains(errOut, "no test files in") {
		t.Errorf("no test file: exit %d, %q", code, errOut)
	}
	lone := writeFile(t, dir, "lone.test.kif", "(test a terminal)\n")
	out, _, code := gdl(t, bin, "test", lone)
	if code != 1 || !strings.Contains(out, lone+":1:1: error: the game under test is not found (tried ") ||
		!strings.Contains(out, "--- ERROR: a") {
		t.Errorf("no game: exit %d\n%s", code, out)
	}
	_, path := failingTests(t)
	typo := writeFile(t, filepath.Dir(path), "typo.test.kif", fmt.Sprintf("(game %s)\n(test a (holds (lines x)) (goal xplayr 0))\n", testGame(t, "tictactoe.kif")))
	out, _, code = gdl(t, bin, "check", path, typo)
	if code != 1 || !strings.Contains(out, typo+":2:17: error: the game has no relation lines; did you mean line? [test-relation]") ||
		!strings.Contains(out, typo+":2:33: error: xplayr is not a role of the game; did you mean xplayer? [test-role]") ||
		strings.Contains(out, path) {
		t.Errorf("gdl check on test files: exit %d\n%s", code, out)
	}
}

// TestGameTestHostile: under a 1 GiB data limit, a test file nested 100,000 deep and a
// can-force over states with 10^8 joint moves each are reported, not a crash.
func TestGameTestHostile(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	writeFile(t, dir, "wide.kif", wideGame(8, 10))
	deep := "(test deep (holds " + strings.Repeat("(f ", 100_000) + strings.Repeat(")", 100_000) + "))\n"
	path := writeFile(t, dir, "wide.test.kif", deep+"(test wide (can-force r0 100 2) (ends-within 2))\n")
	out, errOut, code := hostile(t, bin, nil, "test", path, "--max-states", "1000")
	if code != 1 || strings.Contains(errOut, "goroutine ") || !strings.Contains(out, "undecided: more than 1048576 joint moves played (the budget)") ||
		!strings.Contains(out, "--- ERROR: deep") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, abbreviateLog(out), abbreviateLog(errOut))
	}
}
