package ide

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Signature help: inside `(name ...` (infix: `name(...`), the relation's or function's arguments, named from the
// doc comments and the patterns of the game (argumentInfo), with the argument the cursor is at.

// Signature is one way to write a relation or function: `(cell ?x ?y ?mark)`, `cell(X,Y,Mark)`.
type Signature struct {
	Label  string      // `(cell ?x ?y ?mark)`, in infix `cell(X,Y,Mark)`
	Params []Parameter // the arguments, each a part of Label
	Doc    string      // what it is, its doc comment: Markdown, or plain text (SignatureHelp's md)
}

// Parameter is one argument of a signature.
type Parameter struct {
	Start, End int    // byte offsets of its name in the signature's label
	Doc        string // the constants written there, if any: Markdown, or plain text
}

// SignatureHelpResult lists the signatures of the name whose list the cursor is in: one per
// arity it is used with. Active is the one that fits the arguments written so far, and
// ActiveParam the argument at the cursor (-1 on the name itself).
type SignatureHelpResult struct {
	Signatures  []Signature
	Active      int
	ActiveParam int
}

// SignatureHelp describes the relation or function whose list contains off, or returns nil
// when off is not inside one (or inside a rule's `<=`, `not` or `or`, which take literals). Its
// documentation is written in Markdown when md is set, else in plain text.
func SignatureHelp(snap *Snapshot, off int, md bool) *SignatureHelpResult {
	if st := snap.syntaxStage(); st != nil {
		if res, ok := st.signatureHelp(off, md); ok {
			return res
		}
	}
	s, ok := siteAt(snap.File(), off)
	if !ok || s.rule {
		return nil
	}
	name, key := s.head()
	if key == "" || analysis.Connectives[key] || key == "and" {
		return nil
	}
	m := snap.Model()
	function := !s.atom
	var sym *analysis.Symbol
	if function {
		sym = m.Functions[key]
	} else {
		sym = m.Relations[key]
	}
	inner := s.lists[len(s.lists)-1]
	written := len(inner.Elements()) - 1 // arguments in the list
	self := inner.Head().Span()          // the list being typed says nothing about the others
	var arities []int
	if kw, ok := analysis.RelationKeywords[key]; ok && !function {
		arities = []int{kw}
	} else if sym != nil {
		for a, occs := range sym.Arities() {
			if len(occs) > 1 || m.Occ(occs[0]).Span != self {
				arities = append(arities, a)
			}
		}
		sort.Ints(arities)
	}
	if len(arities) == 0 {
		return nil // a name nothing else uses: nothing to tell
	}
	res := &SignatureHelpResult{ActiveParam: s.index - 1}
	best := -1
	for i, a := range arities {
		args := argumentInfo(m, snap.File(), key, a, function, self)
		res.Signatures = append(res.Signatures, signature(m, name, key, a, args, function, snap.Dialect(), &markup{md: md}))
		// The active signature: the smallest arity that holds the arguments written and the
		// cursor's; else the largest.
		if best < 0 && a >= max(written, s.index) {
			best = i
		}
	}
	if best < 0 {
		best = len(arities) - 1
	}
	res.Active = best
	return res
}

// signature writes one signature, in notation d, with its documentation in mu's markup.
func signature(m *analysis.Model, name, key string, arity int, args []argInfo, function bool, d syntax.Dialect, mu *markup) Signature {
	if sym := m.Relations[key]; sym != nil && !function {
		name = sym.Name(m)
	} else if sym := m.Functions[key]; sym != nil && function {
		name = sym.Name(m)
	}
	sig := Signature{}
	var b strings.Builder
	open, sep, close := "(", " ", ")" // (cell ?x ?y)
	if d == syntax.Infix {
		open, sep = "", "," // cell(X,Y)
	}
	if arity > 0 {
		b.WriteString(open)
	}
	b.WriteString(written(d, name))
	for i, a := range args {
		if d == syntax.Infix && i == 0 {
			b.WriteString("(")
		} else {
			b.WriteString(sep)
		}
		p := Parameter{Start: b.Len()}
		b.WriteString(a.Name)
		p.End = b.Len()
		if len(a.Values) > 0 {
			p.Doc = "Values written here: " + codeList(mu, a.Values)
		}
		sig.Params = append(sig.Params, p)
	}
	if arity > 0 {
		b.WriteString(close)
	}
	sig.Label = b.String()
	what := "relation"
	if function {
		what = "function"
	}
	doc := []string{mu.bold(what) + " " + mu.code(fmt.Sprintf("%s/%d", name, arity))}
	if kd := keywordDoc(key, d); kd != "" && !function {
		doc = append(doc, mu.ours(kd))
	}
	if !function {
		for _, c := range m.Definitions(key) {
			if d := c.Form.Doc(); strings.TrimSpace(d) != "" && c.Head.Arity() == arity {
				doc = append(doc, d)
				break
			}
		}
	}
	sig.Doc = strings.Join(doc, "\n\n")
	return sig
}

// codeList writes values as code, comma-separated.
func codeList(b *markup, values []string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = b.code(v)
	}
	return strings.Join(parts, ", ")
}

// maxStageForms is the most forms the syntax stage reads to answer signature help for one name:
// past it (a keyword every rule spells, such as true), the request waits for the model, whose
// cost the stage would nearly spend.
const maxStageForms = 4000

// signatureHelp is SignatureHelp from the syntax stage: the same answer, read from the model of
// the forms that spell the name alone (its uses, heads and doc comments are all in them), with the
// form before the first of them so that its comments read as in the file. ok is false when the
// stage cannot tell: the name is spelt in more than maxStageForms forms, or not found by its
// spelling (a name that folds beyond ASCII); the request then waits for the model.
func (st *syntaxStage) signatureHelp(off int, md bool) (*SignatureHelpResult, bool) {
	c := st.chunkAt(off)
	s, ok := siteAt(c.snap.File(), off-c.start)
	if !ok || s.rule {
		return nil, true
	}
	_, key := s.head()
	if key == "" || analysis.Connectives[key] || key == "and" {
		return nil, true
	}
	hits := st.spelling(key)
	if len(hits) == 0 || len(hits) > maxStageForms {
		return nil, false
	}
	if hits[0] > 0 {
		hits = append([]int{hits[0] - 1}, hits...)
	}
	part, at := st.partOf(hits, off)
	if at < 0 {
		return nil, false
	}
	f, _ := syntax.ParseDialect(part, st.snap.Dialect())
	m := analysis.NewModel(f)
	sub := SnapshotOf(st.snap.Version, f)
	sub.prepared, sub.nav = m, m
	return SignatureHelp(sub, at, md), true
}
