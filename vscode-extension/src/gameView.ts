// The game view: a webview beside a game's editor that draws the document's current state as
// boards, plays the moves clicked, steps through the moves played, asks the built-in player for
// a move, runs a GGP match and plays it back move by move, and charts random matches. It talks to the language server only through its
// workspace/executeCommand commands (the contract in docs/editors.md), and follows the document:
// an edit of the rules redraws the state on the new rules.

import { randomBytes } from "crypto";
import * as vscode from "vscode";
import { ExplainResult, GameState, MatchResult, ServerCommands, toExplainResult, toGameState, toPlayoutStats } from "./protocol";
import { gameViewHtml } from "./webview/page";

/** What the views need of the extension. */
export interface GameViewHost {
  /** Runs a server command with one argument object. */
  execute(command: string, arg: object): Promise<unknown>;
  /** The document's URI as the server knows it. */
  serverUri(uri: vscode.Uri): string;
  log(line: string): void;
  /** Asks for the players and runs a match of the game (gdl.runMatch); undefined when the
   * person gave up choosing. */
  runMatch(game: vscode.Uri, state: GameState | undefined): Promise<MatchResult | undefined>;
  /** Shows an explanation (gdl.explain's result) of the game whose server URI is given. */
  showExplanation(serverUri: string, r: ExplainResult): Promise<void>;
}

/** A message from the webview. */
type Incoming =
  | { type: "ready"; viewAs?: string }
  | { type: "view-as"; role: string }
  | { type: "play"; moves: string[] }
  | { type: "goto"; step: number }
  | { type: "reset" }
  | { type: "explain"; literal: string }
  | { type: "explain-fluent"; fluent: string }
  | { type: "random" }
  | { type: "computer" }
  | { type: "match" }
  | { type: "playouts"; playouts: number };

export const GAME_VIEW_TYPE = "gdl.gameView";

/** The game views, one per game document. */
export class GameViews implements vscode.Disposable {
  private readonly views = new Map<string, GameView>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly extensionUri: vscode.Uri, private readonly host: GameViewHost) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((e) => this.views.get(e.document.uri.toString())?.documentChanged()),
      vscode.workspace.onDidCloseTextDocument((doc) => this.views.get(doc.uri.toString())?.documentClosed()),
    );
  }

  /** Opens the view of a game beside its editor, or shows it where it is. */
  open(game: vscode.Uri): void {
    const key = game.toString();
    const existing = this.views.get(key);
    if (existing) {
      existing.reveal();
      return;
    }
    const view = new GameView(game, this.extensionUri, this.host, () => this.views.delete(key));
    this.views.set(key, view);
  }

  /** Opens the view of a game and runs a match in it ("GDL: Run a Match"). */
  runMatch(game: vscode.Uri): void {
    this.open(game);
    this.views.get(game.toString())?.runMatch();
  }

  /** Shows a state that another command (the results view, a code lens) produced. */
  stateChanged(serverUri: string, state: GameState): void {
    for (const v of this.views.values()) if (v.serverUri === serverUri) v.show(state, "elsewhere");
  }

  dispose(): void {
    for (const v of [...this.views.values()]) v.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function nonce(): string {
  return randomBytes(18).toString("base64url");
}

class GameView {
  readonly serverUri: string;
  private readonly panel: vscode.WebviewPanel;
  private readonly name: string;
  private last?: GameState;
  private timer?: ReturnType<typeof setTimeout>;
  /** The match being played back, step by step; any action of the person stops it. */
  private playback?: { stopped: boolean; timer?: ReturnType<typeof setTimeout> };
  /** Commands run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();
  private disposed = false;
  /** The role the view shows the knowledge of (GDL-II), sent with every state command. */
  private viewAs = "";

  constructor(private readonly game: vscode.Uri, extensionUri: vscode.Uri, private readonly host: GameViewHost, private readonly onDispose: () => void) {
    this.serverUri = host.serverUri(game);
    this.name = game.path.slice(game.path.lastIndexOf("/") + 1) || "game";
    this.panel = vscode.window.createWebviewPanel(GAME_VIEW_TYPE, `Game: ${this.name}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, "out"), vscode.Uri.joinPath(extensionUri, "media")],
    });
    const w = this.panel.webview;
    w.html = gameViewHtml(
      w.cspSource,
      w.asWebviewUri(vscode.Uri.joinPath(extensionUri, "out", "webview.js")).toString(),
      w.asWebviewUri(vscode.Uri.joinPath(extensionUri, "media", "gameView.css")).toString(),
      nonce(),
    );
    w.onDidReceiveMessage((m: Incoming) => this.received(m));
    this.panel.onDidDispose(() => this.dispose());
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** The rules changed: redraw the state on them, once the typing pauses. */
  documentChanged(): void {
    this.stopPlayback();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(ServerCommands.showState, {}, "edit"), 400);
  }

  documentClosed(): void {
    void this.post({ type: "error", gameName: this.name, message: "The game's document was closed: open it again to go on." });
  }

  show(state: GameState, cause: string, message?: string): void {
    this.last = state;
    void this.post({ type: "state", state, gameName: this.name, cause, message });
  }

  /** Asks for the players, runs a match and plays it back. */
  runMatch(): void {
    this.stopPlayback();
    this.enqueue(async () => {
      await this.post({ type: "busy", busy: "running a match" });
      const res = await this.host.runMatch(this.game, this.last);
      if (!res) {
        await this.post({ type: "busy", busy: "" });
        return;
      }
      this.playBack(res);
    });
  }

  /** Shows the match from its initial state, then one joint move after another, every
   * gdl.match.stepMs, until its end or until the person does something in the view. */
  private playBack(res: MatchResult): void {
    const playback: { stopped: boolean; timer?: ReturnType<typeof setTimeout> } = { stopped: false };
    this.playback = playback;
    const n = res.state.line.length;
    this.show(res.state, "match", res.summary);
    const ms = vscode.workspace.getConfiguration("gdl", this.game).get<number>("match.stepMs", 700);
    const next = (step: number): void => {
      if (playback.stopped || this.disposed || step > n) return;
      playback.timer = setTimeout(() => {
        this.enqueue(async () => {
          if (playback.stopped || this.disposed) return;
          const s = toGameState(await this.host.execute(ServerCommands.gotoStep, this.args({ step })));
          if (playback.stopped) return;
          this.show(s, "match", step === n ? res.summary : undefined);
          next(step + 1);
        });
      }, ms);
    };
    next(1);
  }

  private stopPlayback(): void {
    if (!this.playback) return;
    this.playback.stopped = true;
    if (this.playback.timer) clearTimeout(this.playback.timer);
    this.playback = undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stopPlayback();
    if (this.timer) clearTimeout(this.timer);
    this.panel.dispose();
    this.onDispose();
  }

  private async post(msg: object): Promise<void> {
    if (!this.disposed) await this.panel.webview.postMessage(msg);
  }

  private received(m: Incoming): void {
    if (m.type !== "ready" && m.type !== "view-as") this.stopPlayback();
    switch (m.type) {
      case "ready":
        this.viewAs = typeof m.viewAs === "string" ? m.viewAs : "";
        if (this.last && (this.viewAs === "" || this.last.viewAs?.role === this.viewAs)) this.show(this.last, "ready");
        else this.run(ServerCommands.showState, {}, "ready");
        return;
      case "view-as":
        this.viewAs = typeof m.role === "string" ? m.role : "";
        if (this.viewAs !== "") this.run(ServerCommands.showState, {}, "view-as");
        return;
      case "play":
        this.run(ServerCommands.playMove, { moves: m.moves }, "play");
        return;
      case "goto":
        this.run(ServerCommands.gotoStep, { step: m.step }, "goto");
        return;
      case "reset":
        this.run(ServerCommands.resetState, {}, "goto");
        return;
      case "random":
        this.run(ServerCommands.playRandom, {}, "random");
        return;
      case "computer": {
        const ms = vscode.workspace.getConfiguration("gdl", this.game).get<number>("view.computerMoveMs", 1000);
        this.run(ServerCommands.computerMove, { moveTimeMs: ms }, "computer", "the computer is thinking");
        return;
      }
      case "match":
        this.runMatch();
        return;
      case "explain":
      case "explain-fluent": {
        const arg = m.type === "explain" ? { literal: String(m.literal) } : { fluent: String(m.fluent) };
        this.enqueue(async () => {
          const res = await this.host.execute(ServerCommands.explain, { uri: this.serverUri, ...arg });
          await this.host.showExplanation(this.serverUri, toExplainResult(res, m.type === "explain" ? String(m.literal) : String(m.fluent)));
        });
        return;
      }
      case "playouts":
        this.enqueue(async () => {
          await this.post({ type: "busy", busy: `playing ${m.playouts} random matches` });
          const stats = toPlayoutStats(await this.host.execute(ServerCommands.playouts, { uri: this.serverUri, playouts: m.playouts }));
          await this.post({ type: "stats", stats });
        });
        return;
    }
  }

  /** Runs a state command and shows the state it leads to. */
  private run(command: string, arg: object, cause: string, busy = ""): void {
    this.enqueue(async () => {
      if (busy) await this.post({ type: "busy", busy });
      const state = toGameState(await this.host.execute(command, this.args(arg)));
      this.show(state, cause);
      // A move refused as not legal: why not.
      if (state.why) await this.host.showExplanation(this.serverUri, state.why);
    });
  }

  /** A state command's arguments: the document, and the role viewed as. */
  private args(arg: object): object {
    return this.viewAs !== "" ? { ...arg, uri: this.serverUri, viewAs: this.viewAs } : { ...arg, uri: this.serverUri };
  }

  private enqueue(f: () => Promise<void>): void {
    this.queue = this.queue.then(f).catch(async (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      this.host.log(`Game view of ${this.name}: ${message}`);
      await this.post({ type: "error", gameName: this.name, message });
    });
  }
}
