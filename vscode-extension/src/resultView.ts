// The read-only view of query answers and game states: one virtual document per game under the
// `gdl-result:` scheme, re-rendered whenever a query or a move comes back.

import * as vscode from "vscode";
import { answerLines, notationOfModel, renderResults, ResultModel } from "./render";
import { GameState, QueryResult, ServerCommands } from "./protocol";
import { INFIX_LANGUAGE, PREFIX_LANGUAGE } from "./activation";

export const RESULT_SCHEME = "gdl-result";

export class ResultView implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider {
  private readonly models = new Map<string, ResultModel>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** The view's URI for a game: the tab reads "<game>.results"; the query holds the game's URI. */
  static viewUri(gameUri: string): vscode.Uri {
    const name = baseName(gameUri);
    return vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${name}.results`, query: gameUri });
  }

  /** The game a view shows, or undefined for any other document. */
  static gameOf(uri: vscode.Uri): string | undefined {
    return uri.scheme === RESULT_SCHEME && uri.query !== "" ? uri.query : undefined;
  }

  /** A "why?" lens above each answer of the query shown: it explains the answer (gdl.explain). */
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const game = ResultView.gameOf(doc.uri);
    const m = game !== undefined ? this.models.get(game) : undefined;
    if (!game || !m) return [];
    return answerLines(m).map((a) => {
      const arg: { uri: string; literal: string; joint?: string[] } = { uri: game, literal: a.literal };
      if (a.joint) arg.joint = a.joint;
      return new vscode.CodeLens(new vscode.Range(a.line, 0, a.line, 0), {
        title: "why?",
        tooltip: "Explain why this answer holds in the current state",
        command: ServerCommands.explain,
        arguments: [arg],
      });
    });
  }

  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    const game = ResultView.gameOf(uri) ?? "";
    return renderResults(this.models.get(game) ?? { gameName: baseName(game) });
  }

  /** Shows the answers of a query; the state shown so far is kept when the query brings none. */
  async showQuery(gameUri: string, q: QueryResult, state?: GameState): Promise<void> {
    const m = this.model(gameUri);
    m.query = q;
    m.error = undefined;
    if (state) m.state = state;
    await this.reveal(gameUri);
  }

  async showState(gameUri: string, s: GameState): Promise<void> {
    const m = this.model(gameUri);
    // A move or a reset makes the last query's answers stale: drop them rather than mislead.
    if (m.state && (m.state.step !== s.step || m.state.history.length !== s.history.length)) m.query = undefined;
    m.state = s;
    m.error = undefined;
    await this.reveal(gameUri);
  }

  async showError(gameUri: string, message: string): Promise<void> {
    this.model(gameUri).error = message;
    await this.reveal(gameUri);
  }

  dispose(): void {
    this.changed.dispose();
    this.lensesChanged.dispose();
  }

  private model(gameUri: string): ResultModel {
    let m = this.models.get(gameUri);
    if (!m) {
      m = { gameName: baseName(gameUri) };
      this.models.set(gameUri, m);
    }
    return m;
  }

  /** Opens the view beside the game (or refreshes it where it is) without taking the focus. */
  private async reveal(gameUri: string): Promise<void> {
    const uri = ResultView.viewUri(gameUri);
    this.changed.fire(uri);
    this.lensesChanged.fire();
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    if (shown) return;
    let doc = await vscode.workspace.openTextDocument(uri);
    // The view is written in the game's notation: colour it with that notation's grammar.
    const language = notationOfModel(this.model(gameUri)) === "infix" ? INFIX_LANGUAGE : PREFIX_LANGUAGE;
    if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
  }
}

function baseName(uri: string): string {
  const path = uri.replace(/[?#].*$/, "");
  const name = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
  return name === "" ? "game" : name;
}
