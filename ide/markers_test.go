package ide

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/markers"
	"github.com/gdl-lsp/gdl/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files of the marker tests")

// Marker tests: each testdata/markers/NAME.kif (or NAME.hrf, in infix) is a small game with
// markers (internal/markers) in comments beside the code they ask about; NAME.golden holds the
// answers, one section per marker, refreshed with -update. Columns in the answers are 1-based UTF-16 code units.
//
//	(<= (legal ?r noop) (role ?r))  ; @hover(?r#2) @def(?r#2) @refs(role)
//
// A marker's first argument names a text of its line and asks at its second character (at its
// end for @complete): @hover, @def, @refs, @highlight, @rename(text, new), @complete, @calls,
// @select; @fixes(text) asks for the quick fixes of the diagnostics touching the text. The
// others ask about the whole file: @symbols, @folding, @tokens, @diagnostics, @format, @verify
// (the findings of "Verify game" as the editor places them).
//
// Evaluated features run on the file's game session, as in the editor but without budgets
// (every answer is waited for): hovers on evaluated relations show their answers, @lenses the
// titles of the code lenses and @hints the inlay hints, in the current state. The state
// commands change that state for the markers after them, in file order: @state, @play(move,
// ...) with one move per role (quote a move with parentheses: @play("(mark 1 1)", noop)),
// @random (seeded), @undo, @reset; @query("(next ?x)") runs a query in the current state.
func TestMarkers(t *testing.T) {
	cases, _ := filepath.Glob("testdata/markers/*.kif")
	infix, _ := filepath.Glob("testdata/markers/*" + syntax.InfixExt)
	if len(cases) == 0 || len(infix) == 0 {
		t.Fatal("no marker cases in testdata/markers")
	}
	for _, path := range append(cases, infix...) {
		ext := filepath.Ext(path)
		t.Run(strings.TrimSuffix(filepath.Base(path), ext), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := runMarkers(t, string(data), syntax.Detect(path, string(data)))
			markers.Check(t, strings.TrimSuffix(path, ext)+".golden", got, *update)
		})
	}
}

// markerRun is the state of one marker file's run.
type markerRun struct {
	t       *testing.T
	src     string
	snap    *Snapshot
	session *Session
	out     markers.Output
}

// patience is the budget of every evaluation in the marker tests: long enough to always get the
// answers.
const patience = time.Minute

func runMarkers(t *testing.T, src string, d syntax.Dialect) string {
	ms, errs := markers.ParseComments(src, d.CommentMarks()[0])
	for _, err := range errs {
		t.Error(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rng := rand.New(rand.NewPCG(1, 2))
	games := NewGames(ctx, GamesOptions{Rand: rng.IntN})
	snap := NewSnapshotIn(1, src, d)
	games.Update("case", snap)
	r := &markerRun{t: t, src: src, snap: snap, session: games.Session("case", snap, eval.Limits{Timeout: 20 * time.Second}, analysis.BoardConfig{})}
	for _, m := range ms {
		r.out.Section(m.Title())
		if r.file(m) {
			continue
		}
		if len(m.Args) == 0 {
			t.Errorf("line %d: @%s needs a text of the line to ask at", m.Line+1, m.Name)
			continue
		}
		start, end, err := m.Find(src, m.Args[0])
		if err != nil {
			t.Error(err)
			continue
		}
		off := start + 1
		if m.Name == "complete" || m.Name == "signature" {
			off = end
		}
		r.at(m, off)
	}
	return r.out.String()
}

// where renders a span as 1-based line:column (UTF-16) and the text it covers.
func (r *markerRun) where(sp syntax.Span) string {
	a, b := r.snap.Lines().Position(sp.Start, syntax.UTF16), r.snap.Lines().Position(sp.End, syntax.UTF16)
	text := strings.Join(strings.Fields(r.src[sp.Start:sp.End]), " ")
	return fmt.Sprintf("%d:%d-%d:%d %q", a.Line+1, a.Column+1, b.Line+1, b.Column+1, shorten(text, 50))
}

// at answers a marker about the text at off.
func (r *markerRun) at(m markers.Marker, off int) {
	snap, out := r.snap, &r.out
	switch m.Name {
	case "hover":
		if h := Hover(context.Background(), snap, off, HoverOptions{Markdown: true, Eval: r.session, Budget: patience}); h != nil {
			out.Line(h.Text)
		} else {
			out.Line("(none)")
		}
	case "why":
		why := func(lit string) string { return "why:" + lit }
		if h := Hover(context.Background(), snap, off, HoverOptions{Markdown: true, Eval: r.session, Budget: patience, Why: why}); h != nil {
			out.Line(h.Text)
		} else {
			out.Line("(none)")
		}
	case "explain":
		acts := ExplainActions(snap, off)
		if len(acts) == 0 {
			out.Line("(no literal)")
			break
		}
		out.Printf("action: %s\n", acts[0].Title)
		res := r.session.ExplainLiteral(context.Background(), acts[0].Literal, ExplainOptions{Link: func(line, col int) string { return fmt.Sprintf("#L%d,%d", line, col) }})
		if res.Error != "" {
			out.Printf("error: %s\n", res.Error)
			break
		}
		out.Printf("%s", res.Markdown)
	case "def":
		for _, sp := range Definition(snap, off) {
			out.Line(r.where(sp))
		}
	case "refs":
		for _, sp := range References(snap, off, true) {
			out.Line(r.where(sp))
		}
	case "highlight":
		for _, h := range Highlights(snap, off) {
			out.Printf("%s %s\n", r.where(h.Span), [...]string{"text", "read", "write"}[h.Kind])
		}
	case "rename":
		edits, err := Rename(snap, off, m.Arg(1))
		if err != nil {
			out.Printf("error: %v\n", err)
		}
		for _, e := range edits {
			out.Printf("%s -> %s\n", r.where(e.Span), e.NewText)
		}
	case "complete":
		for _, it := range Completion(snap, off, true) {
			out.Printf("%s (%s) %s\n", it.Label, it.Detail, it.Text)
		}
	case "calls":
		it, ok := PrepareCallHierarchy(snap, off)
		if !ok {
			out.Line("(none)")
			break
		}
		for _, c := range IncomingCalls(snap, it.Key) {
			out.Printf("from %s at", c.Item.Name)
			for _, sp := range c.Spans {
				out.Printf(" %s", r.where(sp))
			}
			out.Line("")
		}
		for _, c := range OutgoingCalls(snap, it.Key) {
			out.Printf("to %s at", c.Item.Name)
			for _, sp := range c.Spans {
				out.Printf(" %s", r.where(sp))
			}
			out.Line("")
		}
	case "select":
		for _, sp := range SelectionRange(snap, off, 100) {
			out.Line(r.where(sp))
		}
	case "fixes":
		start, end, _ := m.Find(r.src, m.Args[0])
		fixes, err := QuickFixes(context.Background(), snap, start, end)
		if err != nil {
			r.t.Fatal(err)
		}
		for _, f := range fixes {
			out.Printf("%s: %q (preferred %v)\n", f.Diagnostic.Code, f.Title, f.Preferred)
			for _, e := range f.Edits {
				out.Printf("  %s -> %q\n", r.where(e.Span), e.NewText)
			}
		}
	default:
		if !r.editingAt(m, off) {
			r.t.Errorf("line %d: unknown marker @%s", m.Line+1, m.Name)
		}
	}
}

// file answers a marker about the whole file; it reports false for the others.
func (r *markerRun) file(m markers.Marker) bool {
	snap, out := r.snap, &r.out
	switch m.Name {
	case "symbols":
		for _, s := range DocumentSymbols(snap, 0) {
			out.Printf("%s %s %s\n", s.Name, s.Detail, r.where(s.Selection))
			for _, c := range s.Children {
				out.Printf("  %s (%s)\n", c.Name, c.Detail)
			}
		}
	case "folding":
		for _, f := range FoldingRanges(snap) {
			kind := ""
			if f.Comment {
				kind = "comment"
			}
			out.Printf("%d-%d %s\n", snap.Line(f.Span.Start)+1, snap.Line(f.Span.End)+1, kind)
		}
	case "tokens":
		for _, tok := range SemanticTokens(snap, 0, len(r.src)) {
			mod := ""
			if tok.Declaration {
				mod = " declaration"
			}
			out.Printf("%s %s%s\n", r.where(tok.Span), tok.Type, mod)
		}
	case "format":
		edits, err := Format(snap)
		if err != nil {
			out.Printf("error: %v\n", err)
		}
		for _, e := range edits {
			out.Printf("%s ->\n%s", r.where(e.Span), e.NewText)
		}
	case "lenses":
		for _, l := range CodeLenses(snap) {
			out.Printf("%d %s: %s\n", snap.Line(l.Offset)+1, l.Query, LensTitle(context.Background(), l, r.session, patience))
		}
	case "hints":
		for _, h := range InlayHints(context.Background(), snap, 0, len(r.src), r.session, patience) {
			p := snap.Lines().Position(h.Offset, syntax.UTF16)
			out.Printf("%d:%d %s | %s\n", p.Line+1, p.Column+1, h.Label, strings.ReplaceAll(h.Tooltip, "\n", " / "))
		}
	case "verify":
		rep, err := Verify(context.Background(), snap, VerifyOptions{})
		if err != nil {
			out.Printf("error: %v\n", err)
			break
		}
		for _, d := range rep.Diagnostics {
			out.Printf("%s %s at %s: %s\n", d.Severity, d.Code, r.where(d.Span), d.Message)
			for _, rel := range d.Related {
				out.Printf("  related %s: %s\n", r.where(rel.Span), rel.Message)
			}
		}
	case "state", "play", "random", "undo", "reset", "goto", "computer":
		r.stateCommand(m)
	case "fluent":
		res := r.session.ExplainFluent(context.Background(), m.Arg(0), ExplainOptions{})
		if res.Error != "" {
			out.Printf("error: %s\n", res.Error)
			break
		}
		out.Printf("%s", res.Markdown)
	case "playouts":
		n, _ := strconv.Atoi(m.Arg(0))
		st := r.session.Playouts(context.Background(), n, 1, time.Minute)
		if st.Error != "" {
			out.Printf("error: %s\n", st.Error)
			break
		}
		rep := st.Report
		out.Printf("engine %s: %d playouts, %d terminal, lengths %d to %d\n", rep.Engine, rep.Playouts, rep.Terminal, rep.MinLength, rep.MaxLength)
		for _, role := range rep.Roles {
			out.Printf("goals %s: %v\n", role, rep.Goals[role])
		}
		out.Printf("lengths: %v\n", rep.Lengths)
		if rep.First != nil {
			out.Printf("first role %s: %d wins, %d draws, %d losses\n", rep.First.Role, rep.First.Wins, rep.First.Draws, rep.First.Losses)
		}
		for _, v := range rep.Violations {
			out.Printf("violation %s %s: %s, %d playouts\n", v.Kind, v.Role, v.Detail, v.Count)
		}
		if d := rep.DepthLimit; d != nil {
			out.Printf("depth limit %d reached by %d playouts\n", d.MaxDepth, d.Playouts)
		}
	case "query":
		res := r.session.RunQuery(context.Background(), m.Arg(0))
		out.Printf("state: %s\n", strings.Join(res.State, " "))
		if res.NeedsMove {
			out.Printf("answered after %d of %d legal joint moves\n", len(res.ByMove), res.JointMoves)
			for _, ma := range res.ByMove {
				out.Printf("after %s: %s", strings.Join(ma.Move, " "), strings.Join(ma.Answers, " "))
				if ma.Err != nil {
					out.Printf(" (error: %v)", ma.Err)
				}
				out.Line("")
			}
		}
		out.Printf("answers: %s\n", strings.Join(res.Answers, " "))
		if res.Error != "" {
			out.Printf("error: %s\n", res.Error)
		}
	case "diagnostics":
		// Only the parser's codes: the analyzer's checks are tested by their own markers and
		// would make these goldens change with every new check.
		ds, _ := snap.Diagnostics(context.Background()) // never cancelled
		for _, d := range ds {
			if isSyntaxCode(d.Code) {
				out.Printf("%s %s: %s\n", r.where(d.Span), d.Code, d.Message)
			}
		}
	default:
		return r.editingFile(m)
	}
	return true
}

// stateCommand runs a state command and writes the state it leads to.
func (r *markerRun) stateCommand(m markers.Marker) {
	ctx := context.Background()
	var st *GameState
	var err error
	switch m.Name {
	case "state":
		st, err = r.session.ShowState(ctx)
	case "play":
		var moves []string
		for _, a := range m.Args {
			moves = append(moves, a.Text)
		}
		st, err = r.session.Play(ctx, moves)
	case "random":
		st, err = r.session.PlayRandom(ctx)
	case "undo":
		st, err = r.session.Undo(ctx)
	case "reset":
		st, err = r.session.Reset(ctx)
	case "goto":
		n, _ := strconv.Atoi(m.Arg(0))
		st, err = r.session.GotoStep(ctx, n)
	case "computer":
		n, _ := strconv.Atoi(m.Arg(0))
		st, err = r.session.ComputerMove(ctx, ComputerOptions{Playouts: n, Seed: 1})
	}
	if err != nil {
		r.t.Fatalf("line %d: @%s: %v", m.Line+1, m.Name, err)
	}
	out := &r.out
	out.Printf("step %d, terminal %v\n", st.Step, st.Terminal)
	for _, h := range st.History {
		out.Printf("played %s\n", strings.Join(h, " "))
	}
	out.Printf("state: %s\n", strings.Join(st.State, " "))
	for i, role := range st.Roles {
		if st.Legal != nil {
			out.Printf("legal %s: %s\n", role, strings.Join(st.Legal[i], " "))
		}
		if st.Goals != nil {
			out.Printf("goals %s: %v\n", role, st.Goals[i])
		}
	}
	if st.Error != "" {
		out.Printf("error: %s\n", st.Error)
	}
	if st.Why != nil {
		out.Printf("why:\n%s", st.Why.Markdown)
	}
	if len(st.Line) > len(st.History) {
		out.Printf("line: %d joint moves, %d ahead\n", len(st.Line), len(st.Line)-len(st.History))
	}
	for _, c := range st.Computer {
		out.Printf("computer %s: %s after %d playouts, value %.0f\n", c.Role, c.Move, c.Playouts, c.Value)
	}
	if st.View != nil && len(st.View.Boards) > 0 {
		out.Printf("board:\n%s", st.Board)
		for ri, role := range st.Roles {
			var on []string
			for i, m := range st.Legal[ri] {
				for _, q := range st.Squares[ri][i] {
					b := st.View.Boards[q.Board]
					on = append(on, m+"@"+b.Rows[q.Row]+","+b.Columns[q.Column])
				}
			}
			if len(on) > 0 {
				out.Printf("squares of %s: %s\n", role, strings.Join(on, " "))
			}
		}
	}
	for i, step := range st.Percepts {
		for ri, ps := range step {
			out.Printf("after %d, %s sees: %s\n", i+1, st.Roles[ri], strings.Join(ps, " "))
		}
	}
	for _, n := range st.Notes {
		out.Printf("note: %s\n", n)
	}
}

func isSyntaxCode(code string) bool {
	for _, c := range syntax.Codes {
		if c == code {
			return true
		}
	}
	return false
}
