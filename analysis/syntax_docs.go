package analysis

import "github.com/gdl-lsp/gdl/syntax"

// CodeDoc documents a diagnostic code for docs/diagnostics.md and `gdl check --list`.
type CodeDoc struct {
	Summary string
	Example string
	Fix     string
	Dialect syntax.Dialect // the notation the example is written in
}

// SyntaxDocs documents the parser's error codes (the checks document themselves).
var SyntaxDocs = map[string]CodeDoc{
	syntax.CodeUnmatchedClose: {
		"A ')' that closes nothing.",
		"(role white))",
		"Delete the extra ')' (the quick fix does), or add the '(' that is missing before it.",
		syntax.Prefix,
	},
	syntax.CodeUnclosedOpen: {
		"A '(' that is never closed. The form ends at the next line that starts a form with '(' at the form's own column (not at a body literal such as (true ...), nor, where rule bodies are written in column 0, before a blank line or the next rule), so one missing ')' is one error and the rest of the file is still checked.",
		"(<= (legal ?p noop)\n    (role ?p)\n(init (cell 1 1 b))",
		"Add the missing ')' where the form ends (the quick fix inserts them after its last token).",
		syntax.Prefix,
	},
	syntax.CodeEmptyList: {
		"An empty list '()'; GDL has no empty list.",
		"(init (cell 1 ()))",
		"Write a constant or a function term instead, or remove the parentheses.",
		syntax.Prefix,
	},
	syntax.CodeListHead: {
		"A list whose first element is a list: after '(' a relation or function name must follow (GGP-Base calls these consecutive parentheses).",
		"((cell 1 1 b))",
		"Remove the extra parentheses.",
		syntax.Prefix,
	},
	syntax.CodeVariableName: {
		"A variable where a relation or function name is expected; GDL is first-order.",
		"(<= (p ?x) (?r ?x))",
		"Use a relation name, or one rule per relation.",
		syntax.Prefix,
	},
	syntax.CodeTopLevelVariable: {
		"A variable standing alone at the top level.",
		"?x",
		"Remove it, or write the fact or rule it was meant to be part of.",
		syntax.Prefix,
	},
	syntax.CodeRuleWithoutHead: {
		"A rule '(<=)' with no head.",
		"(<=)",
		"Write the head atom after '<=', then the body literals.",
		syntax.Prefix,
	},
	syntax.CodeMisplacedArrow: {
		"'<=' inside a form: it may only start a top-level rule.",
		"(<= (p ?x) (<= (q ?x)))",
		"Write the inner rule as a separate top-level rule.",
		syntax.Prefix,
	},
	syntax.CodeBadHead: {
		"A rule head that is a variable, not an atom (in infix also a fact or head that is a negation or a disjunction).",
		"(<= ?x (p ?x))",
		"Write the relation the rule defines as its head.",
		syntax.Prefix,
	},
	syntax.CodeBadLiteral: {
		"A body literal that is a variable, not an atom, not, distinct or or (in infix also a missing literal after '&', '|', '~' or '(').",
		"(<= (p ?x) (q ?x) ?x)",
		"Replace it with an atom, or remove it.",
		syntax.Prefix,
	},
	syntax.CodeBadCharacter: {
		"A control character or invalid UTF-8 outside a comment.",
		"(role white<BEL>)   ; <BEL> stands for the control character U+0007",
		"Delete the character; non-ASCII text is fine in comments.",
		syntax.Prefix,
	},
	syntax.CodeEmptyVariable: {
		"A '?' with no variable name after it.",
		"(<= (p ?) (q ?))",
		"Name the variable, for example ?x.",
		syntax.Prefix,
	},
	syntax.CodeMixedNotation: {
		Summary: "A form, comment or variable written in the other notation: prefix (KIF) in an infix file, or infix in a prefix file. " +
			"Each such form is one error, not one per token.",
		Example: "role(white)\n(<= (legal ?p noop) (role ?p))",
		Fix:     "Write it in the file's notation (the quick fix converts a whole form, a ';' comment or a ?x variable), or give the file the extension of its notation (.hrf for infix).",
		Dialect: syntax.Infix,
	},
	syntax.CodeUnexpectedToken: {
		Summary: "Infix: a token where the grammar has no place for it, such as a ',' between body literals or a missing ',' between arguments.",
		Example: "legal(P, noop) :- role(P), ~true(control(P))",
		Fix:     "Join body literals with '&', separate arguments with ','.",
		Dialect: syntax.Infix,
	},
	syntax.CodeBadTerm: {
		Summary: "Infix: a missing argument (after ',') or a literal where a term is expected, such as ~p inside an atom.",
		Example: "init(cell(1,,b))",
		Fix:     "Write the term; negate and combine literals in rule bodies, not inside atoms.",
		Dialect: syntax.Infix,
	},
	syntax.CodeBareDisjunction: {
		Summary: "Infix: a disjunction a | b not in parentheses; with '&' around it, its meaning would depend on precedence.",
		Example: "p(X) :- q(X) & r(X) | s(X)",
		Fix:     "Put the disjunction in parentheses: (r(X) | s(X)) (the quick fix does).",
		Dialect: syntax.Infix,
	},
	syntax.CodeConjunctionInOr: {
		Summary: "Infix: '&' inside parentheses, a conjunction inside a disjunction, which GDL cannot express.",
		Example: "p(X) :- (q(X) & r(X) | s(X))",
		Fix:     "Write one rule per branch of the disjunction, or define a relation for the conjunction.",
		Dialect: syntax.Infix,
	},
	syntax.CodeBadQuotedName: {
		Summary: "Infix: a quoted name that is not closed on its line, is empty, or holds a control character.",
		Example: "role(\"White)",
		Fix:     "Close the quotes (the quick fix does); a name has at least one character.",
		Dialect: syntax.Infix,
	},
}

// SyntaxSummary returns the one-line summary of a parser error code.
func SyntaxSummary(code string) string { return SyntaxDocs[code].Summary }
