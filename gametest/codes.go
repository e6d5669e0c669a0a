package gametest

import (
	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// The codes of a test file's diagnostics, beside the parser's (docs/testing.md lists them with
// an example and the fix; a test checks that the list and Codes agree).
const (
	CodeForm     = "test-form"       // a top-level form that is not (game PATH) or (test NAME STEP...)
	CodeName     = "test-name"       // a test without a name, or with the name of another
	CodeStep     = "test-step"       // a step of an unknown kind or shape
	CodeGame     = "test-game"       // the game cannot be found, read or played
	CodeRelation = "test-relation"   // a literal of a relation the game does not have
	CodeRole     = "test-role"       // a role the game does not have
	CodeJoint    = "test-joint"      // a joint move without one move per role
	CodeNever    = "test-never"      // a move or fluent that can never occur in the game
	CodeTerm     = "test-term"       // a term that cannot be read (a variable where a ground term is needed)
	CodeFailed   = "test-failed"     // an expectation that does not hold, or a move that cannot be played
	CodeUnknown  = "test-unknown"    // an expectation the search could not decide within its budget
	CodeEvalErr  = "test-evaluation" // an evaluation that stopped at a limit or an error
	category     = analysis.Category("test")
)

// Code describes a diagnostic code of test files.
type Code struct {
	Code     string
	Severity analysis.Severity
	Summary  string
}

// Codes lists the codes of test files.
var Codes = []Code{
	{CodeForm, analysis.Error, "a top-level form that is not (game PATH) or (test NAME STEP...)"},
	{CodeName, analysis.Error, "a test without a name, or with the name of another test"},
	{CodeStep, analysis.Error, "a step of an unknown kind, or with the wrong arguments"},
	{CodeGame, analysis.Error, "the game under test cannot be found, read or played"},
	{CodeRelation, analysis.Error, "a literal of a relation the game does not have, or with another arity"},
	{CodeRole, analysis.Error, "a role the game does not declare"},
	{CodeJoint, analysis.Error, "a joint move without one move per role"},
	{CodeNever, analysis.Warning, "a move or fluent that no rule of the game can ever produce"},
	{CodeTerm, analysis.Error, "a term that cannot be read as a ground term of the game"},
	{CodeFailed, analysis.Error, "an expectation that does not hold, or a joint move that cannot be played"},
	{CodeUnknown, analysis.Warning, "an expectation the bounded search could not decide within its budget"},
	{CodeEvalErr, analysis.Error, "an evaluation of the test that stopped at a limit or with an error"},
}

func severity(code string) analysis.Severity {
	for _, c := range Codes {
		if c.Code == code {
			return c.Severity
		}
	}
	return analysis.Error
}

func newDiagnostic(span syntax.Span, code, msg string, related ...analysis.Related) analysis.Diagnostic {
	return analysis.Diagnostic{Span: span, Severity: severity(code), Code: code, Category: category, Message: msg, Related: related}
}
