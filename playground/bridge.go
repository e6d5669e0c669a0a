// Package playground is the bridge between the browser playground (playground/web) and the ide
// features and the game API: one document, edited by the page, and its game session, behind one
// function, Call(method, JSON) -> JSON. cmd/gdl-wasm exposes it to JavaScript when gdl is
// compiled to WebAssembly; the tests call it directly.
//
// Positions are lines and characters as the page's editor counts them (0-based, characters in
// UTF-16 code units, as JavaScript strings do), converted to byte offsets with the document's
// line table (syntax.LineIndex), as the language server does for LSP positions. Results are
// plain JSON values shaped for the page; the game states have the fields of the VS Code game
// view's (vscode-extension/src/protocol.ts GameState), so the page shares its click-to-move
// logic, plus the state drawn as SVG (board.View.SVG, as `gdl render --format svg`).
//
// The page runs two bridges, each in a Web Worker of its own: one for the editor features
// (diagnostics, hover, completion, definition, formatting), one for the game (state, moves, the
// computer's moves, verify, explain, queries, the lenses' answers), so that a keystroke is
// checked while the computer thinks or verify runs. Both get every edit.
package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

// docName is the name of the one document in the ide's tables.
const docName = "playground"

// Bridge holds the page's document and its game session. Its methods are safe for concurrent use.
type Bridge struct {
	notify func(kind string, payload any)
	games  *ide.Games

	mu      sync.Mutex // guards snap and version
	snap    *ide.Snapshot
	version int32
}

// New returns a bridge with an empty document. notify, when not nil, is told what happens
// between calls: "refresh" when evaluations the lenses waited for are done (ask for the lenses
// again), "progress" with a verification's progress.
func New(notify func(kind string, payload any)) *Bridge {
	if notify == nil {
		notify = func(string, any) {}
	}
	b := &Bridge{notify: notify, snap: ide.NewSnapshotIn(0, "", syntax.Prefix)}
	b.games = ide.NewGames(context.Background(), ide.GamesOptions{Refresh: func() { notify("refresh", nil) }})
	b.games.Update(docName, b.snap)
	return b
}

// handler runs one method on the document's current snapshot with the call's parameters.
type handler func(ctx context.Context, b *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error)

// methods are the bridge's methods; each lives in the file that names its feature.
var methods = map[string]handler{}

// Methods returns the names of the bridge's methods, sorted.
func Methods() []string {
	out := make([]string, 0, len(methods))
	for m := range methods {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// reply is what Call returns: the method's result, or why there is none.
type reply struct {
	Result any    `json:"result"`
	Error  string `json:"error,omitempty"`
}

// Call runs a method with its parameters (a JSON object; empty means none) and returns the
// JSON of {"result": ...} or {"error": "..."}. It never panics: a panic in a feature is
// answered as an error, and the bridge goes on.
func (b *Bridge) Call(ctx context.Context, method string, params []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out, _ = json.Marshal(reply{Error: fmt.Sprintf("internal error in %s: %v\n%s", method, r, debug.Stack())})
		}
	}()
	h, ok := methods[method]
	if !ok {
		out, _ = json.Marshal(reply{Error: fmt.Sprintf("unknown method %q; the bridge has %s", method, strings.Join(Methods(), ", "))})
		return out
	}
	if len(params) == 0 {
		params = []byte("{}")
	}
	res, err := h(ctx, b, b.current(), params)
	if err != nil {
		out, _ = json.Marshal(reply{Error: err.Error()})
		return out
	}
	out, err = json.Marshal(reply{Result: res})
	if err != nil {
		out, _ = json.Marshal(reply{Error: fmt.Sprintf("%s: the result cannot be written as JSON: %v", method, err)})
	}
	return out
}

func (b *Bridge) current() *ide.Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.snap
}

// decode reads a method's parameters.
func decode[T any](method string, params json.RawMessage) (T, error) {
	var p T
	if err := json.Unmarshal(params, &p); err != nil {
		return p, fmt.Errorf("%s: bad parameters: %v", method, err)
	}
	return p, nil
}

// session is the document's game session at snap, under the evaluator's default limits and
// the boards found without a gdl.json.
func (b *Bridge) session(snap *ide.Snapshot) *ide.Session {
	return b.games.Session(docName, snap, eval.Limits{}, analysis.BoardConfig{})
}

// Pos is a place in the document: a 0-based line, and the UTF-16 code units before it on the
// line.
type Pos struct {
	Line int `json:"line"`
	Ch   int `json:"ch"`
}

// Range is a span of the document.
type Range struct {
	From Pos `json:"from"`
	To   Pos `json:"to"`
}

func offset(snap *ide.Snapshot, p Pos) int {
	return snap.Lines().Offset(syntax.Position{Line: p.Line, Column: p.Ch}, syntax.UTF16)
}

func pos(snap *ide.Snapshot, off int) Pos {
	p := snap.Lines().Position(off, syntax.UTF16)
	return Pos{p.Line, p.Column}
}

func rangeOf(snap *ide.Snapshot, sp syntax.Span) Range {
	return Range{pos(snap, sp.Start), pos(snap, sp.End)}
}

// Edit is a text edit: the text that replaces a range.
type Edit struct {
	Range
	Text string `json:"text"`
}

func edits(snap *ide.Snapshot, es []syntax.TextEdit) []Edit {
	out := make([]Edit, 0, len(es))
	for _, e := range es {
		out = append(out, Edit{rangeOf(snap, e.Span), e.NewText})
	}
	return out
}
