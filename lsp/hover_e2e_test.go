package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestHoverShapeOverStdio hovers every name of each shipped game, each form documented by a
// comment, over real stdio, in the initial state and after a random playout, and checks the
// shape of the Markdown: blocks separated by exactly one blank line, "---" only between two
// blocks, and an answers section on each evaluated relation. Neovim 0.7 throws a Lua error on more blank lines before a "---" (issue 10); its own
// end-to-end test (vscode-extension/test/editors) displays the same hovers.
func TestHoverShapeOverStdio(t *testing.T) {
	games, _ := filepath.Glob("../testdata/games/*.kif")
	games = append(games, "../ide/testdata/markers/hover_docs.kif")
	if len(games) < 2 {
		t.Fatal("no games in ../testdata/games")
	}
	c := startServer(t)
	c.initialize()
	for _, path := range games {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := documentForms(string(data))
		uri := protocol.DocumentURI("file:///w/" + filepath.Base(path))
		c.open(uri, text)
		c.diagnosticsFor(uri, 1)
		names := namesOf(text)
		hoverAll := func(state string) {
			for _, n := range names {
				h := c.settledHover(uri, n.at)
				if h == nil {
					continue
				}
				if msg := markdownShape(h.Contents.Value); msg != "" {
					t.Errorf("%s, %s: hover on %s at %d:%d: %s: %q", filepath.Base(path), state, n.name, n.at.Line+1, n.at.Character+1, msg, h.Contents.Value)
				}
				if evaluatedInHover[n.name] && !strings.Contains(h.Contents.Value, "\n\n---\n\nIn the ") {
					t.Errorf("%s, %s: hover on %s has no answers section: %q", filepath.Base(path), state, n.name, h.Contents.Value)
				}
			}
		}
		hoverAll("initial state")
		var st gameState
		for i := 0; i < 50 && !st.Terminal && st.Error == ""; i++ {
			c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playRandom",
				Arguments: []interface{}{map[string]any{"uri": uri}}}, &st)
		}
		if st.Step == 0 {
			t.Errorf("%s: no random joint move played: %+v", filepath.Base(path), st)
		}
		hoverAll("after a random playout")
	}
}

// documentForms puts a comment line above every form that has none.
func documentForms(src string) string {
	lines := strings.Split(src, "\n")
	var out []string
	for i, l := range lines {
		if strings.HasPrefix(l, "(") && (i == 0 || !strings.HasPrefix(strings.TrimSpace(lines[i-1]), ";")) {
			out = append(out, "; the form below, documented")
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

type namedPosition struct {
	name string
	at   protocol.Position
}

var tokenRE = regexp.MustCompile(`[^\s();]+`)

// namesOf returns the first occurrence of each name outside comments, variables left out.
func namesOf(src string) []namedPosition {
	var out []namedPosition
	seen := map[string]bool{}
	li := syntax.NewLineIndex(src)
	for i, line := range strings.Split(src, "\n") {
		if c := strings.Index(line, ";"); c >= 0 {
			line = line[:c]
		}
		for _, m := range tokenRE.FindAllStringIndex(line, -1) {
			name := line[m[0]:m[1]]
			if seen[name] || strings.HasPrefix(name, "?") {
				continue
			}
			seen[name] = true
			p := li.Position(li.LineStart(i)+m[0], syntax.UTF16)
			out = append(out, namedPosition{name, pos(uint32(p.Line), uint32(p.Column))})
		}
	}
	return out
}

// settledHover asks for the hover at p until its evaluation is no longer running.
func (c *testClient) settledHover(uri protocol.DocumentURI, p protocol.Position) *protocol.Hover {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var h *protocol.Hover
		c.mustCall("textDocument/hover", tdpp(uri, p), &h)
		if h == nil || !strings.Contains(h.Contents.Value, "still running") || time.Now().After(deadline) {
			return h
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// markdownShape says what is wrong with a hover's Markdown: a blank line at an end, a run of
// blank lines, or a "---" first, last or right under a line of text (which makes that line a
// heading).
func markdownShape(md string) string {
	lines := strings.Split(md, "\n")
	blank := func(i int) bool { return strings.TrimSpace(lines[i]) == "" }
	if blank(0) || blank(len(lines)-1) {
		return "blank line at an end"
	}
	for i := range lines {
		if i > 0 && blank(i) && blank(i-1) {
			return fmt.Sprintf("two blank lines in a row at line %d", i)
		}
		if lines[i] == "---" && (i == 0 || i == len(lines)-1 || !blank(i-1)) {
			return fmt.Sprintf("\"---\" first, last or under a line of text at line %d", i+1)
		}
	}
	return ""
}
