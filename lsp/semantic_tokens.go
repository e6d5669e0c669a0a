package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

const modDeclaration = 1 << 0 // the occurrence is in a clause head

var tokenModifiers = []protocol.SemanticTokenModifiers{"declaration"}

// tokenLegend lists the token types in the order of ide's TokenType, whose index the encoded
// tokens carry.
func tokenLegend() protocol.SemanticTokensLegend {
	types := make([]protocol.SemanticTokenTypes, ide.NumTokenTypes)
	for t := range ide.NumTokenTypes {
		types[t] = protocol.SemanticTokenTypes(t.String())
	}
	return protocol.SemanticTokensLegend{TokenTypes: types, TokenModifiers: tokenModifiers}
}

func handleSemanticTokensFull(ctx context.Context, r *request, snap *Snapshot, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	return &protocol.SemanticTokens{Data: r.encodeTokens(snap, ide.SemanticTokensFirst(snap.Snapshot, 0, len(snap.Text()), maxSemanticTokens+1))}, nil
}

// maxSemanticTokens bounds a semantic tokens reply: a 10 MB file had 15 MB of them. The first
// ones are sent, and a log message says that others were left out.
const maxSemanticTokens = 50_000

func handleSemanticTokensRange(ctx context.Context, r *request, snap *Snapshot, p *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	toks := ide.SemanticTokensFirst(snap.Snapshot, snap.m.offset(p.Range.Start), snap.m.offset(p.Range.End), maxSemanticTokens+1)
	return &protocol.SemanticTokens{Data: r.encodeTokens(snap, toks)}, nil
}

// encodeTokens encodes the first maxSemanticTokens tokens (of the first maxSemanticTokens+1 the
// feature was asked for), saying in the client's log when it leaves some out.
func (r *request) encodeTokens(snap *Snapshot, toks []ide.Token) []uint32 {
	if len(toks) > maxSemanticTokens {
		r.s.notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeInfo,
			Message: fmt.Sprintf("gdl: %s: more than %d semantic tokens; those after the first %d are not sent (at most %d per reply)", snap.URI.Filename(), maxSemanticTokens, maxSemanticTokens, maxSemanticTokens)})
		toks = toks[:maxSemanticTokens]
	}
	return snap.encodeTokens(toks)
}

// encodeTokens writes tokens in LSP's relative encoding: five numbers per token (line delta,
// start delta, length, type, modifiers).
func (s *Snapshot) encodeTokens(toks []ide.Token) []uint32 {
	data := make([]uint32, 0, 5*len(toks))
	var line, char uint32
	for _, t := range toks {
		a, b := s.m.position(t.Span.Start), s.m.position(t.Span.End)
		if b.Line != a.Line || b.Character <= a.Character {
			continue // tokens never span lines; guard against a malformed span
		}
		dl := a.Line - line
		dc := a.Character
		if dl == 0 {
			dc -= char
		}
		var mods uint32
		if t.Declaration {
			mods = modDeclaration
		}
		data = append(data, dl, dc, b.Character-a.Character, uint32(t.Type), mods)
		line, char = a.Line, a.Character
	}
	return data
}
