package ide

import "github.com/gdl-lsp/gdl/syntax"

// keywordDoc explains a keyword or connective (by its key: `~` is not) in notation d; "" for
// other names.
func keywordDoc(key string, d syntax.Dialect) string {
	if d == syntax.Infix {
		return infixKeywordDocs[key]
	}
	return keywordDocs[key]
}

// keywordDocs explains GDL's keywords and connectives for hover and completion.
var keywordDocs = map[string]string{
	"role":     "`(role r)`: declares `r` a player of the game. Roles are ground facts; their order is the order of moves in a joint move.",
	"init":     "`(init p)`: proposition `p` holds in the initial state.",
	"true":     "`(true p)`: proposition `p` holds in the current state. Only in rule bodies.",
	"does":     "`(does r m)`: role `r` makes move `m` in the current joint move. Only in rule bodies.",
	"next":     "`(next p)`: proposition `p` holds in the state after the current joint move. Only in rule heads.",
	"legal":    "`(legal r m)`: move `m` is legal for role `r` in the current state.",
	"goal":     "`(goal r n)`: role `r` gets the goal value `n` (an integer 0..100) in the current state.",
	"terminal": "`terminal`: the current state ends the game.",
	"distinct": "`(distinct a b)`: `a` and `b` are syntactically different ground terms. Both must be bound by positive literals.",
	"base":     "`(base p)`: `p` is a possible base proposition of a state (optional).",
	"input":    "`(input r m)`: `m` is a possible move of role `r` (optional).",
	"sees":     "`(sees r p)`: role `r` perceives `p` after the current joint move (GDL-II).",
	"<=":       "`(<= head body...)`: a rule: `head` holds whenever every literal of the body holds.",
	"not":      "`(not lit)`: negation as failure: holds when `lit` cannot be derived. Its variables must be bound by positive literals.",
	"or":       "`(or lit1 ... litn)`: holds when one of the literals holds.",
	"random":   "`random`: the role of chance in GDL-II games; it plays uniformly among its legal moves.",
}

// infixKeywordDocs is keywordDocs in infix GDL.
var infixKeywordDocs = map[string]string{
	"role":     "`role(R)`: declares `R` a player of the game. Roles are ground facts; their order is the order of moves in a joint move.",
	"init":     "`init(P)`: proposition `P` holds in the initial state.",
	"true":     "`true(P)`: proposition `P` holds in the current state. Only in rule bodies.",
	"does":     "`does(R,M)`: role `R` makes move `M` in the current joint move. Only in rule bodies.",
	"next":     "`next(P)`: proposition `P` holds in the state after the current joint move. Only in rule heads.",
	"legal":    "`legal(R,M)`: move `M` is legal for role `R` in the current state.",
	"goal":     "`goal(R,N)`: role `R` gets the goal value `N` (an integer 0..100) in the current state.",
	"terminal": "`terminal`: the current state ends the game.",
	"distinct": "`distinct(A,B)`: `A` and `B` are syntactically different ground terms. Both must be bound by positive literals.",
	"base":     "`base(P)`: `P` is a possible base proposition of a state (optional).",
	"input":    "`input(R,M)`: `M` is a possible move of role `R` (optional).",
	"sees":     "`sees(R,P)`: role `R` perceives `P` after the current joint move (GDL-II).",
	"<=":       "`head :- body1 & ... & bodyn`: a rule: `head` holds whenever every literal of the body holds.",
	"not":      "`~lit`: negation as failure: holds when `lit` cannot be derived. Its variables must be bound by positive literals.",
	"or":       "`(lit1 | ... | litn)`: holds when one of the literals holds.",
	"random":   "`random`: the role of chance in GDL-II games; it plays uniformly among its legal moves.",
}

// keywordOrder lists keywords for completion, most used first.
var keywordOrder = []string{"<=", "role", "init", "true", "does", "next", "legal", "goal", "terminal", "not", "distinct", "or", "base", "input", "sees"}

// keywordSnippet returns the completion snippet of a keyword in notation d ("" for a keyword
// that infix writes with an operator: <=, not, or).
func keywordSnippet(kw string, d syntax.Dialect) string {
	if d == syntax.Infix {
		return infixKeywordSnippets[kw]
	}
	return keywordSnippets[kw]
}

// infixKeywordSnippets are the completion snippets for keywords in infix GDL.
var infixKeywordSnippets = map[string]string{
	"role":     "role(${1:name})",
	"init":     "init(${1:proposition})",
	"true":     "true(${1:proposition})",
	"does":     "does(${1:Role},${2:move})",
	"next":     "next(${1:proposition})",
	"legal":    "legal(${1:Role},${2:move})",
	"goal":     "goal(${1:Role},${2:100})",
	"terminal": "terminal",
	"distinct": "distinct(${1:A},${2:B})",
	"base":     "base(${1:proposition})",
	"input":    "input(${1:Role},${2:move})",
	"sees":     "sees(${1:Role},${2:percept})",
}

// keywordSnippets are the completion snippets for keywords (after an opening parenthesis).
var keywordSnippets = map[string]string{
	"<=":       "<= ${1:head} ${0:body}",
	"role":     "role ${1:name}",
	"init":     "init ${1:proposition}",
	"true":     "true ${1:proposition}",
	"does":     "does ${1:?role} ${2:move}",
	"next":     "next ${1:proposition}",
	"legal":    "legal ${1:?role} ${2:move}",
	"goal":     "goal ${1:?role} ${2:100}",
	"terminal": "terminal",
	"not":      "not ${1:literal}",
	"distinct": "distinct ${1:?a} ${2:?b}",
	"or":       "or ${1:literal} ${2:literal}",
	"base":     "base ${1:proposition}",
	"input":    "input ${1:?role} ${2:move}",
	"sees":     "sees ${1:?role} ${2:percept}",
}
