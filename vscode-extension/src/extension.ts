// The VS Code client of the GDL language server (`gdl lsp`): starts the server, picks GDL among
// the languages that share `.kif`/`.gdl`, and adds the commands that query and play a game.

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from "vscode-languageclient/node";
import { INFIX_LANGUAGE, isGdlLanguage, isServedDocument, LANGUAGES, PREFIX_LANGUAGE, serverWanted } from "./activation";
import { associationDecides, detectDialect, hasSharedExtension } from "./detect";
import { EXPLAIN_SCHEME, ExplainView } from "./explainView";
import { GameViews } from "./gameView";
import {
  GameState,
  legalMovesByRole,
  MatchResult,
  replacedMoves,
  ServerCommands,
  STATE_COMMANDS,
  toExplainResult,
  toGameState,
  toMatchResult,
  toQueryResult,
  VerifyResult,
} from "./protocol";
import { infixQueryAtOffset, queryAtOffset } from "./query";
import { RESULT_SCHEME, ResultView } from "./resultView";
import { bundledServerPath, resolveServer } from "./serverPath";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let view: ResultView;
let explanations: ExplainView;
let gameViews: GameViews;
let status: vscode.LanguageStatusItem;
let extensionPath = "";
/** The game the commands act on when the active editor is neither a game nor its view. */
let lastGame: vscode.Uri | undefined;
/** Client-side forwarders for server commands the server did not advertise (see startServer). */
let forwarders: vscode.Disposable[] = [];
/** Documents whose language was already decided by content, so a user's choice is never undone. */
const decided = new Set<string>();
/** Whether the server was started since activation (or the last restart); see ensureServer. */
let started = false;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel("GDL Language Server");
  view = new ResultView();
  explanations = new ExplainView();
  gameViews = new GameViews(context.extensionUri, {
    execute,
    serverUri,
    log: (line) => output.appendLine(line),
    runMatch: runMatchFor,
    showExplanation: (uri, r) => explanations.show(uri, r),
  });
  status = vscode.languages.createLanguageStatusItem("gdl.server", [...LANGUAGES]);
  status.name = "GDL Language Server";
  setStatus("starting", vscode.LanguageStatusSeverity.Information);
  context.subscriptions.push(
    status,
    output,
    view,
    gameViews,
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, view),
    vscode.commands.registerCommand("gdl.openGameView", openGameView),
    vscode.commands.registerCommand("gdl.restartServer", restartServer),
    vscode.commands.registerCommand("gdl.runQueryAtCursor", runQueryAtCursor),
    vscode.commands.registerCommand("gdl.showCurrentState", () => stateCommand(ServerCommands.showState)),
    vscode.commands.registerCommand("gdl.playJointMove", playJointMove),
    vscode.commands.registerCommand("gdl.playRandomMove", () => stateCommand(ServerCommands.playRandom)),
    vscode.commands.registerCommand("gdl.resetToInitialState", () => stateCommand(ServerCommands.resetState)),
    vscode.commands.registerCommand("gdl.verifyGame", verifyGame),
    vscode.commands.registerCommand("gdl.startMatch", startMatch),
    vscode.commands.registerCommand("gdl.explainAtCursor", explainAtCursor),
    vscode.languages.registerCodeLensProvider({ scheme: RESULT_SCHEME }, view),
    explanations,
    vscode.workspace.registerTextDocumentContentProvider(EXPLAIN_SCHEME, explanations),
    vscode.workspace.onDidOpenTextDocument((doc) => {
      chooseLanguage(doc);
      // A GDL document, possibly one that detection just switched to GDL.
      if (isServedDocument(doc)) void ensureServer();
    }),
    vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e && isGame(e.document)) lastGame = e.document.uri;
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("gdl.server.path")) {
        output.appendLine("gdl.server.path changed: restarting the server.");
        void restartServer();
      }
    }),
  );
  for (const doc of vscode.workspace.textDocuments) chooseLanguage(doc);
  if (vscode.window.activeTextEditor && isGame(vscode.window.activeTextEditor.document)) {
    lastGame = vscode.window.activeTextEditor.document.uri;
  }
  // Activated at startup without any GDL around: wait for a GDL document (ensureServer).
  const games = serverWanted(vscode.workspace.textDocuments, false)
    ? []
    : await vscode.workspace.findFiles("**/*.{kif,gdl,hrf}", "**/node_modules/**", 1);
  if (serverWanted(vscode.workspace.textDocuments, games.length > 0)) await ensureServer();
}

export async function deactivate(): Promise<void> {
  await stopServer();
}

function isGame(doc: vscode.TextDocument): boolean {
  return isServedDocument(doc);
}

/** Starts the server once; a failed start is not retried until "Restart Server". */
async function ensureServer(): Promise<void> {
  if (started) return;
  started = true;
  await startServer();
}

// ---- Server lifecycle -------------------------------------------------------------------------

async function startServer(): Promise<void> {
  makeExecutable(bundledServerPath(extensionPath, process.platform, process.arch));
  const found = resolveServer({
    configured: vscode.workspace.getConfiguration("gdl").get<string>("server.path", ""),
    extensionPath,
    platform: process.platform,
    arch: process.arch,
    envPath: process.env.PATH ?? "",
    homeDir: os.homedir(),
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    isExecutable,
  });
  if (!found.ok) {
    setStatus("not found", vscode.LanguageStatusSeverity.Error);
    output.appendLine(found.message);
    const open = "Open Settings";
    const retry = "Retry";
    void vscode.window.showErrorMessage(found.message, open, retry).then((choice) => {
      if (choice === open) void vscode.commands.executeCommand("workbench.action.openSettings", "gdl.server.path");
      if (choice === retry) void restartServer();
    });
    return;
  }
  output.appendLine(`Starting ${found.path} lsp (found through ${found.source === "setting" ? "gdl.server.path" : found.source}).`);
  const serverOptions: ServerOptions = { command: found.path, args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    // Prefix and infix GDL: one server, which tells the notations apart by the languageId, the
    // .hrf extension and the content.
    documentSelector: LANGUAGES.flatMap((language) => [
      { scheme: "file", language },
      { scheme: "untitled", language },
    ]),
    synchronize: { configurationSection: "gdl" },
    outputChannel: output,
    diagnosticCollectionName: "gdl",
    // The evaluated hovers link answers to gdl.explain (the setting gdl.hover.explainLinks).
    markdown: { isTrusted: { enabledCommands: [ServerCommands.explain] } },
    middleware: {
      // Code lenses run the server's commands directly; show what they return.
      executeCommand: async (command, args, next) => {
        const result = await next(command, args);
        await showCommandResult(command, args[0], result);
        return result;
      },
    },
  };
  const c = new LanguageClient("gdl", "GDL Language Server", serverOptions, clientOptions);
  client = c;
  c.onDidChangeState((e) => {
    if (client !== c) return;
    if (e.newState === State.Running) setStatus(`running (${found.path})`, vscode.LanguageStatusSeverity.Information);
    else if (e.newState === State.Stopped) setStatus("stopped", vscode.LanguageStatusSeverity.Warning);
  });
  try {
    await c.start();
    registerForwarders(c);
  } catch (e) {
    const message = `The GDL language server (${found.path} lsp) failed to start: ${errorText(e)}`;
    setStatus("failed to start", vscode.LanguageStatusSeverity.Error);
    output.appendLine(message);
    void vscode.window.showErrorMessage(message, "Show Log").then((choice) => {
      if (choice) output.show();
    });
  }
}

/** The language status item (the "{}" next to the language mode) says how the server is. */
function setStatus(text: string, severity: vscode.LanguageStatusSeverity): void {
  status.text = `GDL server: ${text}`;
  status.severity = severity;
  status.command = { title: "Restart", command: "gdl.restartServer" };
}

/**
 * vscode-languageclient registers the commands a server lists in executeCommandProvider; code
 * lenses name gdl.runQuery. A server that runs the commands without listing them would leave the
 * lenses with "command not found": forward the missing ones ourselves.
 */
function registerForwarders(c: LanguageClient): void {
  const advertised = new Set(c.initializeResult?.capabilities.executeCommandProvider?.commands ?? []);
  for (const command of Object.values(ServerCommands)) {
    if (advertised.has(command)) continue;
    forwarders.push(
      vscode.commands.registerCommand(command, async (arg: { uri?: string }) => {
        const result = await execute(command, arg ?? {});
        await showCommandResult(command, arg, result);
        return result;
      }),
    );
  }
}

async function stopServer(): Promise<void> {
  for (const f of forwarders) f.dispose();
  forwarders = [];
  const c = client;
  client = undefined;
  if (!c) return;
  try {
    if (c.state === State.Running) await c.stop(2000);
    await c.dispose();
  } catch (e) {
    output.appendLine(`Stopping the server: ${errorText(e)}`);
  }
}

async function restartServer(): Promise<void> {
  await stopServer();
  started = true;
  await startServer();
}

function isExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    if (process.platform === "win32") return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Some ways of installing a .vsix lose the file mode: give the shipped binary its x bit back. */
function makeExecutable(file: string): void {
  if (process.platform === "win32" || !fs.existsSync(file) || isExecutable(file)) return;
  try {
    fs.chmodSync(file, 0o755);
  } catch (e) {
    output.appendLine(`Could not make ${file} executable: ${errorText(e)}`);
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// ---- Choosing GDL by content ------------------------------------------------------------------

function chooseLanguage(doc: vscode.TextDocument): void {
  if (doc.uri.scheme !== "file" && doc.uri.scheme !== "untitled") return;
  if (!hasSharedExtension(doc.fileName)) return;
  const key = doc.uri.toString();
  if (decided.has(key)) return;
  decided.add(key);
  if (!vscode.workspace.getConfiguration("gdl", doc.uri).get<boolean>("detectByContent", true)) return;
  const associations = vscode.workspace.getConfiguration("files", doc.uri).get<Record<string, string>>("associations");
  if (associationDecides(associations, doc.uri.fsPath)) return;
  const dialect = detectDialect(doc.getText());
  const language = dialect === "gdl" ? PREFIX_LANGUAGE : dialect === "gdl-infix" ? INFIX_LANGUAGE : undefined;
  if (language && doc.languageId !== language) {
    const what = language === INFIX_LANGUAGE ? "infix GDL" : "GDL";
    output.appendLine(`${doc.fileName}: content is ${what}, switching from ${doc.languageId} to ${language} (set files.associations to override).`);
    void vscode.languages.setTextDocumentLanguage(doc, language);
  } else if ((dialect === "suo-kif" || dialect === "archicad-gdl") && isGdlLanguage(doc.languageId)) {
    const other = otherLanguageFor(path.extname(doc.fileName).toLowerCase()) ?? "plaintext";
    output.appendLine(`${doc.fileName}: content looks like ${dialect}, not GDL: switching to ${other} (set files.associations to override).`);
    void vscode.languages.setTextDocumentLanguage(doc, other);
  }
}

/** Another installed language that claims the file extension, e.g. a SUO-KIF extension's. */
function otherLanguageFor(ext: string): string | undefined {
  for (const x of vscode.extensions.all) {
    const langs: unknown = x.packageJSON?.contributes?.languages;
    if (!Array.isArray(langs)) continue;
    for (const l of langs) {
      if (l && typeof l.id === "string" && !isGdlLanguage(l.id) && Array.isArray(l.extensions)) {
        if (l.extensions.some((e: unknown) => typeof e === "string" && e.toLowerCase() === ext)) return l.id;
      }
    }
  }
  return undefined;
}

// ---- Queries and play ---------------------------------------------------------------------------

/** The game the commands act on: the active game, the game of the active result view, or the
 * game used last. */
function currentGame(): vscode.Uri | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (doc) {
    if (isGame(doc)) return doc.uri;
    const game = ResultView.gameOf(doc.uri);
    if (game) return vscode.Uri.parse(game);
  }
  return lastGame;
}

function runningClient(): LanguageClient | undefined {
  if (client && client.state === State.Running) return client;
  void vscode.window.showErrorMessage("The GDL language server is not running. Run \"GDL: Restart Server\" after fixing the problem reported before.", "Show Log").then((c) => {
    if (c) output.show();
  });
  return undefined;
}

async function execute(command: string, arg: object): Promise<unknown> {
  const c = runningClient();
  if (!c) throw new Error("The GDL language server is not running.");
  return c.sendRequest(ExecuteCommandRequest.type, { command, arguments: [arg] });
}

/** The URI as the server knows it (as sent in textDocument/didOpen). */
function serverUri(uri: vscode.Uri): string {
  return client ? client.code2ProtocolConverter.asUri(uri) : uri.toString();
}

async function showCommandResult(command: string, arg: unknown, result: unknown): Promise<void> {
  const uri = arg && typeof arg === "object" && typeof (arg as { uri?: unknown }).uri === "string" ? (arg as { uri: string }).uri : undefined;
  if (!uri) return;
  if (command === ServerCommands.runQuery) {
    const query = typeof (arg as { query?: unknown }).query === "string" ? (arg as { query: string }).query : "";
    const q = toQueryResult(result, query);
    await view.showQuery(uri, q, await stateAfterQuery(uri));
    if (q.error) void vscode.window.showWarningMessage(`GDL query ${query}: ${q.error}`);
  } else if (command === ServerCommands.explain) {
    const literal = typeof (arg as { literal?: unknown }).literal === "string" ? (arg as { literal: string }).literal : "";
    await explanations.show(uri, toExplainResult(result, literal));
  } else if (STATE_COMMANDS.includes(command)) {
    const s = toGameState(result);
    gameViews.stateChanged(uri, s);
    await view.showState(uri, s);
    if (s.error) void vscode.window.showWarningMessage(`GDL: ${s.error}`);
  }
}

/** The full state (legal moves, goals) to show under a query's answers; best effort. */
async function stateAfterQuery(uri: string): Promise<GameState | undefined> {
  try {
    const s = toGameState(await execute(ServerCommands.showState, { uri }));
    return s.error ? undefined : s;
  } catch {
    return undefined;
  }
}

/**
 * Explains the literal at the cursor in the current state: the server's code action there names
 * the literal (the innermost one: a head, a body literal, a literal inside not or or).
 */
async function explainAtCursor(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !isGame(editor.document)) {
    void vscode.window.showInformationMessage("Open a GDL game and put the cursor on a literal to explain it.");
    return;
  }
  const pos = editor.selection.active;
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      "vscode.executeCodeActionProvider",
      editor.document.uri,
      new vscode.Range(pos, pos),
    )) ?? [];
  for (const a of actions) {
    const cmd = "command" in a && typeof a.command === "object" ? a.command : (a as vscode.Command);
    if (cmd && cmd.command === ServerCommands.explain && cmd.arguments?.length) {
      await vscode.commands.executeCommand(cmd.command, ...cmd.arguments);
      return;
    }
  }
  void vscode.window.showInformationMessage("Put the cursor on a literal of a rule (a head or a body literal) to explain it.");
}

async function runQueryAtCursor(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !isGame(editor.document)) {
    void vscode.window.showInformationMessage("Open a GDL game and put the cursor on an atom or a rule to run its query.");
    return;
  }
  let query: string | undefined;
  if (!editor.selection.isEmpty) {
    query = editor.document.getText(editor.selection).trim();
  } else {
    const at = editor.document.offsetAt(editor.selection.active);
    const find = editor.document.languageId === INFIX_LANGUAGE ? infixQueryAtOffset : queryAtOffset;
    query = find(editor.document.getText(), at)?.text;
  }
  if (!query) {
    void vscode.window.showInformationMessage("No atom at the cursor: put it on a fact, a rule's head or a literal, or select the query to run.");
    return;
  }
  const uri = serverUri(editor.document.uri);
  try {
    const result = await execute(ServerCommands.runQuery, { uri, query });
    await showCommandResult(ServerCommands.runQuery, { uri, query }, result);
  } catch (e) {
    await failed(uri, `Query ${query} failed`, e);
  }
}

async function stateCommand(command: string): Promise<GameState | undefined> {
  const game = currentGame();
  if (!game) {
    void vscode.window.showInformationMessage("Open a GDL game first.");
    return undefined;
  }
  const uri = serverUri(game);
  try {
    const result = await execute(command, { uri });
    await showCommandResult(command, { uri }, result);
    return toGameState(result);
  } catch (e) {
    await failed(uri, `${command} failed`, e);
    return undefined;
  }
}

/** Verifies the current game (gdl.verify): progress shows in a notification the user can cancel;
 * the findings arrive as diagnostics, each with a quick fix that replays its witness. */
async function verifyGame(): Promise<void> {
  const game = currentGame();
  if (!game) {
    void vscode.window.showInformationMessage("Open a GDL game first.");
    return;
  }
  const uri = serverUri(game);
  try {
    const res = (await execute(ServerCommands.verify, { uri })) as VerifyResult;
    const found = res.findings.length > 0;
    const text = `GDL: ${res.summary}${found ? " (see the Problems view)" : ""}`;
    if (found) void vscode.window.showWarningMessage(text);
    else void vscode.window.showInformationMessage(text);
  } catch (e) {
    await failed(uri, "Verify game failed", e);
  }
}

/** "GDL: Run a Match": opens the game view of the current game and runs a match in it. */
async function startMatch(): Promise<void> {
  const game = currentGame();
  if (!game) {
    void vscode.window.showInformationMessage("Open a GDL game first.");
    return;
  }
  await ensureServer();
  if (!runningClient()) return;
  gameViews.runMatch(game);
}

/** The players chosen last, per role: offered first the next time. */
const lastPlayers = new Map<string, string>();

interface PlayerItem extends vscode.QuickPickItem {
  url?: boolean;
}

/** Asks for the player of each role (built-in mcts or random, or a GGP player at a URL) and
 * runs a match of the game (gdl.runMatch): the server shows its progress in a notification that
 * can cancel it. GDL-II's random role gets the built-in random player. */
async function runMatchFor(game: vscode.Uri, known: GameState | undefined): Promise<MatchResult | undefined> {
  const uri = serverUri(game);
  const state = known && known.roles.length > 0 ? known : toGameState(await execute(ServerCommands.showState, { uri }));
  if (state.roles.length === 0) {
    void vscode.window.showWarningMessage(`GDL: the game has no roles to play${state.error ? `: ${state.error}` : ""}.`);
    return undefined;
  }
  const players: string[] = [];
  for (const [i, role] of state.roles.entries()) {
    if (state.random.includes(role)) {
      players.push("random");
      continue;
    }
    const items: PlayerItem[] = [
      { label: "mcts", description: "built in: Monte Carlo tree search until the play clock" },
      { label: "random", description: "built in: a random legal move" },
      { label: "A GGP player at a URL…", description: "gdl player, or any GGP player: http://host:port/", url: true },
    ];
    const last = lastPlayers.get(role);
    if (last && last !== "mcts" && last !== "random") items.unshift({ label: last, description: "the player at this URL, as last time" });
    else if (last === "random") [items[0], items[1]] = [items[1], items[0]];
    const picked = await vscode.window.showQuickPick(items, {
      title: `Run a match: the player of ${role} (${i + 1} of ${state.roles.length})`,
      placeHolder: `Who plays ${role}?`,
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    let player = picked.label;
    if (picked.url) {
      const url = await vscode.window.showInputBox({
        title: `Run a match: the player of ${role}`,
        prompt: "The URL of a GGP player; it gets START, PLAY and STOP by HTTP POST (gdl player listens on http://127.0.0.1:9147/)",
        value: "http://127.0.0.1:9147/",
        ignoreFocusOut: true,
        validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : "An http:// or https:// URL, such as http://127.0.0.1:9147/"),
      });
      if (!url) return undefined;
      player = url.trim();
    }
    lastPlayers.set(role, player);
    players.push(player);
  }
  const cfg = vscode.workspace.getConfiguration("gdl", game);
  const result = toMatchResult(
    await execute(ServerCommands.runMatch, {
      uri,
      players,
      startclockMs: cfg.get<number>("match.startClockMs", 10000),
      playclockMs: cfg.get<number>("match.playClockMs", 2000),
    }),
  );
  const m = result.match;
  output.appendLine(`Match of ${game.toString()}: ${players.join(" against ")}: ${result.summary}`);
  if (m && (!m.completed || m.errors > 0)) void vscode.window.showWarningMessage(`GDL match: ${result.summary}. ${replacedMoves(m)}`.trim());
  else void vscode.window.showInformationMessage(`GDL match: ${result.summary}`);
  return result;
}

/** Opens the game view of the current game beside its editor. */
async function openGameView(): Promise<void> {
  const game = currentGame();
  if (!game) {
    void vscode.window.showInformationMessage("Open a GDL game first.");
    return;
  }
  await ensureServer();
  if (!runningClient()) return;
  gameViews.open(game);
}

async function playJointMove(): Promise<void> {
  const game = currentGame();
  if (!game) {
    void vscode.window.showInformationMessage("Open a GDL game first.");
    return;
  }
  const uri = serverUri(game);
  try {
    const state = toGameState(await execute(ServerCommands.showState, { uri }));
    await view.showState(uri, state);
    if (state.error) {
      void vscode.window.showWarningMessage(`GDL: ${state.error}`);
      return;
    }
    if (state.terminal) {
      const reset = "Reset to Initial State";
      const choice = await vscode.window.showInformationMessage("The game is over: this state is terminal.", reset);
      if (choice === reset) await stateCommand(ServerCommands.resetState);
      return;
    }
    const byRole = legalMovesByRole(state);
    const moves: string[] = [];
    for (const [i, { role, moves: legal }] of byRole.entries()) {
      if (legal.length === 0) {
        void vscode.window.showWarningMessage(`GDL: ${role} has no legal move in this state, so no joint move can be played.`);
        return;
      }
      if (legal.length === 1) {
        moves.push(legal[0]);
        continue;
      }
      const picked = await vscode.window.showQuickPick(legal, {
        title: `Move for ${role} (${i + 1} of ${byRole.length}, step ${state.step})`,
        placeHolder: `Pick ${role}'s move`,
        ignoreFocusOut: true,
      });
      if (picked === undefined) return;
      moves.push(picked);
    }
    const result = await execute(ServerCommands.playMove, { uri, moves });
    await showCommandResult(ServerCommands.playMove, { uri }, result);
  } catch (e) {
    await failed(uri, "Playing a joint move failed", e);
  }
}

async function failed(uri: string, what: string, e: unknown): Promise<void> {
  const message = `${what}: ${errorText(e)}`;
  output.appendLine(message);
  await view.showError(uri, message);
  void vscode.window.showErrorMessage(`GDL: ${message}`);
}
