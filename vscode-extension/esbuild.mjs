// Bundles the extension (and, with --tests, the unit tests) with esbuild.
import * as esbuild from "esbuild";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const tests = process.argv.includes("--tests");
const production = process.argv.includes("--production");

const common = {
  bundle: true,
  platform: "node",
  target: "node18",
  format: "cjs",
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
  absWorkingDir: here,
};

if (tests) {
  const dir = join(here, "test", "unit");
  const entryPoints = readdirSync(dir).filter((f) => f.endsWith(".test.ts")).map((f) => join(dir, f));
  await esbuild.build({ ...common, entryPoints, outdir: join(here, "out", "test", "unit"), external: ["vscode"] });
} else {
  await esbuild.build({
    ...common,
    entryPoints: [join(here, "src", "extension.ts")],
    outfile: join(here, "out", "extension.js"),
    external: ["vscode"],
  });
  // The game view's script runs in the webview (a browser), not in node.
  await esbuild.build({
    ...common,
    platform: "browser",
    format: "iife",
    target: "es2020",
    entryPoints: [join(here, "src", "webview", "main.ts")],
    outfile: join(here, "out", "webview.js"),
  });
}
