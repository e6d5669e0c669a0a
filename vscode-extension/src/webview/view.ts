// The game view's content, as HTML text: the boards, the legal moves, the history, the other
// fluents, a role's percepts (GDL-II) and the charts of random playouts. Pure functions of the
// view's model (no DOM), so that they are unit tested in node; main.ts puts the text in the
// webview and wires the events. Every interactive element has a data-key, so that focus
// survives a redraw, and a data-action saying what it does.

import type { Board, GameState, PlayoutStats, RoleView, Square } from "../protocol";

/** What the view shows and what the person has chosen so far. */
export interface Model {
  gameName: string;
  state?: GameState;
  /** The square clicked first, when several moves mention it. */
  selected?: Square;
  /** The moves chosen so far for the next joint move, by role. */
  pending: Record<string, string>;
  /** "" for the full state, else the role whose knowledge is shown (GDL-II). */
  viewAs: string;
  /** With viewAs: show the true state instead of what the role knows. */
  showTruth?: boolean;
  /** The role the computer plays after each move of the person ("" for none). */
  computerRole: string;
  /** What the view is waiting for ("" when idle). */
  busy: string;
  stats?: PlayoutStats;
  /** A message for the person (a refused move, a failure). */
  message?: string;
  /** A neutral note, such as the summary of the match being played back. */
  info?: string;
}

export function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function sameSquare(a: Square | undefined, b: Square): boolean {
  return a !== undefined && a.board === b.board && a.row === b.row && a.column === b.column;
}

/** A legal move of a role. */
export interface RoleMove {
  role: string;
  move: string;
}

/** The legal moves that mention a square (of any role). */
export function movesOn(s: GameState, sq: Square): RoleMove[] {
  const out: RoleMove[] = [];
  for (const role of s.roles) {
    const moves = s.legal[role] ?? [];
    const squares = s.squares[role] ?? [];
    moves.forEach((move, i) => {
      if ((squares[i] ?? []).some((q) => sameSquare(q, sq))) out.push({ role, move });
    });
  }
  return out;
}

/** What a click on a square leads to. */
export type ClickResult =
  | { kind: "choose"; choice: RoleMove }
  | { kind: "select"; square: Square }
  | { kind: "none"; why: string };

/**
 * A click on a square: the move that mentions it when exactly one does; when several do, the
 * square is selected and a second click on another square picks the move that mentions both
 * (a move from one square to another); a click on the selected square unselects it.
 */
export function clickSquare(m: Model, sq: Square): ClickResult {
  const s = m.state;
  if (!s) return { kind: "none", why: "No state yet." };
  if (s.terminal) return { kind: "none", why: "The game is over: step back or reset to play on." };
  if (m.selected && sameSquare(m.selected, sq)) return { kind: "none", why: "" };
  if (m.selected) {
    const from = movesOn(s, m.selected);
    const both = from.filter((a) => movesOn(s, sq).some((b) => a.role === b.role && a.move === b.move));
    if (both.length === 1) return { kind: "choose", choice: both[0] };
    if (both.length > 1) return { kind: "none", why: `${both.length} moves mention both squares: pick one of them below.` };
  }
  const here = movesOn(s, sq);
  if (here.length === 1) return { kind: "choose", choice: here[0] };
  if (here.length > 1) return { kind: "select", square: sq };
  return { kind: "none", why: "No legal move mentions this square." };
}

/** The squares a second click can go to from the selected square. */
export function targets(m: Model): Square[] {
  const s = m.state;
  if (!s || !m.selected) return [];
  const out: Square[] = [];
  const from = movesOn(s, m.selected);
  for (const { role, move } of from) {
    const i = (s.legal[role] ?? []).indexOf(move);
    for (const q of s.squares[role]?.[i] ?? []) {
      if (!sameSquare(m.selected, q) && !out.some((o) => sameSquare(o, q))) out.push(q);
    }
  }
  return out;
}

/**
 * Adds a chosen move to the pending joint move; roles with one legal move get it. Returns the
 * joint move (one move per role, in role order) once every role has one, else undefined.
 */
export function choose(m: Model, c: RoleMove): string[] | undefined {
  const s = m.state;
  if (!s) return undefined;
  m.pending[c.role] = c.move;
  m.selected = undefined;
  for (const role of s.roles) {
    const legal = s.legal[role] ?? [];
    if (m.pending[role] === undefined && legal.length === 1) m.pending[role] = legal[0];
  }
  if (s.roles.every((r) => m.pending[r] !== undefined)) {
    const joint = s.roles.map((r) => m.pending[r]);
    m.pending = {};
    return joint;
  }
  return undefined;
}

/** A literal in the game's notation: (name a b) in KIF, name(a,b) in infix. */
export function atom(s: GameState, name: string, ...args: string[]): string {
  if (args.length === 0) return name;
  return s.notation === "infix" ? `${name}(${args.join(",")})` : `(${name} ${args.join(" ")})`;
}

/** A label that explains a literal in the current state when clicked (the server's gdl.explain). */
function explainButton(literal: string, label: string, title: string): string {
  return button(`why:${literal}`, "explain", esc(label), `class="why" data-literal="${esc(literal)}"`, `${title} Click to see why.`);
}

function button(key: string, action: string, label: string, attrs = "", title = ""): string {
  const t = title ? ` title="${esc(title)}"` : "";
  return `<button type="button" data-key="${esc(key)}" data-action="${action}" ${attrs}${t}>${label}</button>`;
}

/** The state as the role viewed as knows it, when the server sent it and the true state is not asked for. */
export function roleView(m: Model): RoleView | undefined {
  const v = m.state?.viewAs;
  if (!v || m.viewAs === "" || v.role !== m.viewAs || m.showTruth || v.error) return undefined;
  return v;
}

function boardHtml(m: Model, b: Board, bi: number, unknown: Set<string> = new Set(), whose = ""): string {
  const s = m.state!;
  const playable = new Set<string>();
  for (const role of s.roles) {
    for (const sqs of s.squares[role] ?? []) for (const q of sqs) if (q.board === bi) playable.add(`${q.row},${q.column}`);
  }
  const tgt = new Set(targets(m).filter((q) => q.board === bi).map((q) => `${q.row},${q.column}`));
  const head = b.columns.map((c) => `<th scope="col">${esc(c)}</th>`).join("");
  const rows = b.cells
    .map((row, r) => {
      const cells = row
        .map((cell, c) => {
          const key = `${r},${c}`;
          const cls = ["sq", (r + c) % 2 === 0 ? "light" : "dark"];
          if (playable.has(key) && !s.terminal) cls.push("playable");
          if (tgt.has(key)) cls.push("target");
          if (sameSquare(m.selected, { board: bi, row: r, column: c })) cls.push("selected");
          const hidden = unknown.has(key);
          if (hidden) cls.push("unknown");
          const what = hidden ? `unknown to ${whose}` : cell.fluents.length ? cell.fluents.join(" ") : "empty";
          const label = `${b.relation} row ${cell.row}, column ${cell.column}: ${what}`;
          return `<td>${button(`sq:${bi}:${r}:${c}`, "square", `<span class="piece">${esc(cell.text)}</span>`,
            `class="${cls.join(" ")}" data-board="${bi}" data-row="${r}" data-col="${c}" tabindex="-1" aria-label="${esc(label)}"` +
              (cell.fluents.length && !hidden ? ` data-fluent="${esc(cell.fluents[0])}"` : ""),
            cell.fluents.length && !hidden ? `${cell.fluents.join(" ")} (right-click or ?: why it holds)` : cell.fluents.join(" "))}</td>`;
        })
        .join("");
      return `<tr><th scope="row">${esc(b.rows[r])}</th>${cells}</tr>`;
    })
    .join("");
  const argNote = `row: argument ${b.rowArg}, column: argument ${b.columnArg}${b.configured ? " (gdl.json)" : ""}`;
  return `<figure class="board-fig"><figcaption>${esc(b.relation)} <span class="dim">${b.rows.length}×${b.columns.length}, ${esc(argNote)}</span></figcaption>` +
    `<table class="board" role="grid" data-board="${bi}" aria-label="${esc(b.relation)} board"><thead><tr><th></th>${head}</tr></thead><tbody>${rows}</tbody></table></figure>`;
}

function othersHtml(m: Model): string {
  const rv = roleView(m);
  const others = rv ? rv.view.others : m.state!.view.others;
  const omitted = rv ? rv.view.omitted : m.state!.view.omitted;
  const unknown = rv ? rv.unknownOthers : [];
  if (others.length === 0 && unknown.length === 0 && !omitted) return "";
  const rows = others
    .filter((o) => !unknown.includes(o.relation))
    .map((o) => `<tr><th scope="row">${esc(o.relation)}</th><td>${o.values.filter((v) => v !== "").map(esc).join(", ") || "✓"}</td></tr>`)
    .concat(unknown.map((r) => `<tr class="unknown"><th scope="row">${esc(r)}</th><td class="dim">? (unknown to ${esc(rv!.role)})</td></tr>`))
    .join("") + (omitted ? `<tr><th scope="row">…</th><td>and ${omitted} more fluents</td></tr>` : "");
  return `<section class="others"><h2>Other fluents</h2><table class="facts">${rows}</table></section>`;
}

/** The boards: the true state's, or, viewing as a role, what it knows (squares it does not know shown "?"). */
export function boardsHtml(m: Model): string {
  const s = m.state!;
  const rv = roleView(m);
  if (!rv) return s.view.boards.map((b, i) => boardHtml(m, b, i)).join("");
  const unknown = rv.unknown;
  return rv.view.boards
    .map((b, i) => boardHtml(m, b, i, new Set(unknown.filter((q) => q.board === i).map((q) => `${q.row},${q.column}`)), rv.role))
    .join("");
}

/** What the role viewed as knows, in a sentence, and the toggle to the true state. */
function viewAsHtml(m: Model): string {
  const s = m.state!;
  if (m.viewAs === "" || !s.percepts) return "";
  const v = s.viewAs;
  const toggle = `<label class="truth"><input type="checkbox" data-key="show-truth" data-action="show-truth"${m.showTruth ? " checked" : ""}> Show the true state</label>`;
  let text: string;
  if (!v || v.role !== m.viewAs) text = `What ${esc(m.viewAs)} knows is not known yet.`;
  else if (v.error) text = `What ${esc(m.viewAs)} knows cannot be worked out: ${esc(v.error)}`;
  else if (m.showTruth) text = `The true state, which ${esc(v.role)} may not know.`;
  else {
    const n = v.states === 1 ? "knows the state" : `may be in ${v.states} states`;
    const q = v.unknown.length + v.unknownOthers.length > 0 ? "; what differs between them shows ?" : "";
    const sample = v.complete ? "" : " (a sample of them: a square shown may still be unknown)";
    text = `As ${esc(v.role)} knows it: it ${n}${sample}${q}.`;
  }
  return `<p class="view-as" role="status">${text} ${toggle}</p>`;
}

function movesHtml(m: Model): string {
  const s = m.state!;
  if (s.terminal) {
    const goals = s.roles
      .map((r) => {
        const values = s.goals[r] ?? [];
        const shown = values.length
          ? values.map((v) => explainButton(atom(s, "goal", r, String(v)), String(v), `Why does ${r} get ${v}?`)).join(", ")
          : explainButton(atom(s, "goal", r, s.notation === "infix" ? "V" : "?v"), "no goal value", `Why has ${r} no goal value?`);
        return `<li><b>${esc(r)}</b>: ${shown}</li>`;
      })
      .join("");
    return `<section class="moves"><h2>Game over</h2><ul class="goals">${goals}</ul></section>`;
  }
  const roles = s.roles
    .map((role) => {
      const legal = s.legal[role] ?? [];
      const random = s.random.includes(role) ? ' <span class="dim">(random)</span>' : "";
      const chosen = m.pending[role];
      const moves = legal.length === 0
        ? `<span class="dim">no legal move</span>`
        : legal
            .map((mv, i) => button(`mv:${role}:${i}`, "move", esc(mv),
              `class="move${chosen === mv ? " chosen" : ""}" data-role="${esc(role)}" data-index="${i}" aria-pressed="${chosen === mv}"`))
            .join("");
      return `<div class="role"><h3>${esc(role)}${random}</h3><div class="move-list">${moves}</div></div>`;
    })
    .join("");
  const waiting = Object.keys(m.pending).length > 0
    ? `<p class="pending">Chosen: ${s.roles.filter((r) => m.pending[r]).map((r) => `${esc(r)} ${esc(m.pending[r])}`).join(", ")}; pick the other roles' moves.</p>`
    : "";
  return `<section class="moves"><h2>Legal moves</h2>${waiting}${roles}</section>`;
}

function historyHtml(m: Model): string {
  const s = m.state!;
  const item = (step: number, label: string) => {
    const cls = step === s.step ? "current" : step > s.step ? "ahead" : "";
    return `<li>${button(`step:${step}`, "goto", label, `class="step ${cls}" data-step="${step}"${step === s.step ? ' aria-current="step"' : ""}`)}</li>`;
  };
  const items = [item(0, "0. initial state")];
  s.line.forEach((joint, i) => {
    const moves = joint.map((mv, j) => `${s.roles[j] ?? ""} ${mv}`).join(", ");
    items.push(item(i + 1, `${i + 1}. ${esc(moves)}`));
  });
  return `<section class="history"><h2>Moves</h2><ol class="steps">${items.join("")}</ol></section>`;
}

function perceptsHtml(m: Model): string {
  const s = m.state!;
  if (!s.percepts || m.viewAs === "") return "";
  const r = s.roles.indexOf(m.viewAs);
  const rows = s.percepts
    .map((step, i) => {
      const own = s.history[i]?.[r] ?? "";
      const seen = (step[m.viewAs] ?? []).map(esc).join(", ") || `<span class="dim">nothing</span>`;
      return `<tr><th scope="row">${i + 1}</th><td>${esc(own)}</td><td>${seen}</td></tr>`;
    })
    .join("");
  const body = rows || `<tr><td colspan="3" class="dim">No joint move played yet.</td></tr>`;
  return `<section class="percepts"><h2>What ${esc(m.viewAs)} was told</h2><p class="dim">Its own moves and what sees gave it after each joint move.</p>` +
    `<table class="facts"><thead><tr><th>step</th><th>its move</th><th>it saw</th></tr></thead><tbody>${body}</tbody></table></section>`;
}

function toolbarHtml(m: Model): string {
  const s = m.state!;
  const busy = m.busy !== "" ? " disabled" : "";
  const over = s.terminal ? " disabled" : "";
  const roleOptions = [`<option value="">nobody</option>`]
    .concat(s.roles.filter((r) => !s.random.includes(r)).map((r) => `<option value="${esc(r)}"${m.computerRole === r ? " selected" : ""}>${esc(r)}</option>`))
    .join("");
  const viewAs = s.percepts
    ? `<label>View as <select data-key="view-as" data-action="view-as"><option value="">the full state</option>${s.roles
        .map((r) => `<option value="${esc(r)}"${m.viewAs === r ? " selected" : ""}>${esc(r)}</option>`)
        .join("")}</select></label>`
    : "";
  return `<nav class="toolbar" aria-label="Game controls">` +
    button("reset", "reset", "Reset", `${busy}${s.step === 0 ? " disabled" : ""}`, "Back to the initial state (Home)") +
    button("back", "back", "◀ Back", `${busy}${s.step === 0 ? " disabled" : ""}`, "One step back ([)") +
    button("forward", "forward", "Forward ▶", `${busy}${s.step >= s.line.length ? " disabled" : ""}`, "One step forward along the moves played (])") +
    button("random", "random", "Random move", busy + over, "Every role plays a random legal move (r)") +
    button("computer", "computer", "Computer move", busy + over, "Monte Carlo tree search picks the move of every role with a choice (c)") +
    button("match", "match", "Run a match…", busy, "Runs a GGP match between built-in players or players at URLs, then plays it back move by move (m)") +
    `<label>Computer plays <select data-key="computer-role" data-action="computer-role">${roleOptions}</select></label>` +
    viewAs +
    `</nav>`;
}

function statusHtml(m: Model): string {
  const s = m.state!;
  const parts = [`Step ${s.step}${s.line.length > s.step ? ` of ${s.line.length}` : ""}`];
  parts.push(explainButton("terminal", s.terminal ? "terminal" : "not terminal", s.terminal ? "Why is the state terminal?" : "Why is the state not terminal?"));
  const c = s.computer.map((x) => `${esc(x.role)} chose ${esc(x.move)} after ${x.playouts.toLocaleString("en")} playouts` +
    `${x.states > 1 ? ` from ${x.states} states it may be in` : ""} (expects ${Math.round(x.value)})`);
  return `<p class="status" role="status">${parts.join(", ")}${m.busy ? ` — ${esc(m.busy)}…` : ""}</p>` +
    (c.length ? `<p class="computer">${c.join("; ")}</p>` : "") +
    (s.error ? `<p class="error" role="alert">${esc(s.error)}</p>` : "") +
    (m.message ? `<p class="message" role="alert">${esc(m.message)}</p>` : "") +
    (m.info ? `<p class="info" role="status">${esc(m.info)}</p>` : "") +
    s.notes.map((n) => `<p class="note">${esc(n)}</p>`).join("");
}

/** A horizontal histogram as SVG: one bar per label. */
export function histogram(title: string, bars: { label: string; count: number }[], cls = "bar"): string {
  const total = bars.reduce((a, b) => a + b.count, 0);
  const maxCount = Math.max(1, ...bars.map((b) => b.count));
  const labelW = Math.max(24, ...bars.map((b) => 7 * b.label.length + 8));
  const barW = 220;
  const rowH = 18;
  const h = bars.length * rowH + 4;
  const w = labelW + barW + 90;
  const rows = bars
    .map((b, i) => {
      const y = i * rowH + 2;
      const bw = Math.round((barW * b.count) / maxCount);
      const pct = total > 0 ? ((100 * b.count) / total).toFixed(1) : "0.0";
      return `<g><title>${esc(b.label)}: ${b.count} (${pct}%)</title>` +
        `<text class="label" x="${labelW - 6}" y="${y + 13}" text-anchor="end">${esc(b.label)}</text>` +
        `<rect class="${cls}" x="${labelW}" y="${y + 2}" width="${Math.max(bw, b.count > 0 ? 1 : 0)}" height="${rowH - 5}"></rect>` +
        `<text class="value" x="${labelW + bw + 6}" y="${y + 13}">${b.count} (${pct}%)</text></g>`;
    })
    .join("");
  return `<figure class="chart"><figcaption>${esc(title)}</figcaption><svg role="img" aria-label="${esc(title)}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${rows}</svg></figure>`;
}

/** The charts of random playouts: goal values per role, lengths, the first role's outcomes. */
export function statsHtml(st: PlayoutStats): string {
  if (st.error) return `<section class="stats"><h2>Random matches</h2><p class="error">${esc(st.error)}</p></section>`;
  const parts: string[] = [];
  parts.push(`<p>${st.playouts.toLocaleString("en")} random matches in ${st.seconds.toFixed(2)} s on the ${esc(st.engine || "?")} engine` +
    `${st.timeUp ? " (stopped by the time limit)" : ""}; ${st.terminal} reached a terminal state. ` +
    `Length: mean ${st.meanLength.toFixed(1)}, from ${st.minLength} to ${st.maxLength} joint moves.</p>`);
  for (const role of st.roles) {
    const bars = (st.goals[role] ?? []).map((g) => ({ label: g.value, count: g.count }));
    parts.push(histogram(`Goal values of ${role}`, bars));
  }
  // Lengths in at most 20 bins.
  const ls = st.lengths;
  if (ls.length > 0) {
    const lo = ls[0].length;
    const hi = ls[ls.length - 1].length;
    const width = Math.max(1, Math.ceil((hi - lo + 1) / 20));
    const bins: { label: string; count: number }[] = [];
    for (let a = lo; a <= hi; a += width) {
      const b = Math.min(hi, a + width - 1);
      bins.push({ label: a === b ? `${a}` : `${a}–${b}`, count: ls.filter((l) => l.length >= a && l.length <= b).reduce((x, l) => x + l.count, 0) });
    }
    parts.push(histogram("Match lengths (joint moves)", bins, "bar lengths"));
  }
  if (st.first) {
    const f = st.first;
    parts.push(histogram(`First role (${f.role}) against the others`, [
      { label: "wins", count: f.wins },
      { label: "draws", count: f.draws },
      { label: "losses", count: f.losses },
    ], "bar first"));
  }
  if (st.violations.length > 0) {
    parts.push(`<ul class="violations">${st.violations.map((v) => `<li class="error">${esc(v.kind)}${v.role ? ` (${esc(v.role)})` : ""}: ${esc(v.detail)}, ${v.count}×</li>`).join("")}</ul>`);
  }
  if (st.depthLimit && st.depthLimit.playouts > 0) {
    const d = st.depthLimit;
    parts.push(`<p class="note">${d.playouts} of the playouts reached ${d.maxDepth} joint moves without a terminal state: the game may not terminate (GDL: Verify Game checks it).</p>`);
  }
  return `<section class="stats"><h2>Random matches</h2>${parts.join("")}</section>`;
}

function statsFormHtml(m: Model): string {
  const busy = m.busy !== "" ? " disabled" : "";
  return `<form class="stats-form" data-key="stats-form">` +
    `<label>Random matches <input data-key="playouts-n" type="number" min="1" max="100000" value="1000" id="playouts-n"></label>` +
    button("playouts", "playouts", "Play and chart", busy, "Plays random matches from the initial state and draws their statistics") +
    `</form>`;
}

/** The whole view. */
export function render(m: Model): string {
  if (!m.state) {
    return `<h1>${esc(m.gameName)}</h1><p class="status" role="status">${esc(m.message ?? "Waiting for the language server…")}</p>`;
  }
  const s = m.state;
  const boards = viewAsHtml(m) + boardsHtml(m);
  const noBoard = s.view.boards.length === 0
    ? `<p class="dim">No board found among the fluents; name one in gdl.json's "board" section (see the README).</p>`
    : "";
  return `<h1>${esc(m.gameName)}</h1>${toolbarHtml(m)}${statusHtml(m)}` +
    `<div class="layout"><div class="main">${boards}${noBoard}${othersHtml(m)}${perceptsHtml(m)}</div>` +
    `<div class="side">${movesHtml(m)}${historyHtml(m)}</div></div>` +
    statsFormHtml(m) + (m.stats ? statsHtml(m.stats) : "");
}
