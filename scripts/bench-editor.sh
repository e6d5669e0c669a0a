#!/usr/bin/env bash
# The editor's speed and memory targets, measured on the real gdl binary over stdio.
#
#   bash scripts/bench-editor.sh [N]   issue 14's targets (BenchmarkEditorTargets,
#                                      lsp/targets_bench_test.go), N edits and N requests of each
#                                      kind (default 200), each figure beside its target:
#     edit -> diagnostics p95, 400 KB   at most 50 ms of wall time (a character typed into a rule in
#                                       the middle of a generated 400 KB game, then deleted)
#     hover, definition, references p95 at most 5 ms of wall time, on every name of the same file
#     every corpus file open            at most 200 MB resident (the 685 files of
#                                       ../shared/games/MANIFEST.tsv; without it, skipped)
#
#   bash scripts/bench-editor.sh scale [N]
#                                      issue 21's scale targets (BenchmarkScale,
#                                      lsp/scale_bench_test.go), N edits per input (default 40):
#                                      `gdl check` CPU and the server's CPU per edit on files made
#                                      of the real corpus's games (50 to 800 KB) and on the hostile
#                                      families (192 KB, 768 KB, 3 MB), the growth exponents, and a
#                                      hover sent while a 3 MB file is analysed; a Markdown table
#                                      for docs/performance.md. GDL_SCALE_ONLY=REGEX runs a part.
#
# Wall times on a shared machine follow its load, which is printed with the date before and
# after; the CPU times are the steadier figures.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load: $(uptime | sed 's/.*load average: //')"
if [ "${1:-}" = scale ]; then
	GDL_SCALE_EDITS=${2:-40} go test ./lsp -run '^$' -bench 'Scale' -benchtime 1x -timeout 90m 2>&1 |
		grep -v '^goos\|^goarch\|^pkg\|^cpu\|^Benchmark\|^PASS\|^ok '
else
	n=${1:-200}
	go test ./lsp -run '^$' -bench 'EditorTargets' -benchtime "${n}x" -timeout 30m 2>&1 |
		grep 'targets_bench_test.go' | grep -v ' 1 edits\| 1 requests' | sed 's/^ *targets_bench_test.go:[0-9]*: //' | awk '!seen[$0]++'
fi
echo "load after: $(uptime | sed 's/.*load average: //')"
