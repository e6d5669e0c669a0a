#!/usr/bin/env bash
# Emacs (batch) with eglot and the setup of docs/editors.md against a real `gdl lsp`:
#   GDL_BIN=/path/to/gdl bash vscode-extension/test/editors/emacs_test.sh
# Without GDL_BIN the server is built with `go build ./cmd/gdl`. Installs emacs-nox and
# elpa-eglot if missing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/gdl-emacs.XXXXXX")
trap 'rm -rf "$T"' EXIT

if ! command -v emacs >/dev/null || [ ! -d /usr/share/emacs/site-lisp/elpa/eglot-1.9 ] && ! dpkg -s elpa-eglot >/dev/null 2>&1; then
  echo "emacs_test: apt-get install emacs-nox elpa-eglot"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q emacs-nox elpa-eglot >/dev/null
fi
if [ -z "${GDL_BIN:-}" ]; then
  (cd "$REPO" && go build -o "$T/gdl" ./cmd/gdl)
  GDL_BIN="$T/gdl"
fi
GDL_BIN=$(cd "$(dirname "$GDL_BIN")" && pwd)/$(basename "$GDL_BIN")

bash "$HERE/extract.sh" emacs-setup >"$T/gdl-setup.el"
mkdir -p "$T/project/.git" "$T/home"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.kif" "$T/project/tictactoe.kif"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.test.kif" "$T/project/tictactoe.test.kif"
cp "$REPO/vscode-extension/test/fixtures/ontology.kif" "$T/project/ontology.kif"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.hrf" "$T/project/tictactoe.hrf"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.hrf" "$T/project/infix_content.kif"

export HOME="$T/home" GDL_BIN GDL_SETUP="$T/gdl-setup.el" GDL_PROJECT="$T/project"
cd "$T/project"
timeout 120 emacs --batch --no-init-file -l "$HERE/emacs_test.el"
