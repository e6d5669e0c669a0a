#!/usr/bin/env bash
# End-to-end test of the extension in the real VS Code workbench: code-server 4.100.3 (VS Code
# 1.100.3) with the linux-x64 package installed (the platform package with the server inside),
# driven by Debian's Chromium through playwright-core, with no `gdl` on PATH.
#
#   GDL_VSIX=/path/to/gdl-linux-x64-VERSION.vsix bash vscode-extension/test/e2e/run.sh
#   GDL_BIN=/path/to/gdl bash vscode-extension/test/e2e/run.sh
#
# GDL_VSIX is a linux-x64 package to install as it is (scripts/test.sh passes the one
# scripts/release.sh built); without it, one is packaged with GDL_BIN as its server, or a server
# built with `go build`.
# Installs what it needs (Debian packages, npm ci, code-server from the npm registry into a cache
# under $GDL_E2E_CACHE, default /tmp/gdl-e2e-cache). Screenshots and logs go to test/e2e/out/.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
EXT=$(cd "$HERE/../.." && pwd)
REPO=$(cd "$EXT/.." && pwd)
OUT="$HERE/out"
CACHE=${GDL_E2E_CACHE:-/tmp/gdl-e2e-cache}
rm -rf "$OUT"
mkdir -p "$OUT" "$CACHE"
log() { echo "e2e: $*"; }

# Debian packages: Chromium to drive the workbench; ripgrep and libkrb5 for code-server.
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v rg >/dev/null || need+=(ripgrep)
command -v unzip >/dev/null || need+=(unzip)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
if [ ${#need[@]} -gt 0 ]; then
  log "apt-get install ${need[*]}"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
fi

# The workspace's npm packages (esbuild, vsce, playwright-core).
if [ ! -d "$REPO/node_modules/playwright-core" ] || [ ! -d "$REPO/node_modules/@vscode/vsce" ]; then
  log "npm ci"
  (cd "$REPO" && npm ci --no-audit --no-fund --loglevel=error)
fi

log "code-server 4.100.3 in $CACHE/code-server"
bash "$HERE/install-code-server.sh" "$CACHE/code-server"
CODE_SERVER="$CACHE/code-server/node_modules/.bin/code-server"

if [ -n "${GDL_VSIX:-}" ]; then
  log "installing the package $GDL_VSIX"
  cp "$GDL_VSIX" "$OUT/gdl.vsix"
else
  if [ -z "${GDL_BIN:-}" ]; then
    log "GDL_BIN is not set: building the server with go build ./cmd/gdl"
    (cd "$REPO" && go build -o "$OUT/gdl" ./cmd/gdl)
    GDL_BIN="$OUT/gdl"
  fi
  GDL_BIN=$(cd "$(dirname "$GDL_BIN")" && pwd)/$(basename "$GDL_BIN")
  [ -x "$GDL_BIN" ] || { echo "e2e: GDL_BIN=$GDL_BIN is not an executable file" >&2; exit 1; }
  log "packaging the linux-x64 extension with $GDL_BIN"
  (cd "$REPO" && GDL_BIN="$GDL_BIN" node vscode-extension/scripts/package.mjs --target linux-x64 --out "$OUT/pkg" >"$OUT/package.log" 2>&1) ||
    { cat "$OUT/package.log" >&2; exit 1; }
  mv "$OUT"/pkg/gdl-linux-x64-*.vsix "$OUT/gdl.vsix"
fi
# It must be the linux-x64 package, with the server inside.
manifest=$(unzip -p "$OUT/gdl.vsix" extension.vsixmanifest)
[[ $manifest == *'TargetPlatform="linux-x64"'* ]] || { echo "e2e: $OUT/gdl.vsix is not a linux-x64 package" >&2; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/gdl-e2e.XXXXXX")
export HOME="$T/home" XDG_CONFIG_HOME="$T/cfg" XDG_DATA_HOME="$T/share" XDG_CACHE_HOME="$T/cache"
mkdir -p "$HOME"
# No `gdl` on PATH, so that the workbench uses the binary shipped in the .vsix (a directory that
# also holds node stays; the check after the run reads which binary the extension started).
export PATH=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do
  if [ -n "$d" ] && { [ ! -x "$d/gdl" ] || [ -x "$d/node" ]; }; then printf '%s:' "$d"; fi
done)
PATH=${PATH%:}

log "installing the .vsix"
"$CODE_SERVER" --user-data-dir "$T/u" --extensions-dir "$T/e" --install-extension "$OUT/gdl.vsix" >"$OUT/install.log" 2>&1 ||
  { cat "$OUT/install.log" >&2; exit 1; }

# The workspace: a game with a deliberate error, and a setting naming a server that is not there
# (the test checks the message, then clears the setting and the shipped server starts).
WS="$T/workspace"
mkdir -p "$WS/.vscode"
cp "$EXT/test/fixtures/tictactoe.kif" "$WS/tictactoe.kif"
cp "$EXT/test/fixtures/ontology.kif" "$WS/ontology.kif"
cp "$REPO/testdata/verify/playability.kif" "$WS/stuck.kif"
printf '{\n  "gdl.server.path": "/nonexistent/bin/gdl"\n}\n' >"$WS/.vscode/settings.json"
mkdir -p "$T/u/User"
cat >"$T/u/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "editor.minimap.enabled": false,
  "workbench.editor.enablePreview": false,
  "chat.commandCenter.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
JSON

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log "starting code-server on 127.0.0.1:$PORT"
setsid "$CODE_SERVER" --auth none --bind-addr "127.0.0.1:$PORT" --user-data-dir "$T/u" --extensions-dir "$T/e" \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  "$WS" >"$OUT/code-server.log" 2>&1 &
CS_PID=$!
cleanup() {
  kill -- -"$CS_PID" 2>/dev/null || true
  wait "$CS_PID" 2>/dev/null || true
  rm -rf "$T"
}
trap cleanup EXIT
for _ in $(seq 1 120); do
  node -e 'fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$PORT/healthz" && break
  kill -0 "$CS_PID" 2>/dev/null || { cat "$OUT/code-server.log" >&2; exit 1; }
  sleep 0.5
done

log "driving the workbench"
status=0
CODE_SERVER_URL="http://127.0.0.1:$PORT/?folder=$WS" E2E_OUT="$OUT" E2E_WORKSPACE="$WS" \
  node "$HERE/e2e.mjs" || status=$?
# The extension's output channel, next to the screenshots: it names the server it started.
find "$T/u/logs" -name '*GDL Language Server*' -exec cat {} + >"$OUT/gdl-output-channel.log" 2>/dev/null || true
if grep -q "server/linux-x64/gdl lsp (found through bundled)" "$OUT/gdl-output-channel.log"; then
  echo "ok - the extension started the server shipped in the .vsix"
else
  echo "not ok - the extension did not start the server shipped in the .vsix (see $OUT/gdl-output-channel.log)"
  status=1
fi
exit $status
