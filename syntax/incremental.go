package syntax

import (
	"sort"
	"unicode/utf8"
)

// Edit returns the file that results from replacing the bytes [start, end) of f's source with
// text. Only the top-level items the edit touches are parsed anew; the others are reused, shifted.
// The result is the same as Parse of the new source (a differential test checks this).
//
// Why reuse is sound: scanning is context-free (see scan) but for a lookahead of at most
// utf8.UTFMax bytes, and at the top level the parser keeps no state, so parsing from an item
// start depends only on the text from there on and on whether that start begins a line (and, for
// a form never closed, on the blanks before it on its line: it ends at the next form at its own
// column). An item that ends before the edit (by more than the lookahead) is therefore
// unchanged, except a form left unclosed if the edit closes it: its end depends on the rest of
// the file. The parenthesis
// balance of every item tells whether that happened, and if so parsing restarts at that form.
// Parsing stops at the first item boundary after the edit that was also a boundary in the old
// file; from there on both files have the same text and so the same items. While parsing, the
// balances of the old items after the edit tell whether a form still open is ever closed, so
// that typing into an unclosed form does not rescan the rest of the file.
func (f *File) Edit(start, end int, text string) *File {
	return f.edit(start, end, text, -1)
}

// edit implements Edit. Parsing starts at the item the edit touches, or at item restart when
// that is >= 0 and earlier.
func (f *File) edit(start, end int, text string, restart int) *File {
	if start < 0 {
		start = 0
	}
	if end > len(f.src) {
		end = len(f.src)
	}
	if start > end {
		start = end
	}
	src := f.src[:start] + text + f.src[end:]
	delta := len(text) - (end - start)
	a := f.firstReparsed(start, restart)
	from := 0
	if a < len(f.items) {
		from = f.items[a].start
	} else if len(f.items) > 0 {
		from = len(f.src)
	}
	from = min(from, start)
	rs := &resync{old: f, src: src, delta: delta, newEnd: start + len(text), b: a}
	p := newParser(src, from, 64)
	p.dialect = f.dialect
	p.copyIt = true
	p.oracle = &balanceOracle{old: f, delta: delta, newEnd: rs.newEnd, b: a}
	p.oracle.advance(0)
	items := make([]item, 0, len(f.items)+4)
	items = append(items, f.items[:a]...)
	items = p.parseItems(items, rs.stop)
	b := rs.b
	reparsedEnd := len(src)
	if n := len(items); n > 0 && n > a {
		reparsedEnd = items[n-1].start + len(items[n-1].text)
	}
	tail := reparsedEnd < len(src)
	if restart < 0 {
		if u := f.closedUnclosed(items, a, b, tail); u >= 0 {
			return f.edit(start, end, text, u)
		}
	}
	nf := &File{src: src, dialect: f.dialect, reused: a}
	if f.linesMade.Load() {
		nf.lineEdit = &lineEdit{f.lines, start, end, text}
	}
	f.spliceErrors(nf, items, a, from)
	if tail {
		items = f.reuseTail(nf, items, b, delta)
	}
	nf.items = items
	nf.errCount = len(nf.errs)
	if f.errCount > len(f.errs) || len(nf.errs) >= MaxErrors {
		nf.collectErrors()
	}
	nf.reparsed = Span{from, reparsedEnd}
	nf.extra = max(f.extra, p.extra)
	if tail {
		f.carryBalances(nf, b)
	}
	return nf
}

// firstReparsed returns the first item to parse anew: the first one that ends at or after the
// edit start (touching counts: a token may grow), or a little before it, or restart.
func (f *File) firstReparsed(start, restart int) int {
	a := len(f.items)
	if restart >= 0 {
		a = restart
	}
	if len(f.items) == 0 {
		return a
	}
	// A token's end depends on the bytes just after it: up to utf8.UTFMax of them decide
	// whether a non-ASCII character continues a symbol. So an item that ends less than
	// utf8.UTFMax bytes before the edit may grow or shrink too; and so may one whose parse
	// read further (unit.extra: an infix statement reads the token after it). No item ends
	// more than f.extra bytes before the edit and reads it, so the search stops there.
	i := f.itemAt(start)
	for j := i - 1; j >= 0 && f.itemEnd(j)+int(f.extra) > start-utf8.UTFMax; j-- {
		if f.itemEnd(j)+int(f.items[j].extra) > start-utf8.UTFMax {
			i = j
		}
	}
	return min(a, i)
}

// A resync decides where parsing after an edit stops: at the first item boundary after the
// edit that was also a boundary in the old file. b walks the old items by start offset; when
// parsing stops it is the first old item reused.
type resync struct {
	old    *File
	src    string // the new source
	delta  int    // the change in length
	newEnd int    // the end of the inserted text in the new source
	b      int
}

// stop reports whether parsing stops at offset x of the new source.
func (r *resync) stop(x int) bool {
	if x == len(r.src) {
		return true
	}
	if x-1 < r.newEnd {
		return false
	}
	f, old := r.old, x-r.delta
	for r.b < len(f.items) && f.items[r.b].start < old {
		r.b++
	}
	// An unclosed form ends at the next form at its own column: one whose indentation
	// changed is parsed anew.
	return r.b < len(f.items) && f.items[r.b].start == old &&
		(!f.items[r.b].unclosed || formColumn(r.src, x) == formColumn(f.src, old))
}

// spliceErrors sets nf's errors and unclosed forms: those of f's items before a, and those of
// the new items after them (items[a:]). Errors lie inside their items, so the old errors split
// at item boundaries (from is the start of item a).
func (f *File) spliceErrors(nf *File, items []item, a, from int) {
	firstOld := sort.Search(len(f.errs), func(i int) bool { return f.errs[i].Span.Start >= from })
	nf.errs = append(make([]Error, 0, len(f.errs)+4), f.errs[:firstOld]...)
	for _, it := range items[a:] {
		nf.errs = appendItemErrors(nf.errs, it)
	}
	for _, i := range f.unclosed {
		if i < a {
			nf.unclosed = append(nf.unclosed, i)
		}
	}
	for i := a; i < len(items); i++ {
		if items[i].unclosed {
			nf.unclosed = append(nf.unclosed, i)
		}
	}
}

// reuseTail appends to items f's items from b on, shifted by delta, with their errors and
// unclosed forms, into nf. A file with more than MaxErrors errors lists only the first ones,
// so edit collects them again from the items.
func (f *File) reuseTail(nf *File, items []item, b, delta int) []item {
	tail := len(items)
	for _, it := range f.items[b:] {
		items = append(items, item{it.start + delta, it.unit})
	}
	nf.reused += len(f.items) - b
	oldTail := f.items[b].start
	for _, e := range f.errs[sort.Search(len(f.errs), func(i int) bool { return f.errs[i].Span.Start >= oldTail }):] {
		nf.errs = append(nf.errs, shiftError(e, delta))
	}
	for _, i := range f.unclosed {
		if i >= b {
			nf.unclosed = append(nf.unclosed, i-b+tail)
		}
	}
	return items
}

// carryBalances gives nf the balances of the tail reused from f's items b on: they depend only
// on the text after them.
func (f *File) carryBalances(nf *File, b int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sufLow != nil {
		v := max(f.sufValid, b)
		tail := len(nf.items) - (len(f.items) - b)
		nf.sufLow = make([]int32, len(nf.items)+1)
		copy(nf.sufLow[tail+v-b:], f.sufLow[v:])
		nf.sufValid = tail + v - b
	}
}

// closedUnclosed returns the first unclosed form before item a that the edit closes, or -1.
// items holds the items before a and the new ones; b is the first old item reused after them when
// tail is true. An unclosed form before the edit keeps its extent (its cut, the next '(' in
// column 0, comes before the edit) unless a ')' after it now closes it: that is the case when
// the lowest running balance of the new text after it drops to minus its open parentheses.
func (f *File) closedUnclosed(items []item, a, b int, tail bool) int {
	first := -1 // the first unclosed form, when it starts before the edit
	if len(f.unclosed) > 0 && f.unclosed[0] < a {
		first = f.unclosed[0]
	}
	if first < 0 {
		return -1
	}
	var low int32
	if tail {
		low = f.suffixLow(b)
	}
	for j := len(items) - 1; j >= a; j-- {
		low = min(items[j].low, items[j].net+low)
	}
	closed := -1
	for j := a - 1; j >= first; j-- {
		it := items[j].unit
		if it.unclosed && it.net+low <= 0 {
			closed = j
		}
		low = min(it.low, it.net+low)
	}
	return closed
}

// balanceOracle tells the parser of an edited file, at a point after the edit where the new text
// continues as the old text did from one of its item starts, whether a '(' open there at a given
// depth is ever closed: the old file knows the lowest balance of the rest of the text.
type balanceOracle struct {
	old    *File
	delta  int // new offset - old offset after the edit
	newEnd int // end of the inserted text in the new source
	b      int // the first old item whose start, shifted, is >= next
	next   int // the next offset in the new text where the oracle may know the answer
}

// advance moves next to the first usable old item start at or after pos.
func (o *balanceOracle) advance(pos int) {
	pos = max(pos, o.newEnd+1) // the byte before the point must be old text too
	for o.b < len(o.old.items) && o.old.items[o.b].start+o.delta < pos {
		o.b++
	}
	if o.b < len(o.old.items) {
		o.next = o.old.items[o.b].start + o.delta
	} else {
		o.next = int(^uint(0) >> 1)
	}
}

// closes reports, for scanning position pos with depth parentheses still open, whether the
// outermost of them is ever closed; known is false when pos is not a point the oracle knows.
func (o *balanceOracle) closes(pos, depth int) (closes, known bool) {
	if pos != o.next {
		if pos < o.next {
			return false, false
		}
		o.advance(pos)
		if pos != o.next {
			return false, false
		}
	}
	return int(o.old.suffixLow(o.b))+depth <= 0, true
}
