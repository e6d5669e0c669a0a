// Package bitboard holds, in its tests only, hand-written bitboard playouts of tic-tac-toe and
// Connect Four (ggp-base's ticTacToe.kif and connectFour.kif: the same rules, uniformly random
// legal moves for every role, the same terminal states and goals): the physical limit that
// scripts/bench-playouts.sh prints gdl's playout rate against. Nothing imports it.
package bitboard
