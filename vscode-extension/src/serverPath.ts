// Finding the `gdl` binary that runs the language server. Free of the vscode API so the search
// order can be unit tested with a fake file system.

import * as path from "path";

export interface ServerLookup {
  /** The `gdl.server.path` setting, possibly empty. */
  configured: string;
  /** The extension's install folder; shipped binaries live in server/<platform>-<arch>/. */
  extensionPath: string;
  platform: string;
  arch: string;
  /** The PATH environment variable. */
  envPath: string;
  homeDir: string;
  /** The first workspace folder, for ${workspaceFolder} and relative settings. */
  workspaceFolder?: string;
  /** Whether a regular, executable file exists at this path. */
  isExecutable(file: string): boolean;
}

export type ServerResolution =
  | { ok: true; path: string; source: "setting" | "bundled" | "PATH" }
  | { ok: false; message: string; configured: boolean };

export function binaryName(platform: string): string {
  return platform === "win32" ? "gdl.exe" : "gdl";
}

/** Where the extension ships the server for a platform, e.g. server/linux-x64/gdl. */
export function bundledServerPath(extensionPath: string, platform: string, arch: string): string {
  return path.join(extensionPath, "server", `${platform}-${arch}`, binaryName(platform));
}

/**
 * What works when no server is found: the extension package made for the platform (the server is
 * inside), a release archive, a build from a clone, or the setting. There is no `go install
 * MODULE@latest`: the module is not published.
 */
export function installHint(platform: string, arch: string): string {
  const os = ({ win32: "windows", darwin: "darwin", linux: "linux" } as Record<string, string>)[platform] ?? platform;
  const goarch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[arch] ?? arch;
  const archive = `gdl_VERSION_${os}_${goarch}.${platform === "win32" ? "zip" : "tar.gz"}`;
  return (
    `Install the extension package made for ${platform}-${arch} (gdl-${platform}-${arch}-VERSION.vsix), which has the server inside; ` +
    `or put \`gdl\` on PATH: from the release archive ${archive}, or built from a clone of the repository with \`go install ./cmd/gdl\` ` +
    "(Go 1.26.8 or newer; it goes to `$(go env GOPATH)/bin`); or set `gdl.server.path` to the binary."
  );
}

/** Expands `~` and `${workspaceFolder}`, and makes a relative path relative to the workspace. */
export function expandConfiguredPath(p: string, homeDir: string, workspaceFolder?: string): string {
  let out = p.trim();
  if (out === "~" || out.startsWith("~/") || out.startsWith("~\\")) out = path.join(homeDir, out.slice(1));
  if (workspaceFolder) out = out.split("${workspaceFolder}").join(workspaceFolder);
  if (!path.isAbsolute(out) && workspaceFolder && /[\\/]/.test(out)) out = path.join(workspaceFolder, out);
  return out;
}

/**
 * The search order: the `gdl.server.path` setting; else the binary shipped inside the extension
 * for this platform; else `gdl` on PATH. A setting that names no executable is an error of its
 * own (falling back silently would run a binary the user did not ask for).
 */
export function resolveServer(l: ServerLookup): ServerResolution {
  const name = binaryName(l.platform);
  if (l.configured.trim() !== "") {
    const p = expandConfiguredPath(l.configured, l.homeDir, l.workspaceFolder);
    if (path.isAbsolute(p) || /[\\/]/.test(p)) {
      if (l.isExecutable(p)) return { ok: true, path: p, source: "setting" };
      return {
        ok: false,
        configured: true,
        message: `The GDL language server was not found: the setting gdl.server.path is "${l.configured}", and no executable file is there. Fix the setting, or clear it to use the bundled server or \`gdl\` on PATH.`,
      };
    }
    // A bare command name ("gdl-dev"): look it up on PATH.
    const onPath = searchPath(p, l);
    if (onPath) return { ok: true, path: onPath, source: "setting" };
    return {
      ok: false,
      configured: true,
      message: `The GDL language server was not found: the setting gdl.server.path is "${l.configured}", which is not on PATH. Fix the setting, or clear it to use the bundled server or \`gdl\` on PATH.`,
    };
  }
  const bundled = bundledServerPath(l.extensionPath, l.platform, l.arch);
  if (l.isExecutable(bundled)) return { ok: true, path: bundled, source: "bundled" };
  const onPath = searchPath(name, l);
  if (onPath) return { ok: true, path: onPath, source: "PATH" };
  return {
    ok: false,
    configured: false,
    message: `The GDL language server was not found: this extension package has no \`gdl\` for ${l.platform}-${l.arch}, and there is none on PATH. ${installHint(l.platform, l.arch)}`,
  };
}

function searchPath(name: string, l: ServerLookup): string | undefined {
  const sep = l.platform === "win32" ? ";" : ":";
  const exts = l.platform === "win32" && !/\.exe$/i.test(name) ? [".exe", ""] : [""];
  for (const dir of l.envPath.split(sep)) {
    if (dir === "") continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (l.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}
