package syntax

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Parse parses src, written in prefix GDL (KIF), into a lossless tree. It never fails: broken
// text yields a tree plus errors with exact ranges, and every complete form still gets its tree.
func Parse(src string) (*File, []Error) { return ParseDialect(src, Prefix) }

// ParseDialect parses src written in dialect d (Detect tells which) into a lossless tree, like
// Parse. A form of the other notation (a prefix form in an infix file, an infix fact or rule in
// a prefix one) is one error naming the notation it is written in.
func ParseDialect(src string, d Dialect) (*File, []Error) {
	f, _ := parseWhile(src, d, func(int) bool { return false })
	return f, f.errs
}

// ParseContext is ParseDialect that gives up, returning nil and ctx's error, once ctx is done: it
// asks ctx.Err() every pollItems top-level items (a few hundred µs of parsing apart). A language
// server's parse of a 3 MB file takes over 100 ms of CPU; a newer version cancels it there, and
// a context whose Err waits while requests are answered makes it yield to them.
func ParseContext(ctx context.Context, src string, d Dialect) (*File, error) {
	n := 0
	var err error
	f, stopped := parseWhile(src, d, func(int) bool {
		if n++; n%pollItems == 0 {
			err = ctx.Err()
		}
		return err != nil
	})
	if stopped {
		return nil, err
	}
	return f, nil
}

// pollItems is how many top-level items ParseContext parses between two looks at its context.
const pollItems = 256

// parseWhile parses src in dialect d until stop, asked after each top-level item, says to stop;
// it returns the file and whether it stopped before the end.
func parseWhile(src string, d Dialect, stop func(end int) bool) (*File, bool) {
	p := newParser(src, 0, len(src)/4)
	p.dialect = d
	f := &File{src: src, dialect: d}
	stopped := false
	f.items = p.parseItems(nil, func(end int) bool {
		stopped = stop(end) && end < len(src)
		return stopped
	})
	f.reparsed = Span{0, len(src)}
	f.collectErrors()
	f.extra = p.extra
	return f, stopped
}

type tok struct {
	start, end int32
	kind       Kind
}

// parser turns tokens into items. Tokens are scanned lazily from base; alongside, every '(' is
// matched with its ')' by the usual stack, so the parser can ask whether a top-level form is ever
// closed without scanning it twice.
type parser struct {
	src    string
	base   int // where scanning started
	toks   []tok
	match  []int32 // per token: for '(' the index of its ')', -1 while unknown or never closed
	stack  []int32
	pos    int // scanning position
	arena  []Node
	block  int     // size of the last arena block
	stage  []Node  // children of the lists being built, a stack
	marks  []int32 // stage index of the '(' of every list being built
	frames []checkFrame
	errs   []Error
	copyIt bool // clone item text (incremental parsing, so old sources are not kept alive)
	oracle *balanceOracle
	est    int // tokens to make room for when the token path starts

	dialect Dialect
	extra   int32 // the largest extra of the items made (see unit.extra)

	// The infix parser's state (infix.go): the tokens of the item being parsed, scanned lazily
	// from ibase; the next one to take; how far scanning reached; the lists being built.
	it      []tok
	ii      int
	ipos    int
	ibase   int
	ireach  int
	iframes []ifr
	conv    converter // for the quick fixes of forms of the other notation
}

// newParser returns a parser that starts scanning at base. est is the number of tokens to make
// room for if the token path is needed (most files never need it).
func newParser(src string, base, est int) *parser {
	return &parser{src: src, base: base, pos: base, est: min(max(est, 16), 1<<16)}
}

// more scans one token; it reports false at the end of the text.
func (p *parser) more() bool {
	if p.pos >= len(p.src) {
		return false
	}
	kind, end := scan(p.src, p.pos)
	idx := int32(len(p.toks))
	p.toks = append(p.toks, tok{int32(p.pos), int32(end), kind})
	p.match = append(p.match, -1)
	switch kind {
	case LParen:
		p.stack = append(p.stack, idx)
	case RParen:
		if n := len(p.stack); n > 0 {
			p.match[p.stack[n-1]] = idx
			p.stack = p.stack[:n-1]
		}
	}
	p.pos = end
	return true
}

// neverCloses reports whether the oracle knows, at the current scanning position, that the '('
// at token k (still open) is never closed.
func (p *parser) neverCloses(k int) bool {
	if p.oracle == nil || p.pos < p.oracle.next {
		return false
	}
	depth := 0
	for i := len(p.stack) - 1; i >= 0; i-- {
		depth++
		if int(p.stack[i]) == k {
			closes, known := p.oracle.closes(p.pos, depth)
			return known && !closes
		}
	}
	return false
}

func (p *parser) have(k int) bool {
	for k >= len(p.toks) {
		if !p.more() {
			return false
		}
	}
	return true
}

// parseItems parses top-level items from p.base until the end of the text or until stop says
// that the item just parsed, ending at the given offset, is a good place to stop.
//
// The fast path builds each form straight from the scanner. Only when a form is still open at the
// end of the text does it hand over to the token path, which keeps every token and matches
// parentheses across forms so that the cut of each unclosed form is found without rescanning.
func (p *parser) parseItems(items []item, stop func(end int) bool) []item {
	if p.dialect == Infix {
		items = p.parseInfixItems(items, stop)
		for _, it := range items {
			p.extra = max(p.extra, it.extra)
		}
		return items
	}
	items = p.parsePrefixItems(items, stop)
	for _, it := range items {
		p.extra = max(p.extra, it.extra)
	}
	return items
}

// parsePrefixItems is parseItems for a prefix file.
func (p *parser) parsePrefixItems(items []item, stop func(end int) bool) []item {
	items, pos, done := p.directItems(items, stop)
	if done {
		return items
	}
	p.base, p.pos = pos, pos
	if p.toks == nil {
		est := min(p.est, (len(p.src)-pos)/4+16)
		p.toks, p.match = make([]tok, 0, est), make([]int32, 0, est)
	}
	return p.tokenItems(items, stop)
}

// directItems is the fast path of parsePrefixItems: it builds each item straight from the
// scanner, from p.base on, until stop, the end of the text, or a form never closed. It returns
// the items, where it stopped, and whether parsing is done (false: a form is still open at pos).
func (p *parser) directItems(items []item, stop func(end int) bool) ([]item, int, bool) {
	pos := p.base
	for pos < len(p.src) {
		kind, e := scan(p.src, pos)
		var u *unit
		end := e
		if kind == LParen {
			n, fe, ok := p.buildDirect(pos)
			if !ok {
				return items, pos, false // never closed: the token path decides where the form ends
			}
			end = fe
			u = p.formUnit(pos, end, n)
		} else if kind == Word {
			u, end = p.wordItem(pos, e)
		} else {
			u = p.leafItem(tok{int32(pos), int32(e), kind})
		}
		items = append(items, item{pos, u})
		pos = end
		if stop(end) {
			return items, pos, true
		}
	}
	return items, pos, true
}

// tokenItems is the token path of parsePrefixItems: it keeps every token and matches
// parentheses across forms, so that the cut of each unclosed form is found without rescanning.
func (p *parser) tokenItems(items []item, stop func(end int) bool) []item {
	for k := 0; p.have(k); {
		t := p.toks[k]
		start := int(t.start)
		var next int // token index after the item
		var end int
		var u *unit
		if t.kind == LParen {
			for p.match[k] < 0 && !p.neverCloses(k) && p.more() {
			}
			reach := 0 // how far the parse of an unclosed form read
			if m := int(p.match[k]); m >= 0 {
				next, end = m+1, int(p.toks[m].end)
			} else {
				next, end, reach = p.unclosedEnd(k)
			}
			u = p.formUnit(start, end, p.build(k, next, start))
			u.extra = int32(max(0, reach-end))
		} else if t.kind == Word {
			u, end = p.wordItem(start, int(t.end))
			next = k + 1
			for ; end > int(p.toks[next-1].end); next++ {
				p.have(next) // the infix statement ends where a token ends (prefixAligned)
			}
		} else {
			next, end = k+1, int(t.end)
			u = p.leafItem(t)
		}
		items = append(items, item{start, u})
		k = next
		if stop(end) {
			break
		}
	}
	return items
}

// unclosedEnd returns where the form opened by token k, never closed, ends: the token after
// it, its end offset, and how far deciding that read. It ends at the first '(' after it at its
// own column (column 0 for most files; 2 where every form is indented two spaces) that starts a
// form in the file's own layout (cutAt), or at the end of the text.
func (p *parser) unclosedEnd(k int) (next, end, reach int) {
	col := formColumn(p.src, int(p.toks[k].start))
	flat := p.flatRule(k, col)
	for c := k + 1; p.have(c); c++ {
		if p.toks[c].kind == LParen && linePrefix(p.src, int(p.toks[c].start)) == col {
			cut, read := p.cutAt(c, flat)
			reach = max(reach, read)
			if cut {
				return c, int(p.toks[c].start), reach
			}
		}
	}
	return len(p.toks), len(p.src), reach
}

// bodyOnly are the words that, after '(', start a literal only a rule body can hold: a line of
// them at the form's column continues an unclosed rule rather than starting a form.
var bodyOnly = map[string]bool{"true": true, "does": true, "not": true, "or": true, "distinct": true, "and": true}

// linePrefix returns the blanks before pos on its line, or "\x00" when something else stands
// there (pos is not the first token of its line).
func linePrefix(src string, pos int) string {
	ls := pos
	for ls > 0 && src[ls-1] != '\n' && src[ls-1] != '\r' {
		ls--
		if c := src[ls]; c != ' ' && c != '\t' {
			return "\x00"
		}
	}
	return src[ls:pos]
}

// formColumn returns the column (as the blanks before it) at which the forms after an unclosed
// form starting at start are looked for: its own, when it is the first token of its line, else
// column 0.
func formColumn(src string, start int) string {
	if c := linePrefix(src, start); c != "\x00" {
		return c
	}
	return ""
}

// flatRule reports whether the unclosed form whose '(' is token k is a rule written in the
// layout of ggp-base's games, its body literals at its own column col (`(<= (p ?x)` with the
// next line starting with '(' there): then a '(' at that column does not end it by itself.
func (p *parser) flatRule(k int, col string) bool {
	w := k + 1
	for p.have(w) && p.toks[w].kind == Whitespace && !strings.ContainsAny(p.src[p.toks[w].start:p.toks[w].end], "\r\n") {
		w++
	}
	if !p.have(w) || p.toks[w].kind != Word || p.src[p.toks[w].start:p.toks[w].end] != "<=" {
		return false
	}
	for c := w + 1; p.have(c); c++ {
		t := p.toks[c]
		if t.kind == LParen && linePrefix(p.src, int(t.start)) == col {
			return true
		}
		if t.kind == Whitespace && strings.ContainsAny(p.src[t.start:t.end], "\r\n") {
			// the first line break: is the next token a '(' at the form's column?
			return p.have(c+1) && p.toks[c+1].kind == LParen && linePrefix(p.src, int(p.toks[c+1].start)) == col
		}
	}
	return false
}

// cutAt reports whether the '(' at the form's column at token c ends an unclosed form, so that
// one missing ')' is one error in the file's own layout, and how far it read. A literal only a
// rule body holds ((true ...), (does ...), (not ...), (or ...), (distinct ...)) continues the
// form. In a flat rule, a line at the column continues it too, unless it starts a rule, (<=, or
// follows a blank line or a comment line, which is how such files separate their forms.
func (p *parser) cutAt(c int, flat bool) (bool, int) {
	read := int(p.toks[c].end)
	word := ""
	if p.have(c+1) && p.toks[c+1].kind == Word {
		word = Fold(p.src[p.toks[c+1].start:p.toks[c+1].end])
		read = int(p.toks[c+1].end) + 1 // the byte after the word ends it
	}
	switch {
	case bodyOnly[word]:
		return false, read
	case !flat || word == "<=":
		return true, read
	}
	// The line before: blank, or a comment alone?
	ls := int(p.toks[c].start)
	for ls > 0 && p.src[ls-1] != '\n' && p.src[ls-1] != '\r' {
		ls--
	}
	prev := ls - 1 // the line break that ends the line before
	if prev > 0 && p.src[prev] == '\n' && p.src[prev-1] == '\r' {
		prev--
	}
	pls := max(prev, 0)
	for pls > 0 && p.src[pls-1] != '\n' && p.src[pls-1] != '\r' {
		pls--
	}
	line := strings.TrimLeft(p.src[pls:max(prev, 0)], " \t")
	return line == "" || strings.HasPrefix(line, ";"), read
}

func (p *parser) text(start, end int) string {
	if p.copyIt {
		return strings.Clone(p.src[start:end])
	}
	return p.src[start:end]
}

// Units of the most common whitespace items, shared by every file: they are immutable and do not
// refer to any source.
var commonSpace = func() map[string]*unit {
	m := map[string]*unit{}
	for _, s := range []string{" ", "\n", "\n\n", "\n\n\n", "\r\n", "\r\n\r\n", "\r\n\r\n\r\n", "\r", "\r\r", "\n\t", "\t", "  "} {
		m[s] = &unit{text: s, node: Node{Kind: Whitespace, End: int32(len(s))}}
	}
	return m
}()

// strayClose is the unit of a ')' that closes nothing, shared by every such item of every file
// like commonSpace: a file of a million of them takes a million small items, not a million
// units each with its error and fix.
var strayClose = &unit{text: ")", node: Node{Kind: RParen, End: 1}, net: -1, low: -1,
	errs: []Error{{Span: Span{0, 1}, Code: CodeUnmatchedClose, Message: "unmatched ')': no '(' is open here",
		Fix: &Fix{Title: "Remove the unmatched ')'", Edits: []TextEdit{{Span{0, 1}, ""}}}}}}

func (p *parser) leafItem(t tok) *unit {
	start, end := int(t.start), int(t.end)
	if t.kind == Whitespace && end-start <= 6 {
		if u := commonSpace[p.src[start:end]]; u != nil {
			return u
		}
	}
	if t.kind == RParen {
		return strayClose
	}
	u := &unit{text: p.text(start, end)}
	u.node = Node{Kind: t.kind, Start: 0, End: int32(end - start)}
	switch t.kind {
	case Variable:
		if end-start == 1 {
			p.errorf(0, 1, CodeEmptyVariable, nil, "'?' must be followed by a variable name")
		} else {
			p.errorf(0, end-start, CodeTopLevelVariable, nil,
				"variable %s stands alone at the top level: expected a fact or a rule", u.text)
		}
	case Bad:
		p.badChar(u.text, 0, end-start)
	}
	u.errs = p.takeErrors()
	return u
}

// wordItem makes the item of a top-level word at [pos, end): an infix statement that starts
// with it (infixInPrefix), or the word alone.
func (p *parser) wordItem(pos, end int) (*unit, int) {
	n, fe, reach, ok := p.infixInPrefix(pos, end)
	if ok {
		u := &unit{text: p.text(pos, fe), node: n}
		u.errs = p.takeErrors()
		u.extra = int32(max(0, reach-fe))
		return u, fe
	}
	u := p.leafItem(tok{int32(pos), int32(end), Word})
	u.extra = int32(max(0, reach-end))
	return u, end
}

// formUnit makes the item of the top-level form n, which covers [start, end).
func (p *parser) formUnit(start, end int, n Node) *unit {
	u := &unit{text: p.text(start, end)}
	n.End = int32(end - start) // an unclosed form also owns the trivia before the cut
	u.node = n
	u.unclosed = n.Unclosed
	for m := &u.node; m != nil && m.Kind == List && m.Unclosed; m = lastElement(m) {
		u.net++ // the parentheses left open
	}
	p.checkForm(u.text, &u.node)
	u.errs = p.takeErrors()
	return u
}

// buildDirect builds the form whose '(' is at pos, scanning as it goes; offsets are relative to
// pos. ok is false when the text ends before the form is closed.
func (p *parser) buildDirect(pos int) (n Node, end int, ok bool) {
	base := pos
	p.marks = p.marks[:0]
	stage0 := len(p.stage)
	for pos < len(p.src) {
		kind, e := scan(p.src, pos)
		leaf := Node{Kind: kind, Start: int32(pos - base), End: int32(e - base)}
		pos = e
		switch kind {
		case LParen:
			p.marks = append(p.marks, int32(len(p.stage)))
			p.push(leaf)
		case RParen:
			p.push(leaf)
			list := p.closeList(int(p.marks[len(p.marks)-1]), false)
			p.marks = p.marks[:len(p.marks)-1]
			if len(p.marks) == 0 {
				return list, pos, true
			}
			p.push(list)
		default:
			p.push(leaf)
		}
		if p.oracle != nil && pos >= p.oracle.next {
			if closes, known := p.oracle.closes(pos, len(p.marks)); known && !closes {
				break // never closed: stop scanning now
			}
		}
	}
	p.stage = p.stage[:stage0]
	return Node{}, 0, false
}

// closeList turns the staged children from mark on into a List node and unstages them.
func (p *parser) closeList(mark int, unclosed bool) Node {
	kids := p.alloc(len(p.stage) - mark)
	copy(kids, p.stage[mark:])
	p.stage = p.stage[:mark]
	return Node{Kind: List, Unclosed: unclosed, Start: kids[0].Start, End: kids[len(kids)-1].End, Kids: kids}
}

// build makes the List node for the '(' at token k, taking tokens up to limit (exclusive) when
// its ')' does not come first. Offsets are made relative to base. Lists still open at limit are
// unclosed; each is the last child of the one around it.
func (p *parser) build(k, limit, base int) Node {
	p.marks = p.marks[:0]
	for i := k; i < limit; i++ {
		t := p.toks[i]
		leaf := Node{Kind: t.kind, Start: t.start - int32(base), End: t.end - int32(base)}
		switch t.kind {
		case LParen:
			p.marks = append(p.marks, int32(len(p.stage)))
			p.push(leaf)
		case RParen:
			p.push(leaf)
			list := p.closeList(int(p.marks[len(p.marks)-1]), false)
			p.marks = p.marks[:len(p.marks)-1]
			if len(p.marks) == 0 {
				return list
			}
			p.push(list)
		default:
			p.push(leaf)
		}
	}
	for {
		list := p.closeList(int(p.marks[len(p.marks)-1]), true)
		p.marks = p.marks[:len(p.marks)-1]
		if len(p.marks) == 0 {
			return list
		}
		p.push(list)
	}
}

// push stages n: a child of the list being built. The stage of a term nested 750,000 deep holds
// 2 million nodes (its open lists' '(', heads and blanks), and copying it as it grows (with the
// write barriers of its pointers) was most of the parse of the deep-term family: it grows by
// doubling up to bigStage nodes, then eightfold, never past the most the rest of the text can
// stage (growTo).
func (p *parser) push(n Node) {
	if len(p.stage) == cap(p.stage) {
		p.growStage()
	}
	p.stage = append(p.stage, n)
}

// growStage makes room in the stage; apart from push, whose loop stays small.
//
//go:noinline
func (p *parser) growStage() { p.stage = growTo(p.stage, p.stageBound()) }

// bigStage is the size past which a stack of the parser grows at once to its bound.
const bigStage = 1 << 16

// stageBound is the most nodes the stage can hold while the text from p.base is parsed: one per
// byte (a token takes a byte at least; a list that closes unstages its two parentheses and more)
// on top of what it holds.
func (p *parser) stageBound() int { return len(p.stage) + len(p.src) - p.base + 1 }

// growTo returns s with room for one more element: twice its capacity up to bigStage, then
// eight times (a deep term's stack is copied about 1.1 times its size on its way, not twice),
// but no more than bound, the most it can ever hold.
func growTo[T any](s []T, bound int) []T {
	c := max(64, 2*cap(s))
	if c > bigStage {
		c = max(min(8*cap(s), bound), cap(s)+1)
	}
	g := make([]T, len(s), c)
	copy(g, s)
	return g
}

// alloc hands out node slices from a shared arena so that parsing allocates in large blocks.
func (p *parser) alloc(n int) []Node {
	if n > len(p.arena) {
		// Blocks grow from small (an edit reparses one form) to 1024 nodes (a whole file).
		p.block = min(max(2*p.block, 64), 1024)
		p.arena = make([]Node, max(p.block, n))
	}
	s := p.arena[:n:n]
	p.arena = p.arena[n:]
	return s
}

func (p *parser) errorf(start, end int, code string, fix *Fix, format string, args ...any) {
	p.errs = append(p.errs, Error{Span: Span{start, end}, Code: code, Message: fmt.Sprintf(format, args...), Fix: fix})
}

func (p *parser) takeErrors() []Error {
	if len(p.errs) == 0 {
		return nil
	}
	out := make([]Error, len(p.errs))
	copy(out, p.errs)
	p.errs = p.errs[:0]
	return out
}

func (p *parser) badChar(text string, start, end int) {
	s := text[start:end]
	if r, _ := utf8.DecodeRuneInString(s); r != utf8.RuneError && s[0] < utf8.RuneSelf {
		p.errorf(start, end, CodeBadCharacter, nil, "invalid character U+%04X: control characters may appear only in comments", r)
		return
	}
	p.errorf(start, end, CodeBadCharacter, nil, "invalid UTF-8 byte 0x%02X: non-UTF-8 text may appear only in comments", s[0])
}

// checkForm reports the structural errors of a top-level form.
func (p *parser) checkForm(text string, n *Node) {
	if n.Unclosed {
		depth, last := 0, n
		for m := n; m != nil && m.Kind == List && m.Unclosed; {
			depth++
			last = m
			m = lastElement(m)
		}
		at := lastMeaningfulEnd(last)
		msg := "'(' is never closed: 1 ')' is missing"
		if depth > 1 {
			msg = fmt.Sprintf("'(' is never closed: %d ')' are missing", depth)
		}
		msg += "; the form ends at the next line that starts a form with '(' at its column, or at the end of the file"
		closing := strings.Repeat(")", depth)
		p.errorf(int(n.Start), int(n.Start)+1, CodeUnclosedOpen,
			&Fix{Title: fmt.Sprintf("Insert %q", closing), Edits: []TextEdit{{Span{at, at}, closing}}}, "%s", msg)
	}
	head := n.first()
	if head != nil && head.Kind == Word && text[head.Start:head.End] == "<=" {
		p.checkRule(text, n)
		return
	}
	p.checkList(text, n)
}

func (p *parser) checkRule(text string, n *Node) {
	var arrow *Node
	elem := 0
	for k := range n.Kids {
		e := &n.Kids[k]
		switch e.Kind {
		case Whitespace, Comment, LParen, RParen:
			continue
		}
		i := elem - 1 // index among the elements after the arrow
		elem++
		if i < 0 {
			arrow = e
			continue
		}
		switch e.Kind {
		case List:
			p.checkList(text, e)
		case Variable:
			name := text[e.Start:e.End]
			if name == "?" {
				p.errorf(int(e.Start), int(e.End), CodeEmptyVariable, nil, "'?' must be followed by a variable name")
			} else if i == 0 {
				p.errorf(int(e.Start), int(e.End), CodeBadHead, nil, "the head of a rule must be an atom, found variable %s", name)
			} else {
				p.errorf(int(e.Start), int(e.End), CodeBadLiteral, nil,
					"expected a literal (an atom, (not ...), (distinct ...) or (or ...)), found variable %s", name)
			}
		case Word:
			if text[e.Start:e.End] == "<=" {
				p.errorf(int(e.Start), int(e.End), CodeMisplacedArrow, nil, "'<=' may only start a top-level rule")
			}
		case Bad:
			p.badChar(text, int(e.Start), int(e.End))
		}
	}
	if elem == 1 {
		p.errorf(int(arrow.Start), int(arrow.End), CodeRuleWithoutHead, nil,
			"rule without a head: '<=' must be followed by the head atom and the body literals")
	}
}

// growFrames is growTo for checkList's stack, apart from its loop.
//
//go:noinline
func growFrames(s []checkFrame, bound int) []checkFrame { return growTo(s, bound) }

// checkFrame is a list being checked and how far: the next child and the next element index.
type checkFrame struct {
	n          *Node
	kid, elems int
}

// checkList reports structural errors in a list that is not a rule and in everything inside it.
// It walks the tree with an explicit stack, so deep nesting cannot exhaust the goroutine stack.
func (p *parser) checkList(text string, root *Node) {
	if p.emptyList(root) {
		return
	}
	stack := append(p.frames[:0], checkFrame{n: root})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.kid >= len(f.n.Kids) {
			stack = stack[:len(stack)-1]
			continue
		}
		e := &f.n.Kids[f.kid]
		f.kid++
		switch e.Kind {
		case Whitespace, Comment, LParen, RParen:
			continue
		}
		i := f.elems
		f.elems++
		switch e.Kind {
		case List:
			if i == 0 {
				p.errorf(int(e.Start), int(e.Start)+1, CodeListHead, nil,
					"a list cannot start with another list: expected a relation or function name after '('")
				if e.first() == nil {
					continue
				}
			}
			if !p.emptyList(e) {
				if len(stack) == cap(stack) {
					stack = growFrames(stack, len(text)/2+1) // a list takes two bytes at least
				}
				stack = append(stack, checkFrame{n: e})
			}
		case Variable:
			name := text[e.Start:e.End]
			if name == "?" {
				p.errorf(int(e.Start), int(e.End), CodeEmptyVariable, nil, "'?' must be followed by a variable name")
			} else if i == 0 {
				p.errorf(int(e.Start), int(e.End), CodeVariableName, nil,
					"variable %s where a relation or function name is expected", name)
			}
		case Word:
			if text[e.Start:e.End] == "<=" {
				p.errorf(int(e.Start), int(e.End), CodeMisplacedArrow, nil, "'<=' may only start a top-level rule")
			}
		case Bad:
			p.badChar(text, int(e.Start), int(e.End))
		}
	}
	p.frames = stack[:0]
}

// emptyList reports whether list n has no elements, and reports '()' as an error.
func (p *parser) emptyList(n *Node) bool {
	if n.first() != nil {
		return false
	}
	if !n.Unclosed {
		p.errorf(int(n.Start), int(n.End), CodeEmptyList, nil, "empty list '()': expected a relation or function name after '('")
	}
	return true
}

func lastElement(n *Node) *Node {
	for i := len(n.Kids) - 1; i >= 0; i-- {
		switch n.Kids[i].Kind {
		case Whitespace, Comment, LParen, RParen:
			continue
		}
		return &n.Kids[i]
	}
	return nil
}

// lastMeaningfulEnd returns the end of the last non-trivia leaf of n: where missing ')' go.
func lastMeaningfulEnd(n *Node) int {
outer:
	for {
		for i := len(n.Kids) - 1; i >= 0; i-- {
			k := &n.Kids[i]
			if k.Kind.IsTrivia() {
				continue
			}
			if k.Kind == List {
				n = k
				continue outer
			}
			return int(k.End)
		}
		return int(n.End)
	}
}
