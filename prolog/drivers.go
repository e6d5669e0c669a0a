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

// PlayoutDriver is a program to load after a converted game. playouts(N, Seed, MaxDepth, Budget)
// runs random playouts with the loop of `gdl play`: in each state, a terminal state ends the
// playout (the goals of every role are read), MaxDepth joint moves played end it (goals are not
// read), a role without a legal move ends it, and otherwise every role picks a uniformly random
// legal move. It stops after N playouts, or once Budget CPU seconds have passed (0: no budget;
// checked between playouts, so at least one playout is played), and prints
//
//	playouts DONE seconds S per_second P mean_length L
//
// timing the loop (not loading the program) by statistics(cputime); L is the mean number of
// joint moves per playout. playouts(N, Seed) is playouts(N, Seed, 1000, 0), as `gdl play`
// without flags.
const PlayoutDriver = `
playouts(N, Seed) :- playouts(N, Seed, 1000, 0).
playouts(N, Seed, Max, Budget) :-
    set_random(seed(Seed)),
    gdl_roles(Rs), gdl_init(S0),
    statistics(cputime, T0),
    ( Budget > 0 -> Deadline is T0 + Budget ; Deadline = none ),
    playouts_loop(0, N, Rs, S0, Max, Deadline, 0, Done, Moves),
    statistics(cputime, T1),
    T is T1 - T0,
    ( T > 0 -> P is Done / T ; P = inf ),
    ( Done > 0 -> L is Moves / Done ; L = 0 ),
    format("playouts ~w seconds ~4f per_second ~4f mean_length ~2f~n", [Done, T, P, L]).
playouts_loop(I, N, Rs, S0, Max, Deadline, Moves0, Done, Moves) :-
    (   I >= N -> Done = I, Moves = Moves0
    ;   I > 0, Deadline \== none, statistics(cputime, Now), Now >= Deadline -> Done = I, Moves = Moves0
    ;   playout(Rs, S0, 0, Max, Length),
        I1 is I + 1,
        Moves1 is Moves0 + Length,
        playouts_loop(I1, N, Rs, S0, Max, Deadline, Moves1, Done, Moves)
    ).
playout(Rs, S, D, Max, Length) :-
    gdl_set_state(S),
    (   gdl_terminal -> forall(member(R, Rs), gdl_goals(R, _)), Length = D
    ;   D >= Max -> Length = D
    ;   findall(Ms, (member(R, Rs), gdl_legal(R, Ms)), Legal),
        (   memberchk([], Legal) -> Length = D
        ;   maplist(playout_pick, Legal, Joint),
            gdl_next(Rs, Joint, S1),
            D1 is D + 1,
            playout(Rs, S1, D1, Max, Length)
        )
    ).
playout_pick(Ms, M) :- random_member(M, Ms).
`
