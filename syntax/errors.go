package syntax

// Error is a syntax error: a byte range, a stable code and a message for people.
type Error struct {
	Span    Span
	Code    string
	Message string
	Fix     *Fix // a machine-applicable repair, when the parser knows one
}

// TextEdit replaces the bytes of Span with NewText.
type TextEdit struct {
	Span    Span
	NewText string
}

// Fix is a titled set of edits that repairs a problem.
type Fix struct {
	Title string
	Edits []TextEdit
	// Safe says that the fix makes no choice for the author: the game means the same after it
	// (a reordered body, a spelling of the same name, a form written in the other notation), or
	// the one meaning it evidently had. `gdl check --fix` applies only safe fixes.
	Safe bool
}

// Stable codes of the parser's errors. docs/diagnostics.md documents each.
const (
	CodeUnmatchedClose   = "unmatched-close-paren"
	CodeUnclosedOpen     = "unclosed-paren"
	CodeEmptyList        = "empty-list"
	CodeListHead         = "list-head-is-list"
	CodeVariableName     = "variable-as-name"
	CodeTopLevelVariable = "top-level-variable"
	CodeRuleWithoutHead  = "rule-without-head"
	CodeMisplacedArrow   = "misplaced-rule-arrow"
	CodeBadHead          = "invalid-rule-head"
	CodeBadLiteral       = "invalid-literal"
	CodeBadCharacter     = "invalid-character"
	CodeEmptyVariable    = "empty-variable"

	// Infix GDL, and files that mix the notations.
	CodeMixedNotation   = "mixed-notation"      // a form, comment or variable of the other notation
	CodeUnexpectedToken = "unexpected-token"    // a token the infix grammar does not allow there
	CodeBadTerm         = "invalid-term"        // a term position without a term (or with a literal)
	CodeBareDisjunction = "unparenthesized-or"  // a | b outside parentheses
	CodeConjunctionInOr = "and-inside-or"       // (a & b) or (a & b | c)
	CodeBadQuotedName   = "invalid-quoted-name" // an unterminated or empty "name"
)

// Codes lists every syntax error code.
var Codes = []string{
	CodeUnmatchedClose, CodeUnclosedOpen, CodeEmptyList, CodeListHead, CodeVariableName,
	CodeTopLevelVariable, CodeRuleWithoutHead, CodeMisplacedArrow, CodeBadHead, CodeBadLiteral,
	CodeBadCharacter, CodeEmptyVariable, CodeMixedNotation, CodeUnexpectedToken, CodeBadTerm,
	CodeBareDisjunction, CodeConjunctionInOr, CodeBadQuotedName,
}
