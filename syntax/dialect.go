package syntax

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Dialect is a notation of GDL. Both write the same language and map one to one (see
// docs/infix.md); a File remembers the dialect it was parsed in.
type Dialect uint8

const (
	// Prefix is KIF, the notation of the competitions and of GGP-Base: (<= (p ?x) (q ?x)).
	Prefix Dialect = iota
	// Infix is the notation of the Stanford GGP course notes, also called HRF (human readable
	// format): p(X) :- q(X) & ~r(X).
	Infix
)

// String returns "prefix" or "infix".
func (d Dialect) String() string {
	if d == Infix {
		return "infix"
	}
	return "prefix"
}

// Title names the notation for people: "prefix GDL (KIF)" or "infix GDL".
func (d Dialect) Title() string {
	if d == Infix {
		return "infix GDL"
	}
	return "prefix GDL (KIF)"
}

// CommentMarks returns the character that starts a comment: ";" in prefix, "%" in infix.
func (d Dialect) CommentMarks() string {
	if d == Infix {
		return "%"
	}
	return ";"
}

// InfixExt is the file extension of infix game descriptions.
const InfixExt = ".hrf"

// Detect returns the dialect of a game description named path: infix for a .hrf file, else the
// one its content is written in (DetectContent).
func Detect(path, src string) Dialect {
	if strings.EqualFold(filepath.Ext(path), InfixExt) {
		return Infix
	}
	return DetectContent(src)
}

// DetectContent returns the dialect src is written in, judged by its first top-level token that
// tells: a '(' is prefix (unless a name directly followed by '(' comes next: a disjunction); a
// name (or a "quoted name") directly followed by '(', a name followed by ':-', a ':-' or a '~'
// is infix. Comments of either kind and bare names (`terminal`, which both notations write
// alike) are skipped. Text with no telling token is prefix, unless its only comments are infix
// ones.
func DetectContent(src string) Dialect {
	d, _ := DetectText(src)
	return d
}

// DetectText is DetectContent that also tells whether the text showed its notation (false:
// nothing told, and the dialect is the guess).
func DetectText(src string) (Dialect, bool) {
	percent, semi := false, false
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == 0xEF && strings.HasPrefix(src[i:], "\uFEFF"):
			i += 3
		case c == ';' || c == '%':
			if c == ';' {
				semi = true
			} else {
				percent = true
			}
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case c == '(':
			// A prefix list, unless it holds a name directly followed by '(': (p(X) | q(X)).
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			k := j
			for k < len(src) && (isNameByte(src[k]) || src[k] >= utf8.RuneSelf) {
				k++
			}
			if k > j && k < len(src) && src[k] == '(' {
				return Infix, true
			}
			return Prefix, true
		case c == '"': // a quoted infix name, when '(' follows it
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' && src[j] != '\r' {
				j++
			}
			if j+1 < len(src) && src[j] == '"' && src[j+1] == '(' {
				return Infix, true
			}
			i = j + 1
		case c == '~' || strings.HasPrefix(src[i:], ":-"):
			return Infix, true
		case isNameByte(c) || c >= utf8.RuneSelf:
			j := i
			for j < len(src) && (isNameByte(src[j]) || src[j] >= utf8.RuneSelf) {
				j++
			}
			if j < len(src) && src[j] == '(' {
				return Infix, true
			}
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
				k++
			}
			if strings.HasPrefix(src[k:], ":-") {
				return Infix, true
			}
			i = max(j, i+1)
		default:
			i++
		}
	}
	if percent && !semi {
		return Infix, true
	}
	return Prefix, false
}

// isNameByte reports whether an ASCII byte may be part of an infix name: a letter, a digit, or
// one of _ - + * /.
func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '*' || c == '/'
}

// isNameRune reports whether r may be part of an unquoted infix name: an ASCII name byte or a
// non-ASCII character other than the byte-order mark.
func isNameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isNameByte(byte(r))
	}
	return r != bom && r != utf8.RuneError && unicode.IsGraphic(r) && !unicode.IsSpace(r)
}

// Name returns how the name of a constant, function or relation (as GDL knows it: a quoted
// infix name without its quotes) is written in d, and false when d cannot write it. Prefix
// writes any name that is one symbol there; infix writes a name bare when it is made of name
// characters and does not start with an upper-case letter (which would make it a variable),
// and in double quotes when it has no '"', line break or control character.
func (d Dialect) Name(name string) (string, bool) {
	if name == "" || !utf8.ValidString(name) || strings.ContainsRune(name, bom) {
		return "", false
	}
	if d == Prefix {
		if name == "<=" || name[0] == '?' {
			return "", false
		}
		for _, r := range name {
			if r < utf8.RuneSelf && classes[r] != clsSymbol && classes[r] != clsQuestion {
				return "", false
			}
		}
		return name, true
	}
	bare := true
	for i, r := range name {
		if !isNameRune(r) || i == 0 && unicode.IsUpper(r) {
			bare = false
			break
		}
	}
	if bare {
		return name, true
	}
	for _, r := range name {
		if r == '"' || r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return "", false
		}
	}
	return `"` + name + `"`, true
}

// Var returns how a variable, given as written in either notation (?x or X), is written in d,
// and false when d cannot write it. A variable's first letter carries its notation: prefix
// writes ?board for the infix Board, infix writes Board for ?board; the rest of the name is
// kept. Infix can write only a variable whose name starts with a letter.
func (d Dialect) Var(name string) (string, bool) {
	name = strings.TrimPrefix(name, "?")
	if name == "" || !utf8.ValidString(name) {
		return "", false
	}
	r, n := utf8.DecodeRuneInString(name)
	if d == Prefix {
		out := "?" + string(unicode.ToLower(r)) + name[n:]
		if _, ok := Prefix.Name("x" + out[1:]); !ok {
			return "", false
		}
		return out, true
	}
	up := unicode.ToUpper(r)
	if !unicode.IsUpper(up) {
		return "", false
	}
	out := string(up) + name[n:]
	for _, r := range out {
		if !isNameRune(r) {
			return "", false
		}
	}
	return out, true
}

// Atom writes an atom or a function term from its name and its arguments, both already written
// in d: (name a b), or name(a,b); with no arguments, the bare name.
func (d Dialect) Atom(name string, args ...string) string {
	if len(args) == 0 {
		return name
	}
	if d == Infix {
		return name + "(" + strings.Join(args, ",") + ")"
	}
	return "(" + name + " " + strings.Join(args, " ") + ")"
}

// Not writes the negation of a literal written in d: (not l), or ~l.
func (d Dialect) Not(lit string) string {
	if d == Infix {
		return "~" + lit
	}
	return "(not " + lit + ")"
}

// Or writes the disjunction of literals written in d: (or a b), or (a | b).
func (d Dialect) Or(lits ...string) string {
	if len(lits) == 0 {
		if d == Infix {
			return "or()"
		}
		return "(or)"
	}
	if d == Infix {
		return "(" + strings.Join(lits, " | ") + ")"
	}
	return "(or " + strings.Join(lits, " ") + ")"
}

// Rule writes a rule on one line from its head and body literals written in d:
// (<= h b1 b2), or h :- b1 & b2.
func (d Dialect) Rule(head string, body ...string) string {
	if d == Infix {
		if len(body) == 0 {
			return head + " :-"
		}
		return head + " :- " + strings.Join(body, " & ")
	}
	if len(body) == 0 {
		return "(<= " + head + ")"
	}
	return "(<= " + head + " " + strings.Join(body, " ") + ")"
}

// RuleLines writes a rule the way the formatter lays it out: the head on the first line, then
// each body literal on a line of its own after nl and indent.
func (d Dialect) RuleLines(head, nl, indent string, body ...string) string {
	var b strings.Builder
	if d == Infix {
		b.WriteString(head + " :-")
		for i, l := range body {
			b.WriteString(nl + indent + l)
			if i < len(body)-1 {
				b.WriteString(" &")
			}
		}
		return b.String()
	}
	b.WriteString("(<= " + head)
	for _, l := range body {
		b.WriteString(nl + indent + l)
	}
	b.WriteString(")")
	return b.String()
}
