package playground

import (
	"context"
	"encoding/json"

	"github.com/gdl-lsp/gdl/ide"
)

// "diagnostics": the parser's and the analyzer's diagnostics of the document, with the CLI's
// codes, messages and fixes (the analyzer's, or the editor's own where it has none:
// ide.QuickFixes), as `gdl check` reports them.

func init() { methods["diagnostics"] = diagnostics }

// Diagnostic is one problem of the document.
type Diagnostic struct {
	Range
	Severity string    `json:"severity"` // error, warning, info or hint
	Code     string    `json:"code"`
	Message  string    `json:"message"`
	Related  []Related `json:"related,omitempty"`
	Fixes    []Fix     `json:"fixes,omitempty"`
}

// Related is another place a diagnostic speaks of.
type Related struct {
	Range
	Message string `json:"message"`
}

// Fix is a titled set of edits that repairs a problem; Safe says `gdl check --fix` applies it.
type Fix struct {
	Title string `json:"title"`
	Edits []Edit `json:"edits"`
	Safe  bool   `json:"safe"`
}

// diagnosticsResult are the diagnostics of one version of the document.
type diagnosticsResult struct {
	Version     int32        `json:"version"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

func diagnostics(ctx context.Context, _ *Bridge, snap *ide.Snapshot, _ json.RawMessage) (any, error) {
	ds, err := snap.Diagnostics(ctx)
	if err != nil {
		return nil, err
	}
	fixes, err := ide.QuickFixes(ctx, snap, 0, len(snap.Text()))
	if err != nil {
		return nil, err
	}
	out := diagnosticsResult{Version: snap.Version, Diagnostics: make([]Diagnostic, 0, len(ds))}
	index := map[string]int{} // a diagnostic's place in out, by its span, code and message
	key := func(start, end int, code, msg string) string {
		b, _ := json.Marshal([]any{start, end, code, msg})
		return string(b)
	}
	for _, d := range ds {
		pd := Diagnostic{Range: rangeOf(snap, d.Span), Severity: d.Severity.String(), Code: d.Code, Message: d.Message}
		for _, r := range d.Related {
			pd.Related = append(pd.Related, Related{rangeOf(snap, r.Span), r.Message})
		}
		index[key(d.Span.Start, d.Span.End, d.Code, d.Message)] = len(out.Diagnostics)
		out.Diagnostics = append(out.Diagnostics, pd)
	}
	for _, f := range fixes {
		d := f.Diagnostic
		i, ok := index[key(d.Span.Start, d.Span.End, d.Code, d.Message)]
		if !ok {
			continue
		}
		out.Diagnostics[i].Fixes = append(out.Diagnostics[i].Fixes, Fix{f.Title, edits(snap, f.Edits), f.Safe})
	}
	return out, nil
}
