#!/usr/bin/env bash
# Builds a release of gdl from this checkout, offline (the Go build cache and the npm workspace's
# packages are all it needs):
#
#   bash scripts/release.sh VERSION [OUTDIR]        e.g. bash scripts/release.sh 0.2.0
#
# VERSION is MAJOR.MINOR.PATCH[-PRERELEASE], with or without a leading v. OUTDIR (default
# dist/VERSION) gets, for linux/amd64, linux/arm64, darwin/amd64, darwin/arm64 and windows/amd64:
#
#   gdl_VERSION_OS_ARCH.tar.gz (.zip for Windows)   gdl (gdl.exe), LICENSE, README.md
#   gdl-TARGET-VERSION.vsix                           the VS Code extension with that gdl inside
#
# plus gdl-VERSION.vsix (the universal extension, which finds gdl on PATH) and SHA256SUMS.
# Every binary is cross-compiled with CGO off and -trimpath, and `gdl --version` prints
# vVERSION and the commit. Archives are reproducible: sorted entries, owner 0, the commit's time.
# docs/release.md has the release steps around it.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)

version=${1:?usage: bash scripts/release.sh VERSION [OUTDIR]}
version=${version#v}
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release: version $version is not MAJOR.MINOR.PATCH[-PRERELEASE]" >&2
	exit 2
fi
out=${2:-dist/$version}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$(ls -A "$out")" ]; then
	echo "release: $out is not empty" >&2
	exit 2
fi

commit=$(git rev-parse HEAD)
stamp=$(git log -1 --format=%ct HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "release: warning: the work tree has uncommitted changes: the binaries are not the commit's" >&2
fi
echo "release: gdl v$version from commit $commit into $out"

# npm workspace packages (esbuild, vsce) for the extension.
if [ ! -d node_modules/@vscode/vsce ] || [ ! -d node_modules/esbuild ]; then
	npm ci --no-audit --no-fund --loglevel=error
fi

bin="$out/.bin"
# target (VS Code's name) and Go's OS and architecture.
platforms="linux-x64:linux:amd64 linux-arm64:linux:arm64 darwin-x64:darwin:amd64 darwin-arm64:darwin:arm64 win32-x64:windows:amd64"
for p in $platforms; do
	IFS=: read -r target goos goarch <<<"$p"
	exe=gdl
	[ "$goos" = windows ] && exe=gdl.exe
	echo "release: go build $goos/$goarch"
	mkdir -p "$bin/$target"
	GOOS=$goos GOARCH=$goarch CGO_ENABLED=0 go build -trimpath \
		-ldflags "-s -w -X main.version=v$version -X main.commit=$commit" \
		-o "$bin/$target/$exe" ./cmd/gdl

	name="gdl_${version}_${goos}_${goarch}"
	stage="$out/.stage/$name"
	mkdir -p "$stage"
	cp "$bin/$target/$exe" "$stage/$exe"
	cp LICENSE README.md "$stage/"
	chmod 0755 "$stage/$exe"
	chmod 0644 "$stage/LICENSE" "$stage/README.md"
	touch -d "@$stamp" "$stage" "$stage"/*
	if [ "$goos" = windows ]; then
		(cd "$out/.stage" && TZ=UTC zip -q -X -r "$out/$name.zip" "$name")
	else
		tar -C "$out/.stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" -cf - "$name" |
			gzip -n -9 >"$out/$name.tar.gz"
	fi
done

echo "release: VS Code extension packages"
node vscode-extension/scripts/package.mjs --all --version "$version" --bin-dir "$bin" --out "$out" >"$out/.package.log" 2>&1 ||
	{ cat "$out/.package.log" >&2; exit 1; }
rm -rf "$bin" "$out/.stage" "$out/.package.log"

(cd "$out" && sha256sum -- gdl* >SHA256SUMS)
echo "release: wrote"
(cd "$out" && ls -l)
