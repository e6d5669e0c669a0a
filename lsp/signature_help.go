package lsp

import (
	"context"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

// Signature help's reply types: go.lsp.dev/protocol v0.12.0 types a parameter's label as a
// string only, and its activeParameter cannot say "none" (0 is omitted); the label offsets are
// what we send.

type signatureHelp struct {
	Signatures      []signatureInformation `json:"signatures"`
	ActiveSignature uint32                 `json:"activeSignature"`
	ActiveParameter uint32                 `json:"activeParameter"`
}

type signatureInformation struct {
	Label         string                  `json:"label"`
	Documentation *protocol.MarkupContent `json:"documentation,omitempty"`
	Parameters    []parameterInformation  `json:"parameters"`
}

type parameterInformation struct {
	Label         [2]uint32               `json:"label"` // start and end in the signature's label
	Documentation *protocol.MarkupContent `json:"documentation,omitempty"`
}

func handleSignatureHelp(ctx context.Context, r *request, snap *Snapshot, p *protocol.SignatureHelpParams) (*signatureHelp, error) {
	md := r.view.client.signatureMarkdown
	h := ide.SignatureHelp(snap.Snapshot, snap.m.offset(p.Position), md)
	if h == nil {
		return nil, nil
	}
	kind := protocol.PlainText
	if md {
		kind = protocol.Markdown
	}
	doc := func(s string) *protocol.MarkupContent {
		if s == "" {
			return nil
		}
		return &protocol.MarkupContent{Kind: kind, Value: s}
	}
	out := signatureHelp{Signatures: []signatureInformation{}, ActiveSignature: uint32(h.Active)}
	for _, s := range h.Signatures {
		si := signatureInformation{Label: s.Label, Documentation: doc(s.Doc), Parameters: []parameterInformation{}}
		for _, prm := range s.Params {
			si.Parameters = append(si.Parameters, parameterInformation{
				Label:         [2]uint32{labelUnits(s.Label[:prm.Start], snap.m.enc), labelUnits(s.Label[:prm.End], snap.m.enc)},
				Documentation: doc(prm.Doc),
			})
		}
		out.Signatures = append(out.Signatures, si)
	}
	// On the name itself no argument is active: an index past the last one says so.
	out.ActiveParameter = uint32(len(h.Signatures[h.Active].Params))
	if h.ActiveParam >= 0 {
		out.ActiveParameter = uint32(h.ActiveParam)
	}
	return &out, nil
}

// labelUnits is the length of s in the negotiated encoding's code units, as label offsets are
// counted.
func labelUnits(s string, enc syntax.Encoding) uint32 {
	switch enc {
	case syntax.UTF8:
		return uint32(len(s))
	case syntax.UTF32:
		return uint32(utf8.RuneCountInString(s))
	}
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return uint32(n)
}
