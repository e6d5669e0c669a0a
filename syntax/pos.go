package syntax

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Span is a half-open byte range [Start, End) of a document.
type Span struct {
	Start, End int
}

// Len returns the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether off lies inside the span; the end offset counts as inside so that a
// cursor placed just after a token still finds it.
func (s Span) Contains(off int) bool { return s.Start <= off && off <= s.End }

// Encoding says how a column is counted.
type Encoding uint8

const (
	// UTF16 counts UTF-16 code units (the LSP default).
	UTF16 Encoding = iota
	// UTF8 counts bytes.
	UTF8
	// UTF32 counts Unicode characters (code points); the CLI shows these.
	UTF32
)

// Position is a 0-based line and column; the column unit depends on the Encoding used.
type Position struct {
	Line, Column int
}

// LineIndex converts byte offsets to line/column positions and back. Lines end at LF, CRLF or a
// bare CR. It is the only place in the module that knows about line and column numbers.
type LineIndex struct {
	src   string
	lines []int // start offset of every line
	ascii bool  // no byte >= 0x80: every unit count equals the byte count
}

// NewLineIndex indexes the line starts of src. The language server indexes every version of a
// document: the line feeds are found by strings.IndexByte, and the carriage returns (which end a
// line when no line feed follows) by a second such pass only when there are any.
func NewLineIndex(src string) *LineIndex {
	li := &LineIndex{src: src, lines: make([]int, 1, 1+len(src)/32)}
	for i := 0; ; {
		k := strings.IndexByte(src[i:], '\n')
		if k < 0 {
			break
		}
		i += k + 1
		li.lines = append(li.lines, i)
	}
	if strings.IndexByte(src, '\r') >= 0 {
		li.lines = mergeBareCRs(src, li.lines)
	}
	li.ascii = isASCII(src)
	return li
}

// lineEdit is an edit of the text of a line index: [start, end) replaced by text.
type lineEdit struct {
	from       *LineIndex
	start, end int
	text       string
}

// Edited returns the line index of src, the text of li with [start, end) replaced by text
// (0 <= start <= end <= the length of li's text), made from li's: the line starts before the
// edit are kept, those after it shifted, and those from the byte before the edit to the byte
// after what it inserted found anew (whether a position starts a line depends on the byte
// before it and the one at it: a carriage return the edit brings before a line feed, or takes
// from one, changes the line starts at its two ends only).
func (li *LineIndex) Edited(src string, start, end int, text string) *LineIndex {
	delta := len(text) - (end - start)
	newEnd := start + len(text)
	keep := sort.SearchInts(li.lines, start) // lines[:keep] < start: kept
	skip := sort.SearchInts(li.lines, end+2) // lines[skip:] > end+1: shifted
	out := &LineIndex{src: src, lines: make([]int, 0, len(li.lines)+strings.Count(text, "\n")+1)}
	out.lines = append(out.lines, li.lines[:keep]...)
	if keep == 0 {
		out.lines = append(out.lines, 0) // the edit is at the start
	}
	for p := max(start, 1); p <= min(newEnd+1, len(src)); p++ {
		if c := src[p-1]; c == '\n' || c == '\r' && (p == len(src) || src[p] != '\n') {
			out.lines = append(out.lines, p)
		}
	}
	for _, p := range li.lines[skip:] {
		out.lines = append(out.lines, p+delta)
	}
	out.ascii = li.ascii && isASCII(text) || !li.ascii && isASCII(src)
	return out
}

// mergeBareCRs adds to lines (the starts after each line feed, sorted) the starts after each
// carriage return that no line feed follows.
func mergeBareCRs(src string, lines []int) []int {
	var bare []int
	for i := 0; ; {
		k := strings.IndexByte(src[i:], '\r')
		if k < 0 {
			break
		}
		i += k + 1
		if i == len(src) || src[i] != '\n' {
			bare = append(bare, i)
		}
	}
	if len(bare) == 0 {
		return lines
	}
	out := make([]int, 0, len(lines)+len(bare))
	j := 0
	for _, l := range lines {
		for j < len(bare) && bare[j] < l {
			out = append(out, bare[j])
			j++
		}
		out = append(out, l)
	}
	return append(out, bare[j:]...)
}

// isASCII reports whether s has no byte >= 0x80, eight bytes a step.
func isASCII(s string) bool {
	var acc byte
	i := 0
	for ; i+8 <= len(s); i += 8 {
		acc |= s[i] | s[i+1] | s[i+2] | s[i+3] | s[i+4] | s[i+5] | s[i+6] | s[i+7]
	}
	for ; i < len(s); i++ {
		acc |= s[i]
	}
	return acc < utf8.RuneSelf
}

// Lines returns the number of lines (an empty document has one line).
func (li *LineIndex) Lines() int { return len(li.lines) }

// LineStart returns the byte offset at which 0-based line starts; out-of-range lines clamp.
func (li *LineIndex) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(li.lines) {
		return len(li.src)
	}
	return li.lines[line]
}

// lineEnd returns the offset of the line break that ends the line (or the end of the text).
func (li *LineIndex) lineEnd(line int) int {
	if line+1 >= len(li.lines) {
		return len(li.src)
	}
	end := li.lines[line+1]
	if end > 0 && li.src[end-1] == '\n' {
		end--
	}
	if end > 0 && li.src[end-1] == '\r' {
		end--
	}
	return end
}

// Position converts a byte offset to a 0-based line and a column counted in enc. Offsets beyond
// the text clamp to its end; an offset inside a multi-byte character counts from its start.
func (li *LineIndex) Position(off int, enc Encoding) Position {
	off = li.clamp(off)
	return li.positionOn(li.lineOf(off), off, enc)
}

// Range converts the byte span [start, end) to the positions of its two ends, as Position does
// for each; a span within one line (most of them) looks its line up once.
func (li *LineIndex) Range(start, end int, enc Encoding) (Position, Position) {
	start, end = li.clamp(start), li.clamp(end)
	line := li.lineOf(start)
	endLine := line
	if end < start || line+1 < len(li.lines) && end >= li.lines[line+1] {
		endLine = li.lineOf(end)
	}
	return li.positionOn(line, start, enc), li.positionOn(endLine, end, enc)
}

func (li *LineIndex) clamp(off int) int {
	return min(max(off, 0), len(li.src))
}

// lineOf returns the line that holds the offset off, 0 <= off <= len(src): a binary search
// written out (no closure), as a response converts thousands of offsets.
func (li *LineIndex) lineOf(off int) int {
	lo, hi := 0, len(li.lines) // lines[lo] <= off, and off < lines[hi] when hi < len(lines)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if li.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// positionOn is the position of off on its line.
func (li *LineIndex) positionOn(line, off int, enc Encoding) Position {
	start := li.lines[line]
	if end := li.lineEnd(line); off > end {
		off = end // inside a CRLF pair: the position of the line break
	}
	if !li.ascii {
		off = charStart(li.src, start, off)
	}
	if li.ascii || enc == UTF8 {
		return Position{line, off - start}
	}
	return Position{line, units(li.src[start:off], enc)}
}

// Offset converts a 0-based line and a column in enc to a byte offset. A column past the end of
// the line clamps to the line end; a line past the end clamps to the end of the text.
func (li *LineIndex) Offset(p Position, enc Encoding) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(li.lines) {
		return len(li.src)
	}
	start, end := li.lines[p.Line], li.lineEnd(p.Line)
	if p.Column <= 0 {
		return start
	}
	if li.ascii || enc == UTF8 {
		if start+p.Column > end {
			return end
		}
		if li.ascii {
			return start + p.Column
		}
		return charStart(li.src, start, start+p.Column) // never split a character
	}
	col := 0
	for i, r := range li.src[start:end] {
		if col >= p.Column {
			return start + i
		}
		col += runeUnits(r, enc)
		if col > p.Column { // the column falls inside a surrogate pair
			return start + i
		}
	}
	return end
}

// charStart returns the start of the character that contains offset off, or off itself when it
// falls between two characters. Characters are what utf8.DecodeRuneInString decodes: a valid
// sequence, or a single byte of invalid UTF-8. The search does not go back past lineStart.
func charStart(src string, lineStart, off int) int {
	if off >= len(src) {
		return off
	}
	for s := off - 1; s >= lineStart && s > off-utf8.UTFMax; s-- {
		if utf8.RuneStart(src[s]) {
			if _, n := utf8.DecodeRuneInString(src[s:]); s+n > off {
				return s
			}
			return off
		}
	}
	return off
}

func units(s string, enc Encoding) int {
	if enc == UTF8 {
		return len(s)
	}
	n := 0
	for _, r := range s {
		n += runeUnits(r, enc)
	}
	return n
}

func runeUnits(r rune, enc Encoding) int {
	switch enc {
	case UTF8:
		if r == utf8.RuneError {
			return 1
		}
		return utf8.RuneLen(r)
	case UTF16:
		if r >= 0x10000 {
			return 2
		}
		return 1
	default:
		return 1
	}
}
