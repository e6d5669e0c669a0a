// The GDL playground's page: a CodeMirror editor whose diagnostics, hovers and completions come
// from gdl compiled to WebAssembly in one Web Worker (the editor's bridge), and a game panel
// (the board drawn as `gdl render` draws it, moves by clicks, the computer's moves by MCTS, back
// and forward, verify with witnesses to replay, explain, queries, the lenses' counts) whose work
// runs in a second worker (the game's bridge), so that typing is checked while the computer
// thinks or verify runs. Every edit goes to both. See docs/playground.md.

import { Compartment, EditorState, StateEffect, StateField, type Transaction } from "@codemirror/state";
import {
  Decoration, type DecorationSet, EditorView, WidgetType, drawSelection, highlightActiveLine, highlightActiveLineGutter,
  hoverTooltip, keymap, lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { type Diagnostic as CMDiagnostic, lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { autocompletion, type Completion, type CompletionContext, type CompletionResult, completionKeymap, snippet } from "@codemirror/autocomplete";
import { searchKeymap } from "@codemirror/search";

import { clickSquare, choose, statsHtml, targets, type Model } from "../../../vscode-extension/src/webview/view";
import { type GameState as ViewState, toPlayoutStats } from "../../../vscode-extension/src/protocol";
import { Bridge } from "./client";
import { infixGDL, prefixGDL } from "./highlight";
import { renderMarkdown } from "./markdown";
import type {
  CompletionItem, Diagnostic, Diagnostics, DocInfo, Edit, ExplainResult, Finding, GameState, Hover, Lens, Pos, QueryResult,
  VerifyProgress, VerifyResult,
} from "./protocol";
import { fragmentOf, textOf } from "./share";

/** What the end-to-end test reads: the measured times and the page's state. */
interface Stats {
  /** From the navigation's start to the first game checked (diagnostics shown). */
  firstCheckedMs?: number;
  /** From the last keystroke to its diagnostics shown. */
  lastDiagnosticsMs?: number;
  /** The longest task on the main thread so far, and the last long tasks (start and duration). */
  longestTaskMs: number;
  longTasks: { start: number; ms: number }[];
  /** The diagnostics' version shown, and the document's. */
  shownVersion: number;
  version: number;
  /** The editor's text, and a way to replace it (as an example is opened). */
  text?: () => string;
  open?: (text: string, infix?: boolean) => Promise<void>;
  /** The findings shown, and a way to show others (to measure drawing a long list). */
  findings: Finding[];
  showFindings?: (fs: Finding[]) => void;
}
const stats: Stats = { longestTaskMs: 0, longTasks: [], shownVersion: 0, version: 0, findings: [] };
(window as unknown as { gdlPlayground: Stats }).gdlPlayground = stats;
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      stats.longestTaskMs = Math.max(stats.longestTaskMs, e.duration);
      stats.longTasks = [...stats.longTasks.slice(-19), { start: Math.round(e.startTime), ms: Math.round(e.duration) }];
    }
  }).observe({ type: "longtask", buffered: true });
} catch {
  // No long-task timing in this browser.
}

// gdl.wasm is fetched (index.html preloads it) and compiled while the page sets itself up.
const compiling = WebAssembly.compileStreaming(fetch("gdl.wasm"));

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const statusEl = $("status");

function status(text: string, kind = ""): void {
  statusEl.textContent = text;
  statusEl.className = kind;
}

// --- Positions --------------------------------------------------------------------------------

function toOffset(state: EditorState, p: Pos): number {
  const line = state.doc.line(Math.min(Math.max(p.line + 1, 1), state.doc.lines));
  return Math.min(line.from + Math.max(p.ch, 0), line.to);
}

function toPos(state: EditorState, off: number): Pos {
  const line = state.doc.lineAt(off);
  return { line: line.number - 1, ch: off - line.from };
}

// --- The editor -------------------------------------------------------------------------------

const language = new Compartment();
let notation: "prefix" | "infix" = "prefix";
let editorBridge: Bridge;
let gameBridge: Bridge;
/** Set while the page replaces the whole text (a new example, a link): it is opened, not edited. */
let replacing = false;

const setLenses = StateEffect.define<Lens[]>();

class LensWidget extends WidgetType {
  constructor(readonly title: string) {
    super();
  }
  eq(other: LensWidget): boolean {
    return other.title === this.title;
  }
  toDOM(): HTMLElement {
    const d = document.createElement("div");
    d.className = "cm-lens";
    d.textContent = this.title;
    return d;
  }
}

const lensField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setLenses)) continue;
      const doc = tr.state.doc;
      deco = Decoration.set(
        e.value.filter((l) => l.line < doc.lines).map((l) => Decoration.widget({ widget: new LensWidget(l.title), block: true, side: -1 }).range(doc.line(l.line + 1).from)),
        true,
      );
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const hover = hoverTooltip(async (view, off) => {
  const h = await editorBridge.call<Hover | null>("hover", { pos: toPos(view.state, off) }).catch(() => null);
  if (!h) return null;
  return {
    pos: toOffset(view.state, h.from),
    end: toOffset(view.state, h.to),
    above: true,
    create: () => ({ dom: renderMarkdown(h.markdown, gotoRule) }),
  };
});

const completionTypes: Record<string, string> = {
  relation: "function", keyword: "keyword", function: "function", variable: "variable", role: "enum", constant: "constant",
  fluent: "property", move: "method",
};

async function complete(ctx: CompletionContext): Promise<CompletionResult | null> {
  const before = ctx.matchBefore(/[^\s()",;%]*/);
  if (!ctx.explicit && (!before || before.from === before.to) && !/[(]$/.test(ctx.state.sliceDoc(ctx.pos - 1, ctx.pos))) return null;
  const items = await editorBridge.call<CompletionItem[]>("complete", { pos: toPos(ctx.state, ctx.pos) }).catch(() => []);
  if (items.length === 0) return null;
  const from = toOffset(ctx.state, items[0].from);
  const options: Completion[] = items.map((it) => ({
    label: it.label,
    detail: it.detail,
    type: completionTypes[it.kind] ?? "text",
    sortText: it.sort,
    apply: it.snippet ? snippet(it.text) : it.text,
    info: it.doc ? () => renderMarkdown(it.doc!, gotoRule) : undefined,
  }));
  return { from, options, validFor: /^[^\s()",;%]*$/ };
}

async function gotoDefinition(view: EditorView): Promise<boolean> {
  const off = view.state.selection.main.head;
  const defs = await editorBridge.call<{ from: Pos; to: Pos }[]>("definition", { pos: toPos(view.state, off) }).catch(() => []);
  if (defs.length === 0) return false;
  const from = toOffset(view.state, defs[0].from);
  view.dispatch({ selection: { anchor: from, head: toOffset(view.state, defs[0].to) }, scrollIntoView: true });
  view.focus();
  return true;
}

function gotoRule(line: number, column: number): void {
  const off = toOffset(view.state, { line: line - 1, ch: column - 1 });
  view.dispatch({ selection: { anchor: off }, scrollIntoView: true });
  view.focus();
}

const view = new EditorView({
  parent: $("editor"),
  state: EditorState.create({
    doc: "",
    extensions: [
      lineNumbers(),
      EditorView.lineWrapping,
      highlightActiveLineGutter(),
      highlightActiveLine(),
      drawSelection(),
      history(),
      bracketMatching(),
      language.of(prefixGDL),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      lintGutter(),
      lensField,
      hover,
      autocompletion({ override: [complete] }),
      keymap.of([
        { key: "F12", run: (v) => (void gotoDefinition(v), true) },
        { key: "Mod-Alt-e", run: () => (void explainAtCursor(), true) },
        ...completionKeymap, ...lintKeymap, ...searchKeymap, ...historyKeymap, ...defaultKeymap, indentWithTab,
      ]),
      EditorView.domEventHandlers({
        mousedown(e, v) {
          if (!(e.ctrlKey || e.metaKey)) return false;
          const off = v.posAtCoords({ x: e.clientX, y: e.clientY });
          if (off === null) return false;
          v.dispatch({ selection: { anchor: off } });
          void gotoDefinition(v);
          return true;
        },
      }),
      EditorView.updateListener.of((u) => {
        if (!u.docChanged || replacing) return;
        for (const tr of u.transactions) sendEdit(tr);
        changed();
      }),
    ],
  }),
});

/** Sends a transaction's changes to both bridges, last first (each in the text before it). */
function sendEdit(tr: Transaction): void {
  if (tr.changes.empty) return;
  const changes: Edit[] = [];
  tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    changes.push({ from: toPos(tr.startState, fromA), to: toPos(tr.startState, toA), text: inserted.toString() });
  });
  changes.reverse();
  stats.version++;
  editTimes.set(stats.version, performance.now());
  // A worker stopped meanwhile (Stop) rejects its calls; the new one is given the whole text.
  editorBridge.call<DocInfo>("edit", { changes }).catch(() => undefined);
  gameBridge.call<DocInfo>("edit", { changes }).catch(() => undefined);
}

const editTimes = new Map<number, number>();

/** After a change of the text: its diagnostics now; the lenses, the state and the link soon. */
function changed(): void {
  void refreshDiagnostics();
  schedule("lenses", 400, refreshLenses);
  schedule("state", 600, refreshState);
  schedule("link", 1000, updateLink);
}

/** The state again after the rules changed, once the game's bridge is not busy. */
function refreshState(): void {
  if (model.busy !== "") schedule("state", 600, refreshState);
  else void gameCommand("state");
}

const timers = new Map<string, number>();
function schedule(key: string, ms: number, f: () => unknown): void {
  clearTimeout(timers.get(key));
  timers.set(key, window.setTimeout(() => void f(), ms));
}

/** Replaces the whole text (an example, a shared link) and opens it in both bridges. */
async function openText(text: string, infix?: boolean): Promise<void> {
  replacing = true;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, effects: setLenses.of([]) });
  replacing = false;
  stats.version++;
  editTimes.set(stats.version, performance.now());
  const params = { text, notation: infix === undefined ? "" : infix ? "infix" : "prefix" };
  const opened = gameBridge.call<DocInfo>("open", params);
  const info = await editorBridge.call<DocInfo>("open", params);
  setNotation(info.notation);
  model.pending = {};
  model.selected = undefined;
  clearVerify();
  $("playouts-out").replaceChildren();
  await refreshDiagnostics();
  await opened;
  void refreshLenses();
  await gameCommand("reset");
  void updateLink();
}

function setNotation(n: "prefix" | "infix"): void {
  if (n === notation) return;
  notation = n;
  view.dispatch({ effects: language.reconfigure(n === "infix" ? infixGDL : prefixGDL) });
  $("notation").textContent = n === "infix" ? "infix GDL" : "prefix GDL (KIF)";
}

// --- Diagnostics ------------------------------------------------------------------------------

let diagRunning = false;
let diagAgain = false;

async function refreshDiagnostics(): Promise<void> {
  if (diagRunning) {
    diagAgain = true;
    return;
  }
  diagRunning = true;
  try {
    do {
      diagAgain = false;
      let d: Diagnostics;
      try {
        d = await editorBridge.call<Diagnostics>("diagnostics");
      } catch (err) {
        status(`checking failed: ${(err as Error).message}`, "error");
        return;
      }
      if (d.version !== stats.version) {
        diagAgain = true; // typed meanwhile: these are for an older text
        continue;
      }
      showDiagnostics(d);
    } while (diagAgain);
  } finally {
    diagRunning = false;
  }
}

function showDiagnostics(d: Diagnostics): void {
  const state = view.state;
  const cm: CMDiagnostic[] = d.diagnostics.map((x) => ({
    from: toOffset(state, x.from),
    to: toOffset(state, x.to),
    severity: x.severity,
    source: x.code,
    message: `${x.message} [${x.code}]`,
    actions: (x.fixes ?? []).map((f) => ({ name: f.title, apply: (v: EditorView) => applyEdits(v, f.edits) })),
  }));
  view.dispatch(setDiagnostics(state, cm));
  stats.shownVersion = d.version;
  const t = editTimes.get(d.version);
  if (t !== undefined) {
    stats.lastDiagnosticsMs = performance.now() - t;
    for (const v of editTimes.keys()) if (v <= d.version) editTimes.delete(v);
  }
  if (stats.firstCheckedMs === undefined) {
    stats.firstCheckedMs = performance.now();
    performance.mark("gdl:checked");
  }
  const count = (s: string) => d.diagnostics.filter((x) => x.severity === s).length;
  const errors = count("error");
  const warnings = count("warning");
  const parts = [];
  if (errors) parts.push(`${errors} error${errors > 1 ? "s" : ""}`);
  if (warnings) parts.push(`${warnings} warning${warnings > 1 ? "s" : ""}`);
  const others = d.diagnostics.length - errors - warnings;
  if (others) parts.push(`${others} note${others > 1 ? "s" : ""}`);
  status(`${parts.length ? parts.join(", ") : "no problems"} · checked in ${Math.round(stats.lastDiagnosticsMs ?? 0)} ms`, errors ? "error" : "ok");
  $("problems-count").textContent = d.diagnostics.length ? ` (${d.diagnostics.length})` : "";
  renderProblems(d.diagnostics);
}

function applyEdits(v: EditorView, edits: Edit[]): void {
  v.dispatch({ changes: edits.map((e) => ({ from: toOffset(v.state, e.from), to: toOffset(v.state, e.to), insert: e.text })) });
}

function select(from: Pos, to: Pos): void {
  view.dispatch({ selection: { anchor: toOffset(view.state, from), head: toOffset(view.state, to) }, scrollIntoView: true });
  view.focus();
}

function renderProblems(ds: Diagnostic[]): void {
  renderList($("problems"), ds, el("li", "dim", "No problems."), (d) => {
    const li = el("li", `problem ${d.severity}`);
    const where = el("button", "link", `${d.from.line + 1}:${d.from.ch + 1}`);
    where.addEventListener("click", () => select(d.from, d.to));
    li.append(el("span", `sev ${d.severity}`, d.severity), " ", where, " ", document.createTextNode(d.message), " ", el("code", "code", d.code));
    for (const f of d.fixes ?? []) {
      const b = el("button", "fix", f.title);
      b.addEventListener("click", () => applyEdits(view, f.edits));
      li.append(" ", b);
    }
    return li;
  });
}

function el(tag: string, cls = "", text?: string): HTMLElement {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (tag === "button") (e as HTMLButtonElement).type = "button";
  return e;
}

// --- Drawing in short tasks -------------------------------------------------------------------
// The main thread only draws, and draws in tasks well under 50 ms so that the page answers
// while the computer thinks or verify runs: what comes faster than frames (a verification's
// progress) is drawn once a frame, and long lists (findings, problems) a slice a frame.

const frameWork = new Map<string, () => void>();
let frameAsked = false;

/** Runs f before the next frame is drawn, or only the last f given for the same key. */
function atNextFrame(key: string, f: () => void): void {
  frameWork.set(key, f);
  if (frameAsked) return;
  frameAsked = true;
  later(() => {
    frameAsked = false;
    const work = Array.from(frameWork.values());
    frameWork.clear();
    for (const w of work) w();
  });
}

/** The next frame; a hidden page draws no frames, so there the next task. */
function later(f: () => void): void {
  if (document.hidden) setTimeout(f, 0);
  else requestAnimationFrame(f);
}

/** The lists being filled, each with the number of its latest filling. */
const filling = new WeakMap<HTMLElement, number>();

/** Empties a list, ending its filling if one is under way; returns the next filling's number. */
function clearList(list: HTMLElement): number {
  const n = (filling.get(list) ?? 0) + 1;
  filling.set(list, n);
  list.replaceChildren();
  list.ariaBusy = "false";
  return n;
}

/**
 * Fills a list with an item per value, a slice a frame: at most 25 items and 8 ms of script,
 * so that with the slice's style and layout a task stays short however long the list (a
 * thousand findings drawn at once took 70 ms and more of CPU in one task). The list is
 * aria-busy until it is full. A newer call for the same list ends an older one still filling it.
 */
function renderList<T>(list: HTMLElement, values: T[], empty: HTMLElement, item: (v: T) => HTMLElement): void {
  const mine = clearList(list);
  if (values.length === 0) {
    list.append(empty);
    return;
  }
  let i = 0;
  list.ariaBusy = "true";
  const slice = () => {
    if (filling.get(list) !== mine) return;
    const t0 = performance.now();
    const part = document.createDocumentFragment();
    for (let n = 0; n < 25 && i < values.length && performance.now() - t0 < 8; n++) part.append(item(values[i++]));
    list.append(part);
    if (i < values.length) later(slice);
    else list.ariaBusy = "false";
  };
  slice();
}

// --- Lenses -----------------------------------------------------------------------------------

async function refreshLenses(): Promise<void> {
  const at = stats.version;
  const ls = await gameBridge.call<Lens[]>("lenses").catch(() => null);
  if (ls && at === stats.version) view.dispatch({ effects: setLenses.of(ls) });
}

// --- The game ---------------------------------------------------------------------------------

const model: Model = { gameName: "", pending: {}, viewAs: "", computerRole: "", busy: "" };
let game: GameState | undefined;

/** Runs a state command in the game's bridge and shows the state reached. */
async function gameCommand(method: string, params: unknown = {}): Promise<void> {
  model.busy = method;
  drawGame();
  try {
    const st = await gameBridge.call<GameState>(method, params);
    model.busy = "";
    showState(st);
  } catch (err) {
    model.busy = "";
    model.message = (err as Error).message;
    drawGame();
  }
}

function showState(st: GameState): void {
  game = st;
  model.state = st as unknown as ViewState;
  model.pending = {};
  model.selected = undefined;
  model.message = st.error;
  drawGame();
  maybeComputer();
}

function maybeComputer(): void {
  const s = game;
  if (!s || s.terminal || model.busy !== "" || model.computerRole === "") return;
  if ((s.legal[model.computerRole] ?? []).length > 1) void gameCommand("computer", { moveTimeMs: Number(($("movetime") as HTMLSelectElement).value) });
}

/** What the board and the roles were last drawn from. */
const drawn: { state?: GameState; key: string } = { key: "" };

function drawGame(): void {
  const s = game;
  const busy = model.busy !== "";
  $("stop").hidden = !(model.busy === "computer" || model.busy === "verify" || model.busy === "playouts");
  ($("playouts-run") as HTMLButtonElement).disabled = busy;
  $("verify-stop").hidden = model.busy !== "verify";
  $("game-busy").textContent =
    model.busy === "computer" ? "The computer is thinking…" : model.busy === "playouts" ? "Playing random matches…" : busy && model.busy !== "verify" ? "…" : "";
  for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>("#game-controls button"))) b.disabled = busy;
  if (!s) return;
  // The board and the roles are drawn again only when what they show changed: a command's start
  // only disables their buttons (on a 15x15 board drawing them took 10 to 28 ms of CPU).
  const sel = model.selected ? `${model.selected.board},${model.selected.row},${model.selected.column}` : "";
  const key = JSON.stringify([model.pending, sel, model.message ?? ""]);
  if (s === drawn.state && key === drawn.key) {
    for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>("#roles button.move"))) b.disabled = busy;
  } else {
    drawn.state = s;
    drawn.key = key;
    drawBoardAndRoles(s, busy, sel);
  }
  $("step").textContent = `Step ${s.step} of ${s.line.length}${s.terminal ? " · terminal" : ""}`;
  ($("back") as HTMLButtonElement).disabled = busy || s.step === 0;
  ($("forward") as HTMLButtonElement).disabled = busy || s.step >= s.line.length;
  const comp = s.computer.map((c) => `${c.role} played ${c.move} (${c.playouts} playouts, value ${c.value.toFixed(0)}, ${c.engine})`).join("; ");
  $("computer-info").textContent = comp;
  // The roles the computer can play.
  const sel2 = $("computer-role") as HTMLSelectElement;
  const have = Array.from(sel2.options).map((o) => o.value).join(",");
  const want = ["", ...s.roles.filter((r) => !s.random.includes(r))];
  if (have !== want.join(",")) {
    sel2.replaceChildren(...want.map((r) => new Option(r === "" ? "nobody" : r, r)));
    if (!want.includes(model.computerRole)) model.computerRole = "";
    sel2.value = model.computerRole;
  }
}

/** The board, the roles with their legal moves, and the game's message. */
function drawBoardAndRoles(s: GameState, busy: boolean, sel: string): void {
  const boardEl = $("board");
  boardEl.innerHTML = s.svg; // drawn by gdl (board.View.SVG), its texts escaped
  const playable = new Set<string>();
  for (const role of s.roles) for (const sqs of s.squares[role] ?? []) for (const q of sqs) playable.add(`${q.board},${q.row},${q.column}`);
  const tgt = new Set(targets(model).map((q) => `${q.board},${q.row},${q.column}`));
  for (const r of Array.from(boardEl.querySelectorAll<SVGRectElement>("rect.square"))) {
    const key = `${r.dataset.board},${r.dataset.row},${r.dataset.column}`;
    if (playable.has(key) && !s.terminal) r.classList.add("playable");
    if (tgt.has(key)) r.classList.add("target");
    if (key === sel) r.classList.add("selected");
  }
  // The roles, their legal moves (the moves chosen so far marked), the goals at the end.
  const roles = $("roles");
  roles.replaceChildren();
  for (const role of s.roles) {
    const legal = s.legal[role] ?? [];
    const row = el("div", "role");
    row.append(el("strong", "", role), " ");
    if (s.terminal) {
      row.append(el("span", "", `goal ${(s.goals[role] ?? []).join(", ") || "none"}`));
    } else {
      const chosen = model.pending[role];
      row.append(el("span", "dim", chosen ? `plays ${chosen}` : `${legal.length} legal move${legal.length === 1 ? "" : "s"}`));
      const moves = el("div", "moves");
      for (const m of legal.slice(0, 200)) {
        const b = el("button", m === chosen ? "move chosen" : "move", m);
        b.dataset.role = role;
        b.dataset.move = m;
        (b as HTMLButtonElement).disabled = busy;
        b.addEventListener("click", () => pick(role, m));
        moves.append(b);
      }
      if (legal.length > 200) moves.append(el("span", "dim", ` and ${legal.length - 200} more`));
      row.append(moves);
    }
    roles.append(row);
  }
  const msg = $("game-message");
  msg.replaceChildren();
  if (model.message) msg.append(el("p", "error", model.message));
  if (s.why) msg.append(renderMarkdown(s.why.markdown, gotoRule));
}

function pick(role: string, move: string): void {
  const joint = choose(model, { role, move });
  if (joint) void gameCommand("play", { moves: joint });
  else drawGame();
}

$("board").addEventListener("click", (e) => {
  const r = (e.target as Element).closest?.("rect.square") as SVGRectElement | null;
  if (!r || model.busy !== "") return;
  const sq = { board: Number(r.dataset.board), row: Number(r.dataset.row), column: Number(r.dataset.column) };
  const res = clickSquare(model, sq);
  model.message = undefined;
  if (res.kind === "choose") return pick(res.choice.role, res.choice.move);
  if (res.kind === "select") model.selected = res.square;
  else {
    model.selected = undefined;
    model.message = res.why || undefined;
  }
  drawGame();
});

$("computer-role").addEventListener("change", (e) => {
  model.computerRole = (e.target as HTMLSelectElement).value;
  maybeComputer();
});
$("reset").addEventListener("click", () => void gameCommand("reset"));
$("back").addEventListener("click", () => void gameCommand("goto", { step: Math.max((game?.step ?? 0) - 1, 0) }));
$("forward").addEventListener("click", () => void gameCommand("goto", { step: (game?.step ?? 0) + 1 }));
$("random").addEventListener("click", () => void gameCommand("random"));
$("computer").addEventListener("click", () => void gameCommand("computer", { moveTimeMs: Number(($("movetime") as HTMLSelectElement).value) }));
$("stop").addEventListener("click", () => void stopGameWork());
$("verify-stop").addEventListener("click", () => void stopGameWork());

// Random matches from the initial state and their charts (gdl play's statistics), drawn as the
// VS Code game view draws them.
$("playouts-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (model.busy !== "") return;
  const out = $("playouts-out");
  model.busy = "playouts";
  drawGame();
  out.replaceChildren();
  try {
    const r = await gameBridge.call<{ report: object; error?: string }>("playouts", { playouts: Number(($("playouts-n") as HTMLInputElement).value) });
    out.innerHTML = statsHtml(toPlayoutStats({ ...r.report, error: r.error })); // its texts escaped
  } catch (err) {
    if (!/stopped/.test((err as Error).message)) out.replaceChildren(el("p", "error", (err as Error).message));
  } finally {
    if (model.busy === "playouts") model.busy = "";
    drawGame();
  }
});

/** Ends what the game's bridge computes (its worker is replaced) and brings the new one to the same text and state. */
async function stopGameWork(): Promise<void> {
  const history = game?.history ?? [];
  const stopped = model.busy;
  gameBridge.restart(`${stopped} stopped`);
  model.busy = "";
  await gameBridge.ready();
  await gameBridge.call<DocInfo>("open", { text: view.state.doc.toString(), notation });
  if (stopped === "verify") $("verify-progress").textContent = "Stopped.";
  await gameCommand("replay", { history });
}

// --- Verify -----------------------------------------------------------------------------------

function clearVerify(): void {
  $("verify-summary").textContent = "";
  $("verify-progress").textContent = "";
  clearList($("findings"));
}

$("verify-run").addEventListener("click", async () => {
  clearVerify();
  model.busy = "verify";
  drawGame();
  ($("verify-run") as HTMLButtonElement).disabled = true;
  $("verify-progress").textContent = "Verifying…";
  try {
    const r = await gameBridge.call<VerifyResult>("verify", {
      maxStates: Number(($("verify-states") as HTMLSelectElement).value),
      timeoutMs: Number(($("verify-time") as HTMLSelectElement).value),
    });
    $("verify-progress").textContent = "";
    $("verify-summary").textContent = r.summary;
    renderFindings(r.findings);
  } catch (err) {
    if (!/stopped/.test((err as Error).message)) $("verify-progress").textContent = (err as Error).message;
  } finally {
    ($("verify-run") as HTMLButtonElement).disabled = false;
    if (model.busy === "verify") model.busy = "";
    drawGame();
  }
});

function renderFindings(fs: Finding[]): void {
  stats.findings = fs;
  renderList($("findings"), fs, el("li", "dim", "Nothing found."), (f) => {
    const li = el("li", `finding ${f.severity}`);
    const where = el("button", "link", `${f.from.line + 1}:${f.from.ch + 1}`);
    where.addEventListener("click", () => select(f.from, f.to));
    li.append(el("span", `sev ${f.severity}`, f.severity), " ", where, " ", el("code", "code", f.code), el("p", "", f.message));
    if (f.witness.length > 0 || f.code !== "verify-error") {
      const b = el("button", "witness", `Replay the witness (${f.witness.length} joint move${f.witness.length === 1 ? "" : "s"})`);
      b.addEventListener("click", async () => {
        showTab("game");
        await gameCommand("replay", { history: f.witness });
      });
      li.append(b);
    }
    return li;
  });
}

// --- Explain and query ------------------------------------------------------------------------

async function explainAtCursor(): Promise<void> {
  showTab("explain");
  const out = $("explain-out");
  out.replaceChildren(el("p", "dim", "Explaining…"));
  try {
    const r = await gameBridge.call<ExplainResult>("explain", { pos: toPos(view.state, view.state.selection.main.head) });
    out.replaceChildren(r.error ? el("p", "error", r.error) : renderMarkdown(r.markdown, gotoRule));
  } catch (err) {
    out.replaceChildren(el("p", "error", (err as Error).message));
  }
}

$("explain-cursor").addEventListener("click", () => void explainAtCursor());
$("query-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const out = $("explain-out");
  out.replaceChildren(el("p", "dim", "Evaluating…"));
  try {
    const r = await gameBridge.call<QueryResult>("query", { query: ($("query") as HTMLInputElement).value });
    out.replaceChildren(el("pre", "", r.text));
  } catch (err) {
    out.replaceChildren(el("p", "error", (err as Error).message));
  }
});

// --- Tabs, examples, the link, formatting -----------------------------------------------------

function showTab(name: string): void {
  for (const b of Array.from(document.querySelectorAll<HTMLElement>("[role=tab]"))) {
    const on = b.dataset.tab === name;
    b.setAttribute("aria-selected", String(on));
    $(`tab-${b.dataset.tab}`).hidden = !on;
  }
}
for (const b of Array.from(document.querySelectorAll<HTMLElement>("[role=tab]"))) b.addEventListener("click", () => showTab(b.dataset.tab!));

interface Example {
  name: string;
  file: string;
  group: string;
}

async function loadExamples(): Promise<Example[]> {
  const list = (await (await fetch("examples/index.json")).json()) as Example[];
  const sel = $("examples") as HTMLSelectElement;
  const groups = new Map<string, HTMLOptGroupElement>();
  sel.append(new Option("Pick an example…", ""));
  for (const ex of list) {
    let g = groups.get(ex.group);
    if (!g) {
      g = document.createElement("optgroup");
      g.label = ex.group;
      groups.set(ex.group, g);
      sel.append(g);
    }
    g.append(new Option(ex.name, ex.file));
  }
  return list;
}

async function openExample(file: string): Promise<void> {
  const text = await (await fetch(`examples/${file}`)).text();
  await openText(text, file.endsWith(".hrf"));
}

$("examples").addEventListener("change", (e) => {
  const file = (e.target as HTMLSelectElement).value;
  if (file) void openExample(file);
});

async function updateLink(): Promise<void> {
  const frag = await fragmentOf(view.state.doc.toString(), notation === "infix");
  if (frag !== location.hash) window.history.replaceState(null, "", frag);
}

$("share").addEventListener("click", async () => {
  await updateLink();
  const link = location.href;
  ($("share-link") as HTMLInputElement).value = link;
  $("share-box").hidden = false;
  try {
    await navigator.clipboard.writeText(link);
    $("share-note").textContent = "Copied to the clipboard.";
  } catch {
    $("share-note").textContent = "Copy the link:";
  }
});

window.addEventListener("hashchange", async () => {
  const shared = await textOf(location.hash);
  if (shared && shared.text !== view.state.doc.toString()) await openText(shared.text, shared.infix);
});

$("format").addEventListener("click", async () => {
  try {
    applyEdits(view, await editorBridge.call<Edit[]>("format"));
  } catch (err) {
    status((err as Error).message, "error");
  }
});

// --- Start ------------------------------------------------------------------------------------

async function start(): Promise<void> {
  status("Loading gdl…");
  const shared = textOf(location.hash);
  const examples = loadExamples();
  const module = await compiling;
  performance.mark("gdl:compiled");
  // Calls wait in each worker until it runs gdl: the editor's text is checked as soon as the
  // editor's worker is up, whatever the game's is doing.
  editorBridge = new Bridge(module, () => undefined);
  void editorBridge.ready().then(() => performance.mark("gdl:editor-ready"));
  gameBridge = new Bridge(module, (kind, data) => {
    if (kind === "refresh") schedule("lenses", 100, refreshLenses);
    else if (kind === "progress") {
      const p = data as VerifyProgress;
      // Drawn once a frame, and not once verify has ended (the progress then says how).
      atNextFrame("progress", () => {
        if (model.busy === "verify") $("verify-progress").textContent = `Verifying… ${p.explored.toLocaleString()} states explored, depth ${p.depth}, ${(p.elapsedMs / 1000).toFixed(1)} s`;
      });
    }
  }, editorBridge.ready());
  const link = await shared;
  if (link) await openText(link.text, link.infix);
  else {
    const list = await examples;
    const first = list.find((e) => e.file === "tictactoe.kif") ?? list[0];
    ($("examples") as HTMLSelectElement).value = first.file;
    await openExample(first.file);
  }
  stats.text = () => view.state.doc.toString();
  stats.open = openText;
  stats.showFindings = renderFindings;
  document.body.dataset.ready = "true";
  // Offline once loaded: the service worker fetches every file again to keep it, so it starts
  // after the first check rather than competing with it.
  if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
    navigator.serviceWorker.register("sw.js").catch(() => undefined);
  }
}

start().catch((err) => status(`The playground could not start: ${(err as Error).message}`, "error"));
