package lsp

import (
	"slices"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

// An edit changes few of a large file's diagnostics (thousands for 400 KB of real games), yet
// each version's were converted to LSP and written as JSON whole: about 1.4 ms of the server's
// CPU per edit at 400 KB, and a megabyte of garbage. A document's diagMemo keeps what its last
// publication converted and wrote, in order: a diagnostic of the next version equal to the one
// at the same place in the last list (the same code, severity, message, and range, related
// information and fixes at the same positions) takes the last one's LSP value, and an LSP
// diagnostic equal to the last one written there takes its JSON. The diagnostics are sorted by
// position, so an edit inserts into, removes from or changes the list where it is, and the
// lists are walked side by side (match). The JSON is reused for an LSP value with the same
// members and the same slices (by identity: they are never changed once made, and the memo
// keeps them alive, so that an address never comes back with other contents).

// memoMin is the number of diagnostics from which a document's are memoised: below it the
// work is small, and the memo would only hold memory (685 files open at once).
const memoMin = 64

// diagMemo is the memo of one document's published diagnostics; its methods may be called
// from several goroutines (an analysis being cancelled while the next version's runs).
type diagMemo struct {
	mu   sync.Mutex
	conv []protocol.Diagnostic // the last conversion's LSP values
	pub  []protocol.Diagnostic // the last publication's diagnostics
	raw  [][]byte              // and their JSON
	size int                   // the length of the last publication's JSON
	hits int                   // values and JSON taken from the memo (for the tests)
}

// matchWindow is how far past the expected place match looks for a diagnostic of the last
// list: as many as an edit removes at one place, or more, and the rest are made again.
const matchWindow = 8

// match returns the index in the last list (of n) of the one equal to the next new diagnostic
// (same(i)), looking at *at, where the one after the last match is, and a few after it; it
// moves *at past the match. It returns -1 when none is.
func match(at *int, n int, same func(i int) bool) int {
	for i := *at; i < n && i <= *at+matchWindow; i++ {
		if same(i) {
			*at = i + 1
			return i
		}
	}
	return -1
}

// convert is Snapshot.diagnostic through the memo: the LSP values of ds (all of whose codes
// the settings leave on), the last conversion's where equal.
func (m *diagMemo) convert(s *Snapshot, settings Settings, ds []analysis.Diagnostic) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	if m == nil || len(ds) < memoMin {
		for _, d := range ds {
			if pd, ok := s.diagnostic(settings, d); ok {
				out = append(out, pd)
			}
		}
		return out
	}
	m.mu.Lock()
	prev := m.conv
	m.mu.Unlock()
	at, hits := 0, 0
	for k := range ds {
		d := &ds[k]
		sev, on := settings.severity(d.Code, lspSeverity(d.Severity))
		if !on {
			continue
		}
		rng := s.m.span(d.Span)
		i := match(&at, len(prev), func(i int) bool {
			c := &prev[i]
			code, _ := c.Code.(string)
			return c.Range == rng && c.Severity == sev && code == d.Code && c.Message == d.Message && s.sameExtras(d, c)
		})
		if i >= 0 {
			out = append(out, prev[i])
			hits++
		} else if pd, ok := s.diagnostic(settings, *d); ok {
			out = append(out, pd)
		}
	}
	m.mu.Lock()
	m.conv = out
	m.hits += hits
	m.mu.Unlock()
	return out
}

// sameExtras reports whether pd, an LSP diagnostic of the same code, message, severity and
// range as d, has the related information and fixes that d has in this snapshot.
func (s *Snapshot) sameExtras(d *analysis.Diagnostic, pd *protocol.Diagnostic) bool {
	if len(pd.RelatedInformation) != len(d.Related) {
		return false
	}
	for i, r := range d.Related {
		q := &pd.RelatedInformation[i]
		if q.Message != r.Message || q.Location.URI != s.URI || q.Location.Range != s.m.span(r.Span) {
			return false
		}
	}
	if len(d.Fixes) == 0 {
		return pd.Data == nil
	}
	data, ok := pd.Data.(fixData)
	if !ok || len(data.Fixes) != len(d.Fixes) || data.Witness != nil || data.HasWitness {
		return false
	}
	for i, f := range d.Fixes {
		q := &data.Fixes[i]
		if q.Title != f.Title || len(q.Edits) != len(f.Edits) {
			return false
		}
		for j, e := range f.Edits {
			if q.Edits[j].NewText != e.NewText || q.Edits[j].Range != s.m.span(e.Span) {
				return false
			}
		}
	}
	return true
}

// sameJSON reports whether the LSP diagnostics a and b are written alike: the same members,
// the same slices (by identity), data of type fixData or none, a code that is a string or none.
func sameJSON(a, b *protocol.Diagnostic) bool {
	if a.Range != b.Range || a.Severity != b.Severity || a.Message != b.Message || a.Source != b.Source ||
		a.CodeDescription != b.CodeDescription || !sameSlice(a.Tags, b.Tags) || !sameSlice(a.RelatedInformation, b.RelatedInformation) {
		return false
	}
	ac, aok := a.Code.(string)
	bc, bok := b.Code.(string)
	if ac != bc || aok != bok || !aok && (a.Code != nil || b.Code != nil) {
		return false
	}
	if a.Data == nil || b.Data == nil {
		return a.Data == nil && b.Data == nil
	}
	ad, aok := a.Data.(fixData)
	bd, bok := b.Data.(fixData)
	return aok && bok && sameSlice(ad.Fixes, bd.Fixes) && sameSlice(ad.Witness, bd.Witness) && ad.HasWitness == bd.HasWitness
}

// sameSlice reports whether a and b are the same slice: the same length and, unless empty, the
// same first element.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// appendDiagnostics writes ds as the members of a JSON array, taking the JSON of those written
// last time from the memo (m may be nil: no memo).
func (m *diagMemo) appendDiagnostics(b []byte, ds []protocol.Diagnostic) ([]byte, error) {
	if m == nil || len(ds) < memoMin {
		return appendDiagnosticList(b, ds)
	}
	m.mu.Lock()
	prev, prevRaw, size := m.pub, m.raw, m.size
	m.mu.Unlock()
	b = slices.Grow(b, size+len(ds))
	raw := make([][]byte, len(ds))
	var spans []int // the diagnostics written afresh: index, start and end in b
	at, hits := 0, 0
	for j := range ds {
		if j > 0 {
			b = append(b, ',')
		}
		if i := match(&at, len(prev), func(i int) bool { return sameJSON(&ds[j], &prev[i]) }); i >= 0 {
			b = append(b, prevRaw[i]...)
			raw[j] = prevRaw[i]
			hits++
			continue
		}
		start := len(b)
		var err error
		if b, err = appendDiagnostic(b, &ds[j]); err != nil {
			return nil, err
		}
		spans = append(spans, j, start, len(b))
	}
	// The new JSON is copied out of b, which goes to the client, into one block of its own.
	n := 0
	for k := 0; k < len(spans); k += 3 {
		n += spans[k+2] - spans[k+1]
	}
	block := make([]byte, 0, n)
	for k := 0; k < len(spans); k += 3 {
		from := len(block)
		block = append(block, b[spans[k+1]:spans[k+2]]...)
		raw[spans[k]] = block[from:len(block):len(block)]
	}
	m.mu.Lock()
	m.pub, m.raw, m.size = ds, raw, len(b)
	m.hits += hits
	m.mu.Unlock()
	return b, nil
}

// appendDiagnosticList writes ds as the members of a JSON array.
func appendDiagnosticList(b []byte, ds []protocol.Diagnostic) ([]byte, error) {
	for i := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendDiagnostic(b, &ds[i]); err != nil {
			return nil, err
		}
	}
	return b, nil
}
