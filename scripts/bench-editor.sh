#!/usr/bin/env bash
# The editor's speed and memory targets (issue 14), measured on the real gdl binary over stdio by
# BenchmarkEditorTargets (lsp/targets_bench_test.go), each figure printed beside its target:
#
#   edit -> diagnostics p95, 400 KB   at most 50 ms of wall time (a character typed into a rule in
#                                     the middle of a generated 400 KB game, then deleted)
#   hover, definition, references p95 at most 5 ms of wall time, on every name of the same file
#   every corpus file open            at most 200 MB resident (the 685 files of
#                                     ../shared/games/MANIFEST.tsv; without it, skipped)
#
#   bash scripts/bench-editor.sh [N]      N edits and N requests of each kind (default 200)
#
# Wall times on a shared machine follow its load, which is printed with the date before and
# after; the server's CPU time is printed beside each (the steadier figure).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load: $(uptime | sed 's/.*load average: //')"
go test ./lsp -run '^$' -bench 'EditorTargets' -benchtime "${n}x" -timeout 30m 2>&1 |
	grep 'targets_bench_test.go' | grep -v ' 1 edits\| 1 requests' | sed 's/^ *targets_bench_test.go:[0-9]*: //' | awk '!seen[$0]++'
echo "load after: $(uptime | sed 's/.*load average: //')"
