// Builds the extension's .vsix packages, offline:
//
//   node scripts/package.mjs [--target T]... [--universal] [--all] [--version V] [--out DIR] [--bin-dir DIR]
//
// A platform package (`--target linux-x64`, ...) carries the `gdl` server for its platform in
// server/<target>/gdl (gdl.exe on Windows), cross-compiled with CGO off, so that installing the
// extension is the only step; the universal package (`--universal`) carries none and finds `gdl`
// on PATH or in `gdl.server.path`. `--all` (the default) builds the five platform packages and the
// universal one. Each is written to DIR (default dist/) as gdl-<target>-<version>.vsix, and the
// universal one as gdl-<version>.vsix.
//
// The server binaries come from `--bin-dir DIR` (DIR/<target>/gdl[.exe], as scripts/release.sh
// lays them out), else from $GDL_BIN for linux-x64, else from `go build ./cmd/gdl`. `--version`
// packages another version than package.json's without changing the file.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ext = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(ext, "..");
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: "inherit", ...opts });

// VS Code's platform names and Go's.
const TARGETS = {
  "linux-x64": { goos: "linux", goarch: "amd64" },
  "linux-arm64": { goos: "linux", goarch: "arm64" },
  "darwin-x64": { goos: "darwin", goarch: "amd64" },
  "darwin-arm64": { goos: "darwin", goarch: "arm64" },
  "win32-x64": { goos: "windows", goarch: "amd64" },
};

function usage(msg) {
  console.error(`package: ${msg}`);
  console.error("usage: node scripts/package.mjs [--target T]... [--universal] [--all] [--version V] [--out DIR] [--bin-dir DIR]");
  console.error(`targets: ${Object.keys(TARGETS).join(", ")}`);
  process.exit(2);
}

const targets = [];
let universal = false;
let version;
let out = join(ext, "dist");
let binDir;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const value = () => (i + 1 < args.length ? args[++i] : usage(`${a} needs a value`));
  if (a === "--target") {
    const t = value();
    if (!TARGETS[t]) usage(`unknown target ${t}`);
    targets.push(t);
  } else if (a === "--universal") universal = true;
  else if (a === "--all") {
    targets.push(...Object.keys(TARGETS));
    universal = true;
  } else if (a === "--version") version = value();
  else if (a === "--out") out = resolve(value());
  else if (a === "--bin-dir") binDir = resolve(value());
  else usage(`unknown argument ${a}`);
}
if (targets.length === 0 && !universal) {
  targets.push(...Object.keys(TARGETS));
  universal = true;
}
const manifest = JSON.parse(readFileSync(join(ext, "package.json"), "utf8"));
version ??= manifest.version;
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) usage(`version ${version} is not MAJOR.MINOR.PATCH[-PRERELEASE]`);

run(process.execPath, [join(ext, "esbuild.mjs"), "--production"]);
// The license travels in every package (vsce adds it as extension/LICENSE.txt).
copyFileSync(join(repo, "LICENSE"), join(ext, "LICENSE"));
mkdirSync(out, { recursive: true });

const serverRoot = join(ext, "server");
const vsce = join(repo, "node_modules", "@vscode", "vsce", "vsce");
function vscePackage(file, target) {
  const vargs = [vsce, "package", version, "--no-git-tag-version", "--no-update-package-json", "--no-dependencies", "--out", file];
  if (target) vargs.push("--target", target);
  run(process.execPath, vargs, { cwd: ext });
  console.log(`package: wrote ${file}`);
}

try {
  for (const target of targets) {
    const { goos, goarch } = TARGETS[target];
    const exe = goos === "windows" ? "gdl.exe" : "gdl";
    // Only this target's binary may be in server/ when vsce reads the folder.
    rmSync(serverRoot, { recursive: true, force: true });
    const dir = join(serverRoot, target);
    mkdirSync(dir, { recursive: true });
    const server = join(dir, exe);
    if (binDir) {
      const from = join(binDir, target, exe);
      if (!existsSync(from)) usage(`no ${from} (--bin-dir)`);
      copyFileSync(from, server);
    } else if (target === "linux-x64" && process.env.GDL_BIN) {
      console.log(`package: using the server binary ${process.env.GDL_BIN}`);
      copyFileSync(process.env.GDL_BIN, server);
    } else {
      console.log(`package: building the ${target} server (GOOS=${goos} GOARCH=${goarch} CGO_ENABLED=0)`);
      run("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", server, "./cmd/gdl"], {
        cwd: repo,
        env: { ...process.env, GOOS: goos, GOARCH: goarch, CGO_ENABLED: "0" },
      });
    }
    chmodSync(server, 0o755);
    vscePackage(join(out, `${manifest.name}-${target}-${version}.vsix`), target);
  }
  if (universal) {
    rmSync(serverRoot, { recursive: true, force: true });
    vscePackage(join(out, `${manifest.name}-${version}.vsix`));
  }
} finally {
  rmSync(serverRoot, { recursive: true, force: true });
}
