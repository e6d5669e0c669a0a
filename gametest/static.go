package gametest

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Static reads a parsed test file and returns its structure and every diagnostic that needs no
// evaluation: the parser's, the format's (Read), and, given the analysis of its game (nil when
// the game could not be found), Check's and one for a game with errors. Sorted by position.
func Static(f *syntax.File, game *analysis.Result) (*Suite, []analysis.Diagnostic) {
	var ds []analysis.Diagnostic
	for _, e := range f.Errors() {
		d := analysis.Diagnostic{Span: e.Span, Severity: analysis.Error, Code: e.Code, Category: analysis.CategorySyntax, Message: e.Message}
		if e.Fix != nil {
			d.Fixes = []syntax.Fix{*e.Fix}
		}
		ds = append(ds, d)
	}
	s, read := Read(f)
	ds = append(ds, read...)
	if game != nil {
		ds = append(ds, Check(s, game)...)
		if d, bad := GameErrors(s, game); bad {
			ds = append(ds, d)
		}
	}
	SortDiagnostics(ds)
	return s, ds
}

// SortDiagnostics orders diagnostics by position, then code.
func SortDiagnostics(ds []analysis.Diagnostic) {
	slices.SortStableFunc(ds, func(a, b analysis.Diagnostic) int {
		if a.Span.Start != b.Span.Start {
			return cmp.Compare(a.Span.Start, b.Span.Start)
		}
		return strings.Compare(a.Code, b.Code)
	})
}

// gameSpan is where a diagnostic about the game goes: the (game ...) form, else the start of
// the file.
func gameSpan(s *Suite) syntax.Span {
	if s.Game != "" {
		return s.GameSpan
	}
	return syntax.Span{}
}

// GameMissing is the diagnostic of a test file whose game is not at any of the paths tried.
func GameMissing(s *Suite, tried []string) analysis.Diagnostic {
	var names []string
	for _, p := range tried {
		names = append(names, filepath.ToSlash(p))
	}
	msg := "no game to test: name it with (game PATH), or name the test file GAME.test.kif beside GAME.kif"
	if len(names) > 0 {
		msg = fmt.Sprintf("the game under test is not found (tried %s); name it with (game PATH), relative to the test file", strings.Join(names, ", "))
	}
	return newDiagnostic(gameSpan(s), CodeGame, msg)
}

// GameUnreadable is the diagnostic of a test file whose game cannot be read.
func GameUnreadable(s *Suite, path string, err error) analysis.Diagnostic {
	return newDiagnostic(gameSpan(s), CodeGame, fmt.Sprintf("the game %s cannot be read: %v", filepath.ToSlash(path), err))
}

// GameErrors reports, as a warning, a game whose errors leave part of it without a defined
// meaning (syntax errors, unsafe or unstratified rules): the tests that reach the broken rules
// cannot run (they are errored), the others run.
func GameErrors(s *Suite, game *analysis.Result) (analysis.Diagnostic, bool) {
	n := 0
	var first analysis.Diagnostic
	for _, d := range game.Diagnostics {
		if d.Undefines() {
			if n == 0 {
				first = d
			}
			n++
		}
	}
	if n == 0 {
		return analysis.Diagnostic{}, false
	}
	p := game.Model.File.Lines().Position(first.Span.Start, syntax.UTF32)
	verb := "leave"
	if n == 1 {
		verb = "leaves"
	}
	d := newDiagnostic(gameSpan(s), CodeGame, fmt.Sprintf("the game has %s that %s rules without a defined meaning: a test that reaches them cannot run; the first, at line %d: %s",
		plural(n, "error"), verb, p.Line+1, first.Message))
	d.Severity = analysis.Warning // the tests that do not reach those rules run
	return d, true
}
