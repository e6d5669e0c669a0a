// Package eval evaluates GDL: the minimal model of a safe, stratified logic program with
// function terms, `not`, `distinct` and `or`, per game state.
//
// A game is compiled once (Compile): every ground term is interned to a small integer (hash
// consing), `or` is expanded into separate rules, and the relations are grouped into strongly
// connected components in dependency order. Each component is planned the first time it is
// evaluated, when the facts it reads exist: body literals are ordered greedily by the number of
// facts they would yield given the variables bound so far (counted on the actual facts), tests
// (`not`, `distinct`, ground atoms) run as soon as their variables are bound, and every scan
// with bound or constant subterms reads an index specialised to the pattern's shape and keyed
// on its bound subterms. Recursive components are evaluated semi-naively.
//
// Relations that would be huge computed whole but are only asked with some arguments bound
// (non-recursive ones of four or more arguments depending on the state, and static ones that
// prove to have more than 100,000 facts) are evaluated on demand instead: a step reading one
// solves the subgoal of the caller's bound arguments by running the relation's rules with them
// bound, and memoises the answers for the game, state or joint move (demand.go).
//
// Facts are kept by layer: static ones (not depending on `true` or `does`) once per game,
// state ones once per state, move ones once per state and joint move, and each only when a
// question needs it. Every call takes a context and obeys Limits (time, derived facts, term
// depth); a *LimitError says which limit stopped it and in which relation and rule. Questions
// whose answer depends on rules without a defined meaning (unsafe, unstratified, or broken by
// syntax errors) get a *RefusedError carrying the analyzer's diagnostics.
package eval
