#!/bin/sh
# Parser benchmarks: full-parse throughput over the shared corpus games against go/parser on about
# as many bytes of Go standard library source, in one `go test -bench` run, and the cost of an
# edit inside one form of a 400 KB file. Prints the raw results, then the throughput ratio.
# Needs ../shared/games beside the repository.
#
#   scripts/bench-parse.sh [--markdown] [benchtime] [count]      (defaults: 2s and 3)
#
# --markdown prints the figures as rows of docs/performance.md's parser table instead (the usual
# report goes to standard error).
set -eu
cd "$(dirname "$0")/.."
markdown=0
if [ "${1:-}" = --markdown ]; then markdown=1; shift; fi
benchtime=${1:-2s}
count=${2:-3}
if [ $markdown = 1 ]; then
	. scripts/markdown.sh
	md_start bash scripts/bench-parse.sh "$benchtime" "$count"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test ./syntax -run '^$' -bench '^(BenchmarkParseCorpus|BenchmarkGoParser|BenchmarkEdit400KB|BenchmarkParseForm|BenchmarkEditUnclosed400KB)$' \
	-benchtime "$benchtime" -count "$count" | tee "$out"
awk '
/^BenchmarkParseCorpus/ { for (i = 1; i <= NF; i++) if ($(i+1) == "MB/s") { gdl += $i; ng++ } }
/^BenchmarkGoParser/    { for (i = 1; i <= NF; i++) if ($(i+1) == "MB/s") { gop += $i; np++ } }
/^BenchmarkEdit400KB/   { for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") { ed += $i; ne++ } }
/^BenchmarkEditUnclosed400KB/ { for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") { eu += $i; nu++ } }
/^BenchmarkParseForm/   { for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") { pf += $i; nf++ } }
END {
	if (!ng || !np) { print "missing benchmark results (is ../shared/games there?)"; exit 1 }
	printf "\nGDL parser:  %7.1f MB/s (mean of %d)\n", gdl / ng, ng
	printf "go/parser:   %7.1f MB/s (mean of %d)\n", gop / np, np
	printf "ratio:       %7.2fx go/parser (goal: at least 1.0x)\n", (gdl / ng) / (gop / np)
	if (ne) printf "400 KB edit: %7.1f us per edit (one iteration types and deletes a character: 2 edits)\n", ed / ne / 2 / 1000
	if (nf) printf "edited form: %7.1f us to parse it alone\n", pf / nf / 1000
	if (nu) printf "unclosed:    %7.1f us per edit inside a form not closed yet (the rest of the file is rescanned)\n", eu / nu / 2 / 1000
}' "$out"
[ $markdown = 1 ] || exit 0
# The same means, as table rows: figure, measured, target, met.
awk '
function mean(name, unit,   i, j, s, n) {
	s = n = 0
	for (i = 1; i <= NR; i++) if (f[i, 1] ~ ("^" name "(-[0-9]+)?$"))
		for (j = 1; j < nf[i]; j++) if (f[i, j + 1] == unit) { s += f[i, j]; n++ }
	return n ? s / n : -1
}
{ nf[NR] = NF; for (j = 1; j <= NF; j++) f[NR, j] = $j }
END {
	g = mean("BenchmarkParseCorpus", "MB/s"); p = mean("BenchmarkGoParser", "MB/s")
	printf "full parse of the corpus (581 games, 4.9 MB) against go/parser\t%.2fx (%.1f against %.1f MB/s)\tat least 1.0x\t%s\n", g / p, g, p, (g >= p) ? "yes" : "no"
	if ((e = mean("BenchmarkEdit400KB", "ns/op")) > 0)
		printf "an edit inside one form of a 400 KB file\t%.0f µs\t-\t-\n", e / 2000
	if ((e = mean("BenchmarkParseForm", "ns/op")) > 0)
		printf "parsing the edited form alone\t%.1f µs\t-\t-\n", e / 1000
	if ((e = mean("BenchmarkEditUnclosed400KB", "ns/op")) > 0)
		printf "an edit inside a form not closed yet, 400 KB file\t%.0f µs\t-\t-\n", e / 2000
}' "$out" | while IFS='	' read -r figure measured target met; do
	md_row "$figure" "$measured" "$target" "$met"
done
