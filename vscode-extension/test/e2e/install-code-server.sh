#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3) from the npm registry into $1, offline from
# anything but the registry: @vscode/ripgrep would download rg from GitHub in its postinstall, so
# its download cache is pre-filled with Debian's rg. Idempotent: does nothing when already there.
set -euo pipefail
T=${1:?usage: install-code-server.sh DIR}
VERSION=4.100.3
mkdir -p "$T"
T=$(cd "$T" && pwd)
if [ -x "$T/node_modules/.bin/code-server" ] && [ -f "$T/.installed-$VERSION" ]; then
  exit 0
fi
command -v rg >/dev/null || { echo "install-code-server: ripgrep (rg) is missing: apt-get install -y ripgrep" >&2; exit 1; }
mkdir -p "$T/tmp/vscode-ripgrep-cache-1.15.11"
cp "$(command -v rg)" "$T/rg"
tar czf "$T/tmp/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$T" rg
[ -f "$T/package.json" ] || echo '{"name":"gdl-e2e-code-server","private":true}' > "$T/package.json"
(cd "$T" && TMPDIR="$T/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
  npm install --no-audit --no-fund --loglevel=error "code-server@$VERSION")
touch "$T/.installed-$VERSION"
