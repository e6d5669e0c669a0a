package analysis

import "github.com/gdl-lsp/gdl/syntax"

// CodeDoc documents a diagnostic code for docs/diagnostics.md and `gdl check --list`.
type CodeDoc struct {
	Summary string
	Example string
	Fix     string
}

// SyntaxDocs documents the parser's error codes (the checks document themselves).
var SyntaxDocs = map[string]CodeDoc{
	syntax.CodeUnmatchedClose: {
		"A ')' that closes nothing.",
		"(role white))",
		"Delete the extra ')' (the quick fix does), or add the '(' that is missing before it.",
	},
	syntax.CodeUnclosedOpen: {
		"A '(' that is never closed. The form ends at the next line that starts with '(' so the rest of the file is still checked.",
		"(<= (legal ?p noop)\n    (role ?p)\n(init (cell 1 1 b))",
		"Add the missing ')' where the form ends (the quick fix inserts them after its last token).",
	},
	syntax.CodeEmptyList: {
		"An empty list '()'; GDL has no empty list.",
		"(init (cell 1 ()))",
		"Write a constant or a function term instead, or remove the parentheses.",
	},
	syntax.CodeListHead: {
		"A list whose first element is a list: after '(' a relation or function name must follow (GGP-Base calls these consecutive parentheses).",
		"((cell 1 1 b))",
		"Remove the extra parentheses.",
	},
	syntax.CodeVariableName: {
		"A variable where a relation or function name is expected; GDL is first-order.",
		"(<= (p ?x) (?r ?x))",
		"Use a relation name, or one rule per relation.",
	},
	syntax.CodeTopLevelVariable: {
		"A variable standing alone at the top level.",
		"?x",
		"Remove it, or write the fact or rule it was meant to be part of.",
	},
	syntax.CodeRuleWithoutHead: {
		"A rule '(<=)' with no head.",
		"(<=)",
		"Write the head atom after '<=', then the body literals.",
	},
	syntax.CodeMisplacedArrow: {
		"'<=' inside a form: it may only start a top-level rule.",
		"(<= (p ?x) (<= (q ?x)))",
		"Write the inner rule as a separate top-level rule.",
	},
	syntax.CodeBadHead: {
		"A rule head that is a variable, not an atom.",
		"(<= ?x (p ?x))",
		"Write the relation the rule defines as its head.",
	},
	syntax.CodeBadLiteral: {
		"A body literal that is a variable, not an atom, not, distinct or or.",
		"(<= (p ?x) (q ?x) ?x)",
		"Replace it with an atom, or remove it.",
	},
	syntax.CodeBadCharacter: {
		"A control character or invalid UTF-8 outside a comment.",
		"(role white<BEL>)   ; <BEL> stands for the control character U+0007",
		"Delete the character; non-ASCII text is fine in comments.",
	},
	syntax.CodeEmptyVariable: {
		"A '?' with no variable name after it.",
		"(<= (p ?) (q ?))",
		"Name the variable, for example ?x.",
	},
}

// SyntaxSummary returns the one-line summary of a parser error code.
func SyntaxSummary(code string) string { return SyntaxDocs[code].Summary }
