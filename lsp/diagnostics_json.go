package lsp

import (
	"strconv"
	"unicode/utf8"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// The diagnostics of a large file are the largest message the server writes on every edit
// (thousands of diagnostics, a megabyte of JSON for 400 KB of real games), and jsonrpc2 encodes
// a notification's parameters by reflection and then validates them once more: most of the
// server's time per edit after the analysis. publishDiagnostics writes the whole notification by
// hand instead, with the same members; a diagnostic's data of a type other than fixData, or a
// code that is not a string, is left to the JSON encoder.

// diagnosticsNotification returns the framed body of a textDocument/publishDiagnostics
// notification, taking the JSON of the diagnostics written last time from the document's memo
// (nil: none).
func diagnosticsNotification(p protocol.PublishDiagnosticsParams, memo *diagMemo) ([]byte, error) {
	b := make([]byte, 0, 128+len(p.Diagnostics)*256)
	b = append(b, `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":`...)
	b = appendString(b, string(p.URI))
	if p.Version != 0 {
		b = append(b, `,"version":`...)
		b = strconv.AppendUint(b, uint64(p.Version), 10)
	}
	b = append(b, `,"diagnostics":[`...)
	b, err := memo.appendDiagnostics(b, p.Diagnostics)
	if err != nil {
		return nil, err
	}
	return append(b, "]}}"...), nil
}

func appendDiagnostic(b []byte, d *protocol.Diagnostic) ([]byte, error) {
	b = append(b, `{"range":`...)
	b = appendRange(b, d.Range)
	if d.Severity != 0 {
		b = append(b, `,"severity":`...)
		b = strconv.AppendInt(b, int64(d.Severity), 10)
	}
	var err error
	if d.Code != nil {
		b = append(b, `,"code":`...)
		if b, err = appendValue(b, d.Code); err != nil {
			return nil, err
		}
	}
	if d.CodeDescription != nil {
		b = append(b, `,"codeDescription":{"href":`...)
		b = appendString(b, string(d.CodeDescription.Href))
		b = append(b, '}')
	}
	if d.Source != "" {
		b = append(b, `,"source":`...)
		b = appendString(b, d.Source)
	}
	b = append(b, `,"message":`...)
	b = appendString(b, d.Message)
	if len(d.Tags) > 0 {
		b = append(b, `,"tags":[`...)
		for i, t := range d.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(t), 10)
		}
		b = append(b, ']')
	}
	if len(d.RelatedInformation) > 0 {
		b = append(b, `,"relatedInformation":[`...)
		for i, r := range d.RelatedInformation {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"location":{"uri":`...)
			b = appendString(b, string(r.Location.URI))
			b = append(b, `,"range":`...)
			b = appendRange(b, r.Location.Range)
			b = append(b, `},"message":`...)
			b = appendString(b, r.Message)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if d.Data != nil {
		b = append(b, `,"data":`...)
		if b, err = appendValue(b, d.Data); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendValue writes a string, a fixData, or anything else through the JSON encoder.
func appendValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case string:
		return appendString(b, v), nil
	case fixData:
		return appendFixData(b, &v), nil
	}
	data, err := segjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, data...), nil
}

func appendFixData(b []byte, f *fixData) []byte {
	b = append(b, '{')
	sep := func() {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
	}
	if len(f.Fixes) > 0 {
		b = append(b, `"fixes":[`...)
		for i, fx := range f.Fixes {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"title":`...)
			b = appendString(b, fx.Title)
			b = append(b, `,"edits":`...)
			b = appendEdits(b, fx.Edits)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(f.Witness) > 0 {
		sep()
		b = append(b, `"witness":[`...)
		for i, joint := range f.Witness {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStrings(b, joint)
		}
		b = append(b, ']')
	}
	if f.HasWitness {
		sep()
		b = append(b, `"hasWitness":true`...)
	}
	return append(b, '}')
}

func appendEdits(b []byte, es []protocol.TextEdit) []byte {
	if es == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, e := range es {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"range":`...)
		b = appendRange(b, e.Range)
		b = append(b, `,"newText":`...)
		b = appendString(b, e.NewText)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendRange(b []byte, r protocol.Range) []byte {
	b = append(b, `{"start":{"line":`...)
	b = strconv.AppendUint(b, uint64(r.Start.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(r.Start.Character), 10)
	b = append(b, `},"end":{"line":`...)
	b = strconv.AppendUint(b, uint64(r.End.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(r.End.Character), 10)
	return append(b, "}}"...)
}

// appendString writes s as a JSON string: quotes, backslashes and control characters escaped,
// U+2028 and U+2029 too (JavaScript's line ends), and invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			switch r {
			case utf8.RuneError:
				b = append(b, `\ufffd`...)
			default:
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
