// The script of the game view's webview: keeps the view's model, draws it (view.ts), and turns
// clicks and keys into messages to the extension, which runs the server's commands and sends
// back the new state. Keyboard: Tab moves between controls; in a board the arrow keys move
// between squares and Enter or Space plays, ? (or a right-click) explains why a square holds what
// it holds; [ and ] step back and forward, r plays a random move, c a computer move, m runs a
// match, Escape drops a half-chosen move. The terminal status and the goal values explain
// themselves when clicked.

import type { GameState, PlayoutStats } from "../protocol";
import { choose, clickSquare, Model, render } from "./view";

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const saved = (vscode.getState() ?? {}) as { viewAs?: string; computerRole?: string };
const model: Model = { gameName: "", pending: {}, viewAs: saved.viewAs ?? "", computerRole: saved.computerRole ?? "", busy: "" };
const root = document.getElementById("root")!;
/** The key of the square that keeps the board's tab stop, per board. */
const boardStop = new Map<string, string>();

function save(): void {
  vscode.setState({ viewAs: model.viewAs, computerRole: model.computerRole });
}

function draw(): void {
  const active = document.activeElement as HTMLElement | null;
  const key = active?.dataset?.key;
  root.innerHTML = render(model);
  // One tab stop per board (roving tabindex): the square last focused, else the first.
  for (const table of Array.from(root.querySelectorAll<HTMLElement>("table.board"))) {
    const b = table.dataset.board ?? "";
    const squares = Array.from(table.querySelectorAll<HTMLElement>("button.sq"));
    const stop = squares.find((s) => s.dataset.key === boardStop.get(b)) ?? squares.find((s) => s.classList.contains("selected")) ?? squares[0];
    if (stop) stop.tabIndex = 0;
  }
  if (key) {
    const again = root.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    if (again && !(again as HTMLButtonElement).disabled) again.focus();
  }
}

function post(msg: { type: string; [k: string]: unknown }): void {
  model.message = undefined;
  model.info = undefined;
  vscode.postMessage(msg);
}

function play(moves: string[]): void {
  post({ type: "play", moves });
}

function act(el: HTMLElement): void {
  const s = model.state;
  const action = el.dataset.action;
  if (!s && action !== "playouts") return;
  switch (action) {
    case "square": {
      const sq = { board: Number(el.dataset.board), row: Number(el.dataset.row), column: Number(el.dataset.col) };
      boardStop.set(String(sq.board), el.dataset.key ?? "");
      const r = clickSquare(model, sq);
      if (r.kind === "choose") {
        const joint = choose(model, r.choice);
        if (joint) play(joint);
      } else if (r.kind === "select") {
        model.selected = r.square;
      } else {
        model.selected = undefined;
        model.message = r.why || undefined;
      }
      draw();
      return;
    }
    case "move": {
      const role = el.dataset.role ?? "";
      const move = s!.legal[role]?.[Number(el.dataset.index)];
      if (move === undefined) return;
      const joint = choose(model, { role, move });
      if (joint) play(joint);
      draw();
      return;
    }
    case "explain":
      if (el.dataset.literal) post({ type: "explain", literal: el.dataset.literal });
      return;
    case "goto":
      post({ type: "goto", step: Number(el.dataset.step) });
      return;
    case "back":
      if (s!.step > 0) post({ type: "goto", step: s!.step - 1 });
      return;
    case "forward":
      if (s!.step < s!.line.length) post({ type: "goto", step: s!.step + 1 });
      return;
    case "reset":
      post({ type: "reset" });
      return;
    case "random":
      post({ type: "random" });
      return;
    case "computer":
      post({ type: "computer" });
      return;
    case "match":
      post({ type: "match" });
      return;
    case "playouts": {
      const n = Number((document.getElementById("playouts-n") as HTMLInputElement | null)?.value ?? 1000);
      post({ type: "playouts", playouts: Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), 100000) : 1000 });
      return;
    }
  }
}

root.addEventListener("click", (e) => {
  const el = (e.target as HTMLElement).closest<HTMLElement>("[data-action]");
  if (!el || el.tagName === "SELECT" || (el as HTMLButtonElement).disabled) return;
  e.preventDefault();
  act(el);
});

root.addEventListener("change", (e) => {
  const el = e.target as HTMLSelectElement;
  if (el.dataset.action === "computer-role") {
    model.computerRole = el.value;
    save();
    maybeComputer();
  } else if (el.dataset.action === "view-as") {
    model.viewAs = el.value;
    model.showTruth = false;
    save();
    draw();
    // The server works out what the role knows, for this state and the next ones.
    vscode.postMessage({ type: "view-as", role: model.viewAs });
  } else if (el.dataset.action === "show-truth") {
    model.showTruth = (el as unknown as HTMLInputElement).checked;
    draw();
  }
});

root.addEventListener("submit", (e) => e.preventDefault());

/** Right-click on a square (or ? on it): why it holds what it holds. */
function explainSquare(el: HTMLElement): boolean {
  const fluent = el.closest<HTMLElement>("button.sq")?.dataset.fluent;
  if (!fluent) return false;
  post({ type: "explain-fluent", fluent });
  return true;
}

root.addEventListener("contextmenu", (e) => {
  if (explainSquare(e.target as HTMLElement)) e.preventDefault();
});

/** Arrow keys move between the squares of a board. */
function moveInBoard(el: HTMLElement, key: string): boolean {
  const d: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const step = d[key];
  if (!step) return false;
  const b = el.dataset.board;
  const r = Number(el.dataset.row) + step[0];
  const c = Number(el.dataset.col) + step[1];
  const next = root.querySelector<HTMLElement>(`button.sq[data-board="${b}"][data-row="${r}"][data-col="${c}"]`);
  if (next) {
    el.tabIndex = -1;
    next.tabIndex = 0;
    boardStop.set(String(b), next.dataset.key ?? "");
    next.focus();
  }
  return true;
}

document.addEventListener("keydown", (e) => {
  const el = e.target as HTMLElement;
  if (el.classList?.contains("sq") && (moveInBoard(el, e.key) || (e.key === "?" && explainSquare(el)))) {
    e.preventDefault();
    return;
  }
  if (el.tagName === "INPUT" || el.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
  const shortcut: Record<string, string> = { "[": "back", "]": "forward", r: "random", c: "computer", m: "match" };
  if (e.key === "Escape") {
    model.selected = undefined;
    model.pending = {};
    draw();
    return;
  }
  const action = shortcut[e.key];
  if (action) {
    const b = root.querySelector<HTMLElement>(`[data-action="${action}"]`);
    if (b && !(b as HTMLButtonElement).disabled) {
      e.preventDefault();
      act(b);
    }
  }
});

/** After the person's move, the computer answers for its role when that role has a choice. */
function maybeComputer(): void {
  const s = model.state;
  if (!s || s.terminal || model.busy !== "" || model.computerRole === "") return;
  if ((s.legal[model.computerRole] ?? []).length > 1) post({ type: "computer" });
}

window.addEventListener("message", (e) => {
  const msg = e.data as { type: string; state?: GameState; stats?: PlayoutStats; gameName?: string; message?: string; busy?: string; cause?: string };
  switch (msg.type) {
    case "state":
      model.state = msg.state;
      model.gameName = msg.gameName ?? model.gameName;
      model.pending = {};
      model.selected = undefined;
      model.busy = "";
      // A match's summary is news, not an error.
      model.message = msg.cause === "match" ? undefined : msg.message;
      model.info = msg.cause === "match" ? msg.message : undefined;
      if (model.state && model.viewAs !== "" && !model.state.roles.includes(model.viewAs)) model.viewAs = "";
      draw();
      if (msg.cause === "play" && !model.state?.error) maybeComputer();
      break;
    case "stats":
      model.stats = msg.stats;
      model.busy = "";
      draw();
      break;
    case "busy":
      model.busy = msg.busy ?? "";
      draw();
      break;
    case "error":
      model.busy = "";
      model.message = msg.message;
      model.gameName = msg.gameName ?? model.gameName;
      draw();
      break;
  }
});

draw();
vscode.postMessage({ type: "ready", viewAs: model.viewAs });
