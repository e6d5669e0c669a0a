// Explanations (the server's gdl.explain): why a literal holds or does not in a game's current
// state, shown as a Markdown preview of a virtual document under the `gdl-explain:` scheme, one
// per game, whose rule links open the game at the rule.

import * as vscode from "vscode";
import type { ExplainResult } from "./protocol";
import { explanationMarkdown } from "./render";

export const EXPLAIN_SCHEME = "gdl-explain";

export class ExplainView implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** The view's URI for a game: "<game>.why.md"; the query holds the game's URI. */
  static viewUri(gameUri: string): vscode.Uri {
    const path = gameUri.replace(/[?#].*$/, "");
    const name = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)) || "game";
    return vscode.Uri.from({ scheme: EXPLAIN_SCHEME, path: `/${name}.why.md`, query: gameUri });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? "";
  }

  /** Shows an explanation of the game at gameUri in a Markdown preview beside it. */
  async show(gameUri: string, r: ExplainResult): Promise<void> {
    const uri = ExplainView.viewUri(gameUri);
    this.texts.set(gameUri, explanationMarkdown(r));
    this.changed.fire(uri);
    await vscode.commands.executeCommand("markdown.showPreviewToSide", uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
