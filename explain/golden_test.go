package explain_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/internal/markers"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestGolden explains what the games in testdata ask with markers next to the rules concerned,
// @explain(LITERAL[, MOVES[, JOINT[, DEPTH]]]): LITERAL in the state after the joint moves
// MOVES, for the joint move JOINT, to DEPTH; the explanations (text) are kept in a golden file
// per game, refreshed with -update, and each is also checked by the independent checker.
func TestGolden(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.kif")
	hrf, _ := filepath.Glob("testdata/*" + syntax.InfixExt)
	paths = append(paths, hrf...)
	if len(paths) < 3 {
		t.Fatal("no golden cases in testdata")
	}
	ctx := context.Background()
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ev, res := load(t, path)
			ms, errs := markers.ParseComments(string(data), ev.Notation().CommentMarks()[0])
			for _, err := range errs {
				t.Error(err)
			}
			var out markers.Output
			for _, m := range ms {
				if m.Name != "explain" {
					t.Errorf("line %d: unknown marker @%s", m.Line+1, m.Name)
					continue
				}
				out.Section(m.Title())
				s, err := ev.Initial(ctx)
				if err != nil {
					t.Fatal(err)
				}
				joints, err := ev.ParseJointMoves(m.Arg(1))
				if err != nil {
					t.Fatalf("line %d: %v", m.Line+1, err)
				}
				for _, j := range joints {
					if s, err = ev.Next(ctx, s, j); err != nil {
						t.Fatal(err)
					}
				}
				var joint []eval.Term
				if m.Arg(2) != "" {
					js, err := ev.ParseJointMoves(m.Arg(2))
					if err != nil || len(js) != 1 {
						t.Fatalf("line %d: joint %q: %v", m.Line+1, m.Arg(2), err)
					}
					joint = js[0]
				}
				var opts explain.Options
				if m.Arg(3) != "" {
					if opts.Depth, err = strconv.Atoi(m.Arg(3)); err != nil {
						t.Fatal(err)
					}
				}
				x, err := explain.Explain(ctx, ev, res, s, joint, m.Arg(0), opts)
				if err != nil {
					out.Printf("error: %v\n", err)
					continue
				}
				c := newChecker(ev, res, s, joint)
				c.brute = 20000
				if err := c.check(x, m.Arg(0)); err != nil {
					t.Errorf("line %d: %s: %v", m.Line+1, m.Arg(0), err)
				}
				out.Printf("%s", x.Text(name))
			}
			markers.Check(t, strings.TrimSuffix(path, filepath.Ext(path))+".golden", out.String(), *update)
		})
	}
}
