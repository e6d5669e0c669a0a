package ide

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// NotRenamableError says that there is nothing to rename at the cursor: no symbol, or a keyword.
type NotRenamableError struct{ Msg string }

func (e *NotRenamableError) Error() string { return e.Msg }

// InvalidNameError is a new name that cannot replace the symbol.
type InvalidNameError struct{ Msg string }

func (e *InvalidNameError) Error() string { return e.Msg }

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
		return nil, &NotRenamableError{"no relation, function, constant or variable here"}
	}
	if isKeyword(o) {
		return nil, &NotRenamableError{o.Name + " is a GDL keyword and cannot be renamed"}
	}
	return o, nil
}

// Rename replaces every occurrence of the symbol at off (compared case-insensitively, so every
// spelling) with newName; a variable's new name gets its `?` when it lacks one. It fails with an
// *NotRenamableError or an *InvalidNameError.
func Rename(snap *Snapshot, off int, newName string) ([]syntax.TextEdit, error) {
	o, err := renameTarget(snap, off)
	if err != nil {
		return nil, err
	}
	if o.Kind == analysis.OccVariable && !strings.HasPrefix(newName, "?") {
		newName = "?" + newName
	}
	if err := validName(newName, o.Kind == analysis.OccVariable); err != nil {
		return nil, err
	}
	var edits []syntax.TextEdit
	for _, x := range occurrencesOf(snap.Model(), o) {
		edits = append(edits, syntax.TextEdit{Span: x.Span, NewText: newName})
	}
	return edits, nil
}

// validName checks that name scans as one symbol (or variable) token and is not a keyword.
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
