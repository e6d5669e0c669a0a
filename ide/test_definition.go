package ide

import (
	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestDefinition finds, for the name at off in a test document, where the game defines it: a
// relation of a literal (its rule heads and facts), a role (its role fact), a function of a move
// or fluent (the heads that build it), a constant (its first occurrence). The spans are in the
// game's text (d.Game); none when the game is not found.
func TestDefinition(d *TestDoc, off int) []syntax.Span {
	leaf, path := d.Snap.File().LeafAt(off)
	if !leaf.Valid() || leaf.Kind() != syntax.Word {
		return []syntax.Span{}
	}
	isHead := len(path) > 0 && path[len(path)-1].Head().Valid() && path[len(path)-1].Head().Span() == leaf.Span()
	return gameDefinitions(d, leaf, path, isHead)
}

// literalPlace reports whether a word of a test file stands where a literal's relation does:
// it heads a list inside holds, not or or, or stands bare in one of them.
func literalPlace(leaf syntax.Cursor, path []syntax.Cursor, isHead bool) bool {
	parent := -1
	switch {
	case isHead && len(path) >= 2:
		parent = len(path) - 2
	case !isHead && len(path) >= 1:
		parent = len(path) - 1
	}
	if parent < 0 {
		return false
	}
	switch gametest.HeadKey(path[parent]) {
	case "holds", "or":
		return true
	case "not":
		// (not terminal) and (not (holds ...)) are steps; (not A) inside holds is a literal.
		return parent > 0 && (gametest.HeadKey(path[parent-1]) == "holds" || gametest.HeadKey(path[parent-1]) == "or" || gametest.HeadKey(path[parent-1]) == "not")
	}
	return false
}

// gameDefinitions finds the definitions in the game of the name leaf spells.
func gameDefinitions(d *TestDoc, leaf syntax.Cursor, path []syntax.Cursor, isHead bool) []syntax.Span {
	out := []syntax.Span{}
	if d.Game == nil {
		return out
	}
	m := d.Game.Model()
	key := leaf.Symbol().Key()
	if literalPlace(leaf, path, isHead) {
		for _, o := range m.AllOccurrences() {
			if o.Kind == analysis.OccRelation && o.Def && o.Key == key {
				out = append(out, o.Span)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	for _, r := range m.Roles {
		if r.Key == key {
			return append(out, r.Span)
		}
	}
	kind := analysis.OccConstant
	if isHead {
		kind = analysis.OccFunction
	}
	first := -1
	for i, o := range m.AllOccurrences() {
		if o.Kind != kind || o.Key != key {
			continue
		}
		if first < 0 {
			first = i
		}
		// A function is defined where a head builds it (as an init, next or legal head does).
		if kind == analysis.OccFunction && o.Def {
			out = append(out, o.Span)
		}
	}
	if len(out) == 0 && first >= 0 {
		out = append(out, m.Occ(first).Span)
	}
	return out
}
