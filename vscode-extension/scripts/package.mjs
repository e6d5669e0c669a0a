// Builds the .vsix: bundles the extension, puts the Linux x64 server binary in
// server/linux-x64/gdl (built with `go build`, or copied from $GDL_BIN when set), and runs
// `vsce package --no-dependencies` (offline: esbuild already bundled the dependencies).
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ext = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(ext, "..");
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: "inherit", ...opts });

run(process.execPath, [join(ext, "esbuild.mjs"), "--production"]);

const serverDir = join(ext, "server", "linux-x64");
const server = join(serverDir, "gdl");
mkdirSync(serverDir, { recursive: true });
if (process.env.GDL_BIN) {
  console.log(`package: using the server binary ${process.env.GDL_BIN}`);
  copyFileSync(process.env.GDL_BIN, server);
} else {
  console.log("package: building the Linux x64 server with go build ./cmd/gdl");
  run("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", server, "./cmd/gdl"], {
    cwd: repo,
    env: { ...process.env, GOOS: "linux", GOARCH: "amd64", CGO_ENABLED: "0" },
  });
}
chmodSync(server, 0o755);

const { name, version } = JSON.parse(readFileSync(join(ext, "package.json"), "utf8"));
const out = process.env.VSIX_OUT ? resolve(process.env.VSIX_OUT) : join(ext, `${name}-${version}.vsix`);
const vsce = join(repo, "node_modules", "@vscode", "vsce", "vsce");
run(process.execPath, [vsce, "package", "--no-dependencies", "--skip-license", "--out", out], { cwd: ext });
console.log(`package: wrote ${out}`);
