#!/usr/bin/env bash
# Installs the Neovim of Debian unstable (0.11 or newer; Debian stable has 0.7.2) into $1, for the
# tests of the vim.lsp.config setup, without touching the system: apt reads its own package lists
# under $1/apt, downloads Neovim and the libraries it needs (with unstable's C library), and they
# are unpacked under $1/root; $1/bin/nvim runs it through that C library's loader. Idempotent.
# Prints the reason and exits 3 when the packages cannot be had (no network to Debian's archive,
# or unstable in a transition).
set -euo pipefail
D=${1:?usage: install-nvim-unstable.sh DIR}
mkdir -p "$D"
D=$(cd "$D" && pwd)
if [ -x "$D/bin/nvim" ] && [ -f "$D/.installed" ] && "$D/bin/nvim" --version >/dev/null 2>&1; then
  exit 0
fi
if [ "$(dpkg --print-architecture 2>/dev/null)" != amd64 ]; then
  echo "install-nvim-unstable: only amd64 is set up" >&2
  exit 3
fi
rm -rf "$D/apt" "$D/root" "$D/debs" "$D/bin"
mkdir -p "$D/apt/lists/partial" "$D/apt/cache/archives/partial" "$D/debs" "$D/root" "$D/bin"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main" >"$D/apt/sources.list"
: >"$D/apt/status"
A=(-o "Dir::Etc::SourceList=$D/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$D/apt/lists" -o "Dir::Cache=$D/apt/cache" -o "Dir::State::status=$D/apt/status"
  -o APT::Sandbox::User=root -o Debug::NoLocking=1)
if ! apt-get "${A[@]}" update -q >"$D/apt/update.log" 2>&1; then
  echo "install-nvim-unstable: apt-get update of Debian unstable failed:" >&2
  tail -5 "$D/apt/update.log" >&2
  exit 3
fi
# Neovim and everything it depends on, recursively (virtual packages, in <>, left out).
pkgs=$(apt-cache "${A[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances neovim | grep -v '^ ' | grep -v '^<' | sort -u)
if ! (cd "$D/debs" && apt-get "${A[@]}" download $pkgs >"$D/apt/download.log" 2>&1); then
  echo "install-nvim-unstable: apt-get download failed:" >&2
  tail -5 "$D/apt/download.log" >&2
  exit 3
fi
for deb in "$D"/debs/*.deb; do dpkg-deb -x "$deb" "$D/root"; done
cat >"$D/bin/nvim" <<SH
#!/bin/sh
L=$D/root/usr/lib/x86_64-linux-gnu
VIMRUNTIME=$D/root/usr/share/nvim/runtime exec "\$L/ld-linux-x86-64.so.2" --library-path "\$L:$D/root/lib/x86_64-linux-gnu" $D/root/usr/bin/nvim "\$@"
SH
chmod +x "$D/bin/nvim"
"$D/bin/nvim" --version | head -1
touch "$D/.installed"
