package lsp

import (
	"context"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Semantic token types and modifiers, in legend order.
const (
	tokKeyword = iota
	tokRelation
	tokFunction
	tokConstant
	tokVariable
	tokNumber
	tokComment
)

var tokenTypes = []protocol.SemanticTokenTypes{"keyword", "relation", "function", "constant", "variable", "number", "comment"}

const modDeclaration = 1 << 0 // the occurrence is in a clause head

var tokenModifiers = []protocol.SemanticTokenModifiers{"declaration"}

func tokenLegend() protocol.SemanticTokensLegend {
	return protocol.SemanticTokensLegend{TokenTypes: tokenTypes, TokenModifiers: tokenModifiers}
}

func handleSemanticTokensFull(ctx context.Context, r *request) (any, error) {
	var p protocol.SemanticTokensParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{Data: semanticTokens(snap, 0, len(snap.Text()))}, nil
}

func handleSemanticTokensRange(ctx context.Context, r *request) (any, error) {
	var p protocol.SemanticTokensRangeParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{Data: semanticTokens(snap, snap.m.offset(p.Range.Start), snap.m.offset(p.Range.End))}, nil
}

type semToken struct {
	span      syntax.Span
	typ, mods uint32
}

// semanticTokens classifies the tokens that overlap [from, to): every symbol the model knows
// (a broken form's symbols stay plain text) and every comment.
func semanticTokens(snap *Snapshot, from, to int) []uint32 {
	m := snap.Model()
	var toks []semToken
	for i := range m.Occurrences {
		o := &m.Occurrences[i]
		if o.Span.End < from || o.Span.Start > to {
			continue
		}
		t := semToken{span: o.Span}
		switch o.Kind {
		case analysis.OccKeyword:
			t.typ = tokKeyword
		case analysis.OccRelation:
			t.typ = tokRelation
			if analysis.IsKeyword(o.Key) {
				t.typ = tokKeyword
			}
		case analysis.OccFunction:
			t.typ = tokFunction
		case analysis.OccConstant:
			t.typ = tokConstant
			if isNumber(o.Name) {
				t.typ = tokNumber
			}
		case analysis.OccVariable:
			t.typ = tokVariable
		}
		if o.Def && t.typ != tokKeyword {
			t.mods = modDeclaration
		}
		toks = append(toks, t)
	}
	for _, c := range comments(snap) {
		if c.End >= from && c.Start <= to {
			toks = append(toks, semToken{span: c, typ: tokComment})
		}
	}
	sort.Slice(toks, func(i, j int) bool { return toks[i].span.Start < toks[j].span.Start })
	data := make([]uint32, 0, 5*len(toks))
	var line, char uint32
	for _, t := range toks {
		a, b := snap.m.position(t.span.Start), snap.m.position(t.span.End)
		if b.Line != a.Line || b.Character <= a.Character {
			continue // tokens never span lines; guard against a malformed span
		}
		dl := a.Line - line
		dc := a.Character
		if dl == 0 {
			dc -= char
		}
		data = append(data, dl, dc, b.Character-a.Character, t.typ, t.mods)
		line, char = a.Line, a.Character
	}
	return data
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
