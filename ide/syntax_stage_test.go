package ide

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/gengame"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestSyntaxStageEqualsModel: on the team's games (prefix and infix) and the checker's cases
// (broken forms among them), what the syntax stage answers while an analysis runs apart equals
// what the model answers: semantic tokens (whole and in ranges), the outline, and at every
// occurrence the definitions, references and highlights; and it has a hover wherever the model
// has one.
func TestSyntaxStageEqualsModel(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../testdata/games/*.kif", "../testdata/games/*.hrf", "../testdata/check/*.kif", "../testdata/check/*.hrf"} {
		ps, _ := filepath.Glob(pattern)
		paths = append(paths, ps...)
	}
	if len(paths) < 20 {
		t.Fatalf("%d games found", len(paths))
	}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		compareStage(t, path, string(src), 1)
	}
}

// TestSyntaxStageEqualsModelCorpus is TestSyntaxStageEqualsModel on chess, duplicateStateLarge
// and the 400 KB files made from the corpus and generated, at about 60 occurrences each.
func TestSyntaxStageEqualsModelCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus's big files: not in -short")
	}
	for name, text := range gengame.Inputs(corpusDir, t.Logf) {
		n := strings.Count(text, "(") // about the number of occurrences
		compareStage(t, name, text, max(1, n/60))
	}
}

// compareStage compares the syntax stage's answers on text with the model's, at every step-th
// occurrence.
func compareStage(t *testing.T, path, text string, step int) {
	t.Helper()
	name := filepath.Base(path)
	d := syntax.Detect(path, text)
	model := NewSnapshotIn(1, text, d)
	stage := NewSnapshotIn(1, text, d)
	stage.AnalyseApart()
	if stage.syntaxStage() == nil {
		t.Fatal("no syntax stage while an analysis runs apart")
	}
	defer func() {
		if stage.hasModel() {
			t.Fatalf("%s: the syntax stage built the model", name)
		}
	}()
	n := len(text)
	for _, r := range [][2]int{{0, n}, {n / 3, 2 * n / 3}} {
		if a, b := SemanticTokens(stage, r[0], r[1]), SemanticTokens(model, r[0], r[1]); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: semantic tokens of %v:\nstage %v\nmodel %v", name, r, a, b)
		}
	}
	if a, b := DocumentSymbols(stage, 0), DocumentSymbols(model, 0); !reflect.DeepEqual(a, b) {
		t.Errorf("%s: outline:\nstage %v\nmodel %v", name, a, b)
	}
	m := model.Model()
	for i := 0; i < len(m.Occurrences); i += step {
		off := m.Occurrences[i].Span.Start
		if a, b := Definition(stage, off), Definition(model, off); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: definition at %d (%s):\nstage %v\nmodel %v", name, off, m.Occurrences[i].Name, a, b)
		}
		if a, b := References(stage, off, true), References(model, off, true); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: references at %d (%s):\nstage %v\nmodel %v", name, off, m.Occurrences[i].Name, a, b)
		}
		if a, b := Highlights(stage, off), Highlights(model, off); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: highlights at %d (%s):\nstage %v\nmodel %v", name, off, m.Occurrences[i].Name, a, b)
		}
		if a, b := Hover(t.Context(), stage, off, HoverOptions{}), Hover(t.Context(), model, off, HoverOptions{}); (a == nil) != (b == nil) {
			t.Errorf("%s: hover at %d (%s): stage %v, model %v", name, off, m.Occurrences[i].Name, a, b)
		}
	}
}
