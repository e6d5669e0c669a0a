// Package markers reads the test markers written in the comments of a GDL file and compares a
// test's output with a golden file. It is the one marker format of the module's data-driven
// tests: a case is a .kif file whose comments say, next to the code they concern, what to ask or
// what to expect, and the answers are kept in a golden file beside it, refreshed with -update.
//
// # Markers
//
// A marker is `@name` or `@name(arg, ...)` in a comment: after the first `;` of a line (GDL has
// no strings, so that `;` always starts the comment; in infix GDL, `%`, see ParseComments). Several markers may follow one another;
// other text in the comment is ignored.
//
//	(<= (legal ?r noop) (role ?r)) ; @hover(?r#2) @def(?r#2) @refs(role)
//	(<= (p ?x) (q ?y))              ; @want(unsafe-variable, "?x")
//
// Arguments are separated by commas. An argument is either a bare word (the text up to the next
// `,` or `)`, blanks around it trimmed) or a Go-quoted string ("(and a b)", with \" and \\
// escapes), which may hold commas, parentheses and blanks. A name starts with a letter and
// holds letters, digits, `-` and `_`.
//
// A marker is about the code of its own line. Its target (usually the first argument, see
// Marker.Find) is a text on that line: the first occurrence, or the n-th one with a `#n` suffix
// (`?x#2`, `"(f a)"#2`; a bare word ending in `#` and digits always counts occurrences, so
// quote such a text). The occurrence must lie on the marker's line, before the comment.
//
// What a marker means is up to the test that reads it: ide's feature tests ask questions
// (`@hover(legal)`, `@play("(mark 1 1)", noop)`); the analyzer's and the parser's tests announce
// diagnostics with `@want(CODE, "text")` and syntax errors with `@error(CODE, "text"#N)`, whose
// Find gives the span the diagnostic or error must cover exactly.
//
// # Golden files
//
// A golden file is a sequence of sections, each a title line `-- title --` followed by its text.
// Output collects sections in order; Check compares them with the file by title and reports each
// section that differs, is new or is gone, or rewrites the file when asked to (the test's
// -update flag).
package markers

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Marker is one marker of a file.
type Marker struct {
	Name   string
	Args   []Arg
	Line   int // 0-based line of the marker
	Offset int // byte offset of its '@' in the file

	lineStart int // offset of the start of the line
	comment   int // offset of the line's comment mark (';' or '%')
}

// Arg is one argument of a marker.
type Arg struct {
	Text   string // the word, or the quoted string's value
	Quoted bool
	Nth    int // the occurrence a `#n` suffix asks for; 1 without one
}

func (a Arg) String() string {
	s := a.Text
	if a.Quoted {
		s = strconv.Quote(a.Text)
	}
	if a.Nth != 1 {
		s += "#" + strconv.Itoa(a.Nth)
	}
	return s
}

// Title is the marker's section title in a golden file: its name, its 1-based line and its
// arguments as written (bare words as they are, strings quoted).
func (m Marker) Title() string {
	t := fmt.Sprintf("%s %d", m.Name, m.Line+1)
	if len(m.Args) > 0 {
		parts := make([]string, len(m.Args))
		for i, a := range m.Args {
			parts[i] = a.String()
		}
		t += " " + strings.Join(parts, ", ")
	}
	return t
}

// Arg returns the text of argument i, or "" when the marker has fewer.
func (m Marker) Arg(i int) string {
	if i < len(m.Args) {
		return m.Args[i].Text
	}
	return ""
}

// LineStart returns the offset of the start of the marker's line.
func (m Marker) LineStart() int { return m.lineStart }

// Find returns the span [start, end) of the argument's occurrence in src, the file the marker was
// read from: the Nth occurrence of its text in the code of the marker's line (before the
// comment).
func (m Marker) Find(src string, a Arg) (start, end int, err error) {
	if a.Text == "" {
		return 0, 0, fmt.Errorf("line %d: @%s: an empty target", m.Line+1, m.Name)
	}
	code := src[:m.comment]
	from := m.lineStart
	for i := 1; ; i++ {
		j := strings.Index(code[from:], a.Text)
		if j < 0 {
			return 0, 0, fmt.Errorf("line %d: @%s: no occurrence %d of %q on the line", m.Line+1, m.Name, a.Nth, a.Text)
		}
		if i == a.Nth {
			return from + j, from + j + len(a.Text), nil
		}
		from += j + len(a.Text)
	}
}

// Error is a malformed marker, at a 1-based line and column (in bytes).
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Parse reads the markers of a file in prefix GDL (KIF), in order. A malformed marker (an
// unclosed argument list or string, a bad `#n`) is reported with its position and left out.
func Parse(src string) ([]Marker, []error) { return ParseComments(src, ';') }

// ParseComments is Parse for a notation whose comments start with mark: `;` in KIF, `%` in
// infix GDL.
func ParseComments(src string, mark byte) ([]Marker, []error) {
	var out []Marker
	var errs []error
	line := 0
	for start := 0; start < len(src) || (start == 0 && len(src) == 0); line++ {
		end, next := lineEnd(src, start)
		if c := strings.IndexByte(src[start:end], mark); c >= 0 {
			ms, es := parseComment(src, start, start+c, end, line)
			out = append(out, ms...)
			errs = append(errs, es...)
		}
		if next == start {
			break
		}
		start = next
	}
	return out, errs
}

// lineEnd returns the end of the line starting at start (before its line break) and the start
// of the next line. A line ends at "\n", "\r\n" or a lone "\r".
func lineEnd(src string, start int) (end, next int) {
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '\n':
			return i, i + 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				return i, i + 2
			}
			return i, i + 1
		}
	}
	return len(src), len(src)
}

// parseComment reads the markers of the comment src[comment:end] of the line starting at
// lineStart.
func parseComment(src string, lineStart, comment, end, line int) ([]Marker, []error) {
	var out []Marker
	var errs []error
	fail := func(off int, format string, args ...any) {
		errs = append(errs, &Error{Line: line + 1, Col: off - lineStart + 1, Msg: fmt.Sprintf(format, args...)})
	}
	for i := comment; i < end; i++ {
		if src[i] != '@' || i+1 >= end || !isLetter(src[i+1]) {
			continue
		}
		at := i
		j := i + 1
		for j < end && (isLetter(src[j]) || isDigit(src[j]) || src[j] == '-' || src[j] == '_') {
			j++
		}
		m := Marker{Name: src[i+1 : j], Line: line, Offset: at, lineStart: lineStart, comment: comment}
		if j < end && src[j] == '(' {
			args, after, err := parseArgs(src[:end], j+1)
			if err != nil {
				fail(err.off, "@%s: %s", m.Name, err.msg)
				i = end
				continue
			}
			m.Args = args
			j = after
		}
		out = append(out, m)
		i = j - 1
	}
	return out, errs
}

type argError struct {
	off int
	msg string
}

// parseArgs reads arguments from s[i:] up to the closing ')' and returns them and the offset
// after the ')'.
func parseArgs(s string, i int) ([]Arg, int, *argError) {
	var args []Arg
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return nil, 0, &argError{i, "the argument list is not closed with )"}
		}
		if s[i] == ')' && len(args) == 0 {
			return nil, i + 1, nil // @name()
		}
		var a Arg
		start := i
		if s[i] == '"' {
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, 0, &argError{start, "the string is not closed with \""}
			}
			text, err := strconv.Unquote(s[i : j+1])
			if err != nil {
				return nil, 0, &argError{start, fmt.Sprintf("bad string %s: %v", s[i:j+1], err)}
			}
			a = Arg{Text: text, Quoted: true, Nth: 1}
			i = j + 1
			if i < len(s) && s[i] == '#' {
				k := i + 1
				for k < len(s) && isDigit(s[k]) {
					k++
				}
				n, err := strconv.Atoi(s[i+1 : k])
				if err != nil || n < 1 {
					return nil, 0, &argError{i, "# must be followed by an occurrence number from 1"}
				}
				a.Nth, i = n, k
			}
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
		} else {
			j := i
			for j < len(s) && s[j] != ',' && s[j] != ')' {
				j++
			}
			word := strings.TrimSpace(s[i:j])
			a = Arg{Text: word, Nth: 1}
			if h := strings.LastIndexByte(word, '#'); h > 0 && h < len(word)-1 && allDigits(word[h+1:]) {
				n, err := strconv.Atoi(word[h+1:])
				if err != nil || n < 1 {
					return nil, 0, &argError{start + h, "# must be followed by an occurrence number from 1"}
				}
				a.Text, a.Nth = word[:h], n
			}
			i = j
		}
		args = append(args, a)
		if i >= len(s) {
			return nil, 0, &argError{i, "the argument list is not closed with )"}
		}
		switch s[i] {
		case ',':
			i++
		case ')':
			return args, i + 1, nil
		default:
			return nil, 0, &argError{i, fmt.Sprintf("expected , or ) after an argument, found %q", s[i])}
		}
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// Output collects the sections of a golden file.
type Output struct {
	b strings.Builder
}

// Section starts a section.
func (o *Output) Section(title string) { fmt.Fprintf(&o.b, "-- %s --\n", title) }

// Printf adds text to the current section.
func (o *Output) Printf(format string, args ...any) { fmt.Fprintf(&o.b, format, args...) }

// Line adds a line of text to the current section.
func (o *Output) Line(s string) {
	o.b.WriteString(s)
	o.b.WriteByte('\n')
}

func (o *Output) String() string { return o.b.String() }

// Sections splits golden text into its sections: the text of each by title, and the titles in
// order. Text before the first title belongs to the title "".
func Sections(s string) (map[string]string, []string) {
	m := map[string]string{}
	var order []string
	cur := ""
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --\n") {
			cur = strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --\n")
			order = append(order, cur)
			m[cur] += "" // an empty section is a section too
			continue
		}
		m[cur] += l
	}
	return m, order
}

// Check compares got with the golden file at path, section by section, and reports every
// section that differs, is new or is gone. With update it rewrites the file instead.
func Check(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	for _, d := range Diff(string(want), got) {
		t.Error(d)
	}
}

// Diff lists the differences between the sections of two golden texts: a section that differs
// (with both texts), one that is new, one that is gone.
func Diff(want, got string) []string {
	var out []string
	w, worder := Sections(want)
	g, gorder := Sections(got)
	for _, k := range gorder {
		if _, ok := w[k]; !ok {
			out = append(out, fmt.Sprintf("section %q is new (run with -update):\n%s", k, g[k]))
		} else if w[k] != g[k] {
			out = append(out, fmt.Sprintf("section %q:\n--- want\n%s--- got\n%s", k, w[k], g[k]))
		}
	}
	for _, k := range worder {
		if _, ok := g[k]; !ok {
			out = append(out, fmt.Sprintf("section %q is gone", k))
		}
	}
	if len(gorder) == 0 && len(worder) == 0 && want != got {
		out = append(out, fmt.Sprintf("--- want\n%s--- got\n%s", want, got))
	}
	return out
}
