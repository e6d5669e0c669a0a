package prolog

// WalkDriver is a program to load after a converted game. walk(Seed, MaxSteps, Budget) plays one
// match with uniformly random legal moves and prints every step in KIF, one fact per line:
//
//	state F1 F2 ...
//	legal ROLE M1 M2 ...      (one line per role, in role order)
//	terminal true|false
//	goal ROLE G1 G2 ...       (one line per role, in role order, in every state)
//	does M1 M2 ...            (the joint move chosen, one move per role in role order)
//
// and, after the last state, `end REASON`: terminal (a terminal state), no_legal_move (a role
// has none), max_steps (MaxSteps joint moves were played) or budget (the walk has used Budget
// CPU seconds; 0 means no budget). Output is flushed after every step, so a walk killed from
// outside still shows every step it finished. walk(Seed, MaxSteps) is walk(Seed, MaxSteps, 0).
// A differential test replays the same moves with our evaluator.
const WalkDriver = `
gdl_print_list(Tag, L) :- write(Tag), forall(member(X, L), (write(' '), gdl_kif(X))), nl.
gdl_print_role_list(Tag, R, L) :- write(Tag), write(' '), gdl_kif(R), forall(member(X, L), (write(' '), gdl_kif(X))), nl.
walk(Seed, Max) :- walk(Seed, Max, 0).
walk(Seed, Max, Budget) :-
    set_random(seed(Seed)),
    statistics(cputime, T0),
    ( Budget > 0 -> Deadline is T0 + Budget ; Deadline = none ),
    gdl_roles(Rs), gdl_init(S0), walk_step(Rs, S0, 0, Max, Deadline).
walk_step(Rs, S, N, Max, Deadline) :-
    gdl_set_state(S),
    gdl_print_list(state, S),
    findall(R-Ms, (member(R, Rs), gdl_legal(R, Ms)), Legal),
    forall(member(R-Ms, Legal), gdl_print_role_list(legal, R, Ms)),
    ( gdl_terminal -> T = true ; T = false ),
    write('terminal '), write(T), nl,
    forall(member(R, Rs), (gdl_goals(R, Gs), gdl_print_role_list(goal, R, Gs))),
    statistics(cputime, Now),
    (   T == true -> End = terminal
    ;   member(_-[], Legal) -> End = no_legal_move
    ;   N >= Max -> End = max_steps
    ;   Deadline \== none, Now > Deadline -> End = budget
    ;   End = none
    ),
    (   End \== none
    ->  write('end '), write(End), nl, flush_output
    ;   findall(M, (member(_-Ms, Legal), random_member(M, Ms)), Joint),
        gdl_print_list(does, Joint),
        flush_output,
        gdl_next(Rs, Joint, S1),
        N1 is N + 1,
        walk_step(Rs, S1, N1, Max, Deadline)
    ).
`

// PlayoutDriver is a program to load after a converted game. playouts(N, Seed) runs N random
// playouts (every role picks a uniformly random legal move until a terminal state, then the
// goals are read) and prints `playouts N seconds S per_second P`, timing the loop in CPU seconds.
const PlayoutDriver = `
playouts(N, Seed) :-
    set_random(seed(Seed)),
    gdl_roles(Rs), gdl_init(S0),
    statistics(cputime, T0),
    forall(between(1, N, _), playout(Rs, S0, 0)),
    statistics(cputime, T1),
    T is T1 - T0,
    ( T > 0 -> P is N / T ; P = inf ),
    format("playouts ~w seconds ~4f per_second ~1f~n", [N, T, P]).
playout(Rs, S, D) :-
    gdl_set_state(S),
    (   ( gdl_terminal ; D >= 1000 )
    ->  forall(member(R, Rs), gdl_goals(R, _))
    ;   findall(M, (member(R, Rs), gdl_legal(R, Ms), random_member(M, Ms)), Joint),
        gdl_next(Rs, Joint, S1),
        D1 is D + 1,
        playout(Rs, S1, D1)
    ).
`
