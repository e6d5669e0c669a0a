// Game tests in VS Code's Testing view (the Test Controller API): one item per test file of the
// workspace, one per test (with its range, so the editor shows a run button beside it), run
// from the Testing view, from the gutter, from the server's lenses (gdl.runTests, routed here
// by the client's middleware) and, with gdl.tests.runOnSave, when a test file or its game is
// saved. The server lists and runs the tests (gdl.listTests, gdl.runTests); a failure is a
// message at its step.

import * as vscode from "vscode";
import {
  failureMessage,
  isTestFileName,
  lensRequest,
  TEST_FILE_GLOB,
  TestCommands,
  testId,
  TestItemInfo,
  toTestList,
  toTestRun,
} from "./gameTests";

export interface TestHost {
  /** Runs a server command (workspace/executeCommand). */
  execute(command: string, arg: object): Promise<unknown>;
  /** The URI of a file as the server knows it. */
  serverUri(uri: vscode.Uri): string;
  log(line: string): void;
  /** Whether the server runs. */
  ready(): boolean;
}

/** The file of each item, and the game each test file tests (its server URI). */
interface FileInfo {
  uri: vscode.Uri;
  game: string;
}

export class GameTests implements vscode.Disposable {
  readonly controller: vscode.TestController;
  private readonly files = new Map<string, FileInfo>(); // by the file item's id
  private readonly disposables: vscode.Disposable[] = [];
  private readonly refreshTimers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly host: TestHost) {
    this.controller = vscode.tests.createTestController("gdl.gameTests", "GDL game tests");
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
      else await this.refresh(item);
    };
    this.controller.refreshHandler = async () => this.discover();
    this.controller.createRunProfile("Run", vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    const watcher = vscode.workspace.createFileSystemWatcher(TEST_FILE_GLOB);
    this.disposables.push(
      this.controller,
      watcher,
      watcher.onDidCreate((uri) => void this.fileItem(uri, true)),
      watcher.onDidChange((uri) => this.scheduleRefresh(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (isTestFileName(e.document.fileName)) this.scheduleRefresh(e.document.uri);
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => void this.saved(doc)),
    );
  }

  dispose(): void {
    for (const t of this.refreshTimers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }

  /** Lists the test files of the workspace and their tests. */
  async discover(): Promise<void> {
    const uris = await vscode.workspace.findFiles(TEST_FILE_GLOB, "**/node_modules/**");
    for (const uri of uris) await this.fileItem(uri, true);
  }

  /** The item of a test file, made when missing (with its tests listed when list is set). */
  private async fileItem(uri: vscode.Uri, list: boolean): Promise<vscode.TestItem> {
    const id = uri.toString();
    let item = this.controller.items.get(id);
    if (!item) {
      item = this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
      item.canResolveChildren = true;
      this.controller.items.add(item);
      this.files.set(id, { uri, game: "" });
    }
    if (list) await this.refresh(item);
    return item;
  }

  private scheduleRefresh(uri: vscode.Uri): void {
    const id = uri.toString();
    const old = this.refreshTimers.get(id);
    if (old) clearTimeout(old);
    this.refreshTimers.set(
      id,
      setTimeout(() => {
        this.refreshTimers.delete(id);
        void this.fileItem(uri, true);
      }, 300),
    );
  }

  /** Lists a test file's tests again (the server reads the open document, else the file). */
  private async refresh(item: vscode.TestItem): Promise<void> {
    const info = this.files.get(item.id);
    if (!info || !this.host.ready()) return;
    item.busy = true;
    try {
      const list = toTestList(await this.host.execute(TestCommands.listTests, { uri: this.host.serverUri(info.uri) }));
      info.game = list.game;
      const children: vscode.TestItem[] = [];
      for (const t of list.tests) children.push(this.testItem(info.uri, t));
      item.children.replace(children);
      item.error = undefined;
    } catch (e) {
      item.error = e instanceof Error ? e.message : String(e);
    } finally {
      item.busy = false;
    }
  }

  private testItem(uri: vscode.Uri, t: TestItemInfo): vscode.TestItem {
    const item = this.controller.createTestItem(testId(uri.toString(), t.name), t.name, uri);
    item.range = toRange(t.range);
    if (t.description) item.description = t.description.split("\n")[0];
    return item;
  }

  /** Runs the tests a request names: whole files, or some of their tests. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    // What to run, per file: its test items (none: all of them).
    const perFile = new Map<string, vscode.TestItem[] | undefined>();
    const add = (item: vscode.TestItem) => {
      if (request.exclude?.some((x) => x.id === item.id)) return;
      if (this.files.has(item.id)) {
        perFile.set(item.id, undefined);
        return;
      }
      const file = item.id.slice(0, item.id.lastIndexOf("#"));
      const sel = perFile.get(file);
      if (perFile.has(file) && sel === undefined) return; // the whole file already
      perFile.set(file, [...(sel ?? []), item]);
    };
    if (request.include) request.include.forEach(add);
    else this.controller.items.forEach(add);
    try {
      for (const [fileId, selected] of perFile) {
        if (token.isCancellationRequested) break;
        const file = this.controller.items.get(fileId);
        const info = this.files.get(fileId);
        if (!file || !info) continue;
        if (file.children.size === 0) await this.refresh(file);
        const items = selected ?? collect(file);
        for (const it of items) run.started(it);
        const res = toTestRun(
          await this.host.execute(TestCommands.runTests, {
            uri: this.host.serverUri(info.uri),
            tests: selected ? selected.map((it) => it.label) : [],
          }),
        );
        if (res.error) {
          for (const it of items) run.errored(it, new vscode.TestMessage(res.error));
          continue;
        }
        for (const r of res.results) {
          const it = file.children.get(testId(info.uri.toString(), r.name));
          if (!it) continue;
          if (r.status === "passed") {
            run.passed(it, r.elapsedMs);
            continue;
          }
          const messages = r.failures.map((f) => {
            const m = new vscode.TestMessage(failureMessage(f));
            m.location = new vscode.Location(info.uri, toRange(f.range));
            return m;
          });
          if (messages.length === 0) messages.push(new vscode.TestMessage(`test ${r.name} ${r.status}`));
          if (r.status === "failed") run.failed(it, messages, r.elapsedMs);
          else run.errored(it, messages, r.elapsedMs);
        }
      }
    } catch (e) {
      this.host.log(`Running game tests: ${e instanceof Error ? e.message : String(e)}`);
      run.appendOutput(`${e instanceof Error ? e.message : String(e)}\r\n`);
    } finally {
      run.end();
    }
  }

  /** Runs the tests a lens names (gdl.runTests from the server's lenses) through the Testing view. */
  async runFromLens(arg: unknown): Promise<void> {
    const req = lensRequest(arg);
    if (!req) return;
    const uri = vscode.Uri.parse(req.uri);
    const file = await this.fileItem(uri, true);
    const include = req.tests.length === 0 ? [file] : req.tests.map((n) => file.children.get(testId(uri.toString(), n))).filter((x): x is vscode.TestItem => !!x);
    await this.run(new vscode.TestRunRequest(include), new vscode.CancellationTokenSource().token);
  }

  /** gdl.tests.runOnSave: a saved test file runs its tests; a saved game, the tests of the files that test it. */
  private async saved(doc: vscode.TextDocument): Promise<void> {
    if (!vscode.workspace.getConfiguration("gdl", doc.uri).get<boolean>("tests.runOnSave", false) || !this.host.ready()) return;
    const include: vscode.TestItem[] = [];
    if (isTestFileName(doc.fileName)) {
      include.push(await this.fileItem(doc.uri, true));
    } else {
      const game = this.host.serverUri(doc.uri);
      for (const [id, info] of this.files) {
        const item = this.controller.items.get(id);
        if (item && info.game === game) include.push(item);
      }
    }
    if (include.length > 0) await this.run(new vscode.TestRunRequest(include), new vscode.CancellationTokenSource().token);
  }
}

function collect(file: vscode.TestItem): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  file.children.forEach((c) => out.push(c));
  return out;
}

function toRange(r: { start: { line: number; character: number }; end: { line: number; character: number } }): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}
