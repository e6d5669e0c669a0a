// When the language server is started. The extension activates when VS Code has started
// (onStartupFinished) as well as for GDL documents and workspaces with game files: a loose `.kif`
// file that another extension (SUO-KIF) claimed never has the language gdl, so only an activation
// that does not depend on it lets content detection look at the file and switch it. Activation is
// cheap; the server starts only once there is GDL to serve. Kept free of the vscode API so it can
// be unit tested.

/** The language of prefix GDL (KIF: .kif, .gdl files). */
export const PREFIX_LANGUAGE = "gdl";
/** The language of infix GDL (.hrf files): the same server serves it. */
export const INFIX_LANGUAGE = "gdl-infix";
/** The languages the server serves. */
export const LANGUAGES: readonly string[] = [PREFIX_LANGUAGE, INFIX_LANGUAGE];

/** True for the language of prefix or infix GDL. */
export function isGdlLanguage(languageId: string): boolean {
  return LANGUAGES.includes(languageId);
}

/** What the extension knows about an open document. */
export interface OpenDocument {
  languageId: string;
  uri: { scheme: string };
}

/** True for a document the server serves: a GDL file or an untitled GDL buffer, in either notation. */
export function isServedDocument(doc: OpenDocument): boolean {
  return isGdlLanguage(doc.languageId) && (doc.uri.scheme === "file" || doc.uri.scheme === "untitled");
}

/**
 * Whether the server should run now: a GDL document is open, or the workspace has game files
 * (for workspace symbols and the commands). Otherwise it starts when the first GDL document opens,
 * including one that content detection switched to GDL.
 */
export function serverWanted(docs: readonly OpenDocument[], workspaceHasGameFiles: boolean): boolean {
  return workspaceHasGameFiles || docs.some(isServedDocument);
}
