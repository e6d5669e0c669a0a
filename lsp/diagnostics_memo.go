package lsp

import (
	"sync"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

// An edit changes few of a large file's diagnostics (thousands for 400 KB of real games), yet
// each version's were converted to LSP and written as JSON whole: about 1.5 ms of the server's
// CPU per edit at 400 KB, and a megabyte of garbage. A document's diagMemo keeps what its last
// publication converted and wrote: a diagnostic of the next version equal to one of the last
// (the same code, severity, message, and range, related information and fixes at the same
// positions) takes the last one's LSP value, and an LSP diagnostic equal to one written last
// time takes its JSON. The JSON memo is keyed by the LSP values, their slices by identity:
// those are never changed once made, and the memo's keys keep them alive, so that an address
// never comes back with other contents. Each publication keeps only what it used.

// memoMin is the number of diagnostics from which a document's are memoised: below it the
// work is small, and the memo would only hold memory (685 files open at once).
const memoMin = 64

// diagMemo is the memo of one document's published diagnostics; its methods may be called
// from several goroutines (an analysis being cancelled while the next version's runs).
type diagMemo struct {
	mu   sync.Mutex
	conv map[convKey][]protocol.Diagnostic // the LSP values of the last conversion
	json map[jsonKey][]byte                // the JSON of the last publication's diagnostics
	hits int                               // values and JSON taken from the memo (for the tests)
}

// convKey is what the LSP value of a diagnostic is looked up by; a hit is then compared on its
// related information and fixes (sameExtras).
type convKey struct {
	code, message string
	sev           protocol.DiagnosticSeverity
	rng           protocol.Range
	related       int
	fixes         int
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
	next := make(map[convKey][]protocol.Diagnostic, len(ds))
	hits := 0
	for _, d := range ds {
		sev, on := settings.severity(d.Code, lspSeverity(d.Severity))
		if !on {
			continue
		}
		k := convKey{code: d.Code, message: d.Message, sev: sev, rng: s.m.span(d.Span), related: len(d.Related), fixes: len(d.Fixes)}
		pd, found := protocol.Diagnostic{}, false
		for _, c := range prev[k] {
			if s.sameExtras(d, &c) {
				pd, found = c, true
				break
			}
		}
		if found {
			hits++
		} else {
			pd, _ = s.diagnostic(settings, d)
		}
		next[k] = append(next[k], pd)
		out = append(out, pd)
	}
	m.mu.Lock()
	m.conv = next
	m.hits += hits
	m.mu.Unlock()
	return out
}

// sameExtras reports whether pd, an LSP diagnostic of the same code, message, severity and
// range as d, has the related information and fixes that d has in this snapshot.
func (s *Snapshot) sameExtras(d analysis.Diagnostic, pd *protocol.Diagnostic) bool {
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

// jsonKey is an LSP diagnostic whose JSON is memoised: its members, its slices by identity.
type jsonKey struct {
	rng                   protocol.Range
	sev                   protocol.DiagnosticSeverity
	code, source, message string
	href                  *protocol.CodeDescription
	tags                  *protocol.DiagnosticTag
	related               *protocol.DiagnosticRelatedInformation
	nTags, nRelated       int
	data                  bool // Data is a fixData (else nil)
	fixes                 *fixEdit
	witness               *[]string
	nFixes, nWitness      int
	hasWitness            bool
}

// jsonKeyOf returns the memo's key of d; ok is false for a diagnostic the memo leaves out (a
// code that is not a string, data of another type).
func jsonKeyOf(d *protocol.Diagnostic) (k jsonKey, ok bool) {
	code, isString := d.Code.(string)
	if d.Code != nil && !isString {
		return jsonKey{}, false
	}
	k = jsonKey{rng: d.Range, sev: d.Severity, code: code, source: d.Source, message: d.Message, href: d.CodeDescription,
		nTags: len(d.Tags), nRelated: len(d.RelatedInformation)}
	if len(d.Tags) > 0 {
		k.tags = &d.Tags[0]
	}
	if len(d.RelatedInformation) > 0 {
		k.related = &d.RelatedInformation[0]
	}
	switch data := d.Data.(type) {
	case nil:
	case fixData:
		k.data, k.nFixes, k.nWitness, k.hasWitness = true, len(data.Fixes), len(data.Witness), data.HasWitness
		if len(data.Fixes) > 0 {
			k.fixes = &data.Fixes[0]
		}
		if len(data.Witness) > 0 {
			k.witness = &data.Witness[0]
		}
	default:
		return jsonKey{}, false
	}
	return k, true
}

// appendDiagnostics writes ds as the members of a JSON array, taking the JSON of those written
// last time from the memo (m may be nil: no memo).
func (m *diagMemo) appendDiagnostics(b []byte, ds []protocol.Diagnostic) ([]byte, error) {
	if m == nil || len(ds) < memoMin {
		return appendDiagnosticList(b, ds)
	}
	m.mu.Lock()
	prev := m.json
	m.mu.Unlock()
	next := make(map[jsonKey][]byte, len(ds))
	type miss struct {
		k          jsonKey
		start, end int
	}
	var misses []miss
	hits := 0
	for i := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		k, ok := jsonKeyOf(&ds[i])
		if raw, hit := prev[k]; ok && hit {
			b = append(b, raw...)
			next[k] = raw
			hits++
			continue
		}
		start := len(b)
		var err error
		if b, err = appendDiagnostic(b, &ds[i]); err != nil {
			return nil, err
		}
		if ok {
			misses = append(misses, miss{k, start, len(b)})
		}
	}
	// The new JSON is copied out of b, which goes to the client, into one block of its own.
	n := 0
	for _, x := range misses {
		n += x.end - x.start
	}
	block := make([]byte, 0, n)
	for _, x := range misses {
		block = append(block, b[x.start:x.end]...)
		next[x.k] = block[len(block)-(x.end-x.start):]
	}
	m.mu.Lock()
	m.json = next
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
