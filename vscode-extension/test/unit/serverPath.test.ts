import { test } from "node:test";
import * as assert from "node:assert/strict";
import { bundledServerPath, expandConfiguredPath, resolveServer, ServerLookup } from "../../src/serverPath";

function lookup(executables: string[], over: Partial<ServerLookup> = {}): ServerLookup {
  const set = new Set(executables);
  return {
    configured: "",
    extensionPath: "/ext",
    platform: "linux",
    arch: "x64",
    envPath: "/usr/local/bin:/usr/bin",
    homeDir: "/home/u",
    workspaceFolder: "/w",
    isExecutable: (f) => set.has(f),
    ...over,
  };
}

test("the setting comes first", () => {
  const r = resolveServer(lookup(["/opt/gdl", "/ext/server/linux-x64/gdl", "/usr/bin/gdl"], { configured: "/opt/gdl" }));
  assert.deepEqual(r, { ok: true, path: "/opt/gdl", source: "setting" });
});

test("then the binary shipped for the platform", () => {
  const r = resolveServer(lookup(["/ext/server/linux-x64/gdl", "/usr/bin/gdl"]));
  assert.deepEqual(r, { ok: true, path: "/ext/server/linux-x64/gdl", source: "bundled" });
  assert.equal(bundledServerPath("/ext", "darwin", "arm64"), "/ext/server/darwin-arm64/gdl");
});

test("then gdl on PATH, in PATH order", () => {
  const r = resolveServer(lookup(["/usr/bin/gdl", "/usr/local/bin/gdl"]));
  assert.deepEqual(r, { ok: true, path: "/usr/local/bin/gdl", source: "PATH" });
});

test("no binary anywhere: the message says how to fix it", () => {
  const r = resolveServer(lookup([]));
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.configured, false);
    assert.match(r.message, /not found/);
    // Only what works: the platform's package, a release archive, a build from a clone.
    assert.match(r.message, /gdl-linux-x64-VERSION\.vsix/);
    assert.match(r.message, /gdl_VERSION_linux_amd64\.tar\.gz/);
    assert.match(r.message, /go install \.\/cmd\/gdl/);
    assert.doesNotMatch(r.message, /@latest/);
    assert.match(r.message, /gdl\.server\.path/);
  }
  const w = resolveServer(lookup([], { platform: "win32", arch: "x64" }));
  assert.ok(!w.ok && /gdl-win32-x64-VERSION\.vsix/.test(w.message) && /gdl_VERSION_windows_amd64\.zip/.test(w.message), !w.ok ? w.message : "");
  const m = resolveServer(lookup([], { platform: "darwin", arch: "arm64" }));
  assert.ok(!m.ok && /gdl_VERSION_darwin_arm64\.tar\.gz/.test(m.message), !m.ok ? m.message : "");
});

test("a setting that names nothing is an error, not a silent fallback", () => {
  const r = resolveServer(lookup(["/ext/server/linux-x64/gdl"], { configured: "/nowhere/gdl" }));
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.configured, true);
    assert.match(r.message, /gdl\.server\.path is "\/nowhere\/gdl"/);
  }
});

test("a bare command name in the setting is looked up on PATH", () => {
  assert.deepEqual(resolveServer(lookup(["/usr/bin/gdl-dev"], { configured: "gdl-dev" })), {
    ok: true,
    path: "/usr/bin/gdl-dev",
    source: "setting",
  });
  assert.equal(resolveServer(lookup([], { configured: "gdl-dev" })).ok, false);
});

test("~, ${workspaceFolder} and relative paths are expanded", () => {
  assert.equal(expandConfiguredPath("~/go/bin/gdl", "/home/u", "/w"), "/home/u/go/bin/gdl");
  assert.equal(expandConfiguredPath("${workspaceFolder}/bin/gdl", "/home/u", "/w"), "/w/bin/gdl");
  assert.equal(expandConfiguredPath("./bin/gdl", "/home/u", "/w"), "/w/bin/gdl");
  const r = resolveServer(lookup(["/w/bin/gdl"], { configured: "bin/gdl" }));
  assert.deepEqual(r, { ok: true, path: "/w/bin/gdl", source: "setting" });
});
