package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHelpAndVersion: -h (and --help) exits 0 with the usage on every command; --version prints
// the version.
func TestHelpAndVersion(t *testing.T) {
	bin := buildGDL(t)
	for name := range commands {
		for _, h := range []string{"-h", "--help"} {
			out, errOut, code := gdl(t, bin, name, h)
			if code != 0 || !strings.Contains(out+errOut, "Usage") {
				t.Errorf("gdl %s %s: exit %d, output %q", name, h, code, out+errOut)
			}
		}
	}
	for _, v := range []string{"--version", "-version", "version"} {
		out, _, code := gdl(t, bin, v)
		if code != 0 || !regexp.MustCompile(`^gdl \S+ .*go1\.`).MatchString(out) {
			t.Errorf("gdl %s: exit %d, %q", v, code, out)
		}
	}
	if out, _, code := gdl(t, bin, "-h"); code != 0 || !strings.Contains(out, "--version") {
		t.Errorf("gdl -h: exit %d, %q", code, out)
	}
}

// TestFlagsAfterPaths: check and fmt take their flags after the paths, as the other commands do.
func TestFlagsAfterPaths(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.kif", "(role robot) ))\n")
	out, _, code := gdl(t, bin, "check", bad, "--format", "json")
	if code != 1 || !strings.HasPrefix(out, "[") {
		t.Errorf("check PATH --format json: exit %d, %q", code, out)
	}
	messy := writeFile(t, dir, "messy.kif", "(role   robot)\n")
	out, _, code = gdl(t, bin, "fmt", messy, "--check")
	if code != 1 || strings.TrimSpace(out) != messy {
		t.Errorf("fmt PATH --check: exit %d, %q", code, out)
	}
	if _, _, code = gdl(t, bin, "fmt", messy, "-w"); code != 0 {
		t.Errorf("fmt PATH -w: exit %d", code)
	}
	if data, _ := os.ReadFile(messy); string(data) != "(role robot)\n" {
		t.Errorf("fmt PATH -w wrote %q", data)
	}
}

// TestCheckEmptyFile: an empty or comment-only file gets a warning (exit 0), not silence.
func TestCheckEmptyFile(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	empty := writeFile(t, dir, "empty.kif", "")
	comments := writeFile(t, dir, "comments.kif", "; to be written\n\n")
	out, _, code := gdl(t, bin, "check", empty, comments)
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{
		empty + ":1:1: warning: the file is empty: it has no fact or rule, so there is no game to check [empty-file]",
		comments + ":1:1: warning: the file holds only comments and blanks: it has no fact or rule, so there is no game to check [empty-file]",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestCheckTextFixes: the text output says when a fix is available, which one comes first and
// whether --fix applies it.
func TestCheckTextFixes(t *testing.T) {
	bin := buildGDL(t)
	out, _, _ := gdl(t, bin, "check", "../../testdata/examples/tictactoe-bug.kif", "../../testdata/check/order-hint.kif")
	for _, want := range []string{
		"../../testdata/examples/tictactoe-bug.kif:41:23: fix: Rename ?who to ?player, the variable the rule binds (a quick fix in an editor; 1 other fix in an editor or with --format json)\n",
		"../../testdata/check/order-hint.kif:14:5: fix: Reorder the body so every variable is bound before it is tested (gdl check --fix applies it)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestCheckFix: --fix applies the safe fixes to the files, prints each one, and reports what
// remains; the unsafe fixes (a rename the author must confirm, an and spliced into the body,
// which changes what the rule means to the players: issue 22, item 6) are left alone.
func TestCheckFix(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"order-hint.kif", "inconsistent-case.kif", "and-not-gdl.kif", "unsafe-variable.kif"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/check", name))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, writeFile(t, dir, name, string(data)))
	}
	before, _ := os.ReadFile(paths[3])
	beforeAnd, _ := os.ReadFile(paths[2])
	out, errOut, code := gdl(t, bin, "check", "--fix", paths[0], paths[1], paths[2], paths[3])
	if code != 1 { // unsafe-variable.kif and and-not-gdl.kif keep their errors
		t.Errorf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		paths[0] + ":14:5: fixed: Reorder the body so every variable is bound before it is tested [order-hint]\n",
		paths[1] + ":",
		"fixed: Spell every",
		paths[2] + ":",
		": fix: Put the literals of and in the body (changes the meaning: players read and as a relation) (a quick fix in an editor)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, paths[3]+":") && strings.Contains(out, "fixed: Rename") || strings.Contains(out, "fixed: Put the literals of and") {
		t.Errorf("an unsafe fix was applied:\n%s", out)
	}
	if after, _ := os.ReadFile(paths[3]); string(after) != string(before) {
		t.Errorf("%s changed", paths[3])
	}
	if after, _ := os.ReadFile(paths[2]); strings.Count(string(after), "(and") != strings.Count(string(beforeAnd), "(and") {
		t.Errorf("%s: an and was spliced into a body:\n%s", paths[2], after)
	}
	// Nothing safe is left to fix, and checking again fixes nothing.
	out, _, _ = gdl(t, bin, "check", "--fix", paths[0], paths[1], paths[2])
	if strings.Contains(out, "fixed:") || strings.Contains(out, "gdl check --fix applies it") {
		t.Errorf("safe fixes left after --fix:\n%s", out)
	}
	// Standard input cannot be fixed in place.
	if _, errOut, code := gdlIn(t, bin, "(role x)", "check", "--fix", "-"); code != 2 || !strings.Contains(errOut, "standard input") {
		t.Errorf("--fix -: exit %d, %q", code, errOut)
	}
}

// TestTimeFlags: every time flag takes plain seconds and Go durations, and a bad value names
// the flag and the forms it takes (issue 23, item 8).
func TestTimeFlags(t *testing.T) {
	bin := buildGDL(t)
	const forms = "give seconds (5, 0.5) or a duration with its unit (2s, 500ms, 1m30s)"
	runCLICases(t, bin, []cliCase{
		{name: "match --playclock 2s", args: []string{"match", tttGame, "--player", "random", "--player", "random", "--playclock", "2s", "--startclock", "1"},
			code: 0, stdout: "play clock 2s"},
		{name: "play --movetime 1", args: []string{"play", tttGame, "--players", "random,random", "--matches", "1", "--movetime", "1"},
			code: 0, stdout: "1 matches"},
		{name: "query --timeout 1.5", args: []string{"query", tttGame, "(role ?r)", "--timeout", "1.5"}, code: 0, stdout: "(role xplayer)\n", emptyError: true},
		{name: "verify --timeout 30", args: []string{"verify", tttGame, "--timeout", "30"}, code: 0, stdout: "nothing found"},
		{name: "a bad value names the flag and the forms", args: []string{"query", tttGame, "terminal", "--timeout", "2x"}, code: 2,
			stderr: []string{`gdl query: --timeout "2x": ` + forms, "Run 'gdl query -h' for its options."}},
		{name: "clocks are whole seconds", args: []string{"match", tttGame, "--player", "random", "--player", "random", "--playclock", "1.5"}, code: 2,
			stderr: []string{"--playclock 1.5s: the GGP protocol's clocks are whole seconds, from 1 to 86400"}},
		{name: "play --time takes seconds", args: []string{"play", tttGame, "--time", "x1"}, code: 2,
			stderr: []string{`--time "x1": ` + forms}},
	})
}

// TestHelpAndSuggestions: `gdl help CMD` prints the command's usage, and a misspelt command or
// flag is named with the nearest ones (issue 23, item 10).
func TestHelpAndSuggestions(t *testing.T) {
	bin := buildGDL(t)
	runCLICases(t, bin, []cliCase{
		{name: "help check", args: []string{"help", "check"}, code: 0, stdout: "Usage: gdl check", emptyError: true},
		{name: "help lsp", args: []string{"help", "lsp"}, code: 0, stdout: "Usage: gdl lsp", emptyError: true},
		{name: "help", args: []string{"help"}, code: 0, stdout: "Commands:", emptyError: true},
		{name: "help of a misspelt command", args: []string{"help", "verfy"}, code: 2,
			stderr: []string{`gdl help: unknown command "verfy"; did you mean verify?`}},
		{name: "a misspelt command", args: []string{"chekc", tttGame}, code: 2,
			stderr: []string{`gdl: unknown command "chekc"; did you mean check?`}},
		{name: "a misspelt flag", args: []string{"check", "--formt", "json", tttGame}, code: 2,
			stderr: []string{"gdl check: unknown flag --formt; did you mean --format?", "Run 'gdl check -h' for its options."}},
		{name: "a flag after the game", args: []string{"query", tttGame, "terminal", "--mvoes", "x"}, code: 2,
			stderr: []string{"unknown flag --mvoes; did you mean --moves?"}},
		{name: "nothing near", args: []string{"verify", tttGame, "--zzzzzz"}, code: 2,
			stderr: []string{"gdl verify: unknown flag --zzzzzz\n"}},
		{name: "a flag without its value", args: []string{"query", tttGame, "terminal", "--moves"}, code: 2,
			stderr: []string{"gdl query: --moves needs a value"}},
	})
}
