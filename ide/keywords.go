package ide

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

// keywordOrder lists keywords for completion, most used first.
var keywordOrder = []string{"<=", "role", "init", "true", "does", "next", "legal", "goal", "terminal", "not", "distinct", "or", "base", "input", "sees"}

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
