#!/usr/bin/env bash
# Neovim 0.7 with the filetype detection and the fuller setup of docs/editors.md against a real
# `gdl lsp`:
#   GDL_BIN=/path/to/gdl bash vscode-extension/test/editors/nvim_test.sh
# Without GDL_BIN the server is built with `go build ./cmd/gdl`. Installs neovim if missing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/gdl-nvim.XXXXXX")
trap 'rm -rf "$T"' EXIT

if ! command -v nvim >/dev/null; then
  echo "nvim_test: apt-get install neovim"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q neovim >/dev/null
fi
if [ -z "${GDL_BIN:-}" ]; then
  (cd "$REPO" && go build -o "$T/gdl" ./cmd/gdl)
  GDL_BIN="$T/gdl"
fi
GDL_BIN=$(cd "$(dirname "$GDL_BIN")" && pwd)/$(basename "$GDL_BIN")

{ bash "$HERE/extract.sh" nvim-filetype; bash "$HERE/extract.sh" nvim-setup; } >"$T/gdl_setup.lua"
mkdir -p "$T/project/.git" "$T/state" "$T/cache"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.kif" "$T/project/tictactoe.kif"
cp "$REPO/vscode-extension/test/fixtures/ontology.kif" "$T/project/ontology.kif"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.hrf" "$T/project/tictactoe.hrf"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.hrf" "$T/project/infix_content.kif"

export XDG_STATE_HOME="$T/state" XDG_CACHE_HOME="$T/cache" XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
export GDL_DETECT_CASES="$REPO/vscode-extension/test/fixtures/detect-cases.json"
export GDL_BIN GDL_SETUP="$T/gdl_setup.lua" GDL_PROJECT="$T/project" GDL_GAMES="$REPO/testdata/games/*.kif,$REPO/testdata/games/*.hrf,$REPO/ide/testdata/markers/hover_docs.kif"
cd "$T/project"
timeout 120 nvim --headless --clean -n -i NONE -c "luafile $HERE/nvim_test.lua" </dev/null
