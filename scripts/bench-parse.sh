#!/bin/sh
# Parser benchmarks: full-parse throughput over the shared corpus games against go/parser on about
# as many bytes of Go standard library source, in one `go test -bench` run, and the cost of an
# edit inside one form of a 400 KB file. Prints the raw results, then the throughput ratio.
# Needs ../shared/games beside the repository. Usage: scripts/bench-parse.sh [benchtime] [count]
set -eu
cd "$(dirname "$0")/.."
benchtime=${1:-2s}
count=${2:-3}
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
