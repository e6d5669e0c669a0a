// The game view: a webview beside a game's editor that draws the document's current state as
// boards, plays the moves clicked, steps through the moves played, asks the built-in player for
// a move, and charts random matches. It talks to the language server only through its
// workspace/executeCommand commands (the contract in docs/editors.md), and follows the document:
// an edit of the rules redraws the state on the new rules.

import { randomBytes } from "crypto";
import * as vscode from "vscode";
import { GameState, ServerCommands, toGameState, toPlayoutStats } from "./protocol";
import { gameViewHtml } from "./webview/page";

/** What the views need of the extension. */
export interface GameViewHost {
  /** Runs a server command with one argument object. */
  execute(command: string, arg: object): Promise<unknown>;
  /** The document's URI as the server knows it. */
  serverUri(uri: vscode.Uri): string;
  log(line: string): void;
}

/** A message from the webview. */
type Incoming =
  | { type: "ready" }
  | { type: "play"; moves: string[] }
  | { type: "goto"; step: number }
  | { type: "reset" }
  | { type: "random" }
  | { type: "computer" }
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
  /** Commands run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();
  private disposed = false;

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
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(ServerCommands.showState, {}, "edit"), 400);
  }

  documentClosed(): void {
    void this.post({ type: "error", gameName: this.name, message: "The game's document was closed: open it again to go on." });
  }

  show(state: GameState, cause: string): void {
    this.last = state;
    void this.post({ type: "state", state, gameName: this.name, cause });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.panel.dispose();
    this.onDispose();
  }

  private async post(msg: object): Promise<void> {
    if (!this.disposed) await this.panel.webview.postMessage(msg);
  }

  private received(m: Incoming): void {
    switch (m.type) {
      case "ready":
        if (this.last) this.show(this.last, "ready");
        else this.run(ServerCommands.showState, {}, "ready");
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
      const state = toGameState(await this.host.execute(command, { ...arg, uri: this.serverUri }));
      this.show(state, cause);
    });
  }

  private enqueue(f: () => Promise<void>): void {
    this.queue = this.queue.then(f).catch(async (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      this.host.log(`Game view of ${this.name}: ${message}`);
      await this.post({ type: "error", gameName: this.name, message });
    });
  }
}
