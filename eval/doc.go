// Package eval evaluates GDL: the minimal model of a safe, stratified logic program with
// function terms, `not`, `distinct` and `or`, per game state.
//
// A game is compiled once (Compile) into a Program, which many goroutines may evaluate at once:
// every ground term is interned to a small integer (hash consing) in a store its evaluations
// share, and each evaluation runs on a session, compiled from the description the first time
// calls overlap, in which `or` is expanded into separate rules and the relations are grouped
// into strongly connected components in dependency order. Each component is planned the first time it is
// evaluated, when the facts it reads exist: body literals are ordered greedily by the number of
// facts they would yield given the variables bound so far (counted on the actual facts), tests
// (`not`, `distinct`, ground atoms) run as soon as their variables are bound, and every scan
// with bound or constant subterms reads an index specialised to the pattern's shape and keyed
// on its bound subterms. Recursive components are evaluated semi-naively.
//
// Relations that would be huge computed whole but are only asked with some arguments bound are
// evaluated on demand instead (demand.go): a step reading one solves the subgoal of the caller's
// bound arguments by running the relation's rules with them bound, and tables the answers for
// the game, state or joint move. Which relations: those whose every use binds an argument, and
// of them the non-recursive ones of four or more arguments depending on the state at once, and
// the static ones and the recursive ones depending on the state once they prove to have more
// than 10,000 facts (in a state; then for the rest of the game), or before they are computed
// when the planner estimates that many (the product of the estimates of a rule's scans; not for
// static recursive ones, whose estimates are no guide), or when, computed whole, they ask all of
// a demanded relation that proved big (the game then plans conservatively, see below). laikLee_hex's isList/1 and the arithmetic of gt_two_thirds_6p and FARMERS_S
// are asked a few hundred subgoals; othello's piece strings stay whole; chess's clear_row_ig/6,
// with 44,000 facts per state, is asked a few hundred subgoals. A recursive component is demanded as a whole, and its
// subgoals may call one another in cycles: a stack of frames records the subgoals in progress,
// a subgoal reading an incomplete one depends on the frame that decides it, and the oldest
// frame of a cycle (its leader) evaluates the cycle's subgoals again until a pass adds no
// answer; only then are they complete. Negation is stratified, so it only reads complete
// subgoals. A subgoal with nothing bound of a recursive relation is the whole relation: the
// component is evaluated bottom-up for the epoch and its subgoals answered from those facts.
// The planner places a call of a demanded relation as soon as it is as bound as in the order
// its rule is written (as top-down provers run it) until the calls made gave answers to
// estimate them by (at the first replanning), then by those estimates; once a plan is found
// asking a relation that proved too big whole with nothing bound, the game goes back to the
// written order for good and the evaluation is done again (laikLee_hex's connection/6 asked
// connection2/6 before binding its list argument, which then enumerated every list).
// Program.AskFirst streams: a demanded relation asked with nothing bound passes the heads its rules
// derive straight on to the query (a recursive one stops its bottom-up evaluation once it has
// enough facts), and the query stops at the answers it needs.
//
// Facts are kept by layer: static ones (not depending on `true` or `does`) once per game,
// state ones once per state, move ones once per state and joint move, and each only when a
// question needs it. Every call takes a context and obeys Limits (time, derived facts, term
// depth); a *LimitError says which limit stopped it and in which relation and rule. Questions
// whose answer depends on rules without a defined meaning (unsafe, unstratified, or broken by
// syntax errors) get a *RefusedError carrying the analyzer's diagnostics.
package eval
