#!/usr/bin/env bash
# End-to-end test of the browser playground: builds it (npm run build:playground: gdl.wasm and
# the page), serves it with the real `gdl playground` on a free port of 127.0.0.1, and drives it
# with Debian's Chromium through playwright-core (playground/test/e2e.mjs). Screenshots of each
# step and measurements.json go to playground/test/out/.
#
#   bash playground/test/run.sh            (GDL_BIN may name a built gdl; else go build)
#
# Installs what it needs: Chromium (apt) and the workspace's npm packages (npm ci).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT="$HERE/out"
rm -rf "$OUT"
mkdir -p "$OUT"
log() { echo "playground: $*"; }

if ! command -v chromium >/dev/null; then
  log "apt-get install chromium"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
fi
if [ ! -d "$REPO/node_modules/@codemirror/view" ] || [ ! -d "$REPO/node_modules/playwright-core" ]; then
  log "npm ci"
  (cd "$REPO" && npm ci --no-audit --no-fund --loglevel=error)
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/gdl-playground.XXXXXX")
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$T"
}
trap cleanup EXIT

start=$(date +%s)
(cd "$REPO" && node playground/build.mjs --out "$T/dist") | tee "$OUT/build.log"
log "built in $(($(date +%s) - start)) s"

if [ -z "${GDL_BIN:-}" ]; then
  (cd "$REPO" && go build -o "$T/gdl" ./cmd/gdl)
  GDL_BIN="$T/gdl"
fi
"$GDL_BIN" playground --port 0 --dir "$T/dist" >"$T/server.log" 2>&1 &
server=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$T/server.log" || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$T/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "playground: gdl playground printed no URL" >&2; cat "$T/server.log" >&2; exit 1; }
log "serving on $url"

# The browser's profile and caches stay in the temporary folder.
HOME="$T/home" XDG_CONFIG_HOME="$T/cfg" XDG_CACHE_HOME="$T/cache" node "$HERE/e2e.mjs" "$url" "$OUT"
