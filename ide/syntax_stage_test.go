package ide

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/internal/gengame"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestSyntaxStageEqualsModel: on the team's games (prefix and infix) and the checker's cases
// (broken forms among them), what the syntax stage answers while an analysis runs apart equals
// what the model answers: semantic tokens (whole and in ranges), the outline, and at every
// occurrence the definitions, references and highlights; and it has a hover wherever the model
// has one.
func TestSyntaxStageEqualsModel(t *testing.T) {
	everyStage(t)
	for path, src := range stageCases(t) {
		compareStage(t, path, src, 1)
	}
}

// stageCases returns the texts of the team's games (prefix and infix) and the checker's cases,
// by path.
func stageCases(t *testing.T) map[string]string {
	var paths []string
	for _, pattern := range []string{"../testdata/games/*.kif", "../testdata/games/*.hrf", "../testdata/check/*.kif", "../testdata/check/*.hrf"} {
		ps, _ := filepath.Glob(pattern)
		paths = append(paths, ps...)
	}
	if len(paths) < 20 {
		t.Fatalf("%d games found", len(paths))
	}
	out := map[string]string{}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[path] = string(src)
	}
	return out
}

// stagePair returns two snapshots of text: one that answers from its model, one from its syntax
// stage (an analysis runs apart).
func stagePair(path, text string) (model, stage *Snapshot) {
	d := syntax.Detect(path, text)
	model, stage = NewSnapshotIn(1, text, d), NewSnapshotIn(1, text, d)
	stage.AnalyseApart()
	return model, stage
}

// TestSyntaxStageEqualsModelCorpus is TestSyntaxStageEqualsModel on chess, duplicateStateLarge
// and the 400 KB files made from the corpus and generated, at about 60 occurrences each.
func TestSyntaxStageEqualsModelCorpus(t *testing.T) {
	everyStage(t)
	if testing.Short() {
		t.Skip("the corpus's big files: not in -short")
	}
	for name, text := range gengame.Inputs(corpusDir, t.Logf) {
		n := strings.Count(text, "(") // about the number of occurrences
		compareStage(t, name, text, max(1, n/60))
	}
}

// everyStage lets documents of any size answer from the syntax stage during the test.
func everyStage(t *testing.T) {
	old := stageMinSize
	stageMinSize = 0
	t.Cleanup(func() { stageMinSize = old })
}

// TestSmallDocumentsWaitForTheModel: a document smaller than stageMinSize answers from its
// model, which is quick to build, even while an analysis runs apart.
func TestSmallDocumentsWaitForTheModel(t *testing.T) {
	s := NewSnapshotIn(1, "(role r)\n(<= (p ?x) (role ?x))\n", syntax.Prefix)
	s.AnalyseApart()
	if s.syntaxStage() != nil {
		t.Error("a small document answers from the syntax stage")
	}
	big := NewSnapshotIn(1, strings.Repeat("(role r)\n", stageMinSize/9+1), syntax.Prefix)
	big.AnalyseApart()
	if big.syntaxStage() == nil {
		t.Error("a document of stageMinSize bytes does not answer from the syntax stage")
	}
}

// compareStage compares the syntax stage's answers on text with the model's, at every step-th
// occurrence.
func compareStage(t *testing.T, path, text string, step int) {
	t.Helper()
	name := filepath.Base(path)
	model, stage := stagePair(path, text)
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
	if a, b := SemanticTokensFirst(stage, 0, n, 7), SemanticTokensFirst(model, 0, n, 7); !reflect.DeepEqual(a, b) {
		t.Errorf("%s: the first 7 semantic tokens:\nstage %v\nmodel %v", name, a, b)
	}
	if a, b := DocumentSymbols(stage, 0), DocumentSymbols(model, 0); !reflect.DeepEqual(a, b) {
		t.Errorf("%s: outline:\nstage %v\nmodel %v", name, a, b)
	}
	m := model.Model()
	for i := 0; i < m.NumOccurrences(); i += step {
		off := m.Occ(i).Span.Start
		if a, b := Definition(stage, off), Definition(model, off); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: definition at %d (%s):\nstage %v\nmodel %v", name, off, m.Occ(i).Name, a, b)
		}
		if a, b := References(stage, off, true), References(model, off, true); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: references at %d (%s):\nstage %v\nmodel %v", name, off, m.Occ(i).Name, a, b)
		}
		if a, b := Highlights(stage, off), Highlights(model, off); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: highlights at %d (%s):\nstage %v\nmodel %v", name, off, m.Occ(i).Name, a, b)
		}
		if a, b := Hover(t.Context(), stage, off, HoverOptions{}), Hover(t.Context(), model, off, HoverOptions{}); (a == nil) != (b == nil) {
			t.Errorf("%s: hover at %d (%s): stage %v, model %v", name, off, m.Occ(i).Name, a, b)
		}
	}
}

// BenchmarkSyntaxStage is what a request sent with the opening of issue 21's 3 MB hostile file
// (gengame.UnknownRelations: 67,000 rules, every qI undefined) costs before the model exists,
// in CPU time per operation: the parse, the syntax stage (one pass over the forms), a hover
// on a rule's relation from it; the stage, a hover and a definition before the parse (the forms
// found by a scan of the bytes, those read parsed alone); the references of role (used by every rule: the worst case, a
// model of every form), the semantic tokens of a screen (60 lines), of the whole file and of a
// reply (the first 50,001: the server's bound), the outline; beside the model (analysis.Prepare) that the requests no longer wait for.
//
// Run: go test ./ide -run '^$' -bench SyntaxStage -benchtime 5x
func BenchmarkSyntaxStage(b *testing.B) {
	text := gengame.UnknownRelations(3 << 20)
	at := strings.Index(text, "(<= (r1000 ") + 5
	role := strings.Index(text[at:], "(role") + at + 1
	screen := strings.Index(text, "(<= (r30000 ")
	fresh := func() *Snapshot {
		s := NewSnapshotIn(1, text, syntax.Prefix)
		s.AnalyseApart()
		return s
	}
	steps := []struct {
		name string
		run  func(s *Snapshot)
	}{
		{"parse", func(s *Snapshot) {}},
		{"stage", func(s *Snapshot) { s.syntaxStage() }},
		{"hover", func(s *Snapshot) { Hover(b.Context(), s, at, HoverOptions{Markdown: true}) }},
		{"stage-unparsed", func(s *Snapshot) { s.syntaxStage() }},
		{"hover-unparsed", func(s *Snapshot) { Hover(b.Context(), s, at, HoverOptions{Markdown: true}) }},
		{"definition-unparsed", func(s *Snapshot) { Definition(s, at) }},
		{"references-of-role", func(s *Snapshot) { References(s, role, true) }},
		{"tokens-of-a-screen", func(s *Snapshot) { SemanticTokens(s, screen, screen+60*40) }},
		{"tokens-of-the-file", func(s *Snapshot) { SemanticTokens(s, 0, len(text)) }},
		{"tokens-of-a-reply", func(s *Snapshot) { SemanticTokensFirst(s, 0, len(text), 50_001) }},
		{"outline", func(s *Snapshot) { DocumentSymbols(s, 5000) }},
		{"model", func(s *Snapshot) { _, _ = analysis.Prepare(b.Context(), s.File(), nil) }},
	}
	for _, step := range steps {
		b.Run(step.name, func(b *testing.B) {
			var cpu, wall time.Duration
			for i := 0; i < b.N; i++ {
				s := fresh()
				unparsed := strings.HasSuffix(step.name, "-unparsed")
				if step.name != "parse" && !unparsed {
					s.File()
				}
				if step.name != "parse" && step.name != "stage" && step.name != "model" && step.name != "stage-unparsed" {
					s.syntaxStage()
				}
				c0, _ := cputime.Process()
				w0 := time.Now()
				if step.name == "parse" {
					s.File()
				} else {
					step.run(s)
				}
				wall += time.Since(w0)
				c1, _ := cputime.Process()
				cpu += c1 - c0
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(wall)/float64(b.N)/1e6, "wall-ms/op")
		})
	}
}

// TestSyntaxStageWhileModelIsBuilt: requests from several goroutines while the model is being
// built apart answer, from the stage or from the model once it is there, the same (run with
// -race: the stage and the model's arrival share the snapshot).
func TestSyntaxStageWhileModelIsBuilt(t *testing.T) {
	everyStage(t)
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	model := NewSnapshotIn(1, text, syntax.Prefix)
	want := DocumentSymbols(model, 0)
	at := model.Model().Occ(model.Model().NumOccurrences() / 2).Span.Start
	wantRefs := References(model, at, true)

	s := NewSnapshotIn(1, text, syntax.Prefix)
	s.AnalyseApart()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := s.PrepareContext(t.Context()); err != nil {
			t.Error(err)
		}
		s.EndApart()
	}()
	errs := make(chan string, 64)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if got := DocumentSymbols(s, 0); !reflect.DeepEqual(got, want) {
					errs <- "outline differs"
				}
				if got := References(s, at, true); !reflect.DeepEqual(got, wantRefs) {
					errs <- "references differ"
				}
				if Hover(t.Context(), s, at, HoverOptions{}) == nil {
					errs <- "no hover"
				}
			}
		}()
	}
	wg.Wait()
	<-done
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if s.syntaxStage() != nil {
		t.Error("the syntax stage is still used once the model is built")
	}
}

// TestSyntaxStageSignaturesAndHints: while an analysis runs apart, signature help (at every
// occurrence of the team's games and the checker's cases) and the inlay hints of tictactoe answer
// from the syntax stage, without building the model, and say what the model's answers say.
func TestSyntaxStageSignaturesAndHints(t *testing.T) {
	everyStage(t)
	for path, text := range stageCases(t) {
		model, stage := stagePair(path, text)
		m := model.Model()
		for _, o := range m.AllOccurrences() {
			// Inside the list of the occurrence: after its name.
			off := o.Span.End
			if a, b := SignatureHelp(stage, off, true), SignatureHelp(model, off, true); !reflect.DeepEqual(a, b) {
				t.Errorf("%s: signature help at %d (%s):\nstage %+v\nmodel %+v", filepath.Base(path), off, o.Name, a, b)
			}
		}
		if stage.hasModel() {
			t.Fatalf("%s: signature help from the syntax stage built the model", filepath.Base(path))
		}
		if filepath.Base(path) != "tictactoe.kif" {
			continue
		}
		games := NewGames(t.Context(), GamesOptions{})
		games.Update("tictactoe", model)
		session := games.Session("tictactoe", model, eval.Limits{Timeout: 20 * time.Second}, analysis.BoardConfig{})
		a, b := InlayHints(t.Context(), stage, 0, len(text), session, time.Minute), InlayHints(t.Context(), model, 0, len(text), session, time.Minute)
		if len(b) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("inlay hints:\nstage %v\nmodel %v", a, b)
		}
		if stage.hasModel() {
			t.Fatal("the inlay hints from the syntax stage built the model")
		}
	}
}

// TestASCIILower: asciiLower, which looks for capitals 8 bytes at a time, lowers the ASCII
// capitals a byte-at-a-time loop lowers, and nothing else, on random texts of capitals,
// their neighbours ('@', '[', '`', '{'), non-ASCII bytes and runes in every alignment.
// TestSpellingWholeNames: the stage looks for a relation's uses in the forms that spell its
// name as a whole name, in either notation, not in those that spell it within a longer name
// or a variable's (forms 0, 2 and 5 below): a request about x (a constant of many games)
// would build the model of every form that has a variable ?x.
func TestSpellingWholeNames(t *testing.T) {
	for _, c := range []struct {
		path, text string
		want       []int
	}{
		{"a.kif", "(<= (p ?x) (q ?x))\n(next X)\n(boxed 1 xx)\n(cell 1 1 x)\n(<= (r) (x) (not (x_1)))\n(f 1x)\n(x)", []int{1, 3, 4, 6}},
		{"a.hrf", "p(X) :- q(X, xy).\nnext(x).\nr :- x & x2.", []int{0, 1, 2}},
	} {
		snap := NewSnapshotIn(1, c.text, syntax.Detect(c.path, c.text))
		st := newSyntaxStage(snap)
		if got := st.spelling("x"); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: the forms that spell x: %v, want %v", c.path, got, c.want)
		}
	}
}

func TestASCIILower(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	pieces := []string{"a", "z", "A", "Z", "M", "@", "[", "`", "{", "\x7f", "\x80", "\xc1", "\xda", "é", "É", "(role x)", "        "}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.Intn(30); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		want := []byte(s)
		for j, c := range want {
			if 'A' <= c && c <= 'Z' {
				want[j] = c + 'a' - 'A'
			}
		}
		if got := asciiLower(s); got != string(want) {
			t.Fatalf("asciiLower(%q) = %q, want %q", s, got, want)
		}
	}
}
