#!/usr/bin/env bash
# Random playouts per second of `gdl play` against SWI-Prolog running the same game (our Prolog
# translation plus a random-playout driver with the same loop: every role picks a uniformly
# random legal move until a terminal state, then the goals are read), side by side in one run,
# on ticTacToe and connectFour (ggp-base) and breakthrough (ggp-repository). Prints the ratios.
# Both sides time the playout loop only (not start-up, loading or compilation): SWI-Prolog in CPU
# seconds, gdl play by the clock, which on a busy machine can only understate gdl. The CPU-time
# figures of both sides come from `go test ./eval -bench Playout` (see docs/performance.md).
#
#   bash scripts/bench-playouts.sh [rounds]
#
# Needs swipl (Debian swi-prolog-nox) and ../shared/games beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
games=../shared/games
command -v swipl >/dev/null || { echo "swipl is not installed (apt-get install swi-prolog-nox)"; exit 2; }
[ -d "$games" ] || { echo "$games is not there"; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/gdl" ./cmd/gdl

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-14s %12s %12s %8s\n' game "gdl play/s" "swipl/s" ratio
for spec in \
	"ticTacToe ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif 4000 2000" \
	"connectFour ggp-org__ggp-base/games/games/connectFour/connectFour.kif 1000 300" \
	"breakthrough ggp-org__ggp-repository/war/root/games/breakthrough/breakthrough.kif 200 40"; do
	set -- $spec
	name=$1 path=$games/$2 ngdl=$3 nswi=$4
	"$T/gdl" convert --to prolog --driver playouts "$path" > "$T/$name.pl"
	: > "$T/$name.gdl.txt"
	: > "$T/$name.swi.txt"
	for r in $(seq "$rounds"); do
		"$T/gdl" play "$path" --playouts "$ngdl" --seed "$r" --format json |
			awk -F: '/"playouts_per_second"/ { gsub(/[ ,]/, "", $2); print $2 }' >> "$T/$name.gdl.txt"
		swipl -q -g "consult('$T/$name.pl'),playouts($nswi,$r),halt" -t 'halt(1)' |
			awk '{ print $NF }' >> "$T/$name.swi.txt"
	done
	g=$(median < "$T/$name.gdl.txt")
	s=$(median < "$T/$name.swi.txt")
	printf '%-14s %12.1f %12.1f %7.2fx\n' "$name" "$g" "$s" "$(echo "$g $s" | awk '{ print $1 / $2 }')"
done
echo "(medians of $rounds rounds; goal: at least 3x SWI-Prolog on each)"
