#!/usr/bin/env bash
# Neovim 0.11 or newer (Debian unstable's, installed by install-nvim-unstable.sh) with the
# filetype detection of docs/editors.md and, in turn, its vim.lsp.config block and its
# nvim-lspconfig entry (lsp/gdl.lua on the runtime path), each against a real `gdl lsp` found as
# `gdl` on PATH, as the blocks are written:
#   GDL_BIN=/path/to/gdl bash vscode-extension/test/editors/nvim011_test.sh
# Without GDL_BIN the server is built with `go build ./cmd/gdl`. Neovim is cached under
# $GDL_NVIM_CACHE (default /tmp/gdl-nvim-unstable).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/gdl-nvim011.XXXXXX")
trap 'rm -rf "$T"' EXIT
CACHE=${GDL_NVIM_CACHE:-/tmp/gdl-nvim-unstable}

set +e
bash "$HERE/install-nvim-unstable.sh" "$CACHE"
rc=$?
set -e
if [ $rc = 3 ]; then
  # Debian's archive is out of reach or unstable cannot be installed now: say so loudly, as the
  # corpus tests do without the corpus.
  echo "nvim011: SKIPPED: Neovim 0.11 or newer could not be installed from Debian unstable (above)"
  exit 0
fi
[ $rc = 0 ] || exit $rc
NVIM="$CACHE/bin/nvim"

if [ -z "${GDL_BIN:-}" ]; then
  (cd "$REPO" && go build -o "$T/gdl-built" ./cmd/gdl)
  GDL_BIN="$T/gdl-built"
fi
mkdir -p "$T/bin"
ln -s "$(cd "$(dirname "$GDL_BIN")" && pwd)/$(basename "$GDL_BIN")" "$T/bin/gdl"
export PATH="$T/bin:$PATH"

bash "$HERE/extract.sh" nvim-filetype >"$T/filetype.lua"
bash "$HERE/extract.sh" nvim-lsp-config >"$T/lsp-config.lua"
mkdir -p "$T/rtp/lsp"
bash "$HERE/extract.sh" nvim-lspconfig >"$T/rtp/lsp/gdl.lua"
printf 'vim.lsp.enable("gdl")\n' >"$T/enable.lua"

source "$HERE/nvim_project.sh"
cd "$T/project"
"$NVIM" --version | head -1
status=0
echo "# the vim.lsp.config block"
GDL_MODE=config timeout 120 "$NVIM" --headless --clean -n -i NONE \
  -c "luafile $T/filetype.lua" -c "luafile $T/lsp-config.lua" -c "luafile $HERE/nvim011_test.lua" </dev/null || status=1
echo "# the nvim-lspconfig entry, lsp/gdl.lua on the runtime path"
GDL_MODE=lspconfig timeout 120 "$NVIM" --headless --clean -n -i NONE --cmd "set rtp^=$T/rtp" \
  -c "luafile $T/filetype.lua" -c "luafile $T/enable.lua" -c "luafile $HERE/nvim011_test.lua" </dev/null || status=1
exit $status
