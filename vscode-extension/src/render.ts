// The text of the result view: the last query's answers and the game's current state, written as
// GDL (facts and `;` comments) so the GDL grammar colours it. Pure, so it is unit tested.

import type { GameState, QueryResult } from "./protocol";

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

function commentLines(s: string): string[] {
  return s.split(/\r\n|\r|\n/).map((l) => `; ${l}`);
}

export function renderQuery(q: QueryResult): string[] {
  const out: string[] = [];
  const time = `${Math.round(q.elapsedMs)} ms`;
  if (q.byMove) return renderByMove(q, time);
  if (q.error) {
    out.push(`; ===== Query ${oneLine(q.query)}: failed after ${time}`);
    out.push(...commentLines(`Error: ${q.error}`));
    return out;
  }
  out.push(`; ===== Query ${oneLine(q.query)}: ${plural(q.answers.length, "answer", "answers")} in ${time}`);
  if (q.answers.length === 0) out.push("; (no answers in the current state)");
  out.push(...q.answers);
  return out;
}

/** A query about a joint move: its answers after each legal joint move of the state. */
function renderByMove(q: QueryResult, time: string): string[] {
  const moves = q.byMove ?? [];
  const total = q.jointMoves ?? moves.length;
  const out = [`; ===== Query ${oneLine(q.query)}: after ${moves.length} of ${plural(total, "legal joint move", "legal joint moves")}, in ${time}`];
  if (q.error) out.push(...commentLines(`Error: ${q.error}`));
  if (total === 0) out.push("; (no legal joint move in the current state)");
  for (const m of moves) {
    out.push(`; ----- after ${m.move.join(" ")}: ${plural(m.answers.length, "answer", "answers")}`);
    if (m.error) out.push(...commentLines(`Error: ${m.error}`));
    out.push(...m.answers);
  }
  return out;
}

export function renderState(s: GameState): string[] {
  const out: string[] = [];
  const status = s.terminal ? "terminal" : "not terminal";
  out.push(`; ===== State at step ${s.step} (${status}), ${plural(s.state.length, "fluent", "fluents")}`);
  if (s.error) out.push(...commentLines(`Error: ${s.error}`));
  if (s.roles.length > 0) out.push(`; roles: ${s.roles.join(" ")}`);
  // The state drawn (boards in ASCII, the other fluents), as comments above the fluents.
  if (s.board.trim() !== "") out.push(...s.board.replace(/\n+$/, "").split("\n").map((l) => (l === "" ? ";" : `; ${l}`)));
  out.push(...s.state.map((f) => `(true ${f})`));
  if (s.roles.length > 0) {
    out.push("");
    out.push(s.terminal ? "; ----- Goals (the game is over)" : "; ----- Legal moves");
    if (!s.terminal) {
      for (const role of s.roles) {
        const moves = s.legal[role] ?? [];
        if (moves.length === 0) out.push(`; ${role} has no legal move`);
        for (const m of moves) out.push(`(legal ${role} ${m})`);
      }
    }
    // Goals matter in terminal states; elsewhere they are shown only when some role has one.
    if (s.terminal || Object.values(s.goals).some((g) => g.length > 0)) {
      if (!s.terminal) out.push("; ----- Goals");
      for (const role of s.roles) {
        const g = s.goals[role] ?? [];
        if (g.length === 0) out.push(`; ${role} has no goal value`);
        for (const v of g) out.push(`(goal ${role} ${v})`);
      }
    }
  }
  if (s.history.length > 0) {
    out.push("");
    out.push("; ----- Joint moves played");
    s.history.forEach((joint, i) => {
      const moves = joint.map((m, j) => `${s.roles[j] ?? `role ${j + 1}`} ${m}`).join(", ");
      out.push(`; ${i + 1}. ${moves}`);
    });
  }
  return out;
}

/** The whole view. */
export function renderResults(m: ResultModel): string {
  const out: string[] = [`; GDL results for ${m.gameName}`];
  out.push("; Refreshed after every query and move. Commands: GDL: Run Query at Cursor, Play Joint Move, Play Random Move, Reset to Initial State.");
  if (m.error) {
    out.push("");
    out.push(...commentLines(`Error: ${m.error}`));
  }
  if (m.query) {
    out.push("");
    out.push(...renderQuery(m.query));
  }
  if (m.state) {
    out.push("");
    out.push(...renderState(m.state));
  } else if (m.query && !m.query.error) {
    out.push("");
    out.push(`; ===== Current state, ${plural(m.query.state.length, "fluent", "fluents")}`);
    out.push(...m.query.state.map((f) => `(true ${f})`));
  }
  return out.join("\n") + "\n";
}
