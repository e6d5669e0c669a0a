package lsp

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files of the marker tests")

// Marker tests: each testdata/markers/NAME.kif is a small game with markers in comments beside
// the tokens they ask about; NAME.golden holds the expected answers, one section per marker,
// refreshed with -update.
//
//	(<= (legal ?r noop) (role ?r))  ;@hover(?r#2) @def(?r#2) @refs(role)
//
// A marker names a token of its line (the n-th occurrence with #n) and asks at its second
// character; @complete asks at the token's end; @rename(token,new) renames it. @symbols,
// @folding, @tokens and @diagnostics ask about the whole file.
var markerRE = regexp.MustCompile(`@([a-z]+)(?:\(([^)]*)\))?`)

func TestMarkers(t *testing.T) {
	cases, _ := filepath.Glob("testdata/markers/*.kif")
	if len(cases) == 0 {
		t.Fatal("no marker cases in testdata/markers")
	}
	for _, path := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".kif"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := runMarkers(t, string(data))
			golden := strings.TrimSuffix(path, ".kif") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			compareSections(t, string(want), got)
		})
	}
}

func runMarkers(t *testing.T, src string) string {
	snap := newSnapshot("file:///markers/case.kif", 1, src, syntax.UTF16)
	var b strings.Builder
	section := func(title string) { fmt.Fprintf(&b, "-- %s --\n", title) }
	lines := splitLines(src)
	for li, line := range lines {
		c := strings.Index(line, ";")
		if c < 0 {
			continue
		}
		for _, mk := range markerRE.FindAllStringSubmatch(line[c:], -1) {
			kind, arg := mk[1], mk[2]
			title := fmt.Sprintf("%s %d", kind, li+1)
			if arg != "" {
				title += " " + arg
			}
			section(title)
			if body, whole := fileMarker(snap, kind); whole {
				b.WriteString(body)
				continue
			}
			args := strings.SplitN(arg, ",", 2)
			tok, nth := args[0], 1
			if i := strings.LastIndex(tok, "#"); i > 0 {
				nth, _ = strconv.Atoi(tok[i+1:])
				tok = tok[:i]
			}
			col := nthIndex(line[:c], tok, nth)
			if col < 0 {
				t.Errorf("line %d: marker %s: no %q on the line", li+1, kind, arg)
				continue
			}
			lineStart := snap.m.lines.LineStart(li)
			off := lineStart + col + 1
			if kind == "complete" {
				off = lineStart + col + len(tok)
			}
			b.WriteString(askMarker(t, snap, kind, off, args))
		}
	}
	return b.String()
}

func splitLines(src string) []string {
	var out []string
	li := syntax.NewLineIndex(src)
	for i := 0; i < li.Lines(); i++ {
		s, e := li.LineStart(i), li.LineStart(i+1)
		out = append(out, strings.TrimRight(src[s:e], "\r\n"))
	}
	return out
}

func nthIndex(s, tok string, n int) int {
	off := 0
	for i := 1; ; i++ {
		j := strings.Index(s[off:], tok)
		if j < 0 {
			return -1
		}
		if i == n {
			return off + j
		}
		off += j + len(tok)
	}
}

// where renders a range as 1-based line:column (UTF-16) and the text it covers.
func where(snap *Snapshot, r protocol.Range) string {
	a, b := snap.m.offset(r.Start), snap.m.offset(r.End)
	text := strings.Join(strings.Fields(snap.Text()[a:b]), " ")
	return fmt.Sprintf("%d:%d-%d:%d %q", r.Start.Line+1, r.Start.Character+1, r.End.Line+1, r.End.Character+1, shorten(text, 50))
}

func askMarker(t *testing.T, snap *Snapshot, kind string, off int, args []string) string {
	var b strings.Builder
	switch kind {
	case "hover":
		if h := hover(context.Background(), nil, nil, snap, off, true); h != nil {
			b.WriteString(h.Contents.Value + "\n")
		} else {
			b.WriteString("(none)\n")
		}
	case "def":
		for _, l := range definition(snap, off) {
			b.WriteString(where(snap, l.Range) + "\n")
		}
	case "refs":
		for _, l := range references(snap, off, true) {
			b.WriteString(where(snap, l.Range) + "\n")
		}
	case "highlight":
		for _, h := range highlights(snap, off) {
			fmt.Fprintf(&b, "%s %s\n", where(snap, h.Range), map[protocol.DocumentHighlightKind]string{1: "text", 2: "read", 3: "write"}[h.Kind])
		}
	case "rename":
		newName := ""
		if len(args) > 1 {
			newName = strings.TrimSpace(args[1])
		}
		edits, err := rename(snap, off, newName)
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
		}
		for _, e := range edits {
			fmt.Fprintf(&b, "%s -> %s\n", where(snap, e.Range), e.NewText)
		}
	case "complete":
		for _, it := range completion(snap, off, true) {
			fmt.Fprintf(&b, "%s (%s) %s\n", it.Label, it.Detail, it.TextEdit.NewText)
		}
	case "calls":
		o := occurrenceAt(snap, off)
		if o == nil {
			b.WriteString("(none)\n")
			break
		}
		for _, c := range incomingCalls(snap, o.Key) {
			fmt.Fprintf(&b, "from %s at", c.From.Name)
			for _, r := range c.FromRanges {
				b.WriteString(" " + where(snap, r))
			}
			b.WriteString("\n")
		}
		for _, c := range outgoingCalls(snap, o.Key) {
			fmt.Fprintf(&b, "to %s at", c.To.Name)
			for _, r := range c.FromRanges {
				b.WriteString(" " + where(snap, r))
			}
			b.WriteString("\n")
		}
	case "select":
		for r := selectionRange(snap, off); r != nil; r = r.Parent {
			b.WriteString(where(snap, r.Range) + "\n")
		}
	default:
		t.Errorf("unknown marker @%s", kind)
	}
	return b.String()
}

func fileMarker(snap *Snapshot, kind string) (string, bool) {
	var b strings.Builder
	switch kind {
	case "symbols":
		for _, s := range documentSymbols(snap) {
			fmt.Fprintf(&b, "%s %s %s\n", s.Name, s.Detail, where(snap, s.SelectionRange))
			for _, c := range s.Children {
				fmt.Fprintf(&b, "  %s (%s)\n", c.Name, c.Detail)
			}
		}
	case "folding":
		for _, f := range foldingRanges(snap) {
			fmt.Fprintf(&b, "%d-%d %s\n", f.StartLine+1, f.EndLine+1, f.Kind)
		}
	case "tokens":
		data := semanticTokens(snap, 0, len(snap.Text()))
		var line, char uint32
		for i := 0; i+4 < len(data); i += 5 {
			if data[i] > 0 {
				char = 0
			}
			line += data[i]
			char += data[i+1]
			r := protocol.Range{Start: protocol.Position{Line: line, Character: char}, End: protocol.Position{Line: line, Character: char + data[i+2]}}
			mod := ""
			if data[i+4]&modDeclaration != 0 {
				mod = " declaration"
			}
			fmt.Fprintf(&b, "%s %s%s\n", where(snap, r), tokenTypes[data[i+3]], mod)
		}
	case "diagnostics":
		// Only the parser's codes: the analyzer's checks are tested by their own markers and
		// would make these goldens change with every new check.
		ds, _ := diagnostics(context.Background(), snap, defaultSettings()) // never cancelled
		for _, d := range ds {
			if !isSyntaxCode(fmt.Sprint(d.Code)) {
				continue
			}
			fmt.Fprintf(&b, "%s %s: %s\n", where(snap, d.Range), d.Code, d.Message)
		}
	default:
		return "", false
	}
	return b.String(), true
}

func isSyntaxCode(code string) bool {
	for _, c := range syntax.Codes {
		if c == code {
			return true
		}
	}
	return false
}

// compareSections reports each golden section that differs, by title.
func compareSections(t *testing.T, want, got string) {
	split := func(s string) (map[string]string, []string) {
		m := map[string]string{}
		var order []string
		var cur string
		for _, l := range strings.SplitAfter(s, "\n") {
			if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --\n") {
				cur = strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --\n")
				order = append(order, cur)
				continue
			}
			m[cur] += l
		}
		return m, order
	}
	w, worder := split(want)
	g, gorder := split(got)
	for _, k := range gorder {
		if _, ok := w[k]; !ok {
			t.Errorf("section %q is new (run with -update):\n%s", k, g[k])
		} else if w[k] != g[k] {
			t.Errorf("section %q:\n--- want\n%s--- got\n%s", k, w[k], g[k])
		}
	}
	for _, k := range worder {
		if _, ok := g[k]; !ok {
			t.Errorf("section %q is gone", k)
		}
	}
}
