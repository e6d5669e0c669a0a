package ide

import (
	"sort"
	"strings"
	"sync"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// The syntax stage: what a version's text tells before its model is built. A language server
// analyses each version apart from its requests (AnalyseApart); building the model of a 3 MB file
// takes seconds, and while it runs, with no earlier version's model to answer from (the document
// was just opened, or the request is about what changed), the requests answer from this stage
// instead of waiting: the tree and the text, a few per cent of the model's cost. What needs only
// one form (a variable, a keyword, the tokens of a form) is exact: it is read from the model of
// a part of the text alone (chunk), built in time proportional to that part; what needs the
// whole file (where a relation is defined, its uses, its signatures) reads the forms that spell
// the name, or every form's head (the outline, completion). Nothing that needs the analysis
// (uses counted, arities in use, answers, diagnostics) is said until the model exists: a hover
// from the stage says so. Rename never answers from the stage: its edits must reach every use,
// which only the model lists for certain (a name that folds beyond ASCII escapes the spelling
// search).

// syntaxStage is the syntax stage of one version: where its forms are, in order (a binary
// search finds the one at an offset), and its text in lower case (a substring search finds the
// forms that spell a name). It does not wait for the whole parse: where a scan of the bytes
// tells where the forms are (syntax.FormBounds: a prefix file whose forms are all closed, about
// 3 ns a byte against the parse's 50), a form is parsed when a request reads it (form), alone;
// the whole file's forms are taken from the snapshot's tree once it is parsed, or when a request
// reads them all (the outline, completion). Elsewhere (an infix file, a form never closed) the
// stage is made from the parsed tree. The heads of all forms are made only when a request
// lists them.
type syntaxStage struct {
	snap      *Snapshot
	spans     []syntax.Span // the forms' spans, in order
	lowerOnce sync.Once
	lower     string // the text in lower case (ASCII): names are found case-blind

	mu    sync.Mutex          // guards forms and some
	forms []syntax.Form       // every form, once the tree is parsed (nil before)
	some  map[int]syntax.Form // the forms parsed one by one before that, by index

	once  sync.Once
	heads []stageHead // per form, made on first need (allHeads)
}

// stageHead is the head of the clause a form is; key is "" for a form that is not a clause.
type stageHead struct {
	key   string
	atom  syntax.Atom
	arity int
	rule  bool
}

// syntaxStage returns the snapshot's syntax stage when a request must answer from it: the model
// is neither built nor to be waited for (an analysis of this version runs apart: AnalyseApart,
// and the text has stageMinSize bytes at least). Else nil: the request reads the model (building
// it, or waiting for it, if need be).
func (s *Snapshot) syntaxStage() *syntaxStage {
	s.mu.Lock()
	if s.prepared != nil || s.apart == 0 || len(s.text) < stageMinSize {
		s.stage = nil
		s.mu.Unlock()
		return nil
	}
	st := s.stage
	s.mu.Unlock()
	if st != nil {
		return st
	}
	st = newSyntaxStage(s)
	s.mu.Lock()
	if s.stage == nil && s.prepared == nil {
		s.stage = st
	}
	s.mu.Unlock()
	return st
}

// stageMinSize is the size from which a document's requests answer from the syntax stage: the
// model of a smaller one takes a few tens of ms of CPU at most (about 0.5 ms per KB), less than
// the request would gain, and its answers say more (and tests of small games see no stage). A
// variable for the tests of the stage.
var stageMinSize = 64 << 10

// AnalyseApart says that an analysis of this version runs apart from the requests (the language
// server's diagnostics), until the matching EndApart: meanwhile the features do not wait for its
// model but answer from an earlier version's (Answering) or from the syntax stage.
func (s *Snapshot) AnalyseApart() {
	s.mu.Lock()
	s.apart++
	s.mu.Unlock()
}

// EndApart says that an analysis AnalyseApart announced has ended, finished or not: once none
// runs, a request that needs the model builds it (or waits for it) again.
func (s *Snapshot) EndApart() {
	s.mu.Lock()
	s.apart--
	s.mu.Unlock()
}

// newSyntaxStage makes the stage: from a scan of the bytes where it tells where the forms are,
// else from the parsed tree (waiting for the parse).
func newSyntaxStage(s *Snapshot) *syntaxStage {
	st := &syntaxStage{snap: s}
	if spans, ok := s.formBounds(); ok {
		st.spans, st.some = spans, map[int]syntax.Form{}
		return st
	}
	st.forms = s.File().Forms()
	st.spans = make([]syntax.Span, len(st.forms))
	for i, fm := range st.forms {
		st.spans[i] = fm.Span()
	}
	return st
}

// form returns form i: the parsed tree's when it is there, else form i parsed alone (with the
// form before it, so that its documentation comment reads as in the whole tree).
func (st *syntaxStage) form(i int) syntax.Form {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.forms == nil {
		if f := st.snap.parsedFile(); f != nil {
			st.forms, st.some = f.Forms(), nil
		}
	}
	if st.forms != nil {
		return st.forms[i]
	}
	if fm, ok := st.some[i]; ok {
		return fm
	}
	from := 0
	if i > 0 {
		from = st.spans[i-1].Start
	}
	fms := syntax.ParseForms(st.snap.Text(), st.snap.Dialect(), from, st.spans[i].End)
	fm := fms[len(fms)-1]
	st.some[i] = fm
	return fm
}

// all makes sure that the forms are the parsed tree's, parsing the file (or waiting for its
// parse) if need be: before a request reads every form.
func (st *syntaxStage) all() {
	st.mu.Lock()
	done := st.forms != nil
	st.mu.Unlock()
	if done {
		return
	}
	forms := st.snap.File().Forms()
	st.mu.Lock()
	st.forms, st.some = forms, nil
	st.mu.Unlock()
}

// lowerText returns the text in lower case (ASCII), made on first need.
func (st *syntaxStage) lowerText() string {
	st.lowerOnce.Do(func() { st.lower = asciiLower(st.snap.Text()) })
	return st.lower
}

// head returns the head of form i, as the model reads it: broken forms too, as far as their
// shape allows.
func (st *syntaxStage) head(i int) stageHead {
	form := st.form(i)
	var h stageHead
	atom, ok := form.Fact(), true
	if form.IsRule() {
		atom, ok = form.Rule().RuleHead()
		h.rule = true
	}
	if ok && atom.Valid() {
		h.atom, h.arity, h.key = atom, atom.Arity(), atom.Name().Key()
	}
	return h
}

// allHeads returns the heads of every form.
func (st *syntaxStage) allHeads() []stageHead {
	st.once.Do(func() {
		st.all()
		st.heads = make([]stageHead, len(st.spans))
		for i := range st.spans {
			st.heads[i] = st.head(i)
		}
	})
	return st.heads
}

// spelling returns the forms whose text spells key (case-blind) as a whole name, in order: a
// spelling within a longer name or a variable's is no use of key, and a short key (x, a
// constant of many games) is spelled so in nearly every form: the stage would build the model
// of the whole file in chunks for every request about it.
func (st *syntaxStage) spelling(key string) []int {
	var hits []int
	needle := asciiLower(key)
	if needle == "" {
		return nil
	}
	text := st.lowerText()
	for at := 0; ; {
		i := strings.Index(text[at:], needle)
		if i < 0 {
			return hits
		}
		at += i
		if !withinName(text, needle, at) {
			if f := st.formAt(at); f >= 0 && (len(hits) == 0 || hits[len(hits)-1] != f) {
				hits = append(hits, f)
			}
		}
		at += len(needle)
	}
}

// withinName reports whether the spelling of needle at offset at of the text (in lower case)
// belongs to a longer name or a variable, in either notation: a letter, digit or underscore
// next to it continues the token (a name of prefix GDL ends at a space, a parenthesis or a
// semicolon; an identifier of infix GDL at anything but those), and a question mark before it
// makes it a variable. A needle that starts or ends with another byte is taken as it is.
func withinName(text, needle string, at int) bool {
	if at > 0 && isNameByte(needle[0]) {
		if c := text[at-1]; isNameByte(c) || c == '?' {
			return true
		}
	}
	end := at + len(needle)
	return end < len(text) && isNameByte(needle[len(needle)-1]) && isNameByte(text[end])
}

// isNameByte reports whether c, of a text in lower case, is a letter, a digit or an underscore.
func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_'
}

// asciiLower is s with its ASCII capitals in lower case, of s's length (names are found in it
// by their key; a key folds more than ASCII only for names outside it, which it then misses).
func asciiLower(s string) string {
	i := 0
	for i+8 <= len(s) && !hasUpper(s[i:i+8]) { // 8 bytes at a time while there is no capital
		i += 8
	}
	for ; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// hasUpper reports whether one of the 8 bytes of w is an ASCII capital: with x the bytes'
// low seven bits, x+(0x80-'A') has the high bit of the bytes from 'A' on, x+(0x80-'Z'-1) that of
// those past 'Z', and no sum carries out of its byte; bytes of 0x80 and more are left out.
func hasUpper(w string) bool {
	const (
		ones = 0x0101010101010101
		lows = 0x7f7f7f7f7f7f7f7f
	)
	v := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	x := v & lows
	return (x+(0x80-'A')*ones)&^(x+(0x80-'Z'-1)*ones)&^v&^lows != 0
}

// formAt returns the index of the form whose span holds off (its ends included), or -1.
func (st *syntaxStage) formAt(off int) int {
	i := sort.Search(len(st.spans), func(i int) bool { return st.spans[i].End >= off })
	if i < len(st.spans) && st.spans[i].Start <= off {
		return i
	}
	return -1
}

// chunk is the snapshot of the text [start, end) alone, with its model built: what the features
// read for the forms in it. Spans of the chunk are Shift'ed back to the document.
type chunk struct {
	snap  *Snapshot
	start int
}

// chunkOf makes the chunk of the text from the end of the form before form lo (the start of
// the text for the first) to the end of form hi-1 (the end of the text when it is the last), so
// that chunks of consecutive ranges of forms cover the text. Empty form ranges give the gap
// before form lo.
func (st *syntaxStage) chunkOf(lo, hi int) chunk {
	text := st.snap.Text()
	start, end := 0, len(text)
	if lo > 0 {
		start = st.spans[lo-1].End
	}
	switch {
	case hi < lo+1 && lo < len(st.spans):
		end = st.spans[lo].Start
	case hi > 0 && hi < len(st.spans) && hi > lo:
		end = st.spans[hi-1].End
	}
	part := text[start:end]
	f, _ := syntax.ParseDialect(part, st.snap.Dialect())
	m := analysis.NewModel(f)
	c := SnapshotOf(st.snap.Version, f)
	c.prepared, c.nav = m, m
	return chunk{snap: c, start: start}
}

// chunkAt is the chunk of the form at off, or of the gap between forms that holds it.
func (st *syntaxStage) chunkAt(off int) chunk {
	if i := st.formAt(off); i >= 0 {
		return st.chunkOf(i, i+1)
	}
	i := sort.Search(len(st.spans), func(i int) bool { return st.spans[i].Start >= off })
	return st.chunkOf(i, i)
}

// partOf returns the text of the forms idx (increasing indices), each with the text between it
// and the form before it in the document (where its doc comment is), one after another; and
// where offset off of the document is in it (-1 when it is in none of those forms).
func (st *syntaxStage) partOf(idx []int, off int) (string, int) {
	text := st.snap.Text()
	var b strings.Builder
	at := -1
	for _, i := range idx {
		start := 0
		if i > 0 {
			start = st.spans[i-1].End
		}
		if start <= off && off <= st.spans[i].End {
			at = b.Len() + off - start
		}
		b.WriteString(text[start:st.spans[i].End])
	}
	return b.String(), at
}

// span takes a span of the chunk to the document.
func (c chunk) span(sp syntax.Span) syntax.Span {
	return syntax.Span{Start: sp.Start + c.start, End: sp.End + c.start}
}

// spans takes spans of the chunk to the document, in place.
func (c chunk) spans(sps []syntax.Span) []syntax.Span {
	for i := range sps {
		sps[i] = c.span(sps[i])
	}
	return sps
}

// occurrenceAt is the occurrence at off (of the document) in the chunk's model, or nil.
func (c chunk) occurrenceAt(off int) *analysis.Occurrence {
	return c.snap.prepared.OccurrenceAt(off - c.start)
}

// chunkSize is the number of forms a chunk takes when the stage reads many forms (semantic
// tokens, the uses of a name): large enough that a model's fixed cost is shared, small enough
// that a range reads little more than itself.
const chunkSize = 128

// uses returns, in order, the occurrences of the symbol o (of kind o.Kind, key o.Key) in every
// form whose text spells the key, as spans of the document, each with whether it is in a head.
func (st *syntaxStage) uses(o *analysis.Occurrence) (spans []syntax.Span, defs []bool) {
	hits := st.spelling(o.Key)
	for k := 0; k < len(hits); {
		// Forms close together share a chunk.
		j := k + 1
		for j < len(hits) && hits[j]-hits[k] < chunkSize {
			j++
		}
		c := st.chunkOf(hits[k], hits[j-1]+1)
		m := c.snap.prepared
		for _, x := range m.AllOccurrences() {
			if x.Kind == o.Kind && x.Key == o.Key {
				spans, defs = append(spans, c.span(x.Span)), append(defs, x.Def)
			}
		}
		k = j
	}
	return spans, defs
}

// defining returns the forms whose heads define relation key, in order.
func (st *syntaxStage) defining(key string) []int {
	var out []int
	for _, i := range st.spelling(key) {
		if st.head(i).key == key {
			out = append(out, i)
		}
	}
	return out
}

// definitions returns the spans of the names of the heads that define relation key.
func (st *syntaxStage) definitions(key string) []syntax.Span {
	out := []syntax.Span{}
	for _, i := range st.defining(key) {
		out = append(out, st.head(i).atom.Name().Span())
	}
	return out
}

// isRole returns where the role key is declared, if it is one: the argument of a role fact.
func (st *syntaxStage) isRole(key string) (syntax.Span, bool) {
	for _, i := range st.defining("role") {
		if h := st.head(i); !h.rule && h.arity == 1 {
			for _, t := range h.atom.ArgSeq() {
				if t.Cursor.Symbol().Key() == key {
					return t.Span(), true
				}
			}
		}
	}
	return syntax.Span{}, false
}

// analysing is what the hovers and outline of the stage say in place of what only the analysis
// knows.
const analysing = "The file is being analysed: this is what its syntax tells."
