#!/usr/bin/env bash
# Random playouts per CPU second of `gdl play` (engine auto) against SWI-Prolog running the same
# game: the faster of our translation with recursive relations tabled (`gdl convert --to prolog`)
# and the plain one (`--tabling none`), each with the playouts driver, whose loop is gdl play's
# (terminal -> goals; depth cap; every role picks a uniformly random legal move; next).
# Every measurement is the CPU time of its own process during the playouts only (not loading,
# converting or compiling): gdl play reports it (getrusage, every thread, so garbage collection
# counts against gdl), the Prolog driver reads statistics(cputime). On a machine shared with
# other jobs CPU time is the figure to trust; wall time is not used.
#
#   bash scripts/bench-playouts.sh [--quick] [--rounds N | N]
#       The games of issues 11 and 26 with their targets against SWI-Prolog (ticTacToe >= 40x,
#       connectFour >= 90x, breakthrough >= 550x, speedChess >= 350x, othello-comp2007 >= 10x,
#       chess.kif capped at 20 joint moves on both sides >= 30x) and, for ticTacToe and
#       connectFour, against a hand-written bitboard (internal/bitboard, the same games in plain
#       Go: gdl >= 1/4 of it). A calibration run per game and side picks the number of
#       playouts that takes at least 1 s of CPU (0.25 s with --quick); then, in each of N rounds
#       (3; 1 with --quick), every game runs on every side, the order of the sides alternating
#       from round to round, so that the load of the machine falls on all sides alike. Prints,
#       per game, the medians, the ratios against the faster Prolog side and the bitboard, the
#       targets and whether they are met, the engine and its compile time, and the mean playout
#       length on every side (they should agree: the same game, the same loop).
#
#   bash scripts/bench-playouts.sh --corpus [--quick] [--budget S] [--match REGEX] [--tsv FILE]
#       Every game of ../shared/games/MANIFEST.tsv of kind game (or those whose path matches
#       REGEX), one run per side with a budget of S seconds each (1; 0.25 with --quick): gdl play
#       --time S (after one playout that reads the engine and the cost of a playout), and the
#       driver stopping after S CPU seconds. Prints one line per game as it goes (engine, compile
#       time or why the game does not compile, the rates, the ratio), then a summary: the games
#       below 1x (worst first), the 15 worst ratios, the games skipped and why, the compile times
#       and the reasons games are not compiled. --tsv writes every game's figures to FILE.
#
#   --markdown (with either mode) prints the results as rows of docs/performance.md's tables
#       instead (the compiled engine's table, or the corpus sweep's rows); the usual report goes to
#       standard error.
#
# Every process has a hard limit of CPU time (ulimit -t: 600 s, 30 s in corpus mode) and of wall
# time; a side that hits it is reported, not measured. Needs swipl (Debian swi-prolog-nox) and
# ../shared/games beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

mode=issue quick=0 rounds="" budget="" match="" tsv="" markdown=0 args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--markdown) markdown=1 ;;
	--quick) quick=1 ;;
	--corpus) mode=corpus ;;
	--rounds) rounds=${2:?--rounds needs a number}; shift ;;
	--budget) budget=${2:?--budget needs seconds}; shift ;;
	--match) match=${2:?--match needs a regular expression}; shift ;;
	--tsv) tsv=${2:?--tsv needs a file}; shift ;;
	-h | --help) usage; exit 0 ;;
	[1-9] | [1-9][0-9]) rounds=$1 ;; # the number of rounds, as the script used to take it
	*) echo "bench-playouts.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
case ${rounds:-1} in '' | *[!0-9]* | 0) echo "bench-playouts.sh: --rounds must be a positive integer" >&2; exit 2 ;; esac
if [ -n "$budget" ] && ! awk -v b="$budget" 'BEGIN { exit !(b + 0 > 0) }'; then
	echo "bench-playouts.sh: --budget must be a positive number of seconds" >&2
	exit 2
fi

if [ $markdown = 1 ]; then
	. scripts/markdown.sh
	shown=()
	for a in "${args[@]}"; do [ "$a" = --markdown ] || shown+=("$a"); done
	md_start bash scripts/bench-playouts.sh ${shown[@]+"${shown[@]}"}
fi

games=../shared/games
command -v swipl >/dev/null || { echo "swipl is not installed (apt-get install swi-prolog-nox)" >&2; exit 2; }
[ -f "$games/MANIFEST.tsv" ] || { echo "$games/MANIFEST.tsv is not there" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/gdl" ./cmd/gdl

echo "bench-playouts.sh ($mode mode$([ $quick = 1 ] && echo ", quick")), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); $(uptime | sed 's/^ *//')"
echo "gdl $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo '+changes'), $(go version | cut -d' ' -f3), $(swipl --version)"
echo

# ---- Running one side --------------------------------------------------------------------------

# limited SECONDS CMD...: runs CMD with SECONDS of CPU time at most (ulimit -t) and four times as
# much wall time (a process waiting on a busy machine is not killed for it).
limited() {
	local cpu=$1
	shift
	( ulimit -t "$cpu"; exec timeout -k 5 $((cpu * 4 + 30)) "$@" )
}

# field FILE NAME: a top-level field of gdl play's JSON (strings without their quotes).
field() { sed -n "s/^  \"$2\": \(.*\)$/\1/p" "$1" | head -1 | sed 's/,$//; s/^"\(.*\)"$/\1/'; }

# gdl_run OUT HARD ARGS...: gdl play ARGS --format json into OUT; OUT.why says why it failed.
gdl_run() {
	local out=$1 hard=$2 rc=0
	shift 2
	limited "$hard" "$T/gdl" play "$@" --format json > "$out" 2> "$out.err" || rc=$?
	if grep -q '"playouts_per_cpu_second"' "$out"; then
		return 0
	fi
	case $rc in
	124 | 137 | 152) echo "no playout within the hard limit of ${hard}s CPU" > "$out.why" ;;
	*) echo "gdl play failed (exit $rc): $(grep -v '^\s*$' "$out.err" | tail -1 | sed 's/^gdl play: [^:]*: //; s/; fix the errors above//' | cut -c1-160)" > "$out.why" ;;
	esac
	return 1
}

# swi_run OUT HARD PROGRAM GOAL: runs the playouts driver's GOAL; OUT holds "DONE SECONDS RATE
# LENGTH", OUT.why why it failed.
swi_run() {
	local out=$1 hard=$2 pl=$3 goal=$4 rc=0
	limited "$hard" swipl -q -g "consult('$pl'),$goal,halt" -t 'halt(1)' > "$out.raw" 2> "$out.err" || rc=$?
	if [ $rc = 0 ] && ! grep -q ERROR "$out.err" && awk '$1 == "playouts" && $2 > 0 { ok = 1 } END { exit !ok }' "$out.raw"; then
		awk '$1 == "playouts" { print $2, $4, $6, $8 }' "$out.raw" > "$out"
		return 0
	fi
	case $rc in
	124 | 137 | 152) echo "no playout within the hard limit of ${hard}s CPU" > "$out.why" ;;
	*) echo "failed (exit $rc): $( (grep -m1 -A1 ERROR "$out.err" || tail -2 "$out.err") | tr '\n' ' ' | cut -c1-160)" > "$out.why" ;;
	esac
	return 1
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "" }'; }
# num X DECIMALS: X with that many decimals, or - when X is empty or not a number.
# Below 10, three decimals (the slowest games play less than a playout per second).
num() { awk -v x="$1" -v d="$2" 'BEGIN { if (x ~ /^[0-9.eE+-]+$/) printf "%.*f", (x < 10 && d < 3) ? 3 : d, x; else printf "%s", (x == "" ? "-" : x) }'; }
ceil() { awk -v x="$1" 'BEGIN { n = int(x); if (n < x) n++; if (n < 1) n = 1; print n }'; }

# ---- The issue's games -------------------------------------------------------------------------

# bitboard_run NAME SECONDS: the hand-written bitboard's playouts per CPU second of game NAME.
bitboard_run() {
	limited 600 "$T/bitboard.test" -test.run '^$' -test.bench "^BenchmarkPlayout/$1\$" -test.benchtime "${2}s" |
		awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "playouts/cpu-s") print $i }'
}

issue_mode() {
	local target_cpu=1 hard=600 r=${rounds:-3}
	if [ $quick = 1 ]; then target_cpu=0.25 r=${rounds:-1}; fi
	local specs=(
		"ticTacToe|ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif|1000|40|0.25"
		"connectFour|ggp-org__ggp-base/games/games/connectFour/connectFour.kif|1000|90|0.25"
		"breakthrough|ggp-org__ggp-repository/war/root/games/breakthrough/breakthrough.kif|1000|550|"
		"speedChess|ggp-org__ggp-repository/war/root/games/speedChess/speedChess.kif|1000|350|"
		"othello-comp2007|ggp-org__ggp-repository/war/root/games/othello-comp2007/othello-comp2007.kif|1000|10|"
		"chess(20)|ggp-org__ggp-repository/war/root/games/chess/chess.kif|20|30|"
	)
	local spec name path depth target bbt side n k cpu
	go test -c -o "$T/bitboard.test" ./internal/bitboard
	echo "calibrating: playouts per side for at least ${target_cpu}s of CPU each"
	for spec in "${specs[@]}"; do
		IFS='|' read -r name path depth target bbt <<< "$spec"
		path=$games/$path
		[ -f "$path" ] || { echo "$path is not there" >&2; exit 2; }
		"$T/gdl" convert --to prolog --tabling recursive --driver playouts "$path" > "$T/$name.tabled.pl"
		"$T/gdl" convert --to prolog --tabling none --driver playouts "$path" > "$T/$name.plain.pl"
		# gdl: grow the number of playouts until one run takes the target CPU time.
		k=1
		while :; do
			gdl_run "$T/$name.cal.json" "$hard" "$path" --playouts "$k" --seed 1 --max-depth "$depth" ||
				{ echo "$name: $(cat "$T/$name.cal.json.why")" >&2; exit 1; }
			cpu=$(field "$T/$name.cal.json" cpu_seconds)
			if awk -v c="$cpu" -v t="$target_cpu" 'BEGIN { exit !(c >= t) }'; then break; fi
			k=$(awk -v k="$k" -v c="$cpu" -v t="$target_cpu" 'BEGIN {
				n = (c > 0) ? k * 1.25 * t / c : k * 100
				if (n > k * 100) n = k * 100
				if (n < k * 2) n = k * 2
				printf "%d", n }')
		done
		echo "$k" > "$T/$name.n.gdl"
		for side in tabled plain; do
			if swi_run "$T/$name.cal.$side" "$hard" "$T/$name.$side.pl" "playouts(1000000000, 1, $depth, $target_cpu)"; then
				read -r n _ < "$T/$name.cal.$side"
				ceil "$n * 1.1" > "$T/$name.n.$side"
			else
				echo "0" > "$T/$name.n.$side"
				cp "$T/$name.cal.$side.why" "$T/$name.why.$side"
			fi
		done
		printf '  %-17s gdl %8d   tabled %7d   plain %7d\n' "$name" "$k" "$(cat "$T/$name.n.tabled")" "$(cat "$T/$name.n.plain")"
	done
	local round order
	for round in $(seq "$r"); do
		echo "round $round of $r"
		for spec in "${specs[@]}"; do
			IFS='|' read -r name path depth target bbt <<< "$spec"
			path=$games/$path
			order="gdl bitboard tabled plain"
			[ $((round % 2)) = 0 ] && order="plain tabled bitboard gdl"
			for side in $order; do
				if [ "$side" = bitboard ]; then
					[ -n "$bbt" ] && bitboard_run "$name" "$target_cpu" >> "$T/$name.rate.bitboard"
					continue
				fi
				n=$(cat "$T/$name.n.$side")
				[ "$n" = 0 ] && continue
				if [ "$side" = gdl ]; then
					if gdl_run "$T/$name.json" "$hard" "$path" --playouts "$n" --seed "$round" --max-depth "$depth"; then
						field "$T/$name.json" playouts_per_cpu_second >> "$T/$name.rate.gdl"
						field "$T/$name.json" mean_length >> "$T/$name.len.gdl"
						field "$T/$name.json" compile_seconds >> "$T/$name.compile"
						field "$T/$name.json" engine > "$T/$name.engine"
						field "$T/$name.json" engine_reason > "$T/$name.reason"
					else
						cp "$T/$name.json.why" "$T/$name.why.gdl"
					fi
				elif swi_run "$T/$name.out.$side" "$hard" "$T/$name.$side.pl" "playouts($n, $round, $depth, 0)"; then
					awk '{ print $3 }' "$T/$name.out.$side" >> "$T/$name.rate.$side"
					awk '{ print $4 }' "$T/$name.out.$side" >> "$T/$name.len.$side"
				else
					cp "$T/$name.out.$side.why" "$T/$name.why.$side"
				fi
			done
		done
	done
	echo
	printf '%-17s %12s %12s %12s %9s %7s %12s %8s %6s %4s  %-11s %8s  %s\n' game "gdl /CPU s" "tabled" "plain" ratio target \
		bitboard ratio target met engine compile "mean length gdl/swi"
	local g tb pl bb best ratio bratio met eng comp lg lsw notes=()
	for spec in "${specs[@]}"; do
		IFS='|' read -r name path depth target bbt <<< "$spec"
		g=$(median < "$T/$name.rate.gdl" 2>/dev/null || true)
		tb=$(median < "$T/$name.rate.tabled" 2>/dev/null || true)
		pl=$(median < "$T/$name.rate.plain" 2>/dev/null || true)
		best=$(printf '%s\n%s\n' "$tb" "$pl" | awk 'NF && $1 > m { m = $1 } END { print m + 0 }')
		bb=""
		[ -f "$T/$name.rate.bitboard" ] && bb=$(median < "$T/$name.rate.bitboard")
		ratio=- bratio=- met=-
		if [ -n "$g" ] && awk -v b="$best" 'BEGIN { exit !(b > 0) }'; then
			ratio=$(awk -v g="$g" -v b="$best" 'BEGIN { printf (g / b < 1) ? "%.4fx" : "%.2fx", g / b }')
			met=$(awk -v g="$g" -v b="$best" -v t="$target" 'BEGIN { print (g / b >= t) ? "yes" : "no" }')
		fi
		if [ -n "$g" ] && [ -n "$bb" ] && [ -n "$bbt" ]; then
			bratio=$(awk -v g="$g" -v b="$bb" 'BEGIN { printf "1/%.2f", b / g }')
			[ "$met" = yes ] && met=$(awk -v g="$g" -v b="$bb" -v t="$bbt" 'BEGIN { print (g / b >= t) ? "yes" : "no" }')
		fi
		eng=$(cat "$T/$name.engine" 2>/dev/null || echo -)
		comp=$(median < "$T/$name.compile" 2>/dev/null || true)
		[ "$eng" = compiled ] && comp=$(awk -v c="$comp" 'BEGIN { printf "%.3fs", c }') || comp=-
		lg=$(median < "$T/$name.len.gdl" 2>/dev/null || true)
		lsw=$(cat "$T/$name.len.tabled" "$T/$name.len.plain" 2>/dev/null | median)
		printf '%-17s %12s %12s %12s %9s %6sx %12s %8s %6s %4s  %-11s %8s  %s / %s\n' "$name" "$(num "$g" 1)" "$(num "$tb" 1)" "$(num "$pl" 1)" \
			"$ratio" "$target" "$(num "$bb" 1)" "$bratio" "$( [ -n "$bbt" ] && awk -v t="$bbt" 'BEGIN { printf "1/%g", 1 / t }' || echo -)" \
			"$met" "$eng" "$comp" "$(num "$lg" 2)" "$(num "$lsw" 2)"
		for side in gdl tabled plain; do
			[ -f "$T/$name.why.$side" ] && notes+=("$name, $side: $(cat "$T/$name.why.$side")")
		done
		[ $markdown = 1 ] && issue_rows

		[ "$eng" = interpreted ] && notes+=("$name: interpreted: $(cat "$T/$name.reason")")
	done
	echo
	echo "(playouts per CPU second, medians of $r round(s); ratio = gdl / the faster of tabled and plain SWI-Prolog;"
	echo " bitboard = internal/bitboard's hand-written playouts of the same game, and gdl's ratio to it;"
	echo " compile = grounding and building the network, not timed in the rates; chess(20): playouts capped at 20 joint moves on both sides)"
	echo "per round (playouts per CPU second, in round order):"
	for spec in "${specs[@]}"; do
		IFS='|' read -r name _ <<< "$spec"
		printf '  %-17s' "$name"
		for side in gdl bitboard tabled plain; do
			[ -f "$T/$name.rate.$side" ] || continue
			printf ' %s: %s;' "$side" "$(tr '\n' ' ' < "$T/$name.rate.$side" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) printf "%s%s", (i > 1 ? " " : ""), ($i < 10 ? sprintf("%.3f", $i) : sprintf("%.1f", $i)) }')"
		done
		echo
	done
	for n in "${notes[@]}"; do echo "note: $n"; done
	echo "after: $(uptime | sed 's/^ *//')"
}

# issue_rows: the Markdown rows of one game of issue_mode (its variables): the ratio against
# SWI-Prolog and, for the games that have one, against the bitboard.
issue_rows() {
	local what="$name: playouts per CPU second against SWI-Prolog" ok=no
	[ "$name" = "chess(20)" ] && what="chess.kif, 20 joint moves: playouts per CPU second against SWI-Prolog"
	if [ "$ratio" = - ]; then
		md_row "$what" "not measured (see the notes of the report)" "${target}x" no
	else
		awk -v g="$g" -v b="$best" -v t="$target" 'BEGIN { exit !(g / b >= t) }' && ok=yes
		local r
		r=$(awk -v g="$g" -v b="$best" 'BEGIN { print g / b }')
		r=$(md_num "$r" "$(awk -v r="$r" 'BEGIN { print (r >= 100) ? 0 : 2 }')")
		md_row "$what" "${r}x (gdl $(md_num "$g"), SWI-Prolog $(md_num "$best"); $eng$( [ "$eng" = compiled ] && echo ", compile ${comp%s} s"))" \
			"${target}x" "$ok"
	fi
	[ -n "$bbt" ] || return 0
	ok=no
	[ "$bratio" != - ] && awk -v g="$g" -v b="$bb" -v t="$bbt" 'BEGIN { exit !(g / b >= t) }' && ok=yes
	md_row "$name: gdl against the hand-written bitboard (internal/bitboard)" "$bratio (bitboard $(md_num "$bb"))" \
		"$(awk -v t="$bbt" 'BEGIN { printf "1/%g", 1 / t }')" "$ok"
}

# ---- The corpus sweep --------------------------------------------------------------------------

corpus_mode() {
	local b=${budget:-1} hard=30 big=1000000000
	[ $quick = 1 ] && b=${budget:-0.25}
	local list=$T/games.txt
	awk -F'\t' 'NR > 1 && $7 == "game" { print $1 }' "$games/MANIFEST.tsv" > "$list"
	if [ -n "$match" ]; then
		grep -E -- "$match" "$list" > "$list.m" || true
		mv "$list.m" "$list"
	fi
	local total i=0 rel path eng why comp c1 g gl gn swiside tb pl tl pll best ratio flag skip note
	total=$(wc -l < "$list")
	local res=$T/results.tsv
	printf 'game\tengine\tcompile_seconds\tengine_reason\tgdl_per_cpu_s\tgdl_playouts\tgdl_mean_length\ttabled_per_cpu_s\tplain_per_cpu_s\tswi_mean_length\tratio\tskip\tnotes\n' > "$res"
	echo "corpus sweep: $total games; budget ${b}s per game and side; hard limit ${hard}s CPU per process"
	printf '%-4s %-60s %-11s %8s %11s %11s %11s %9s\n' "#" game engine compile "gdl /CPU s" "tabled" "plain" ratio
	while IFS= read -r rel; do
		i=$((i + 1))
		path=$games/$rel
		rm -f "$T"/cur.*
		eng=- why="" comp="" g="" gn="" gl="" tb="" pl="" tl="" pll="" ratio="" skip="" note=""
		local order="gdl swi"
		[ $((i % 2)) = 0 ] && order="swi gdl"
		for side in $order; do
			if [ "$side" = gdl ]; then
				# One playout first: the engine, its compile time and the cost of a playout. A
				# game slower than 16 playouts in the budget (gdl play checks --time every 16
				# playouts) then gets a number of playouts instead of --time.
				if gdl_run "$T/cur.g1.json" "$hard" "$path" --playouts 1 --seed 1; then
					eng=$(field "$T/cur.g1.json" engine)
					why=$(field "$T/cur.g1.json" engine_reason)
					comp=$(field "$T/cur.g1.json" compile_seconds)
					c1=$(field "$T/cur.g1.json" cpu_seconds)
					local n2 out=$T/cur.g2.json e2=auto
					# The interpreter again without a second try at grounding; a compiled game
					# again with auto, since grounding has a budget of wall time that a busy
					# machine can make it miss.
					[ "$eng" = interpreted ] && e2=interpreted
					n2=$(awk -v c="$c1" -v b="$b" 'BEGIN { if (c * 16 > b) { n = int(b / c); if (n < 1) n = 1; print n } else print 0 }')
					if [ "$n2" = 1 ]; then
						out=$T/cur.g1.json
					elif [ "$n2" = 0 ]; then
						# --time bounds the whole run, compiling included: the budget plus three
						# times the first run's compile time (the rate is per CPU second of the
						# playouts alone either way).
						local tb
						tb=$(awk -v b="$b" -v c="${comp:-0}" 'BEGIN { printf "%.3f", b + 3 * (c + 0) }')
						gdl_run "$out" "$hard" "$path" --engine "$e2" --playouts "$big" --time "${tb}s" --seed 2 || out=""
					else
						gdl_run "$out" "$hard" "$path" --engine "$e2" --playouts "$n2" --seed 2 || out=""
					fi
					if [ -n "$out" ] && [ "$(field "$out" engine)" != "$eng" ]; then
						note="gdl: compiled in the first run, interpreted in the second ($(field "$out" engine_reason))"
						eng=$(field "$out" engine) comp="" why=$(field "$out" engine_reason)
					fi
					if [ -n "$out" ]; then
						g=$(field "$out" playouts_per_cpu_second)
						gn=$(field "$out" playouts)
						gl=$(field "$out" mean_length)
						grep -q '"kind": "eval-error"' "$out" && note="gdl: evaluation errors in playouts"
					else
						skip="gdl: $(cat "$T/cur.g2.json.why")"
					fi
				else
					skip="gdl: $(cat "$T/cur.g1.json.why")"
				fi
			else
				if ! "$T/gdl" convert --to prolog --driver playouts "$path" > "$T/cur.tabled.pl" 2> "$T/cur.conv.err"; then
					tb=refused pl=refused
					continue
				fi
				"$T/gdl" convert --to prolog --tabling none --driver playouts "$path" > "$T/cur.plain.pl"
				local lim=$hard
				for swiside in tabled plain; do
					if swi_run "$T/cur.$swiside" "$lim" "$T/cur.$swiside.pl" "playouts($big, 1, 1000, $b)"; then
						read -r _ _ rate len < "$T/cur.$swiside"
						[ $swiside = tabled ] && { tb=$rate tl=$len; } || { pl=$rate pll=$len; }
						# The plain translation loops forever on some games (left recursion, a
						# cycle): it gets the time to be at most 10 times slower than the tabled
						# one, not the whole hard limit.
						[ $swiside = tabled ] && lim=$(awk -v b="$b" -v r="$rate" -v h="$hard" 'BEGIN {
							l = int(3 + b + 10 / r); print (l < h) ? l : h }')
					else
						[ $swiside = tabled ] && tb="x" || pl="x"
						note="${note:+$note; }$swiside: $(cat "$T/cur.$swiside.why")"
					fi
				done
			fi
		done
		best=$(printf '%s\n%s\n' "$tb" "$pl" | awk '$1 ~ /^[0-9.]+$/ && $1 > m { m = $1 } END { print m + 0 }')
		if [ "$tb" = refused ]; then
			skip="${skip:+$skip; }convert refused it: $(grep -m1 'error' "$T/cur.conv.err" | sed 's/^[^:]*:[0-9]*:[0-9]*: error: //' | cut -c1-100)"
		elif ! awk -v b="$best" 'BEGIN { exit !(b > 0) }'; then
			skip="${skip:+$skip; }SWI-Prolog: no measurement (tabled and plain failed)"
		fi
		if [ -z "$skip" ]; then
			ratio=$(awk -v g="$g" -v b="$best" 'BEGIN { printf "%.3f", g / b }')
		elif [[ $skip == "gdl: no playout within"* ]] && awk -v b="$best" -v h="$hard" 'BEGIN { exit !(b > 1 / (h - 6)) }'; then
			# gdl did not finish one playout in the hard limit (less the allowance of 6 s for
			# loading and grounding) while SWI-Prolog played faster than that: below 1x for sure.
			ratio=$(awk -v b="$best" -v h="$hard" 'BEGIN { printf "<%.3f", 1 / (h - 6) / b }')
			skip=""
		fi
		flag=""
		[ -n "$ratio" ] && awk -v r="${ratio#<}" 'BEGIN { exit !(r < 1) }' && flag="  BELOW 1x"
		printf '%-4s %-60s %-11s %8s %11s %11s %11s %9s%s\n' "$i" "$(echo "$rel" | cut -c1-60)" "$eng" \
			"$( [ "$eng" = compiled ] && awk -v c="$comp" 'BEGIN { printf "%.3fs", c }' || echo -)" \
			"$(num "$g" 1)" "$(num "$tb" 1)" "$(num "$pl" 1)" \
			"$( [ -n "$ratio" ] && echo "${ratio}x" || echo "skipped")" "$flag"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rel" "$eng" "$comp" "$why" "$g" "$gn" "$gl" "$tb" "$pl" \
			"${tl:-$pll}" "$ratio" "$skip" "$note" >> "$res"
	done < "$list"
	[ -n "$tsv" ] && cp "$res" "$tsv"
	corpus_summary "$res" "$b"
}

corpus_summary() {
	local res=$1 b=$2
	echo
	awk -F'\t' -v b="$b" '
	NR == 1 { next }
	{ n++ }
	$11 != "" { r = $11; sub(/^</, "", r); measured++; ratio[$1] = r + 0; shown[$1] = $11; engine[$1] = $2; gdl[$1] = $5; tab[$1] = $8; pl[$1] = $9 }
	$11 != "" && ratio[$1] < 1 { below++ }
	$12 != "" { skipped++; skip[$1] = $12 }
	$2 == "compiled" { compiled++; comp[$1] = $3 + 0 }
	$2 == "interpreted" { interp++; why = $4; sub(/: .*/, "", why); reasons[why]++; rgames[why] = rgames[why] (rgames[why] ? ", " : "") $1 }
	$13 != "" { notes[$1] = $13 }
	function fmt(x) { return (x !~ /^[0-9.eE+-]+$/) ? x : (x < 10) ? sprintf("%.3f", x) : sprintf("%.1f", x) }
	function show(g) {
		printf "  %-9s %-62s %-11s gdl %10s  tabled %10s  plain %10s\n", shown[g] "x", g, engine[g], fmt(gdl[g]), fmt(tab[g]), fmt(pl[g])
	}
	END {
		printf "summary: %d games; %d measured on both sides, %d skipped; %d compiled, %d interpreted\n", n, measured, skipped, compiled, interp
		# the games below 1x, worst first
		m = 0
		for (g in ratio) if (ratio[g] < 1) order[++m] = g
		sortby(order, m)
		printf "\ngames below 1x (%d), worst first:\n", m
		for (j = 1; j <= m; j++) show(order[j])
		k = 0
		for (g in ratio) if (ratio[g] >= 1) all[++k] = g
		sortby(all, k)
		printf "\nthe 15 lowest ratios at or above 1x:\n"
		for (j = 1; j <= k && j <= 15; j++) show(all[j])
		printf "\nskipped (%d):\n", skipped
		for (g in skip) printf "  %s: %s\n", g, skip[g]
		printf "\nnotes (a Prolog side that failed while the other ran, evaluation errors in playouts):\n"
		for (g in notes) printf "  %s: %s\n", g, notes[g]
		# compile times
		c = 0
		for (g in comp) { ct[++c] = g }
		for (i = 2; i <= c; i++) { x = ct[i]; for (j = i - 1; j >= 1 && comp[ct[j]] < comp[x]; j--) ct[j + 1] = ct[j]; ct[j + 1] = x }
		if (c) {
			for (i = 1; i <= c; i++) { x = comp[ct[i]]; h[x < 0.01 ? 1 : x < 0.1 ? 2 : x < 1 ? 3 : x < 5 ? 4 : 5]++ }
			printf "\ncompile times (%d games): median %.3fs; under 10 ms %d, 10-100 ms %d, 0.1-1 s %d, 1-5 s %d, 5 s and more %d; the slowest:\n", c, comp[ct[int((c + 1) / 2)]], h[1], h[2], h[3], h[4], h[5]
			for (i = 1; i <= c && i <= 10; i++) printf "  %8.3fs  %s\n", comp[ct[i]], ct[i]
		}
		printf "\nwhy games are not compiled (%d):\n", interp
		for (w in reasons) printf "  %d: %s: %s\n", reasons[w], w, rgames[w]
	}
	function sortby(a, n,   i, j, x) {
		for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && ratio[a[j]] > ratio[x]; j--) a[j + 1] = a[j]; a[j + 1] = x }
	}' "$res"
	[ $markdown = 1 ] && corpus_rows "$res"
	echo "(ratio = gdl / the faster of tabled and plain SWI-Prolog, playouts per CPU second, one run of about ${b}s per side;"
	echo " <R: gdl finished no playout within the hard limit while SWI-Prolog did; the compile time is grounding and building the network)"
	echo "after: $(uptime | sed 's/^ *//')"
}

# corpus_rows RESULTS: the Markdown rows of a corpus sweep: the games below 1x, the lowest ratios,
# and how many games run on which engine.
corpus_rows() {
	awk -F'\t' 'NR > 1 {
		n++
		if ($2 == "compiled") c++; else if ($2 == "interpreted") i++
		if ($12 != "") s++
		if ($11 == "") next
		r = $11; sub(/^</, "", r); m++; ratio[m] = r + 0; eng[m] = $2
		g = $1; sub(/\.kif$/, "", g); sub(/.*\//, "", g); game[m] = g
	}
	# x, as the tables write a ratio: no decimals from 100 on, thousands separated by commas
	function fmt(x,   s, t) {
		if (x < 100) return sprintf("%.2f", x)
		s = sprintf("%.0f", x); t = ""
		while (length(s) > 3) { t = "," substr(s, length(s) - 2) t; s = substr(s, 1, length(s) - 3) }
		return s t
	}
	END {
		for (a = 2; a <= m; a++) { x = ratio[a]; y = game[a]; z = eng[a]
			for (b = a - 1; b >= 1 && ratio[b] > x; b--) { ratio[b + 1] = ratio[b]; game[b + 1] = game[b]; eng[b + 1] = eng[b] }
			ratio[b + 1] = x; game[b + 1] = y; eng[b + 1] = z }
		below = ""; nb = 0
		for (a = 1; a <= m && ratio[a] < 1; a++) { nb++; below = below (nb > 1 ? ", " : "") game[a] " " fmt(ratio[a]) "x" }
		low = ""
		for (k = a; k < a + 5 && k <= m; k++) low = low (k > a ? ", " : "") game[k] " " fmt(ratio[k]) "x (" eng[k] ")"
		printf "corpus games below 1x against SWI-Prolog\t%d of %d measured%s%s\tnone\t%s\n", nb, m, (nb ? ": " below : ""),
			(low != "" ? "; the lowest others " low : ""), (nb ? "no" : "yes")
		if (m) printf "corpus: median ratio\t%sx (%d games measured on both sides)\t-\t-\n", fmt(ratio[int((m + 1) / 2)]), m
		printf "corpus: games per engine\t%d games: %d compiled, %d interpreted, %d skipped\t-\t-\n", n, c, i, s
	}' "$1" | while IFS=$'\t' read -r figure measured target met; do md_row "$figure" "$measured" "$target" "$met"; done
}

if [ "$mode" = corpus ]; then corpus_mode; else issue_mode; fi
