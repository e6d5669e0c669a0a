package ggp

import (
	"errors"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/markers"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestParseMessages reads each message of testdata/messages.txt (one per section) and compares
// what Parse makes of it with testdata/messages.golden: the fields, and the message as written
// back on the wire, or the error with its place.
func TestParseMessages(t *testing.T) {
	data, err := os.ReadFile("testdata/messages.txt")
	if err != nil {
		t.Fatal(err)
	}
	cases, order := markers.Sections(string(data))
	var out markers.Output
	for _, name := range order {
		text := cases[name]
		out.Section(name)
		m, err := Parse(text)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%s: the error is a %T, not a *SyntaxError", name, err)
			}
			if !strings.HasPrefix(name, "error:") {
				t.Errorf("%s: %v", name, err)
			}
			out.Line("error " + err.Error())
			continue
		}
		if strings.HasPrefix(name, "error:") {
			t.Errorf("%s: no error", name)
		}
		out.Line("kind " + string(m.Kind))
		if m.MatchID != "" {
			out.Line("match " + m.MatchID)
		}
		if m.Kind == Start || m.Kind == Preview {
			rules, err := Rules(m.Rules)
			if err != nil {
				t.Errorf("%s: the rules do not read: %v", name, err)
			}
			if m.Kind == Start {
				out.Line("role " + m.Role)
			}
			out.Line("rules " + rules)
			out.Printf("clocks %v %v\n", m.StartClock, m.PlayClock)
		}
		if m.Kind == Play || m.Kind == Stop {
			if m.II {
				out.Printf("turn %d, move %q, percepts %q\n", m.Turn, m.LastMove, m.Percepts)
			} else {
				out.Printf("joint %q\n", m.Joint)
			}
		}
		wire := m.String()
		out.Line("wire " + wire)
		// What a message writes reads back as the same message.
		back, err := Parse(wire)
		if err != nil {
			t.Errorf("%s: the message written does not read back: %v", name, err)
		} else if !reflect.DeepEqual(back, m) {
			t.Errorf("%s: written and read back: %+v, not %+v", name, back, m)
		}
	}
	markers.Check(t, "testdata/messages.golden", out.String(), *update)
}

// TestParseHostile: messages no manager sends, each refused with its place, in bounded time.
func TestParseHostile(t *testing.T) {
	cases := map[string]struct {
		text string
		want string
	}{
		"deep nesting":      {strings.Repeat("(", 100_000) + strings.Repeat(")", 100_000), "line 1, column 1001: the message nests more than 1000 levels"},
		"control character": {"(PLAY m1\x00 nil)", "line 1, column 9: unexpected control character '\\x00'"},
		"a million atoms":   {"(PLAY m1 (" + strings.Repeat("a ", 1_000_000) + "))", "line 1, column 2000002: the message has more than 1000000 atoms and lists"},
	}
	for name, c := range cases {
		_, err := Parse(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
	// An accepted message nests as deep as the limit.
	deep := "(PLAY m1 (" + strings.Repeat("(f ", 997) + "a" + strings.Repeat(")", 997) + " b))"
	if _, err := Parse(deep); err != nil {
		t.Errorf("a move nested 998 levels deep: %v", err)
	}
}

// TestRules: the rules a START carries are the description's forms, compact, without comments
// (a ';' after a double quote starts a comment, as in a game file).
func TestRules(t *testing.T) {
	got, err := Rules("; a game\n(role x) ; the role\n(<= (legal x (mark ?c))\n    (cell ?c)) \"a;b\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := `(role x) (<= (legal x (mark ?c)) (cell ?c)) "a`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := Rules("(role x"); err == nil || err.Error() != "line 1, column 1: '(' is never closed" {
		t.Errorf("unclosed: %v", err)
	}
}
