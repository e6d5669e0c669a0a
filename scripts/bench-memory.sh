#!/usr/bin/env bash
# The peak memory (maximum resident set size, /usr/bin/time) of each command that reads a game,
# on three generated games of about SIZE bytes: rules (layered relations over a successor chain,
# like internal/gengame), facts (two static facts per line, the shape that costs the most per
# byte) and junk (nothing but ')', a million errors per megabyte). The documented bound is
# about 100 times the file plus 1 GB (docs/performance.md, "Memory per command"); each line
# prints the figure and its ratio to the file. Runs under ulimit -v 4000000, as the tests do.
#
#   bash scripts/bench-memory.sh [--markdown] [SIZE]   (default: 15000000, below the 16 MiB input limit)
#
# --markdown prints one row of docs/performance.md's memory table per game instead (the usual
# report goes to standard error).
set -euo pipefail
cd "$(dirname "$0")/.."
markdown=0
if [ "${1:-}" = --markdown ]; then markdown=1; shift; fi
size=${1:-15000000}
if [ $markdown = 1 ]; then
	. scripts/markdown.sh
	md_start bash scripts/bench-memory.sh "$size"
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/gdl" ./cmd/gdl
export XDG_CACHE_HOME="$T/cache" # no grounding failure remembered from another run

awk -v size="$size" 'BEGIN {
	printf "(role red)\n(role blue)\n(init (control red))\n(<= (legal ?r noop) (role ?r) (not (true (control ?r))))\n"
	printf "(<= (legal ?r (step ?n)) (true (control ?r)) (num ?n))\n(<= (next (control blue)) (true (control red)))\n"
	printf "(<= (next (control red)) (true (control blue)))\n(<= terminal (true (count 100)))\n(<= (goal ?r 50) (role ?r))\n"
	n = 400
	for (i = 0; i < 100; i++) { s = sprintf("(num %d)\n(succ %d %d)\n", i, i, i + 1); printf "%s", s; n += length(s) }
	for (i = 0; n < size; i++) {
		s = sprintf("; layer %d\n(<= (rel%d ?x ?y)\n    (succ ?x ?z)\n    (rel%d ?z ?y)\n    (not (blocked%d ?x)))\n(<= (rel%d ?x ?x) (num ?x) (distinct ?x 0))\n(blocked%d %d)\n", i, i, int(i / 2), i % 7, i, i % 7, i % 100)
		printf "%s", s; n += length(s)
	}
}' >"$T/rules.kif"
awk -v size="$size" 'BEGIN {
	s = "(role a)\n(init (step 0))\n(<= (legal a go) (true (step ?x)))\n(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))\n(<= terminal (true (step 100)))\n(goal a 0)\n"
	printf "%s", s; n = length(s)
	for (i = 0; n < size; i++) { s = sprintf("(succ %d %d)\n(data%d %d %d)\n", i, i + 1, i % 1000, i, i * 7); printf "%s", s; n += length(s) }
}' >"$T/facts.kif"
head -c "$size" /dev/zero | tr '\0' ')' >"$T/junk.kif"

printf '%-6s %-7s %10s %8s\n' game command "peak MB" "x file"
declare -A what=([rules]="layered relations" [facts]="two facts per line" [junk]='nothing but `)`')
for g in rules facts junk; do
	f="$T/$g.kif"
	bytes=$(wc -c <"$f")
	figures="" worst=0
	for cmd in "check $f" "query $f terminal" "play $f --playouts 10" "render $f" "verify $f --max-states 100" "stats $f --max-states 100 --playouts 10"; do
		# The exit status does not matter here (junk has errors): only the peak.
		(ulimit -v 4000000; /usr/bin/time -f '%M' -o "$T/peak" "$T/gdl" $cmd >/dev/null 2>&1) || true
		kb=$(tail -1 "$T/peak")
		printf '%-6s %-7s %10.0f %8.0f\n' "$g" "${cmd%% *}" "$((kb / 1024))" "$(echo "$kb * 1024 / $bytes" | bc -l)"
		figures="${figures:+$figures, }${cmd%% *} $((kb / 1024)) MB ($(echo "$kb * 1024 / $bytes" | bc -l | xargs printf '%.0f')x)"
		if [ $((kb / 1024)) -gt "$worst" ]; then worst=$((kb / 1024)); fi
	done
	if [ $markdown = 1 ]; then
		# The bound: 100 times the file plus 1 GB (in MB of 2^20 bytes, as the peaks).
		bound=$((bytes * 100 / 1048576 + 1024))
		md_row "peak resident memory per command, $(awk -v b="$bytes" 'BEGIN { printf "%.3g", b / 1e6 }') MB of $g (${what[$g]})" "$figures" \
			"100x the file + 1 GB" "$([ "$worst" -le "$bound" ] && echo yes || echo "no (worst $worst MB, bound $bound MB)")"
	fi
done
