package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

func TestConfig(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if c, err := FindConfig(deep); c != nil || err != nil {
		t.Fatalf("no config: got %v, %v", c, err)
	}
	os.WriteFile(filepath.Join(root, "a", ConfigFileName), []byte(`{"severity": {"empty-body": "error", "order-hint": "off"}, "eval": {"timeoutMs": 500}}`), 0o644)
	c, err := FindConfig(deep)
	if err != nil || c == nil {
		t.Fatalf("config not found walking up: %v", err)
	}
	if c.Eval.TimeoutMs != 500 {
		t.Errorf("eval limits not read: %+v", c.Eval)
	}
	f, _ := syntax.Parse("(role r)\n(<= (legal r go))\n(<= (next x) (does r go))\n(<= terminal (true x))\n(goal r 100)\n" +
		"(<= (next y) (not (true z)) (true (w ?q)) (not (true (v ?q))))\n(<= (next z) (not (true (v ?q))) (true (w ?q)))\n")
	res := Analyze(f, c)
	var sawEmpty bool
	for _, d := range res.Diagnostics {
		if d.Code == "order-hint" {
			t.Errorf("order-hint is off but reported")
		}
		if d.Code == "empty-body" {
			sawEmpty = d.Severity == Error
		}
	}
	if !sawEmpty {
		t.Errorf("empty-body not raised to error: %v", res.Diagnostics)
	}
	if def := Analyze(f, nil); func() bool {
		for _, d := range def.Diagnostics {
			if d.Code == "order-hint" {
				return false
			}
		}
		return true
	}() {
		t.Errorf("without config, order-hint must be reported")
	}
	for _, bad := range []string{`{"severity": {"no-such-code": "error"}}`, `{"severity": {"empty-body": "loud"}}`, `{`} {
		if _, err := ParseConfig("gdl.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "gdl.json") {
			t.Errorf("%s: want an error naming the file, got %v", bad, err)
		}
	}
}

// TestConfigNearest: the gdl.json nearest to the file wins, syntax codes can be overridden too,
// and the errors name the offending code or value.
func TestConfigNearest(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "games", "mine")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(dir, text string) {
		if err := os.WriteFile(filepath.Join(dir, ConfigFileName), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(root, `{"severity": {"empty-body": "off"}}`)
	write(deep, `{"severity": {"empty-list": "warning", "unused-relation": "off"}}`)
	c, err := FindConfig(deep)
	if err != nil || c == nil || c.Path != filepath.Join(deep, ConfigFileName) {
		t.Fatalf("want the nearest gdl.json, got %+v, %v", c, err)
	}
	f, _ := syntax.Parse("(role r)\n(<= (legal r go))\n(<= (next x) (does r go))\n(<= terminal (true x))\n(goal r 100)\n" +
		"(<= (p ()) (true x))\n")
	var saw []string
	for _, d := range Analyze(f, c).Diagnostics {
		saw = append(saw, d.Code+"/"+d.Severity.String())
	}
	got := strings.Join(saw, " ")
	// The upper file is not merged in: empty-body keeps its default severity.
	for _, want := range []string{"empty-list/warning", "empty-body/warning"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %s, got %s", want, got)
		}
	}
	if strings.Contains(got, "unused-relation") {
		t.Errorf("unused-relation is off, got %s", got)
	}
	for bad, want := range map[string]string{
		`{"severity": {"no-such-code": "error"}}`: `"no-such-code"`,
		`{"severity": {"empty-body": "loud"}}`:    `"loud"`,
	} {
		if _, err := ParseConfig("gdl.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error naming %s, got %v", bad, want, err)
		}
	}
}

// TestConfigErrors: every mistake in gdl.json is an error naming the file, the line and the
// column of the key or value at fault, and the key or value itself.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"{\n  \"severities\": {\"order-hint\": \"off\"}\n}", `gdl.json:2:3: unknown key "severities"`},
		{`{"eval": {"timeoutMs": -5}}`, `gdl.json:1:24: eval.timeoutMs must be a non-negative integer (0 means the default), not -5`},
		{`{"eval": {"maxFacts": 1.5}}`, `gdl.json:1:23: eval.maxFacts must be a non-negative integer`},
		{`{"eval": {"maxTermDepth": "64"}}`, `gdl.json:1:27: eval.maxTermDepth must be a non-negative integer (0 means the default), not "64"`},
		{`{"eval": {"timeout": 5}}`, `gdl.json:1:11: unknown key "timeout" in "eval"`},
		{"{\"severity\": {\n\t\"order-hint\": \"loud\"}}", `gdl.json:2:16: severity of "order-hint" must be "error", "warning", "info", "hint" or "off", not "loud"`},
		{`{"severity": {"order-hint": 1}}`, `gdl.json:1:29: severity of "order-hint" must be`},
		{`{"severity": {"no-such-code": "error"}}`, `gdl.json:1:15: unknown diagnostic code "no-such-code"`},
		{`{"severity": ["order-hint"]}`, `gdl.json:1:14: "severity" must be a JSON object {...}, not an array`},
		{`{"eval": null}`, `gdl.json:1:10: "eval" must be a JSON object {...}, not null`},
		{`[]`, `gdl.json:1:1: the configuration must be a JSON object {...}, not an array`},
		{`{"severity": {}, "severity": {}}`, `gdl.json:1:18: "severity" is given twice in the configuration`},
		{`{} {}`, `gdl.json:1:4: invalid JSON: invalid character '{' after top-level value`},
		{`{"severity": {"order-hint": "off",}}`, `gdl.json:1:35: invalid JSON`},
		{`{"severity": {`, `gdl.json:1:15: invalid JSON: unexpected end of the file`},
		{``, `gdl.json:1:1: invalid JSON: unexpected end of the file`},
		{`{"a" 1}`, `gdl.json:1:6: invalid JSON: invalid character '1' after object key`},
		{"{\n  \"eval\": {}\n} x", `gdl.json:3:3: invalid JSON: invalid character 'x' after top-level value`},
	} {
		_, err := ParseConfig("gdl.json", []byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s...", c.text, err, c.want)
		}
	}
	// Valid files, with every key, none, or zero limits (the defaults).
	for _, text := range []string{`{}`, " {\n} \n", `{"eval": {"timeoutMs": 0, "maxFacts": 10, "maxTermDepth": 3}, "severity": {"empty-list": "off"}}`} {
		if _, err := ParseConfig("gdl.json", []byte(text)); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// TestConfigBoard: the "board" section is read whole, and each mistake in it is an error at the
// key or value at fault.
func TestConfigBoard(t *testing.T) {
	text := `{"board": {"detect": false, "boards": [{"relation": "cell", "row": 2, "column": 1, "rowsUp": true}, {"relation": "hand", "row": 1, "column": 3}],
  "pieces": {"wk": "♔", "b": "", "( piece  white )": "W"}}}`
	c, err := ParseConfig("gdl.json", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	b := c.Board
	if b.DetectBoards() || len(b.Boards) != 2 || b.Boards[0].Relation != "cell" || b.Boards[0].Row != 2 || b.Boards[0].Column != 1 ||
		b.Boards[0].RowsUp == nil || !*b.Boards[0].RowsUp || b.Boards[1].RowsUp != nil {
		t.Errorf("board section read as %+v", b)
	}
	if b.Pieces["wk"] != "♔" || b.Pieces["b"] != "" || b.Pieces["( piece white )"] != "W" {
		t.Errorf("pieces read as %q", b.Pieces)
	}
	if d, _ := ParseConfig("gdl.json", []byte(`{}`)); !d.Board.DetectBoards() {
		t.Errorf("detection is on by default")
	}
	for _, c := range []struct{ text, want string }{
		{`{"board": {"board": []}}`, `gdl.json:1:12: unknown key "board" in "board" (known: boards, detect, pieces)`},
		{`{"board": {"detect": "yes"}}`, `gdl.json:1:22: board.detect must be true or false, not "yes"`},
		{`{"board": {"boards": {}}}`, `gdl.json:1:22: board.boards must be an array of boards [{...}], not an object`},
		{`{"board": {"boards": [{"row": 1, "column": 2}]}}`, `gdl.json:1:23: board.boards: a board needs "relation"`},
		{`{"board": {"boards": [{"relation": "cell", "row": 1}]}}`, `gdl.json:1:23: board.boards: the board of "cell" needs "row" and "column"`},
		{`{"board": {"boards": [{"relation": "cell", "row": 2, "column": 2}]}}`, `gdl.json:1:23: board.boards: the board of "cell" has row and column both at argument 2`},
		{`{"board": {"boards": [{"relation": "cell", "row": 0, "column": 2}]}}`, `gdl.json:1:51: board.boards: row must be the 1-based position of an argument of the relation (1 to 64), not 0`},
		{`{"board": {"boards": [{"relation": "(cell)", "row": 1, "column": 2}]}}`, `gdl.json:1:36: board.boards: relation must be the name of a fluent's relation`},
		{`{"board": {"boards": [{"relation": "cell", "row": 1, "column": 2, "flip": true}]}}`, `gdl.json:1:67: unknown key "flip" in a board of board.boards (known: column, relation, row, rowsUp)`},
		{`{"board": {"boards": [{"relation": "cell", "row": 1, "column": 2}, {"relation": "Cell", "row": 1, "column": 2}]}}`, `gdl.json:1:68: board.boards: relation "Cell" is listed twice`},
		{`{"board": {"boards": [3]}}`, `gdl.json:1:23: a board of board.boards must be a JSON object {...}, not 3`},
		{`{"board": {"pieces": {"x": 1}}}`, `gdl.json:1:28: board.pieces: the text shown for "x" must be a string ("" for an empty square), not 1`},
		{`{"board": {"pieces": {"x": "123456789"}}}`, `gdl.json:1:28: board.pieces: the text shown for "x" has 9 characters; at most 8 fit a square`},
	} {
		_, err := ParseConfig("gdl.json", []byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s...", c.text, err, c.want)
		}
	}
}
