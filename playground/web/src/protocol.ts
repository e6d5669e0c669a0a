// The bridge's values as the page receives them (package playground's JSON). The game states
// are the VS Code game view's (vscode-extension/src/protocol.ts) plus the state drawn as SVG.

import type { ExplainResult, GameState as ViewState } from "../../../vscode-extension/src/protocol";

// The explanation is the editor's own result (gdl.explain and the bridge's explain give the same).
export type { ExplainResult };

export interface Pos {
  line: number;
  ch: number;
}
export interface Range {
  from: Pos;
  to: Pos;
}
export interface Edit extends Range {
  text: string;
}
export interface Related extends Range {
  message: string;
}
export interface Fix {
  title: string;
  edits: Edit[];
  safe: boolean;
}
export interface Diagnostic extends Range {
  severity: "error" | "warning" | "info" | "hint";
  code: string;
  message: string;
  related?: Related[];
  fixes?: Fix[];
}
export interface Diagnostics {
  version: number;
  diagnostics: Diagnostic[];
}
export interface DocInfo {
  version: number;
  notation: "prefix" | "infix";
}
export interface Hover extends Range {
  markdown: string;
}
export interface CompletionItem extends Range {
  label: string;
  detail?: string;
  kind: string;
  text: string;
  snippet?: boolean;
  doc?: string;
  sort?: string;
}
export interface GameState extends Omit<ViewState, "why"> {
  svg: string;
  why?: ExplainResult;
}
export interface Finding extends Range {
  severity: string;
  code: string;
  message: string;
  related?: Related[];
  witness: string[][];
}
export interface VerifyResult {
  version: number;
  summary: string;
  complete: boolean;
  states: number;
  findings: Finding[];
}
export interface VerifyProgress {
  explored: number;
  depth: number;
  elapsedMs: number;
}
export interface QueryResult {
  query: string;
  answers: number;
  text: string;
  error?: string;
  elapsedMs: number;
}
export interface Lens {
  line: number;
  title: string;
}
