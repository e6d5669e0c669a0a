#!/usr/bin/env bash
# Everything the editor side tests, in CI order: npm ci; the fast tests (grammar, type-check,
# unit); a real gdl binary; the VS Code workbench end-to-end test; Neovim 0.7 and 0.11+; Emacs.
#   bash vscode-extension/test/all.sh        (from anywhere; installs what it needs)
# GDL_BIN may name a prebuilt server; otherwise it is built with go build ./cmd/gdl. GDL_VSIX may
# name a linux-x64 extension package for the VS Code test (scripts/test.sh passes the release's).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
T=$(mktemp -d "${TMPDIR:-/tmp}/gdl-editors.XXXXXX")
trap 'rm -rf "$T"' EXIT

echo "== npm ci"
npm ci --no-audit --no-fund --loglevel=error
echo "== npm test (grammar, type-check, unit)"
npm test
if [ -z "${GDL_BIN:-}" ]; then
  echo "== go build ./cmd/gdl"
  go build -o "$T/gdl" ./cmd/gdl
  export GDL_BIN="$T/gdl"
fi
status=0
echo "== VS Code workbench (code-server + Chromium)"
bash vscode-extension/test/e2e/run.sh || status=1
echo "== Neovim 0.7 (Debian stable)"
bash vscode-extension/test/editors/nvim_test.sh || status=1
echo "== Neovim 0.11 or newer (Debian unstable): vim.lsp.config and the nvim-lspconfig entry"
bash vscode-extension/test/editors/nvim011_test.sh || status=1
echo "== Emacs"
bash vscode-extension/test/editors/emacs_test.sh || status=1
exit $status
