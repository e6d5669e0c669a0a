// Builds the playground as static files (npm run build:playground at the repository root):
//   gdl.wasm      gdl compiled to WebAssembly (GOOS=js GOARCH=wasm go build ./cmd/gdl-wasm)
//   wasm_exec.js  Go's JavaScript support for it, from the Go installation that built it
//   main.js, worker.js, index.html, style.css   the page and its workers (esbuild)
//   examples/     the team's games from testdata, with index.json
//   sw.js         the service worker that keeps them all for offline use
// and gdl.wasm.gz, main.js.gz beside them for servers that send precompressed files (gdl
// playground does). Usage: node playground/build.mjs [--out DIR] (default playground/dist).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const outArg = process.argv.indexOf("--out");
const out = resolve(outArg >= 0 ? process.argv[outArg + 1] : join(here, "dist"));
const started = Date.now();

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "examples"), { recursive: true });

// gdl.wasm: without symbol tables and DWARF (-s -w), paths trimmed.
const env = { ...process.env, GOOS: "js", GOARCH: "wasm" };
execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", join(out, "gdl.wasm"), "./cmd/gdl-wasm"], { cwd: repo, env, stdio: "inherit" });
const goroot = execFileSync("go", ["env", "GOROOT"], { cwd: repo, encoding: "utf8" }).trim();
const execJS = [join(goroot, "lib", "wasm", "wasm_exec.js"), join(goroot, "misc", "wasm", "wasm_exec.js")].find(existsSync);
if (!execJS) throw new Error(`no wasm_exec.js in ${goroot}/lib/wasm or ${goroot}/misc/wasm`);
cpSync(execJS, join(out, "wasm_exec.js"));

await esbuild.build({
  entryPoints: { main: join(here, "web/src/main.ts"), worker: join(here, "web/src/worker.ts") },
  outdir: out,
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
});
for (const f of ["index.html", "style.css"]) cpSync(join(here, "web", f), join(out, f));

// The examples: the team's games, the quick-start example with its two mistakes, and the games
// with one defect each that gdl verify finds.
const groups = [
  ["Games", "testdata/games"],
  ["With mistakes (gdl check)", "testdata/examples"],
  ["One defect each (gdl verify)", "testdata/verify"],
];
const examples = [];
for (const [group, dir] of groups) {
  for (const f of readdirSync(join(repo, dir)).sort()) {
    if (!/\.(kif|hrf)$/.test(f)) continue;
    const file = dir === "testdata/games" ? f : `${dir.split("/")[1]}-${f}`;
    cpSync(join(repo, dir, f), join(out, "examples", file));
    examples.push({ name: f, file, group });
  }
}
writeFileSync(join(out, "examples", "index.json"), JSON.stringify(examples, null, 1));

// Precompressed copies of the big files.
for (const f of ["gdl.wasm", "main.js", "worker.js", "wasm_exec.js"]) {
  writeFileSync(join(out, f + ".gz"), gzipSync(readFileSync(join(out, f)), { level: 9 }));
}

// The service worker, with the list of files and a version that changes with any of them.
const files = [];
const walk = (d) => {
  for (const f of readdirSync(d).sort()) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (!f.endsWith(".gz")) files.push(relative(out, p).split("\\").join("/"));
  }
};
walk(out);
const hash = createHash("sha256");
for (const f of files) hash.update(f).update(readFileSync(join(out, f)));
const version = hash.digest("hex").slice(0, 16);
const sw = readFileSync(join(here, "web/sw.js"), "utf8")
  .replace("__VERSION__", version)
  .replace("__FILES__", JSON.stringify(["./", ...files]));
writeFileSync(join(out, "sw.js"), sw);

const size = (f) => statSync(join(out, f)).size;
const mb = (n) => (n / 1e6).toFixed(2) + " MB";
console.log(`playground: ${relative(process.cwd(), out) || "."} (${files.length + 1} files, version ${version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`  gdl.wasm ${mb(size("gdl.wasm"))}, gzipped ${mb(size("gdl.wasm.gz"))}; main.js ${(size("main.js") / 1e3).toFixed(0)} kB, gzipped ${(size("main.js.gz") / 1e3).toFixed(0)} kB`);
