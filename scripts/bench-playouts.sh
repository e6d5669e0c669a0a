#!/usr/bin/env bash
# Random playouts per second of `gdl play` against SWI-Prolog running the same game (our Prolog
# translation plus a random-playout driver with the same loop: every role picks a uniformly
# random legal move until a terminal state, then the goals are read), side by side in one run,
# on ticTacToe and connectFour (ggp-base) and breakthrough (ggp-repository). Prints the ratios.
# Both sides time the playout loop only (not start-up, loading or compilation), in CPU seconds of
# their process: SWI-Prolog by statistics(cputime), gdl play by getrusage (every thread, so the
# garbage collector's work counts against gdl). CPU time is also steadier than wall time on a
# machine shared with other jobs; gdl's wall-clock figure is printed beside it.
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

printf '%-14s %14s %14s %8s %14s\n' game "gdl /CPU s" "swipl /CPU s" ratio "gdl /wall s"
for spec in \
	"ticTacToe ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif 4000 2000" \
	"connectFour ggp-org__ggp-base/games/games/connectFour/connectFour.kif 1000 300" \
	"breakthrough ggp-org__ggp-repository/war/root/games/breakthrough/breakthrough.kif 200 40"; do
	set -- $spec
	name=$1 path=$games/$2 ngdl=$3 nswi=$4
	"$T/gdl" convert --to prolog --driver playouts "$path" > "$T/$name.pl"
	: > "$T/$name.gdl.txt"
	: > "$T/$name.wall.txt"
	: > "$T/$name.swi.txt"
	for r in $(seq "$rounds"); do
		"$T/gdl" play "$path" --playouts "$ngdl" --seed "$r" --format json > "$T/$name.json"
		awk -F: '/"playouts_per_cpu_second"/ { gsub(/[ ,]/, "", $2); print $2 }' "$T/$name.json" >> "$T/$name.gdl.txt"
		awk -F: '/"playouts_per_second"/ { gsub(/[ ,]/, "", $2); print $2 }' "$T/$name.json" >> "$T/$name.wall.txt"
		swipl -q -g "consult('$T/$name.pl'),playouts($nswi,$r),halt" -t 'halt(1)' |
			awk '{ print $NF }' >> "$T/$name.swi.txt"
	done
	g=$(median < "$T/$name.gdl.txt")
	w=$(median < "$T/$name.wall.txt")
	s=$(median < "$T/$name.swi.txt")
	printf '%-14s %14.1f %14.1f %7.2fx %14.1f\n' "$name" "$g" "$s" "$(echo "$g $s" | awk '{ print $1 / $2 }')" "$w"
done
echo "(playouts per CPU second, medians of $rounds rounds; the ratio compares CPU figures; goal: at least 3x SWI-Prolog on each)"
