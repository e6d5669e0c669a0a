package lsp

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// The parameters of didOpen and didChange carry a document's whole text, a JSON string of up to
// 16 MiB decoded on the read loop before any request behind it is read. encoding/json unescapes
// it at about 7 ns a byte (22 ms for a 3 MB file); decodeTextSync walks the parameters' objects
// itself and unescapes the "text" strings in one pass, eight bytes at a time where nothing needs
// unescaping, and leaves every other member to encoding/json. It gives up (and the caller falls
// back to encoding/json, whose error the client gets as any invalid params) on anything it does
// not decode exactly as encoding/json would: malformed JSON, a member given twice, a name that
// only matches a field without regard to case, a text that is not a string.

// textScan is a cursor in the parameters' JSON.
type textScan struct {
	b []byte
	i int
}

// decodeTextSync decodes the parameters of didOpen (*protocol.DidOpenTextDocumentParams) or
// didChange (*didChangeParams) into v and reports whether it could; when it could not, v may hold
// part of them.
func decodeTextSync(params []byte, v any) bool {
	d := &textScan{b: params}
	ok := d.params(v)
	d.space()
	return ok && d.i == len(d.b)
}

// params decodes the parameters at the cursor into v, as decodeTextSync does, and moves the
// cursor past them.
func (d *textScan) params(v any) bool {
	var ok bool
	switch p := v.(type) {
	case *protocol.DidOpenTextDocumentParams:
		ok = d.object([]string{"textDocument"}, func(string) bool { return d.textItem(&p.TextDocument) })
	case *didChangeParams:
		ok = d.object([]string{"textDocument", "contentChanges"}, func(key string) bool {
			if key == "textDocument" {
				return d.value(&p.TextDocument)
			}
			return d.changes(&p.ContentChanges)
		})
	}
	return ok
}

// textItem decodes a TextDocumentItem.
func (d *textScan) textItem(it *protocol.TextDocumentItem) bool {
	return d.object([]string{"uri", "languageId", "version", "text"}, func(key string) bool {
		switch key {
		case "uri":
			return d.value(&it.URI)
		case "languageId":
			return d.value(&it.LanguageID)
		case "version":
			return d.value(&it.Version)
		}
		return d.text(&it.Text, true)
	})
}

// changes decodes the array of content changes.
func (d *textScan) changes(out *[]contentChange) bool {
	d.space()
	if !d.skip('[') {
		return false // null, or not an array
	}
	list := []contentChange{}
	d.space()
	if d.skip(']') {
		*out = list
		return true
	}
	for {
		var ch contentChange
		if !d.object([]string{"range", "text"}, func(key string) bool {
			if key == "range" {
				return d.value(&ch.Range)
			}
			return d.text(&ch.Text, true)
		}) {
			return false
		}
		list = append(list, ch)
		d.space()
		if d.skip(']') {
			*out = list
			return true
		}
		if !d.skip(',') {
			return false
		}
	}
}

// object walks an object whose members named in fields member decodes; it skips (and checks)
// the others.
func (d *textScan) object(fields []string, member func(key string) bool) bool {
	d.space()
	if !d.skip('{') {
		return false
	}
	seen := make([]bool, len(fields))
	d.space()
	if d.skip('}') {
		return true
	}
	for {
		d.space()
		key, ok := d.key()
		if !ok {
			return false
		}
		d.space()
		if !d.skip(':') {
			return false
		}
		k := fieldIndex(fields, key)
		switch {
		case k == -2 || k >= 0 && seen[k]:
			return false
		case k >= 0:
			seen[k] = true
			if !member(key) {
				return false
			}
		default:
			if !d.value(nil) {
				return false
			}
		}
		d.space()
		if d.skip('}') {
			return true
		}
		if !d.skip(',') {
			return false
		}
	}
}

// fieldIndex returns the index of key in fields, -1 when no field has that name, and -2 when
// encoding/json might take it for one of them (same letters in another case, or a name with
// letters that fold to ASCII ones, as the Kelvin sign does to k).
func fieldIndex(fields []string, key string) int {
	for i, f := range fields {
		if key == f {
			return i
		}
	}
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			return -2
		}
	}
	for _, f := range fields {
		if strings.EqualFold(key, f) {
			return -2
		}
	}
	return -1
}

// key reads a member's name.
func (d *textScan) key() (string, bool) {
	var s string
	return s, d.text(&s, false)
}

// value decodes the next value into v with encoding/json (only checks it when v is nil).
func (d *textScan) value(v any) bool {
	d.space()
	end, ok := valueEnd(d.b, d.i)
	if !ok {
		return false
	}
	raw := d.b[d.i:end]
	d.i = end
	if v == nil {
		return json.Valid(raw)
	}
	return json.Unmarshal(raw, v) == nil
}

// valueEnd returns where the value starting at b[i] ends, counting brackets with no recursion;
// encoding/json checks what is between.
func valueEnd(b []byte, i int) (int, bool) {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			if i = stringEnd(b, i); i < 0 {
				return 0, false
			}
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			if depth == 0 {
				return i, true
			}
			depth--
			i++
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return i, true
			}
			i++
			continue
		default: // a number or a literal
			i++
			continue
		}
		if depth == 0 { // after a string or a closing bracket
			return i, true
		}
	}
	return i, depth == 0
}

// stringEnd returns the index after the closing quote of the string starting at b[i], or -1.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

func (d *textScan) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *textScan) skip(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plain reports whether none of the 8 bytes of x needs a look: no control character, quote,
// backslash or byte of a multi-byte UTF-8 sequence.
func plain(x uint64) bool {
	control := (x - 0x20*ones) &^ x
	quote := x ^ '"'*ones
	backslash := x ^ '\\'*ones
	return (control|x|(quote-ones)&^quote|(backslash-ones)&^backslash)&highs == 0
}

// text reads the JSON string at the cursor into *out, unescaped as encoding/json does: every
// escape, surrogate pairs of \u escapes joined, a lone surrogate and invalid UTF-8 each replaced
// by U+FFFD, a control character refused. A long string (a document's text) gets room for the
// rest of the input at its first escape.
func (d *textScan) text(out *string, long bool) bool {
	b := d.b
	i := d.i
	if i >= len(b) || b[i] != '"' {
		return false
	}
	i++
	var sb strings.Builder
	from := i // b[from:i] is plain and not copied yet
	for {
		for i+8 <= len(b) && plain(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		if i >= len(b) {
			return false
		}
		c := b[i]
		switch {
		case c == '"':
			if sb.Len() == 0 {
				*out = string(b[from:i])
			} else {
				sb.Write(b[from:i])
				*out = sb.String()
			}
			d.i = i + 1
			return true
		case c < 0x20:
			return false
		case c < utf8.RuneSelf && c != '\\':
			i++
			continue
		case c >= utf8.RuneSelf:
			if r, n := utf8.DecodeRune(b[i:]); r != utf8.RuneError || n != 1 {
				i += n
				continue
			}
		}
		if sb.Len() == 0 && long {
			sb.Grow(len(b) - from)
		}
		sb.Write(b[from:i])
		if c >= utf8.RuneSelf { // invalid UTF-8
			sb.WriteRune(unicode.ReplacementChar)
			i++
		} else if i = unescape(&sb, b, i); i < 0 {
			return false
		}
		from = i
	}
}

// unescape writes the escape at b[i] (a backslash) to sb and returns the index after it, or -1.
func unescape(sb *strings.Builder, b []byte, i int) int {
	if i+1 >= len(b) {
		return -1
	}
	switch c := b[i+1]; c {
	case '"', '\\', '/':
		sb.WriteByte(c)
	case 'b':
		sb.WriteByte('\b')
	case 'f':
		sb.WriteByte('\f')
	case 'n':
		sb.WriteByte('\n')
	case 'r':
		sb.WriteByte('\r')
	case 't':
		sb.WriteByte('\t')
	case 'u':
		r := hex4(b, i+2)
		if r < 0 {
			return -1
		}
		i += 6
		if utf16.IsSurrogate(r) {
			if r2 := hex4lead(b, i); r2 >= 0 {
				if pair := utf16.DecodeRune(r, r2); pair != unicode.ReplacementChar {
					sb.WriteRune(pair)
					return i + 6
				}
			}
			r = unicode.ReplacementChar
		}
		sb.WriteRune(r)
		return i
	default:
		return -1
	}
	return i + 2
}

// hex4lead returns the code of a \uXXXX escape at b[i], or -1 when there is none.
func hex4lead(b []byte, i int) rune {
	if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
		return hex4(b, i+2)
	}
	return -1
}

// hex4 returns the value of the four hexadecimal digits at b[i], or -1.
func hex4(b []byte, i int) rune {
	if i+4 > len(b) {
		return -1
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// decodeParams decodes the parameters into v: those of the text synchronisation by
// decodeTextSync when it can, anything else (and what it gives up on) by encoding/json.
func decodeParams(params []byte, v any) error {
	switch p := v.(type) {
	case *protocol.DidOpenTextDocumentParams:
		if decodeTextSync(params, p) {
			return nil
		}
		*p = protocol.DidOpenTextDocumentParams{}
	case *didChangeParams:
		if decodeTextSync(params, p) {
			return nil
		}
		*p = didChangeParams{}
	}
	return json.Unmarshal(params, v)
}
