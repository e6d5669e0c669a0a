#!/usr/bin/env bash
# Win rates of the built-in Monte Carlo tree search player against random play, measured with
# `gdl play --players mcts,random` (seats rotated, so MCTS plays each role in half the matches):
# tic-tac-toe (ggp-base), where it must never lose, and connect four (ggp-base), where it must
# win at least 90% of the matches with 1 s per move. Each MCTS move takes its whole time, so the
# run lasts about (matches x moves per match / 2) x movetime: some 15 minutes with the defaults.
#
#   bash scripts/bench-player.sh [--markdown] [matches] [movetime]      (defaults: 50 and 1s)
#
# Needs ../shared/games beside the repository. Prints the tables and one line per target; with
# --markdown, one row of docs/performance.md's player table per game instead (the tables go to
# standard error).
set -euo pipefail
cd "$(dirname "$0")/.."
markdown=0
if [ "${1:-}" = --markdown ]; then markdown=1; shift; fi
matches=${1:-50}
movetime=${2:-1s}
if [ $markdown = 1 ]; then
	. scripts/markdown.sh
	md_start bash scripts/bench-player.sh "$matches" "$movetime"
fi
games=../shared/games
[ -d "$games" ] || { echo "$games is not there"; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/gdl" ./cmd/gdl

status=0
for spec in \
	"ticTacToe ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif losses 0" \
	"connectFour ggp-org__ggp-base/games/games/connectFour/connectFour.kif winrate 0.9"; do
	set -- $spec
	name=$1 file=$games/$2 what=$3 bound=$4
	"$T/gdl" play "$file" --players mcts,random --matches "$matches" --movetime "$movetime" --format json >"$T/$name.json"
	python3 - "$T/$name.json" "$name" "$what" "$bound" "$T/$name.row" <<'PY' || status=1
import json, sys
out = json.load(open(sys.argv[1]))
name, what, bound, row = sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
m = next(r for r in out["results"] if r["player"] == "mcts")
print(f"{name}: {out['matches']} matches, {out['movetime_seconds']} s per move, {out['seconds']:.0f} s in all; mean length {out['mean_length']:.1f}")
for r in [m] + m["by_role"]:
    label = r.get("role", "all roles")
    print(f"  mcts as {label:>10}: {r['matches']:3d} matches, {r['wins']:3d} wins, {r['draws']:3d} draws, {r['losses']:3d} losses, mean goal {r['mean_goal']:.1f}")
ok = m["losses"] <= bound if what == "losses" else m["win_rate"] >= bound
target = f"no loss" if what == "losses" else f"win rate >= {bound:.0%}"
print(f"  target {target}: {'met' if ok else 'MISSED'} (win rate {m['win_rate']:.1%}, {m['losses']} losses)")
# The row of the Markdown table: figure, measured, target, met (tab-separated).
roles = "; ".join(f"as {r['role']} {r['wins']} / {r['draws']} / {r['losses']}" for r in m["by_role"])
with open(row, "w") as f:
    f.write(f"{name}: MCTS against random play, {out['matches']} matches, {out['movetime_seconds']} s per move\t"
            f"{m['wins']} / {m['draws']} / {m['losses']} wins / draws / losses ({roles}; win rate {m['win_rate']:.0%}; {out['seconds']:.0f} s)\t"
            f"{target}\t{'yes' if ok else 'no'}\n")
sys.exit(0 if ok else 1)
PY
	if [ $markdown = 1 ] && [ -f "$T/$name.row" ]; then
		IFS='	' read -r figure measured target met <"$T/$name.row"
		md_row "$figure" "$measured" "$target" "$met"
	fi
done
exit $status
