package syntax

import (
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineIndexLineEndings(t *testing.T) {
	src := "ab\ncd\r\nef\rgh"
	li := NewLineIndex(src)
	if li.Lines() != 4 {
		t.Fatalf("Lines() = %d, want 4 (LF, CRLF and a bare CR each end a line)", li.Lines())
	}
	for line, want := range []int{0, 3, 7, 10} {
		if got := li.LineStart(line); got != want {
			t.Errorf("LineStart(%d) = %d, want %d", line, got, want)
		}
	}
	for _, tc := range []struct {
		off  int
		want Position
	}{
		{0, Position{0, 0}}, {2, Position{0, 2}}, {3, Position{1, 0}}, {5, Position{1, 2}},
		{6, Position{1, 2}}, // between CR and LF: the position of the line break
		{7, Position{2, 0}}, {9, Position{2, 2}}, {10, Position{3, 0}}, {12, Position{3, 2}},
	} {
		for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
			if got := li.Position(tc.off, enc); got != tc.want {
				t.Errorf("Position(%d, %d) = %v, want %v", tc.off, enc, got, tc.want)
			}
		}
	}
	if n := NewLineIndex("a\n").Lines(); n != 2 {
		t.Errorf("a text ending in a line break has %d lines, want 2", n)
	}
	if n := NewLineIndex("\r\r\n\n").Lines(); n != 4 {
		t.Errorf(`"\r\r\n\n" has %d lines, want 4`, n)
	}
	empty := NewLineIndex("")
	if empty.Lines() != 1 || empty.Position(0, UTF16) != (Position{}) || empty.Offset(Position{3, 3}, UTF16) != 0 {
		t.Errorf("an empty text must have one empty line")
	}
}

// TestLineIndexRandom checks the line starts and the ASCII flag that NewLineIndex finds by
// strings.IndexByte against a byte-by-byte reading, on random texts of line feeds, carriage
// returns (bare, doubled, before a line feed, at the end) and non-ASCII letters.
func TestLineIndexRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "\n", "\r", "\r\n", "\u00e9", "bc"}
	for n := range 2000 {
		var b strings.Builder
		for range rng.Intn(40) {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		src := b.String()
		want, ascii := []int{0}, true
		for i := 0; i < len(src); i++ {
			switch c := src[i]; {
			case c == '\n':
				want = append(want, i+1)
			case c == '\r' && (i+1 == len(src) || src[i+1] != '\n'):
				want = append(want, i+1)
			case c >= 0x80:
				ascii = false
			}
		}
		li := NewLineIndex(src)
		if !slices.Equal(li.lines, want) || li.ascii != ascii {
			t.Fatalf("text %d %q: line starts %v ascii %v, want %v ascii %v", n, src, li.lines, li.ascii, want, ascii)
		}
	}
}

func TestLineIndexEncodings(t *testing.T) {
	// a, é (2 bytes, 1 UTF-16 unit), 😀 (4 bytes, a surrogate pair), b
	src := "x\na\u00e9\U0001F600b\n"
	li := NewLineIndex(src)
	b := 2 + 1 + 2 + 4 // offset of b
	for _, tc := range []struct {
		enc  Encoding
		col  int
		name string
	}{{UTF8, 7, "UTF-8 bytes"}, {UTF16, 4, "UTF-16 units"}, {UTF32, 3, "characters"}} {
		if got := li.Position(b, tc.enc); got != (Position{1, tc.col}) {
			t.Errorf("%s: Position of b = %v, want 1:%d", tc.name, got, tc.col)
		}
		if got := li.Offset(Position{1, tc.col}, tc.enc); got != b {
			t.Errorf("%s: Offset(1:%d) = %d, want %d", tc.name, tc.col, got, b)
		}
	}
	emoji := 2 + 1 + 2
	// A UTF-16 column inside the surrogate pair, and byte offsets inside characters, go to the
	// start of the character.
	if got := li.Offset(Position{1, 3}, UTF16); got != emoji {
		t.Errorf("Offset inside a surrogate pair = %d, want %d", got, emoji)
	}
	if got := li.Offset(Position{1, 5}, UTF8); got != emoji {
		t.Errorf("Offset of a UTF-8 column inside a character = %d, want %d", got, emoji)
	}
	for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
		want := li.Position(emoji, enc)
		for off := emoji + 1; off < b; off++ {
			if got := li.Position(off, enc); got != want {
				t.Errorf("Position(%d, %d) inside a character = %v, want its start %v", off, enc, got, want)
			}
		}
	}
}

func TestLineIndexClamping(t *testing.T) {
	src := "ab\r\ncd"
	li := NewLineIndex(src)
	for _, tc := range []struct {
		p    Position
		want int
	}{
		{Position{-1, 5}, 0}, {Position{0, -3}, 0}, {Position{0, 99}, 2}, // not past the line break
		{Position{1, 99}, 6}, {Position{7, 0}, 6},
	} {
		for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
			if got := li.Offset(tc.p, enc); got != tc.want {
				t.Errorf("Offset(%v, %d) = %d, want %d", tc.p, enc, got, tc.want)
			}
		}
	}
	if got := li.Position(-4, UTF16); got != (Position{0, 0}) {
		t.Errorf("Position(-4) = %v, want 0:0", got)
	}
	if got := li.Position(100, UTF16); got != (Position{1, 2}) {
		t.Errorf("Position(100) = %v, want the end 1:2", got)
	}
	if li.LineStart(-1) != 0 || li.LineStart(9) != len(src) {
		t.Errorf("LineStart does not clamp")
	}
}

// TestLineIndexRoundTrip checks Offset(Position(x)) == x at every character boundary, in every
// encoding, for texts with every kind of line ending, astral characters and invalid UTF-8.
func TestLineIndexRoundTrip(t *testing.T) {
	for _, src := range []string{
		"", "abc", "(role x)\n(init y)\n", "a\r\nb\rc\n\nd\r\r\n", "\uFEFF(p \u00e9)\n\U0001F600\U0001F600\r",
		"caf\xe9 \x80\x80 \xf0\x9f ok\n\xff", "\t\u4e16\u754c\r\n;\U00010348\n",
	} {
		li := NewLineIndex(src)
		for off := 0; ; {
			crlf := off > 0 && off < len(src) && src[off-1] == '\r' && src[off] == '\n'
			for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
				p := li.Position(off, enc)
				if back := li.Offset(p, enc); back != off && !crlf {
					t.Errorf("%q: Offset(Position(%d, %d) = %v) = %d", src, off, enc, p, back)
				}
			}
			if off == len(src) {
				break
			}
			_, n := utf8.DecodeRuneInString(src[off:])
			off += n
		}
	}
}

func TestFileLines(t *testing.T) {
	f, _ := Parse("(a)\n(b)")
	first, again := f.Lines(), f.Lines()
	if first != again || first.Lines() != 2 {
		t.Errorf("File.Lines must index the source once")
	}
}

// TestLineIndexRange checks that Range gives both ends as Position does, for every pair of
// offsets (out of range and reversed ones included), in every encoding.
func TestLineIndexRange(t *testing.T) {
	for _, src := range []string{
		"", "abc", "(role x)\n(init y)\n", "a\r\nb\rc\n\nd\r\r\n", "\uFEFF(p \u00e9)\n\U0001F600\U0001F600\r",
		"caf\xe9 \x80\x80 \xf0\x9f ok\n\xff",
	} {
		li := NewLineIndex(src)
		for start := -1; start <= len(src)+1; start++ {
			for end := -1; end <= len(src)+1; end++ {
				for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
					s, e := li.Range(start, end, enc)
					if ws, we := li.Position(start, enc), li.Position(end, enc); s != ws || e != we {
						t.Fatalf("%q: Range(%d, %d, %d) = %v, %v; Position gives %v, %v", src, start, end, enc, s, e, ws, we)
					}
				}
			}
		}
	}
}

// TestLineIndexEdited: the line index of an edited text made from the old one's (Edited, as
// File.Edit does once the old file's lines are made) equals the one made from the whole text,
// on random texts of line feeds, carriage returns and other bytes (ASCII and not) and random
// edits at their starts, ends and everywhere between, one after another.
func TestLineIndexEdited(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	pieces := []string{"\n", "\r", "\r\n", "a", "(x)", "é", "\n\r", ""}
	piece := func(n int) string {
		var b strings.Builder
		for ; n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		return b.String()
	}
	for round := 0; round < 300; round++ {
		f, _ := Parse(piece(rng.Intn(12)))
		f.Lines()
		for k := 0; k < 20; k++ {
			src := f.Source()
			start := rng.Intn(len(src) + 1)
			end := start + rng.Intn(len(src)-start+1)
			text := piece(rng.Intn(4))
			li := f.Lines().Edited(src[:start]+text+src[end:], start, end, text)
			f = f.Edit(start, end, text)
			want := NewLineIndex(f.Source())
			for _, got := range []*LineIndex{li, f.Lines()} {
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%q with [%d, %d) replaced by %q: lines %v (ascii %v), want %v (ascii %v)",
						src, start, end, text, got.lines, got.ascii, want.lines, want.ascii)
				}
			}
		}
	}
}
