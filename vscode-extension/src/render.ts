// The text of the result view: the last query's answers and the game's current state, written as
// GDL (facts and comments) in the game's notation, so the grammar of that notation colours it:
// `(true (cell 1 1 x))` and `;` comments for a prefix game, `true(cell(1,1,x))` and `%` comments
// for an infix one. Pure, so it is unit tested.

import type { ExplainResult, GameState, Notation, QueryResult } from "./protocol";

export interface ResultModel {
  /** The game's file name, for the title line. */
  gameName: string;
  query?: QueryResult;
  state?: GameState;
  /** A failure talking to the server, shown at the top. */
  error?: string;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/** How a notation writes comments and atoms. */
interface Writer {
  /** The comment mark: ";" or "%". */
  c: string;
  /** An atom from its relation and its arguments, already written in the notation. */
  atom(name: string, ...args: string[]): string;
}

function writer(n: Notation | undefined): Writer {
  if (n === "infix") return { c: "%", atom: (name, ...args) => `${name}(${args.join(",")})` };
  return { c: ";", atom: (name, ...args) => `(${[name, ...args].join(" ")})` };
}

function commentLines(w: Writer, s: string): string[] {
  return s.split(/\r\n|\r|\n/).map((l) => `${w.c} ${l}`);
}

export function renderQuery(q: QueryResult, w: Writer = writer(q.notation)): string[] {
  const out: string[] = [];
  const time = `${Math.round(q.elapsedMs)} ms`;
  if (q.byMove) return renderByMove(q, time, w);
  if (q.error) {
    out.push(`${w.c} ===== Query ${oneLine(q.query)}: failed after ${time}`);
    out.push(...commentLines(w, `Error: ${q.error}`));
    return out;
  }
  out.push(`${w.c} ===== Query ${oneLine(q.query)}: ${plural(q.answers.length, "answer", "answers")} in ${time}`);
  for (const t of q.truncated ?? []) out.push(...commentLines(w, `Not all listed: ${t}.`));
  if (q.answers.length === 0) out.push(`${w.c} (no answers in the current state)`);
  out.push(...q.answers);
  return out;
}

/** A query about a joint move: its answers after each legal joint move of the state. */
function renderByMove(q: QueryResult, time: string, w: Writer): string[] {
  const moves = q.byMove ?? [];
  const total = q.jointMoves ?? moves.length;
  const out = [`${w.c} ===== Query ${oneLine(q.query)}: after ${moves.length} of ${plural(total, "legal joint move", "legal joint moves")}, in ${time}`];
  if (q.error) out.push(...commentLines(w, `Error: ${q.error}`));
  for (const t of q.truncated ?? []) out.push(...commentLines(w, `Not all listed: ${t}.`));
  if (total === 0) out.push(`${w.c} (no legal joint move in the current state)`);
  for (const m of moves) {
    out.push(`${w.c} ----- after ${m.move.join(" ")}: ${plural(m.answers.length, "answer", "answers")}`);
    if (m.error) out.push(...commentLines(w, `Error: ${m.error}`));
    out.push(...m.answers);
  }
  return out;
}

export function renderState(s: GameState, w: Writer = writer(s.notation)): string[] {
  const out: string[] = [];
  const status = s.terminal ? "terminal" : "not terminal";
  out.push(`${w.c} ===== State at step ${s.step} (${status}), ${plural(s.state.length, "fluent", "fluents")}`);
  if (s.error) out.push(...commentLines(w, `Error: ${s.error}`));
  if (s.roles.length > 0) out.push(`${w.c} roles: ${s.roles.join(" ")}`);
  // The state drawn (boards in ASCII, the other fluents), as comments above the fluents.
  if (s.board.trim() !== "") out.push(...s.board.replace(/\n+$/, "").split("\n").map((l) => (l === "" ? w.c : `${w.c} ${l}`)));
  out.push(...s.state.map((f) => w.atom("true", f)));
  if (s.roles.length > 0) {
    out.push("");
    out.push(s.terminal ? `${w.c} ----- Goals (the game is over)` : `${w.c} ----- Legal moves`);
    if (!s.terminal) {
      for (const role of s.roles) {
        const moves = s.legal[role] ?? [];
        if (moves.length === 0) out.push(`${w.c} ${role} has no legal move`);
        for (const m of moves) out.push(w.atom("legal", role, m));
      }
    }
    // Goals matter in terminal states; elsewhere they are shown only when some role has one.
    if (s.terminal || Object.values(s.goals).some((g) => g.length > 0)) {
      if (!s.terminal) out.push(`${w.c} ----- Goals`);
      for (const role of s.roles) {
        const g = s.goals[role] ?? [];
        if (g.length === 0) out.push(`${w.c} ${role} has no goal value`);
        for (const v of g) out.push(w.atom("goal", role, String(v)));
      }
    }
  }
  if (s.history.length > 0) {
    out.push("");
    out.push(`${w.c} ----- Joint moves played`);
    s.history.forEach((joint, i) => {
      const moves = joint.map((m, j) => `${s.roles[j] ?? `role ${j + 1}`} ${m}`).join(", ");
      out.push(`${w.c} ${i + 1}. ${moves}`);
    });
  }
  return out;
}

/** The notation of the game a view shows, as its results say. */
export function notationOfModel(m: ResultModel): Notation {
  return m.state?.notation ?? m.query?.notation ?? "prefix";
}

/** An answer of the view's query that can be explained: its 0-based line, the literal, and the
 * joint move it was answered after (a query about a joint move). */
export interface AnswerLine {
  line: number;
  literal: string;
  joint?: string[];
}

/** The lines of the view that are answers of its query, for the "why?" lens above each. */
export function answerLines(m: ResultModel): AnswerLine[] {
  const q = m.query;
  if (!q || q.error) return [];
  const w = writer(notationOfModel(m));
  const lines = renderResults(m).split("\n");
  const start = lines.findIndex((l) => l.startsWith(`${w.c} ===== Query `));
  const out: AnswerLine[] = [];
  let move = -1;
  for (let i = start + 1; start >= 0 && i < lines.length && lines[i] !== ""; i++) {
    const l = lines[i];
    if (l.startsWith(`${w.c} ----- after `)) move++;
    if (l.startsWith(w.c)) continue;
    const a: AnswerLine = { line: i, literal: l };
    if (q.byMove && move >= 0 && move < q.byMove.length) a.joint = q.byMove[move].move;
    out.push(a);
  }
  return out;
}

/** The whole view. */
export function renderResults(m: ResultModel): string {
  const w = writer(notationOfModel(m));
  const out: string[] = [`${w.c} GDL results for ${m.gameName}`];
  out.push(`${w.c} Refreshed after every query and move. Commands: GDL: Run Query at Cursor, Play Joint Move, Play Random Move, Reset to Initial State.`);
  if (m.error) {
    out.push("");
    out.push(...commentLines(w, `Error: ${m.error}`));
  }
  if (m.query) {
    out.push("");
    out.push(...renderQuery(m.query, w));
  }
  if (m.state) {
    out.push("");
    out.push(...renderState(m.state, w));
  } else if (m.query && !m.query.error) {
    out.push("");
    out.push(`${w.c} ===== Current state, ${plural(m.query.state.length, "fluent", "fluents")}`);
    out.push(...m.query.state.map((f) => w.atom("true", f)));
  }
  return out.join("\n") + "\n";
}

/** The page of an explanation (gdl.explain): a title, then the server's Markdown or its error. */
export function explanationMarkdown(r: ExplainResult): string {
  const title = `# Why ${r.holds ? "" : "not "}\`${r.literal}\`\n\n`;
  if (r.error) return `${title}Not explained: ${r.error}\n`;
  return title + r.markdown;
}
