package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gdl-lsp/gdl/internal/readfile"
)

// ConfigFileName is the project configuration file, looked up from the checked file's folder
// upwards.
const ConfigFileName = "gdl.json"

// Config is the project configuration: severity overrides per diagnostic code, evaluation
// limits, and how states are drawn as boards. The file format is JSON:
//
//	{
//	  "severity": {"order-hint": "off", "unused-relation": "error"},
//	  "eval": {"timeoutMs": 2000, "maxFacts": 1000000, "maxTermDepth": 64},
//	  "board": {"boards": [{"relation": "cell", "row": 1, "column": 2}], "pieces": {"b": ""}}
//	}
//
// Every key is optional. Anything else (an unknown key, a severity that is not one of error,
// warning, info, hint, off, an unknown code, a limit that is not a non-negative integer, a board
// without a relation) is an error naming the file, the line and the column.
type Config struct {
	Path     string              `json:"-"` // where it was read from; empty for defaults
	Severity map[string]Severity `json:"-"`
	Eval     EvalLimits          `json:"eval"`
	Board    BoardConfig         `json:"-"`
}

// BoardConfig is the "board" section: which fluents the game view, gdl render and the editors'
// state commands draw as boards, and how pieces are shown (package board reads it). It is for
// the games that board detection gets wrong; without it every board is detected.
type BoardConfig struct {
	// Detect: boards are also detected among the relations that Boards does not name (the
	// default); false draws only the listed ones.
	Detect *bool
	Boards []BoardSpec
	// Pieces maps a cell's content, as KIF text ("wk", "(piece white king)"), to the text to
	// show for it; "" leaves the square empty.
	Pieces map[string]string
}

// DetectBoards reports whether boards are detected beyond the listed ones.
func (b BoardConfig) DetectBoards() bool { return b.Detect == nil || *b.Detect }

// BoardSpec names a board: the fluents of a relation, with the arguments that give the row and
// the column of a square (1-based positions); the other arguments are the square's content.
type BoardSpec struct {
	Relation string
	Row      int
	Column   int
	// RowsUp: row values increase upwards (row 1 at the bottom, as in chess or connect four);
	// nil leaves it to detection.
	RowsUp *bool
}

// EvalLimits bounds one evaluation. Zero fields mean the defaults.
type EvalLimits struct {
	TimeoutMs    int `json:"timeoutMs,omitempty"`
	MaxFacts     int `json:"maxFacts,omitempty"`
	MaxTermDepth int `json:"maxTermDepth,omitempty"`
}

// ParseConfig reads a configuration from JSON text; path is used in error messages, which have
// the form path:line:column: message.
func ParseConfig(path string, data []byte) (*Config, error) {
	// Syntax first: json.Unmarshal reports offsets from the start of the file, while the
	// decoder's token stream reports some of them from the start of the current value.
	var v interface{}
	if err := json.Unmarshal(data, &v); err != nil {
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		off := int(se.Offset) - 1 // the offset counts the byte at fault
		msg := se.Error()
		if off >= len(data)-1 && strings.Contains(msg, "end of JSON input") {
			off, msg = len(data), "unexpected end of the file"
		}
		return nil, newConfigError(path, data, max(off, 0), "invalid JSON: "+msg)
	}
	p := &configParser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	c := &Config{Path: path, Severity: map[string]Severity{}}
	if err := p.parse(c); err != nil {
		var ce *configError
		if errors.As(err, &ce) {
			return nil, newConfigError(path, data, ce.off, ce.msg)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return c, nil
}

// ConfigError is a problem at a place in a configuration file. Its text has the form
// path:line:column: message.
type ConfigError struct {
	Path         string
	Offset       int // byte offset of the key or value at fault
	Line, Column int // 1-based; the column counts bytes
	Message      string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Message)
}

func newConfigError(path string, data []byte, off int, msg string) *ConfigError {
	line, col := lineCol(data, off)
	return &ConfigError{Path: path, Offset: off, Line: line, Column: col, Message: msg}
}

// configError is a problem at a byte offset of the file.
type configError struct {
	off int
	msg string
}

func (e *configError) Error() string { return e.msg }

// configParser walks the JSON tokens of gdl.json, keeping the offset of each token so that
// every error points at the key or value at fault.
type configParser struct {
	data []byte
	dec  *json.Decoder
}

// next returns the next token and the offset where it starts.
func (p *configParser) next() (json.Token, int, error) {
	off := p.skip(int(p.dec.InputOffset()))
	tok, err := p.dec.Token()
	if err == io.EOF {
		return nil, len(p.data), &configError{len(p.data), "unexpected end of the file"}
	} else if err != nil { // the text is valid JSON (ParseConfig checked): not expected
		return nil, off, &configError{off, "invalid JSON: " + err.Error()}
	}
	return tok, off, nil
}

// skip moves off past whitespace and the separators , and : that the decoder consumes
// silently before a token.
func (p *configParser) skip(off int) int {
	for off < len(p.data) && strings.IndexByte(" \t\r\n,:", p.data[off]) >= 0 {
		off++
	}
	return off
}

// object reads a JSON object, calling member for each key with the key's offset. what names
// the object in messages.
func (p *configParser) object(what string, member func(key string, off int) error) error {
	tok, off, err := p.next()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &configError{off, what + " must be a JSON object {...}, not " + describe(tok)}
	}
	seen := map[string]bool{}
	for p.dec.More() {
		tok, off, err := p.next()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if seen[key] {
			return &configError{off, fmt.Sprintf("%q is given twice in %s", key, what)}
		}
		seen[key] = true
		if err := member(key, off); err != nil {
			return err
		}
	}
	_, _, err = p.next() // the closing brace
	return err
}

var evalLimitKeys = []string{"maxFacts", "maxTermDepth", "timeoutMs"}

func (p *configParser) parse(c *Config) error {
	err := p.object("the configuration", func(key string, off int) error {
		switch key {
		case "severity":
			return p.object(`"severity"`, func(code string, off int) error {
				tok, voff, err := p.next()
				if err != nil {
					return err
				}
				s, ok := tok.(string)
				sev, valid := ParseSeverity(s)
				if !ok || !valid {
					return &configError{voff, fmt.Sprintf("severity of %q must be \"error\", \"warning\", \"info\", \"hint\" or \"off\", not %s",
						code, describe(tok))}
				}
				if !KnownCode(code) {
					return &configError{off, fmt.Sprintf("unknown diagnostic code %q (gdl check --list and docs/diagnostics.md list them)", code)}
				}
				c.Severity[code] = sev
				return nil
			})
		case "eval":
			return p.object(`"eval"`, func(key string, off int) error {
				var field *int
				switch key {
				case "timeoutMs":
					field = &c.Eval.TimeoutMs
				case "maxFacts":
					field = &c.Eval.MaxFacts
				case "maxTermDepth":
					field = &c.Eval.MaxTermDepth
				default:
					return &configError{off, fmt.Sprintf("unknown key %q in \"eval\" (known: %s)", key, strings.Join(evalLimitKeys, ", "))}
				}
				tok, voff, err := p.next()
				if err != nil {
					return err
				}
				n, ok := tok.(json.Number)
				v, err := n.Int64()
				if !ok || err != nil || v < 0 || v > 1<<31-1 {
					return &configError{voff, fmt.Sprintf("eval.%s must be a non-negative integer (0 means the default), not %s", key, describe(tok))}
				}
				*field = int(v)
				return nil
			})
		case "board":
			return p.board(&c.Board)
		default:
			return &configError{off, fmt.Sprintf("unknown key %q (known: board, eval, severity)", key)}
		}
	})
	if err != nil {
		return err
	}
	return nil
}

var (
	boardKeys     = []string{"boards", "detect", "pieces"}
	boardSpecKeys = []string{"column", "relation", "row", "rowsUp"}
)

// board reads the "board" section.
func (p *configParser) board(b *BoardConfig) error {
	return p.object(`"board"`, func(key string, off int) error {
		switch key {
		case "detect":
			v, err := p.boolean("board.detect")
			if err == nil {
				b.Detect = &v
			}
			return err
		case "pieces":
			b.Pieces = map[string]string{}
			return p.object(`"board.pieces"`, func(piece string, off int) error {
				tok, voff, err := p.next()
				if err != nil {
					return err
				}
				s, ok := tok.(string)
				if !ok {
					return &configError{voff, fmt.Sprintf("board.pieces: the text shown for %q must be a string (\"\" for an empty square), not %s", piece, describe(tok))}
				}
				if n := len([]rune(s)); n > 8 {
					return &configError{voff, fmt.Sprintf("board.pieces: the text shown for %q has %d characters; at most 8 fit a square", piece, n)}
				}
				b.Pieces[strings.Join(strings.Fields(piece), " ")] = s
				return nil
			})
		case "boards":
			tok, aoff, err := p.next()
			if err != nil {
				return err
			}
			if d, ok := tok.(json.Delim); !ok || d != '[' {
				return &configError{aoff, "board.boards must be an array of boards [{...}], not " + describe(tok)}
			}
			for p.dec.More() {
				start := p.skip(int(p.dec.InputOffset()))
				spec, err := p.boardSpec()
				if err != nil {
					return err
				}
				for _, prev := range b.Boards {
					if strings.EqualFold(prev.Relation, spec.Relation) {
						return &configError{start, fmt.Sprintf("board.boards: relation %q is listed twice", spec.Relation)}
					}
				}
				b.Boards = append(b.Boards, spec)
			}
			_, _, err = p.next() // the closing bracket
			return err
		}
		return &configError{off, fmt.Sprintf("unknown key %q in \"board\" (known: %s)", key, strings.Join(boardKeys, ", "))}
	})
}

// boardSpec reads one entry of board.boards.
func (p *configParser) boardSpec() (BoardSpec, error) {
	var spec BoardSpec
	start := p.skip(int(p.dec.InputOffset()))
	err := p.object("a board of board.boards", func(key string, off int) error {
		switch key {
		case "relation":
			tok, voff, err := p.next()
			if err != nil {
				return err
			}
			s, ok := tok.(string)
			if !ok || strings.TrimSpace(s) == "" || strings.ContainsAny(s, "()? \t\r\n;") {
				return &configError{voff, "board.boards: relation must be the name of a fluent's relation, such as \"cell\", not " + describe(tok)}
			}
			spec.Relation = s
			return nil
		case "row", "column":
			tok, voff, err := p.next()
			if err != nil {
				return err
			}
			n, ok := tok.(json.Number)
			v, err := n.Int64()
			if !ok || err != nil || v < 1 || v > 64 {
				return &configError{voff, fmt.Sprintf("board.boards: %s must be the 1-based position of an argument of the relation (1 to 64), not %s", key, describe(tok))}
			}
			if key == "row" {
				spec.Row = int(v)
			} else {
				spec.Column = int(v)
			}
			return nil
		case "rowsUp":
			v, err := p.boolean("board.boards: rowsUp")
			if err == nil {
				spec.RowsUp = &v
			}
			return err
		}
		return &configError{off, fmt.Sprintf("unknown key %q in a board of board.boards (known: %s)", key, strings.Join(boardSpecKeys, ", "))}
	})
	if err != nil {
		return spec, err
	}
	switch {
	case spec.Relation == "":
		return spec, &configError{start, "board.boards: a board needs \"relation\" (the fluents' relation, such as \"cell\")"}
	case spec.Row == 0 || spec.Column == 0:
		return spec, &configError{start, fmt.Sprintf("board.boards: the board of %q needs \"row\" and \"column\" (1-based argument positions)", spec.Relation)}
	case spec.Row == spec.Column:
		return spec, &configError{start, fmt.Sprintf("board.boards: the board of %q has row and column both at argument %d", spec.Relation, spec.Row)}
	}
	return spec, nil
}

// boolean reads a JSON true or false.
func (p *configParser) boolean(what string) (bool, error) {
	tok, off, err := p.next()
	if err != nil {
		return false, err
	}
	v, ok := tok.(bool)
	if !ok {
		return false, &configError{off, fmt.Sprintf("%s must be true or false, not %s", what, describe(tok))}
	}
	return v, nil
}

// describe shows a JSON token in a message.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		switch v {
		case '{':
			return "an object"
		case '[':
			return "an array"
		}
		return fmt.Sprintf("%q", string(v))
	case string:
		return fmt.Sprintf("%q", v)
	case json.Number:
		return v.String()
	case bool:
		return fmt.Sprint(v)
	}
	return fmt.Sprint(tok)
}

// lineCol gives the 1-based line and column (in characters) of a byte offset.
func lineCol(data []byte, off int) (int, int) {
	if off > len(data) {
		off = len(data)
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, 1 + len([]rune(string(data[start:off])))
}

// FindConfig looks for gdl.json in dir and its parents. It returns nil and no error when there is
// none. The first one found must be a regular file (a symbolic link is followed to one) of at
// most readfile.ConfigLimit (1 MiB); a named pipe there is an error, not a wait for a writer.
func FindConfig(dir string) (*Config, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for {
		p := filepath.Join(dir, ConfigFileName)
		data, err := readfile.Regular(p, readfile.ConfigLimit)
		if err == nil {
			return ParseConfig(p, data)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
}

// severityFor returns the configured severity for code, or def.
func (c *Config) severityFor(code string, def Severity) Severity {
	if c != nil {
		if s, ok := c.Severity[code]; ok {
			return s
		}
	}
	return def
}
