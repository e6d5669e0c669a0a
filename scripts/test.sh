#!/usr/bin/env bash
# The project's test command: everything CI checks, in order. Installs what it needs (Debian
# packages, npm packages) on a fresh machine and skips installs that are already there.
#
#   bash scripts/test.sh          everything CI runs: the Go checks with the -short tier of every
#                                 package (long corpus sweeps on a fixed, printed sample), then the
#                                 real editor clients
#   bash scripts/test.sh go       only the Go checks, -short
#   bash scripts/test.sh full     the Go checks without -short (every corpus sweep in full: about
#                                 20 minutes more on two cores), then the editor clients
#   bash scripts/test.sh full-go  the full Go checks only
#
# Needs ../shared/games beside the repository for the corpus tests (they skip, saying so,
# without it).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
case "$what" in
all | go) short=-short ;;
full | full-go) short= ;;
*)
	echo "usage: bash scripts/test.sh [all|go|full|full-go]" >&2
	exit 2
	;;
esac

section() { printf '\n=== %s\n' "$*"; }

# --- System packages -------------------------------------------------------------------------
# swi-prolog-nox: the independent engine of the evaluator's differential test;
# neovim, emacs-nox + elpa-eglot: the real editor clients of the language-server tests.
section "System packages"
need=()
command -v swipl >/dev/null || need+=(swi-prolog-nox)
if [ "$what" = all ] || [ "$what" = full ]; then
	command -v nvim >/dev/null || need+=(neovim)
	command -v emacs >/dev/null || need+=(emacs-nox)
	dpkg -s elpa-eglot >/dev/null 2>&1 || need+=(elpa-eglot)
fi
if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "apt-get install ${need[*]}"
		apt-get update -q >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
	else
		echo "not root: cannot install ${need[*]}; the tests that need them will skip"
	fi
else
	echo "all present"
fi

# --- Go --------------------------------------------------------------------------------------
section "Go toolchain"
go version

section "gofmt"
unformatted=$(find . -name '*.go' -not -path './node_modules/*' -not -path './vscode-extension/node_modules/*' -print0 | xargs -0 gofmt -l)
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"
	echo "$unformatted"
	exit 1
fi
echo "ok"

section "go vet"
go vet ./...

section "staticcheck"
# The lint gate: zero findings, with the pinned version (fetched through the module proxy).
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
echo "ok"

section "go build"
go build ./...

section "testdata layout (gdl fmt --check)"
# The team's games are kept in gdl fmt's layout; -d shows what to change.
go run ./cmd/gdl fmt --check -d testdata/games testdata/gametests
echo "ok"

section "game tests (gdl test)"
# The tests of the example games (docs/testing.md), as an author's CI would run them.
go run ./cmd/gdl test testdata/gametests

section "go test"
# Everything once; then the packages with concurrency (the language server's dispatcher and
# document store, the incremental parser's shared trees, the evaluator's locking, the GGP
# player and manager) again under the race detector.
# Tests that measure something (the differential test's compared and skipped games) append a
# summary to $GDL_TEST_SUMMARY, printed here because go test shows the logs of passing tests
# only with -v.
export GDL_TEST_SUMMARY="$(mktemp)"
# CI uses -short: every package's corpus sweeps run on a deterministic sample, named in the
# summaries below; `full` runs them whole.
go test $short -timeout 45m ./...
section "test summaries"
cat "$GDL_TEST_SUMMARY"
rm -f "$GDL_TEST_SUMMARY"
section "go test -race (packages with concurrency)"
go test $short -race -timeout 20m ./lsp/... ./syntax/...
go test $short -race -timeout 10m -run 'TestConcurrentUse' ./eval/...
go test -short -race -timeout 10m ./ggp/...

if [ "$what" = go ] || [ "$what" = full-go ]; then
	exit 0
fi

# --- Release packages ------------------------------------------------------------------------
# scripts/release.sh cross-compiles gdl for the five platforms (CGO off) and writes the archives,
# the VS Code extension packages (each platform's with its gdl inside, and the universal one) and
# SHA256SUMS; internal/release checks each binary's headers, the licenses and the checksums. The
# editor tests below then install this linux-x64 package and run this linux/amd64 binary.
section "Release packages"
rel_tmp=$(mktemp -d)
trap 'rm -rf "$rel_tmp"' EXIT
bash scripts/release.sh 0.0.0-ci "$rel_tmp/release"
GDL_RELEASE_DIR="$rel_tmp/release" go test -count=1 -v -run '^TestRelease$' ./internal/release/
tar -xzf "$rel_tmp/release/gdl_0.0.0-ci_linux_amd64.tar.gz" -C "$rel_tmp"
export GDL_BIN="$rel_tmp/gdl_0.0.0-ci_linux_amd64/gdl" GDL_VSIX="$rel_tmp/release/gdl-linux-x64-0.0.0-ci.vsix"
"$GDL_BIN" --version

# --- Editors ---------------------------------------------------------------------------------
# npm ci, the extension's grammar/type-check/unit tests, then the real editors: the VS Code
# workbench (code-server driven by Chromium), Neovim and Emacs, each against the built server.
section "Editor clients"
bash vscode-extension/test/all.sh

# --- Playground ------------------------------------------------------------------------------
# gdl compiled to WebAssembly and the page (npm run build:playground), served by the release's
# gdl playground and driven in Chromium: typing, hover, examples, moves with MCTS, verify,
# shared links, offline (playground/test/e2e.mjs; screenshots in playground/test/out/).
section "Playground"
bash playground/test/run.sh
