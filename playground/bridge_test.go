package playground

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// call runs a method and decodes its result into T, failing the test on an error reply.
func call[T any](t *testing.T, b *Bridge, method string, params any) T {
	t.Helper()
	var v T
	res, errText := callRaw(t, b, method, params)
	if errText != "" {
		t.Fatalf("%s: error %s", method, errText)
	}
	if err := json.Unmarshal(res, &v); err != nil {
		t.Fatalf("%s: %v in %s", method, err, res)
	}
	return v
}

// callRaw runs a method and returns its raw result and its error text.
func callRaw(t *testing.T, b *Bridge, method string, params any) (json.RawMessage, string) {
	t.Helper()
	var in []byte
	if params != nil {
		var err error
		if in, err = json.Marshal(params); err != nil {
			t.Fatal(err)
		}
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  string          `json:"error"`
	}
	out := b.Call(context.Background(), method, in)
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s: the reply is not JSON: %v\n%s", method, err, out)
	}
	return r.Result, r.Error
}

func readGame(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// posOf returns the position of the n-th (0-based) occurrence of what in text.
func posOf(t *testing.T, text, what string, n int) Pos {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(text[off+1:], what)
		if j < 0 {
			t.Fatalf("no %q (%d) in the text", what, n)
		}
		off += 1 + j
	}
	line := strings.Count(text[:off], "\n")
	col := off - (strings.LastIndex(text[:off], "\n") + 1)
	// UTF-16 units: the test texts' non-ASCII characters are in the BMP, one unit each.
	return Pos{line, len([]rune(text[off-col : off]))}
}

type diags struct {
	Version     int32        `json:"version"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

func codes(ds diags) []string {
	var out []string
	for _, d := range ds.Diagnostics {
		out = append(out, d.Code)
	}
	return out
}

// TestEditorFeatures: a typo typed into tic-tac-toe is reported with its code and its fix;
// the fix applied as the page applies it clears it; hover, completion, definition and formatting
// answer at positions counted in UTF-16 units.
func TestEditorFeatures(t *testing.T) {
	b := New(nil)
	text := readGame(t, "../testdata/games/tictactoe.kif")
	info := call[docInfo](t, b, "open", openParams{Text: text})
	if info.Notation != "prefix" {
		t.Errorf("notation %q", info.Notation)
	}
	if ds := call[diags](t, b, "diagnostics", nil); len(ds.Diagnostics) != 0 {
		t.Fatalf("tictactoe has diagnostics: %v", ds.Diagnostics)
	}
	// A comment with a character outside ASCII before the typo, so that UTF-16 positions matter.
	at := posOf(t, text, "(true (control ?player))", 0)
	typo := "(true (contrl ?player)) ; é\n    "
	call[docInfo](t, b, "edit", editParams{Changes: []change{{Range: Range{at, at}, Text: typo}}})
	ds := call[diags](t, b, "diagnostics", nil)
	var found *Diagnostic
	for i, d := range ds.Diagnostics {
		if d.Code == "undefined-fluent" || d.Code == "undefined-relation" {
			found = &ds.Diagnostics[i]
		}
	}
	if found == nil {
		t.Fatalf("no diagnostic of the typo: %v", codes(ds))
	}
	if found.From != (Pos{at.Line, at.Ch + 6}) || found.To != (Pos{at.Line, at.Ch + 22}) {
		t.Errorf("the typo's diagnostic is at %v, want (contrl ?player) at %v+6", found.Range, at)
	}
	if len(found.Fixes) == 0 || !strings.Contains(found.Fixes[0].Title, "control") {
		t.Fatalf("the typo's fix: %+v", found.Fixes)
	}
	// The page applies a fix's edits last first, as edits.
	fix := slices.Clone(found.Fixes[0].Edits)
	slices.Reverse(fix)
	var cs []change
	for _, e := range fix {
		cs = append(cs, change(e))
	}
	call[docInfo](t, b, "edit", editParams{Changes: cs})
	if ds := call[diags](t, b, "diagnostics", nil); len(ds.Diagnostics) != 0 {
		t.Errorf("after the fix: %v", codes(ds))
	}
	// After "é" on the line: the position of "(" on the next line is counted in UTF-16 units.
	cur := b.current().Text()
	if !strings.Contains(cur, "(true (control ?player)) ; é\n") {
		t.Fatalf("the text after the fix:\n%s", cur)
	}
	kw := posOf(t, cur, "(legal", 0)
	h := call[*hoverResult](t, b, "hover", atParams{Pos{kw.Line, kw.Ch + 2}})
	if h == nil || !strings.Contains(h.Markdown, "legal") {
		t.Errorf("hover of legal: %+v", h)
	}
	items := call[[]completionItem](t, b, "complete", atParams{Pos{at.Line, at.Ch + 7}})
	if !slices.ContainsFunc(items, func(it completionItem) bool { return it.Label == "control" }) {
		t.Errorf("completion in (true (c|: no control among %d items", len(items))
	}
	use := posOf(t, cur, "(line ?s))", 0)
	defs := call[[]Range](t, b, "definition", atParams{Pos{use.Line, use.Ch + 1}})
	if len(defs) != 4 || defs[0].From.Line != posOf(t, cur, "(<= (line ?s)", 0).Line {
		t.Errorf("the definitions of line: %v", defs)
	}
	if es := call[[]Edit](t, b, "format", nil); len(es) != 0 {
		t.Errorf("format of a formatted game: %+v", es)
	}
	call[docInfo](t, b, "open", openParams{Text: "(role  a)"})
	if es := call[[]Edit](t, b, "format", nil); len(es) != 1 || es[0].Text != "(role a)" {
		t.Errorf("format: %+v", es)
	}
}

// TestInfix: an infix game is opened in its notation and its typo reported.
func TestInfix(t *testing.T) {
	b := New(nil)
	text := readGame(t, "../testdata/games/noughts.hrf")
	if info := call[docInfo](t, b, "open", openParams{Text: text, Notation: "infix"}); info.Notation != "infix" {
		t.Errorf("notation %q", info.Notation)
	}
	if ds := call[diags](t, b, "diagnostics", nil); len(ds.Diagnostics) != 0 {
		t.Errorf("noughts.hrf: %v", ds.Diagnostics)
	}
	st := call[gameState](t, b, "state", nil)
	if st.Notation != "infix" || len(st.Roles) != 2 || st.Error != "" {
		t.Errorf("state of noughts.hrf: %+v", st)
	}
}

// TestGame plays tic-tac-toe through the bridge: a move clicked (its squares), a computer move
// by MCTS on a playout budget, a refused move with its why-not, back, a jump, and the SVG.
func TestGame(t *testing.T) {
	b := New(nil)
	call[docInfo](t, b, "open", openParams{Text: readGame(t, "../testdata/games/tictactoe.kif")})
	st := call[gameState](t, b, "state", nil)
	if st.Step != 0 || len(st.Legal["xplayer"]) != 9 || len(st.View.Boards) != 1 {
		t.Fatalf("initial state: %+v", st)
	}
	if !strings.Contains(st.SVG, `<rect class="square" data-board="0" data-row="1" data-column="1"`) {
		t.Errorf("the SVG has no square (1, 1):\n%s", st.SVG)
	}
	i := slices.Index(st.Legal["xplayer"], "(mark 2 2)")
	if i < 0 || !slices.Equal(st.Squares["xplayer"][i], []Square{{0, 1, 1}}) {
		t.Errorf("the squares of (mark 2 2): %v", st.Squares["xplayer"])
	}
	st = call[gameState](t, b, "play", map[string]any{"moves": []string{"(mark 2 2)", "noop"}})
	if st.Step != 1 || st.Error != "" || !slices.Contains(st.State, "(cell 2 2 x)") {
		t.Fatalf("after (mark 2 2): %+v", st)
	}
	st = call[gameState](t, b, "computer", map[string]any{"playouts": 200, "seed": 1})
	if st.Step != 2 || len(st.Computer) != 1 || st.Computer[0].Role != "oplayer" || st.Computer[0].Playouts != 200 {
		t.Fatalf("after the computer's move: step %d, %+v, error %q", st.Step, st.Computer, st.Error)
	}
	st = call[gameState](t, b, "play", map[string]any{"moves": []string{"(mark 2 2)", "noop"}})
	if st.Step != 2 || st.Error == "" || st.Why == nil || st.Why.Holds {
		t.Errorf("a move on a taken square: step %d, error %q, why %+v", st.Step, st.Error, st.Why)
	}
	st = call[gameState](t, b, "undo", nil)
	if st.Step != 1 || len(st.Line) != 2 {
		t.Errorf("undo: step %d, line %v", st.Step, st.Line)
	}
	st = call[gameState](t, b, "goto", map[string]any{"step": 2})
	if st.Step != 2 {
		t.Errorf("goto 2: step %d (%s)", st.Step, st.Error)
	}
	if _, e := callRaw(t, b, "goto", nil); !strings.Contains(e, "give the step") {
		t.Errorf("goto without a step: %q", e)
	}
	x := call[explainResult](t, b, "explain", map[string]any{"literal": "(legal oplayer noop)"})
	if !x.Holds || !strings.Contains(x.Markdown, "(#L37,1)") {
		t.Errorf("explain (legal oplayer noop): %+v", x)
	}
	q := call[queryResult](t, b, "query", map[string]any{"query": "(legal oplayer ?m)"})
	if q.Answers != 1 || !strings.Contains(q.Text, "noop") {
		t.Errorf("query: %+v", q)
	}
	ls := call[[]lens](t, b, "lenses", nil)
	if len(ls) == 0 || !slices.ContainsFunc(ls, func(l lens) bool { return strings.HasPrefix(l.Title, "legal") }) {
		t.Errorf("lenses: %+v", ls)
	}
}

// TestVerify: verify finds the cycle of termination.kif, with its witness, which replay plays.
func TestVerify(t *testing.T) {
	var mu sync.Mutex
	var kinds []string
	b := New(func(kind string, _ any) {
		mu.Lock()
		kinds = append(kinds, kind)
		mu.Unlock()
	})
	text := readGame(t, "../testdata/verify/termination.kif")
	call[docInfo](t, b, "open", openParams{Text: text})
	r := call[verifyResult](t, b, "verify", verifyParams{TimeoutMs: 60_000})
	if !r.Complete || len(r.Findings) != 1 || r.Findings[0].Code != "verify-termination" || len(r.Findings[0].Witness) != 6 {
		t.Fatalf("verify: %+v", r)
	}
	f := r.Findings[0]
	if line := strings.Split(text, "\n")[f.From.Line]; !strings.Contains(line, "terminal") && !strings.Contains(line, "next") {
		t.Errorf("the finding is placed on %q", line)
	}
	st := call[gameState](t, b, "replay", map[string]any{"history": f.Witness})
	if st.Step != 6 || st.Error != "" {
		t.Errorf("the witness replayed: step %d, error %q", st.Step, st.Error)
	}
	p := call[struct {
		Report struct {
			Playouts int `json:"playouts"`
		} `json:"report"`
		Error string `json:"error"`
	}](t, b, "playouts", map[string]any{"playouts": 50, "seed": 1})
	if p.Report.Playouts != 50 || p.Error != "" {
		t.Errorf("playouts: %+v", p)
	}
}

// TestBadCalls: every malformed call is an error reply, and the bridge goes on.
func TestBadCalls(t *testing.T) {
	b := New(nil)
	call[docInfo](t, b, "open", openParams{Text: "(role a)\n(role b)\n"})
	for _, c := range []struct {
		method, params, want string
	}{
		{"nosuch", "{}", `unknown method "nosuch"`},
		{"open", "[1]", "open: bad parameters"},
		{"open", `{"text":"","notation":"lisp"}`, "notation"},
		{"edit", `{"changes":[{"from":{"line":0,"ch":5},"to":{"line":0,"ch":0},"text":""}]}`, "ends"},
		{"hover", "nope", "bad parameters"},
		{"explain", "{}", "give a literal"},
		{"query", `{"query":"  "}`, "give a query"},
	} {
		var r struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(b.Call(context.Background(), c.method, []byte(c.params)), &r); err != nil || !strings.Contains(r.Error, c.want) {
			t.Errorf("%s %s: %q, want %q", c.method, c.params, r.Error, c.want)
		}
	}
	// The bridge still works.
	call[docInfo](t, b, "open", openParams{Text: "(role a)"})
	if ds := call[diags](t, b, "diagnostics", nil); len(ds.Diagnostics) == 0 {
		t.Errorf("a game of one role fact has no diagnostics")
	}
}
