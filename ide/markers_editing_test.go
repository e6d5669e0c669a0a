package ide

import (
	"context"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/internal/markers"
)

// The markers of the refactoring and editing features (see TestMarkers): @prepare(text) asks
// whether a rename may start at the text (prepareRename); @signature(text) asks for the signature
// help at the end of the text. @fixall applies every safe fix and shows the fixes and the text.
func (r *markerRun) editingAt(m markers.Marker, off int) bool {
	snap, out := r.snap, &r.out
	switch m.Name {
	case "prepare":
		sp, name, err := PrepareRename(snap, off)
		if err != nil {
			out.Printf("error: %v\n", err)
		} else {
			out.Printf("%s placeholder %s\n", r.where(sp), name)
		}
	case "signature":
		h := SignatureHelp(snap, off, true)
		if h == nil {
			out.Line("(none)")
			break
		}
		for i, sig := range h.Signatures {
			mark := " "
			if i == h.Active {
				mark = "*"
			}
			out.Printf("%s %s\n", mark, sig.Label)
			for j, p := range sig.Params {
				active := ""
				if i == h.Active && j == h.ActiveParam {
					active = " (active)"
				}
				out.Printf("    %s%s %s\n", sig.Label[p.Start:p.End], active, p.Doc)
			}
			out.Printf("    doc: %s\n", strings.ReplaceAll(sig.Doc, "\n", " / "))
		}
	default:
		return false
	}
	return true
}

// editingFile answers the whole-file markers of the editing features; false for the others.
func (r *markerRun) editingFile(m markers.Marker) bool {
	switch m.Name {
	case "fixall":
		edits, applied, err := FixAll(context.Background(), r.snap, nil)
		if err != nil {
			r.t.Fatal(err)
		}
		for _, f := range applied {
			r.out.Printf("%s %s: %s\n", r.where(f.Diagnostic.Span), f.Diagnostic.Code, f.Title)
		}
		r.out.Printf("%s", analysis.ApplyEdits(r.src, edits))
		return true
	default:
		return false
	}
}
