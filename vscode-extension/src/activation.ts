// When the language server is started. The extension activates when VS Code has started
// (onStartupFinished) as well as for GDL documents and workspaces with game files: a loose `.kif`
// file that another extension (SUO-KIF) claimed never has the language gdl, so only an activation
// that does not depend on it lets content detection look at the file and switch it. Activation is
// cheap; the server starts only once there is GDL to serve. Kept free of the vscode API so it can
// be unit tested.

/** What the extension knows about an open document. */
export interface OpenDocument {
  languageId: string;
  uri: { scheme: string };
}

/** True for a document the server serves: a GDL file or an untitled GDL buffer. */
export function isServedDocument(doc: OpenDocument): boolean {
  return doc.languageId === "gdl" && (doc.uri.scheme === "file" || doc.uri.scheme === "untitled");
}

/**
 * Whether the server should run now: a GDL document is open, or the workspace has game files
 * (for workspace symbols and the commands). Otherwise it starts when the first GDL document opens,
 * including one that content detection switched to GDL.
 */
export function serverWanted(docs: readonly OpenDocument[], workspaceHasGameFiles: boolean): boolean {
  return workspaceHasGameFiles || docs.some(isServedDocument);
}
