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
source "$HERE/nvim_project.sh"
export GDL_BIN GDL_SETUP="$T/gdl_setup.lua" GDL_GAMES="$REPO/testdata/games/*.kif,$REPO/testdata/games/*.hrf,$REPO/ide/testdata/markers/hover_docs.kif"
cd "$T/project"
timeout 120 nvim --headless --clean -n -i NONE -c "luafile $HERE/nvim_test.lua" </dev/null
