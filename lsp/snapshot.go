package lsp

import (
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

// Snapshot is one version of one open document as the server sees it: the feature layer's
// snapshot (ide.Snapshot: the text, its tree and what is derived from them) with the document's
// URI and the mapper of its positions. It never changes once built; an edit makes a new
// Snapshot that shares the untouched parts of the tree with the old one.
type Snapshot struct {
	*ide.Snapshot
	URI      protocol.DocumentURI
	lang     string // the languageId the client opened the document with
	m        mapper
	received time.Time // when the notification that made this version arrived

	// desync, when set, is the change that the server could not apply to an earlier version:
	// the server no longer knows the client's text, so the document is shown as out of sync
	// and requests on it fail until a full-text change, or closing and reopening it.
	desync error
}

// newSnapshot makes the snapshot of a document's whole text, opened with languageId lang,
// parsed on first use. A text larger than maxDocumentSize is not kept: the document is out of
// sync (tooLargeError) until a full-text change within the limit.
func newSnapshot(uri protocol.DocumentURI, lang string, version int32, text string, enc syntax.Encoding) *Snapshot {
	if len(text) > maxDocumentSize {
		s := wrapSnapshot(uri, ide.NewSnapshotIn(version, "", dialectOf(uri, lang, "")), enc)
		s.desync, s.lang = tooLargeError{len(text)}, lang
		return s
	}
	s := wrapSnapshot(uri, ide.NewSnapshotIn(version, text, dialectOf(uri, lang, text)), enc)
	s.lang = lang
	return s
}

// maxDocumentSize is the largest document the server analyses: the limit of gdl check's input,
// 16 MiB, within which memory stays bounded (about 100 times the text, docs/performance.md).
const maxDocumentSize = 16 << 20

// tooLargeError is why a document larger than maxDocumentSize is out of sync.
type tooLargeError struct{ size int }

func (e tooLargeError) Error() string {
	return fmt.Sprintf("it has %d bytes, more than the %d MiB gdl analyses, as gdl check", e.size, maxDocumentSize>>20)
}

// infixLanguages are the languageIds of infix GDL: the VS Code extension's, and the Neovim
// filetype and Emacs mode of docs/editors.md.
var infixLanguages = map[string]bool{"gdl-infix": true, "hrf": true}

// dialectOf returns the notation of a document: infix when the client opened it as infix GDL or
// it is a .hrf file, else the one its text is written in (syntax.Detect).
func dialectOf(uri protocol.DocumentURI, lang, text string) syntax.Dialect {
	if infixLanguages[lang] {
		return syntax.Infix
	}
	return syntax.Detect(string(uri), text)
}

func wrapSnapshot(uri protocol.DocumentURI, s *ide.Snapshot, enc syntax.Encoding) *Snapshot {
	return &Snapshot{Snapshot: s, URI: uri, m: mapper{lines: s.Lines(), enc: enc}}
}

// edit applies LSP content changes in order and returns the next version's snapshot. Ranged
// changes go through the incremental parser; a change without a range replaces the text. A
// change that cannot be applied leaves the document out of sync (see desync), as do ranged
// changes to a document that is out of sync already; a full-text change resynchronises it.
func (s *Snapshot) edit(version int32, changes []contentChange) *Snapshot {
	if s.desync != nil {
		last := lastFull(changes)
		if last < 0 {
			return s.outOfSync(version, s.desync)
		}
		changes = changes[last:]
	}
	next, err := s.apply(version, changes)
	if err != nil {
		return s.outOfSync(version, err)
	}
	return next
}

// outOfSync returns the snapshot of a version whose text the server does not know: it keeps
// the last text it knew, for nothing but the record.
func (s *Snapshot) outOfSync(version int32, err error) *Snapshot {
	next := wrapSnapshot(s.URI, ide.SnapshotOf(version, s.File()), s.m.enc)
	next.desync, next.lang = err, s.lang
	return next
}

// apply applies the changes to the snapshot's text. A change of the whole text, and ranged changes
// to a version not parsed yet, make a version parsed on first use (applyText); ranged changes to
// a parsed version edit its tree.
func (s *Snapshot) apply(version int32, changes []contentChange) (*Snapshot, error) {
	if last := lastFull(changes); last >= 0 {
		text := changes[last].Text
		if len(text) > maxDocumentSize {
			return nil, tooLargeError{len(text)}
		}
		return s.applyText(version, text, nil, changes, last+1)
	}
	if !s.Parsed() {
		return s.applyText(version, s.Text(), s.m.lines, changes, 0)
	}
	f, lines := s.File(), s.m.lines
	for i, ch := range changes {
		m := mapper{lines: lines, enc: s.m.enc}
		start, end, err := changeBounds(m, len(f.Source()), version, i, ch)
		if err != nil {
			return nil, err
		}
		f = f.Edit(start, end, ch.Text)
		lines = f.Lines()
	}
	// The notation is decided again, as opening the document now would (issue 22, item 16):
	// typing an infix game into an empty .kif document makes it infix, which its first forms
	// tell. Deciding stops at the first form that tells, so it is cheap on every edit.
	if d := dialectOf(s.URI, s.lang, f.Source()); d != f.Dialect() {
		f, _ = syntax.ParseDialect(f.Source(), d)
	}
	next := wrapSnapshot(s.URI, s.Snapshot.Next(version, f), s.m.enc)
	next.lang = s.lang
	return next, nil
}

// lastFull returns the index of the last change of the whole text, or -1.
func lastFull(changes []contentChange) int {
	for i := len(changes) - 1; i >= 0; i-- {
		if changes[i].Range == nil {
			return i
		}
	}
	return -1
}

// changeBounds returns the byte offsets that ranged change i replaces in a text of size bytes
// whose lines m maps, or why it cannot be made.
func changeBounds(m mapper, size int, version int32, i int, ch contentChange) (start, end int, err error) {
	start, end = m.offset(ch.Range.Start), m.offset(ch.Range.End)
	if start > end {
		return 0, 0, fmt.Errorf("change %d of version %d: range end %v before start %v", i, version, ch.Range.End, ch.Range.Start)
	}
	if size := size - (end - start) + len(ch.Text); size > maxDocumentSize {
		return 0, 0, tooLargeError{size}
	}
	return start, end, nil
}

// applyText makes the next version from text (whose line index is lines, or nil) and the ranged
// changes from changes[from:], parsed on first use: a change of the whole text, or an edit of a
// version whose text is not parsed yet (a large file just opened, its parse running on the
// diagnostics' goroutine), so that the read loop, and every request behind it, does not wait for
// a parse.
func (s *Snapshot) applyText(version int32, text string, lines *syntax.LineIndex, changes []contentChange, from int) (*Snapshot, error) {
	for i := from; i < len(changes); i++ {
		ch := changes[i]
		if lines == nil {
			lines = syntax.NewLineIndex(text)
		}
		start, end, err := changeBounds(mapper{lines: lines, enc: s.m.enc}, len(text), version, i, ch)
		if err != nil {
			return nil, err
		}
		text, lines = text[:start]+ch.Text+text[end:], nil
	}
	next := wrapSnapshot(s.URI, s.Snapshot.NextText(version, text, dialectOf(s.URI, s.lang, text)), s.m.enc)
	next.lang = s.lang
	return next, nil
}

// answered is f's answer at byte offset off, from the snapshot that ide.(*Snapshot).Answering
// names: an earlier version whose model is built while this one's is not, when off lies outside
// what changed, with every span of the answer (spanOf) taken back into this version; else, or
// when a span overlaps the change, this version's (its model's, or while an analysis of it runs,
// its syntax stage's: ide.(*Snapshot).AnalyseApart).
func answered[T any](snap *Snapshot, off int, spanOf func(*T) *syntax.Span, f func(s *ide.Snapshot, off int) []T) []T {
	if from, at, back := snap.Answering(off); from != snap.Snapshot {
		out, ok := f(from, at), true
		for i := 0; i < len(out) && ok; i++ {
			sp := spanOf(&out[i])
			*sp, ok = back(*sp)
		}
		if ok {
			return out
		}
	}
	return f(snap.Snapshot, off)
}
