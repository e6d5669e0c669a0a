package ide

import (
	"sort"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// TokenType classifies a token for highlighting.
type TokenType int

const (
	TokenKeyword TokenType = iota
	TokenRelation
	TokenFunction
	TokenConstant
	TokenVariable
	TokenNumber
	TokenComment
	TokenOperator // infix GDL's :- & | ~
	NumTokenTypes // the number of token types
)

var tokenTypeNames = [NumTokenTypes]string{"keyword", "relation", "function", "constant", "variable", "number", "comment", "operator"}

// String is the type's name, as semantic highlighting names it ("relation", "variable", ...).
func (t TokenType) String() string { return tokenTypeNames[t] }

// Token is a classified token.
type Token struct {
	Span        syntax.Span
	Type        TokenType
	Declaration bool // the occurrence is in a clause head
}

// SemanticTokens classifies the tokens that overlap [from, to), in order: every symbol the model
// knows (a broken form's symbols stay plain text; a quoted infix name is the symbol it names),
// in infix the operators `:-`, `&`, `|` and `~`, and every comment. The parentheses and commas
// are left to the editor's grammar.
func SemanticTokens(snap *Snapshot, from, to int) []Token {
	return SemanticTokensFirst(snap, from, to, 0)
}

// SemanticTokensFirst is the first n tokens of SemanticTokens (all of them when n <= 0): from
// the syntax stage, no more of the text is read than they need (a reply has a bounded number of
// tokens, and a 3 MB file has 500,000).
func SemanticTokensFirst(snap *Snapshot, from, to, n int) []Token {
	if st := snap.syntaxStage(); st != nil {
		return st.semanticTokens(from, to, n)
	}
	toks := modelTokens(snap, from, to)
	if n > 0 && len(toks) > n {
		toks = toks[:n]
	}
	return toks
}

// modelTokens is SemanticTokens from the model.
func modelTokens(snap *Snapshot, from, to int) []Token {
	m := snap.Model()
	var toks []Token
	for _, o := range m.AllOccurrences() {
		if o.Span.End < from || o.Span.Start > to {
			continue
		}
		t := Token{Span: o.Span}
		switch o.Kind {
		case analysis.OccKeyword:
			t.Type = TokenKeyword
			if snap.Dialect() == syntax.Infix && !isWordByte(o.Name[0], syntax.Infix) {
				if o.Name == "(" { // a disjunction's parenthesis
					continue
				}
				t.Type = TokenOperator
			}
		case analysis.OccRelation:
			t.Type = TokenRelation
			if analysis.IsKeyword(o.Key) {
				t.Type = TokenKeyword
			}
		case analysis.OccFunction:
			t.Type = TokenFunction
		case analysis.OccConstant:
			t.Type = TokenConstant
			if isNumber(o.Name) {
				t.Type = TokenNumber
			}
		case analysis.OccVariable:
			t.Type = TokenVariable
		}
		t.Declaration = o.Def && t.Type != TokenKeyword
		toks = append(toks, t)
	}
	if snap.Dialect() == syntax.Infix {
		toks = append(toks, infixOperators(snap, from, to)...)
	}
	for _, c := range comments(snap) {
		if c.End >= from && c.Start <= to {
			toks = append(toks, Token{Span: c, Type: TokenComment})
		}
	}
	sort.Slice(toks, func(i, j int) bool { return toks[i].Span.Start < toks[j].Span.Start })
	return toks
}

// infixOperators returns the `&` and `|` of the forms that overlap [from, to) (the other
// operators are occurrences of the model).
func infixOperators(snap *Snapshot, from, to int) []Token {
	var out []Token
	src := snap.Text()
	for f := range snap.File().FormSeq() {
		if sp := f.Span(); sp.End < from || sp.Start > to || f.HasErrors() {
			continue
		}
		for k := range f.Cursor.Descendants() {
			if sp := k.Span(); k.Kind() == syntax.Punct && (src[sp.Start] == '&' || src[sp.Start] == '|') && sp.End >= from && sp.Start <= to {
				out = append(out, Token{Span: sp, Type: TokenOperator})
			}
		}
	}
	return out
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

// semanticTokens is SemanticTokens from the syntax stage: the tokens of each form are its own
// (a relation, a function term, a constant, a variable, a keyword: the place tells), so they are
// read from chunks of forms, the chunks the range meets.
func (st *syntaxStage) semanticTokens(from, to, n int) []Token {
	var out []Token
	k := sort.Search(len(st.spans), func(i int) bool { return st.spans[i].End >= from })
	for first := true; first || k < len(st.spans); first, k = false, k+chunkSize {
		c := st.chunkOf(k, min(k+chunkSize, len(st.spans)))
		for _, t := range SemanticTokens(c.snap, from-c.start, to-c.start) {
			t.Span = c.span(t.Span)
			out = append(out, t)
		}
		if c.start+len(c.snap.Text()) >= to || n > 0 && len(out) >= n {
			break
		}
	}
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}
