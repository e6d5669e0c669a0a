package playground

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

// The document: "open" replaces it, "edit" changes it. An edit reparses only the top-level
// forms it touches (syntax.File.Edit) and the next analysis reuses the rest (ide.Snapshot.Next),
// as the language server does on didChange.

func init() {
	methods["open"] = open
	methods["edit"] = edit
}

// openParams open a document: its text, and its notation ("prefix", "infix", or "" to read it
// from the content).
type openParams struct {
	Text     string `json:"text"`
	Notation string `json:"notation"`
}

// docInfo says which version of the document a call made, and its notation.
type docInfo struct {
	Version  int32  `json:"version"`
	Notation string `json:"notation"`
}

// maxText is the largest document the playground takes (the CLI's limit for a game file).
const maxText = 16 << 20

func open(_ context.Context, b *Bridge, _ *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[openParams]("open", params)
	if err != nil {
		return nil, err
	}
	if len(p.Text) > maxText {
		return nil, fmt.Errorf("open: the text has %d bytes; the playground takes at most %d", len(p.Text), maxText)
	}
	d := syntax.DetectContent(p.Text)
	switch p.Notation {
	case "":
	case "prefix":
		d = syntax.Prefix
	case "infix":
		d = syntax.Infix
	default:
		return nil, fmt.Errorf("open: notation %q: give prefix, infix or nothing", p.Notation)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.version++
	b.snap = ide.NewSnapshotIn(b.version, p.Text, d)
	b.games.Update(docName, b.snap)
	return docInfo{b.version, d.String()}, nil
}

// change replaces the text between two positions of the document as it is before the change.
type change struct {
	Range
	Text string `json:"text"`
}

// editParams are changes applied one after the other, each in the positions of the text the
// ones before it left (the page sends a transaction's changes last first, so that each is in the
// positions of the text before the transaction).
type editParams struct {
	Changes []change `json:"changes"`
}

func edit(_ context.Context, b *Bridge, _ *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[editParams]("edit", params)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	snap := b.snap
	f := snap.File()
	for _, c := range p.Changes {
		// Each change is read in the line table of the text it applies to.
		li := f.Lines()
		start := li.Offset(syntax.Position{Line: c.From.Line, Column: c.From.Ch}, syntax.UTF16)
		end := li.Offset(syntax.Position{Line: c.To.Line, Column: c.To.Ch}, syntax.UTF16)
		if end < start {
			return nil, fmt.Errorf("edit: the range ends (%d:%d) before it starts (%d:%d)", c.To.Line, c.To.Ch, c.From.Line, c.From.Ch)
		}
		if len(f.Source())-(end-start)+len(c.Text) > maxText {
			return nil, fmt.Errorf("edit: the text would have more than %d bytes", maxText)
		}
		f = f.Edit(start, end, c.Text)
	}
	b.version++
	b.snap = snap.Next(b.version, f)
	b.games.Update(docName, b.snap)
	return docInfo{b.version, f.Dialect().String()}, nil
}
