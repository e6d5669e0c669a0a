package ide

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// NotRenamableError says that there is nothing to rename at the cursor: no symbol, a keyword or
// a number.
type NotRenamableError struct{ Msg string }

func (e *NotRenamableError) Error() string { return e.Msg }

// InvalidNameError is a new name that cannot replace the symbol.
type InvalidNameError struct{ Msg string }

func (e *InvalidNameError) Error() string { return e.Msg }

// ConflictError is a rename refused because it would change what the game means: the new name
// is already a relation, function or constant that the renamed one would merge with, or a
// variable of the same rule that the renamed one would be captured by.
type ConflictError struct{ Msg string }

func (e *ConflictError) Error() string { return e.Msg }

// PrepareRename returns the span and the name of the symbol at off that a rename would change,
// or a *NotRenamableError that says why there is none.
func PrepareRename(snap *Snapshot, off int) (syntax.Span, string, error) {
	o, err := renameTarget(snap, off)
	if err != nil {
		return syntax.Span{}, "", err
	}
	return o.Span, o.Name, nil
}

func renameTarget(snap *Snapshot, off int) (*analysis.Occurrence, error) {
	o := occurrenceAt(snap, off)
	if o == nil {
		return nil, &NotRenamableError{"nothing to rename here: put the cursor on a relation, function, constant or variable"}
	}
	if isKeyword(o) {
		return nil, &NotRenamableError{o.Name + " is a GDL keyword and cannot be renamed"}
	}
	if o.Kind == analysis.OccConstant && isNumber(o.Name) {
		return nil, &NotRenamableError{o.Name + " is a number and cannot be renamed"}
	}
	return o, nil
}

// Rename replaces every occurrence of the symbol at off (compared case-insensitively, so every
// spelling) with newName, written in the document's notation: in prefix a variable's new name
// gets its `?` when it lacks one; in infix a variable may be given in either notation (From,
// ?from) and is written with an upper-case first letter, and a name that infix cannot write bare
// (Edge, a.b) is written in double quotes. It fails with a *NotRenamableError, an
// *InvalidNameError, or a *ConflictError when the new name would merge the symbol with another
// one or capture a variable of the same rule.
func Rename(snap *Snapshot, off int, newName string) ([]syntax.TextEdit, error) {
	o, err := renameTarget(snap, off)
	if err != nil {
		return nil, err
	}
	newName, key, err := newSymbolText(o, newName, snap.Dialect())
	if err != nil {
		return nil, err
	}
	m := snap.Model()
	if err := renameConflict(snap, m, o, newName, key); err != nil {
		return nil, err
	}
	var edits []syntax.TextEdit
	for _, x := range occurrencesOf(m, o) {
		edits = append(edits, syntax.TextEdit{Span: x.Span, NewText: newName})
	}
	return edits, nil
}

// renameConflict refuses a new name that another symbol of the same kind already has (a
// respelling of the same name is fine): the two would become one. Relations and functions merge
// only when an arity is shared (p/2 renamed to an existing q/3 gets an arity-mismatch warning,
// not a different game); constants always merge; a variable merges with a variable of its rule.
func renameConflict(snap *Snapshot, m *analysis.Model, o *analysis.Occurrence, newName, key string) error {
	if key == o.Key {
		return nil
	}
	line := func(sp syntax.Span) int { return snap.Line(sp.Start) + 1 }
	switch o.Kind {
	case analysis.OccVariable:
		if c := m.Clauses[o.Clause]; len(c.Vars[key]) > 0 {
			other := c.Occurrences(m)[c.Vars[key][0]]
			return &ConflictError{fmt.Sprintf("cannot rename %s to %s: %s already occurs in this rule (line %d), so the two variables would become one",
				o.Name, newName, other.Name, line(other.Span))}
		}
	case analysis.OccRelation, analysis.OccFunction:
		table, what := m.Relations, "relation"
		if o.Kind == analysis.OccFunction {
			table, what = m.Functions, "function"
		}
		mine, other := table[o.Key], table[key]
		if mine == nil || other == nil {
			return nil
		}
		for a := range mine.Arities() {
			occs := other.OccsOfArity(a)
			if occs == nil {
				continue
			}
			first := m.Occ(occs[0])
			for _, i := range occs { // a definition, where there is one, says most
				if m.Occ(i).Def {
					first = m.Occ(i)
					break
				}
			}
			return &ConflictError{fmt.Sprintf("cannot rename %s to %s: the %s %s/%d already exists (line %d), and the two would become one %s",
				o.Name, newName, what, first.Name, a, line(first.Span), what)}
		}
	case analysis.OccConstant:
		if other := m.Constants[key]; other != nil {
			first := m.Occ(other.Occs[0])
			what := "constant"
			if m.IsRole(key) {
				what = "role"
			}
			return &ConflictError{fmt.Sprintf("cannot rename %s to %s: the %s %s already exists (line %d), and the two would become one",
				o.Name, newName, what, first.Name, line(first.Span))}
		}
	}
	return nil
}

// newSymbolText returns the text that replaces the occurrences of o when it is renamed to
// newName in notation d, and the new symbol's key.
func newSymbolText(o *analysis.Occurrence, newName string, d syntax.Dialect) (text, key string, err error) {
	variable := o.Kind == analysis.OccVariable
	if d == syntax.Prefix {
		if variable && !strings.HasPrefix(newName, "?") {
			newName = "?" + newName
		}
		if err := validName(newName, variable); err != nil {
			return "", "", err
		}
		return newName, syntax.Fold(newName), nil
	}
	if variable {
		v, ok := d.Var(newName)
		if !ok {
			return "", "", &InvalidNameError{fmt.Sprintf("%q is not a valid variable name: in infix GDL a variable is a letter followed by letters, digits or _ + - * /", newName)}
		}
		return v, syntax.VarKey(v), nil
	}
	spelling := newName
	if len(newName) >= 2 && strings.HasPrefix(newName, `"`) && strings.HasSuffix(newName, `"`) {
		spelling = newName[1 : len(newName)-1]
	}
	if strings.HasPrefix(spelling, "?") {
		return "", "", &InvalidNameError{fmt.Sprintf("%q is a variable, not a name", newName)}
	}
	w, ok := d.Name(spelling)
	if !ok {
		return "", "", &InvalidNameError{fmt.Sprintf("%q is not a valid GDL name: infix GDL cannot write it, even in double quotes", newName)}
	}
	if analysis.IsKeyword(syntax.Fold(spelling)) {
		return "", "", &InvalidNameError{fmt.Sprintf("%q is a GDL keyword", newName)}
	}
	return w, syntax.Fold(spelling), nil
}

// validName checks that name scans as one symbol (or variable) token of prefix GDL and is not a
// keyword.
func validName(name string, variable bool) error {
	f, errs := syntax.Parse(name)
	forms := f.Forms()
	bad := len(errs) > 0 && !(variable && len(errs) == 1 && errs[0].Code == syntax.CodeTopLevelVariable)
	if variable {
		leaf, _ := f.LeafAt(0)
		if bad || !leaf.Valid() || leaf.Kind() != syntax.Variable || leaf.Span() != (syntax.Span{Start: 0, End: len(name)}) || len(name) < 2 {
			return &InvalidNameError{fmt.Sprintf("%q is not a valid variable name", name)}
		}
		return nil
	}
	if bad || len(forms) != 1 || forms[0].Kind() != syntax.Word || forms[0].Span() != (syntax.Span{Start: 0, End: len(name)}) {
		return &InvalidNameError{fmt.Sprintf("%q is not a valid GDL name", name)}
	}
	if analysis.IsKeyword(syntax.Fold(name)) {
		return &InvalidNameError{fmt.Sprintf("%q is a GDL keyword", name)}
	}
	return nil
}
