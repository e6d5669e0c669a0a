// The shapes of the results of the server's workspace/executeCommand commands (the contract in
// docs/editors.md), and checks that turn untrusted JSON into them.

/** Commands the server implements; the client sends them through workspace/executeCommand. */
export const ServerCommands = {
  runQuery: "gdl.runQuery",
  showState: "gdl.showState",
  playMove: "gdl.playMove",
  playRandom: "gdl.playRandom",
  resetState: "gdl.resetState",
  replayMoves: "gdl.replayMoves",
  verify: "gdl.verify",
  undoMove: "gdl.undoMove",
  gotoStep: "gdl.gotoStep",
  computerMove: "gdl.computerMove",
  playouts: "gdl.playouts",
  runMatch: "gdl.runMatch",
  explain: "gdl.explain",
} as const;

export type ServerCommand = (typeof ServerCommands)[keyof typeof ServerCommands];

export const STATE_COMMANDS: readonly string[] = [
  ServerCommands.showState,
  ServerCommands.playMove,
  ServerCommands.playRandom,
  ServerCommands.resetState,
  ServerCommands.replayMoves,
  ServerCommands.undoMove,
  ServerCommands.gotoStep,
  ServerCommands.computerMove,
  ServerCommands.runMatch,
];

/** The result of gdl.verify. */
export interface VerifyResult {
  summary: string;
  complete: boolean;
  states: number;
  findings: { property: string; role?: string; message: string; moves: string[][] }[];
}

export interface QueryResult {
  query: string;
  state: string[];
  answers: string[];
  elapsedMs: number;
  error?: string;
  /** For a query about a joint move (next, sees): the answers after each legal joint move. */
  byMove?: MoveAnswers[];
  /** The number of legal joint moves in the state (byMove may cover fewer). */
  jointMoves?: number;
  /** The notation the game's terms are written in. */
  notation?: Notation;
  /** What the server's lists leave out (it lists 10,000 answers and fluents at most). */
  truncated?: string[];
}

/** The notation of a game: prefix GDL (KIF) or infix GDL (.hrf). */
export type Notation = "prefix" | "infix";

export interface MoveAnswers {
  /** One move per role, in role order. */
  move: string[];
  answers: string[];
  error?: string;
}

export interface GameState {
  roles: string[];
  state: string[];
  step: number;
  history: string[][];
  terminal: boolean;
  legal: Record<string, string[]>;
  goals: Record<string, number[]>;
  error?: string;
  /** The notation the game's terms are written in. */
  notation?: Notation;
  /** The history and the joint moves after it (steps to go forward to). */
  line: string[][];
  /** The state drawn as ASCII text. */
  board: string;
  /** The state drawn: boards and the other fluents. */
  view: StateView;
  /** Per role, per legal move (as legal), the squares the move mentions. */
  squares: Record<string, Square[][]>;
  /** GDL-II's random role, if any. */
  random: string[];
  /** GDL-II: per joint move played, what each role perceived. */
  percepts?: Record<string, string[]>[];
  notes: string[];
  /** What the built-in player's search found (gdl.computerMove only). */
  computer: ComputerSearch[];
  /** GDL-II: the state as the role the command's viewAs named knows it. */
  viewAs?: RoleView;
  /** A move refused as not legal: why not (gdl.explain's result for (legal role move)). */
  why?: ExplainResult;
}

/** The state as one role of a GDL-II game knows it. */
export interface RoleView {
  role: string;
  /** The fluents true in every state the role may be in, drawn; the squares it does not know show "?". */
  view: StateView;
  /** The squares it does not know. */
  unknown: Square[];
  /** The relations off the boards whose fluents it does not know. */
  unknownOthers: string[];
  /** The fluents true in every state it may be in. */
  known: string[];
  /** The states it may be in. */
  states: number;
  /** Whether all of them were found (else a square shown may still be unknown). */
  complete: boolean;
  error?: string;
}

export interface StateView {
  boards: Board[];
  others: { relation: string; values: string[] }[];
  /** The fluents on no board that others leaves out (the server lists 1,000 at most). */
  omitted?: number;
}

export interface Board {
  relation: string;
  rowArg: number;
  columnArg: number;
  rows: string[];
  columns: string[];
  cells: Cell[][];
  configured: boolean;
}

export interface Cell {
  row: string;
  column: string;
  content: string[];
  fluents: string[];
  text: string;
}

export interface Square {
  board: number;
  row: number;
  column: number;
}

export interface ComputerSearch {
  role: string;
  move: string;
  playouts: number;
  /** The states it searched from: 1 when the role knows the state. */
  states: number;
  value: number;
  elapsedMs: number;
  engine: string;
}

/** A player's answer to a PLAY in a match (the record of gdl match). */
export interface MatchAnswer {
  role: string;
  /** The move played for the role. */
  move: string;
  /** Why the player's answer was replaced by a random legal move: late, unreadable, illegal, refused, unreachable. */
  kind?: string;
  error?: string;
}

/** The record of a match (gdl.runMatch, gdl match --format json), as far as the view uses it. */
export interface MatchRecord {
  matchId: string;
  roles: string[];
  players: string[];
  completed: boolean;
  /** Why the match stopped before a terminal state. */
  aborted?: string;
  /** Moves the manager replaced. */
  errors: number;
  /** Per role, -1 for none. */
  goals: number[];
  moves: { step: number; joint: string[]; answers: MatchAnswer[] }[];
}

/** The result of gdl.runMatch: the state at the start of the match's line, and the match. */
export interface MatchResult {
  state: GameState;
  summary: string;
  match?: MatchRecord;
}

/** Reads a gdl.runMatch result; a malformed record is left out. */
export function toMatchResult(v: unknown): MatchResult {
  const state = toGameState(v);
  const o = isObject(v) ? v : {};
  const summary = typeof o.summary === "string" ? o.summary : "";
  const m = isObject(o.match) ? o.match : undefined;
  if (!m) return { state, summary };
  const match: MatchRecord = {
    matchId: typeof m.match_id === "string" ? m.match_id : "",
    roles: strings(m.roles),
    players: strings(m.players),
    completed: m.completed === true,
    aborted: typeof m.aborted === "string" && m.aborted !== "" ? m.aborted : undefined,
    errors: num(m.errors),
    goals: Array.isArray(m.goals) ? m.goals.map((g) => num(g, -1)) : [],
    moves: Array.isArray(m.moves)
      ? m.moves.filter(isObject).map((s) => ({
          step: num(s.step),
          joint: strings(s.joint),
          answers: Array.isArray(s.answers)
            ? s.answers.filter(isObject).map((a) => ({
                role: typeof a.role === "string" ? a.role : "",
                move: typeof a.move === "string" ? a.move : "",
                kind: typeof a.error_kind === "string" && a.error_kind !== "" ? a.error_kind : undefined,
                error: typeof a.error === "string" && a.error !== "" ? a.error : undefined,
              }))
            : [],
        }))
      : [],
  };
  return { state, summary, match };
}

/** A line about the moves a match replaced, by player ("" when none was). */
export function replacedMoves(m: MatchRecord): string {
  const byRole = new Map<string, Map<string, number>>();
  for (const s of m.moves) {
    for (const a of s.answers) {
      if (!a.kind) continue;
      const kinds = byRole.get(a.role) ?? new Map<string, number>();
      kinds.set(a.kind, (kinds.get(a.kind) ?? 0) + 1);
      byRole.set(a.role, kinds);
    }
  }
  const parts = [...byRole].map(([role, kinds]) => `${role}: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(", ")}`);
  return parts.length ? `Moves replaced by random legal ones (${parts.join("; ")}).` : "";
}

/** The figures of random playouts (gdl.playouts, as gdl play --format json gives them). */
export interface PlayoutStats {
  engine: string;
  playouts: number;
  seconds: number;
  meanLength: number;
  minLength: number;
  maxLength: number;
  terminal: number;
  timeUp: boolean;
  roles: string[];
  goals: Record<string, { value: string; count: number }[]>;
  lengths: { length: number; count: number }[];
  first?: { role: string; wins: number; draws: number; losses: number };
  violations: { kind: string; role?: string; detail: string; count: number }[];
  /** Playouts that reached the depth limit without a terminal state (a possible non-termination). */
  depthLimit?: { maxDepth: number; playouts: number };
  error?: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function errorOf(o: Record<string, unknown>): string | undefined {
  return typeof o.error === "string" && o.error !== "" ? o.error : undefined;
}

/** Reads a gdl.runQuery result; anything malformed becomes a result with an error. */
export function toQueryResult(v: unknown, query: string): QueryResult {
  if (!isObject(v)) {
    return { query, state: [], answers: [], elapsedMs: 0, error: "The server gave no query result." };
  }
  const q: QueryResult = {
    query: typeof v.query === "string" ? v.query : query,
    state: strings(v.state),
    answers: strings(v.answers),
    elapsedMs: typeof v.elapsedMs === "number" ? v.elapsedMs : 0,
    error: errorOf(v),
  };
  if (Array.isArray(v.byMove)) {
    q.byMove = v.byMove.filter(isObject).map((m) => ({ move: strings(m.move), answers: strings(m.answers), error: errorOf(m) }));
    q.jointMoves = typeof v.jointMoves === "number" ? v.jointMoves : q.byMove.length;
  }
  const n = notationOf(v);
  if (n) q.notation = n;
  const truncated = strings(v.truncated);
  if (truncated.length > 0) q.truncated = truncated;
  return q;
}

/** The result of gdl.explain: why a literal holds or does not in the document's current state. */
export interface ExplainResult {
  literal: string;
  holds: boolean;
  /** The joint moves played to reach the state. */
  step: number;
  /** The joint move a literal about a joint move was explained for. */
  joint?: string[];
  /** The explanation in Markdown, the rules linked to the game. */
  markdown: string;
  /** The explanation as an indented tree. */
  text: string;
  error?: string;
}

export function toExplainResult(v: unknown, literal: string): ExplainResult {
  if (!isObject(v)) {
    return { literal, holds: false, step: 0, markdown: "", text: "", error: "The server gave no explanation." };
  }
  const r: ExplainResult = {
    literal: typeof v.literal === "string" ? v.literal : literal,
    holds: v.holds === true,
    step: num(v.step),
    markdown: typeof v.markdown === "string" ? v.markdown : "",
    text: typeof v.text === "string" ? v.text : "",
    error: errorOf(v),
  };
  if (Array.isArray(v.joint)) r.joint = strings(v.joint);
  return r;
}

/** The notation a result says its game is written in, if it says one. */
function notationOf(v: Record<string, unknown>): Notation | undefined {
  return v.notation === "infix" || v.notation === "prefix" ? v.notation : undefined;
}

function num(v: unknown, def = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : def;
}

function cellOf(v: unknown, row: string, column: string): Cell {
  const o = isObject(v) ? v : {};
  return { row, column, content: strings(o.content), fluents: strings(o.fluents), text: typeof o.text === "string" ? o.text : "" };
}

/** Reads a board, keeping its grid rectangular whatever the server sent. */
function boardOf(v: unknown): Board | undefined {
  if (!isObject(v)) return undefined;
  const rows = strings(v.rows);
  const columns = strings(v.columns);
  const cells = Array.isArray(v.cells) ? v.cells : [];
  return {
    relation: typeof v.relation === "string" ? v.relation : "",
    rowArg: num(v.rowArg),
    columnArg: num(v.columnArg),
    rows,
    columns,
    cells: rows.map((r, i) => columns.map((c, j) => cellOf(Array.isArray(cells[i]) ? cells[i][j] : undefined, r, c))),
    configured: v.configured === true,
  };
}

/** Reads the state drawn. */
export function toStateView(v: unknown): StateView {
  if (!isObject(v)) return { boards: [], others: [] };
  const boards = Array.isArray(v.boards) ? v.boards.map(boardOf).filter((b): b is Board => b !== undefined) : [];
  const others = Array.isArray(v.others)
    ? v.others.filter(isObject).map((o) => ({ relation: typeof o.relation === "string" ? o.relation : "", values: strings(o.values) }))
    : [];
  const out: StateView = { boards, others };
  const omitted = num(v.omitted);
  if (omitted > 0) out.omitted = omitted;
  return out;
}

function squaresOf(v: unknown, legal: Record<string, string[]>, boards: Board[]): Record<string, Square[][]> {
  const out: Record<string, Square[][]> = {};
  const src = isObject(v) ? v : {};
  for (const [role, moves] of Object.entries(legal)) {
    const per = Array.isArray(src[role]) ? (src[role] as unknown[]) : [];
    out[role] = moves.map((_, i) => {
      const list = Array.isArray(per[i]) ? (per[i] as unknown[]) : [];
      return list.filter(isObject).map((q) => ({ board: num(q.board, -1), row: num(q.row, -1), column: num(q.column, -1) }))
        .filter((q) => boards[q.board] !== undefined && q.row >= 0 && q.row < boards[q.board].rows.length && q.column >= 0 && q.column < boards[q.board].columns.length);
    });
  }
  return out;
}

/** Reads a GameState; anything malformed becomes a state with an error. */
export function toGameState(v: unknown): GameState {
  if (!isObject(v)) {
    return {
      roles: [], state: [], step: 0, history: [], terminal: false, legal: {}, goals: {}, error: "The server gave no game state.",
      line: [], board: "", view: { boards: [], others: [] }, squares: {}, random: [], notes: [], computer: [],
    };
  }
  const legal: Record<string, string[]> = {};
  if (isObject(v.legal)) for (const [role, moves] of Object.entries(v.legal)) legal[role] = strings(moves);
  const goals: Record<string, number[]> = {};
  if (isObject(v.goals)) {
    for (const [role, g] of Object.entries(v.goals)) {
      goals[role] = Array.isArray(g) ? g.filter((x): x is number => typeof x === "number") : [];
    }
  }
  const history = Array.isArray(v.history) ? v.history.map(strings) : [];
  const line = Array.isArray(v.line) ? v.line.map(strings) : history;
  const view = toStateView(v.view);
  const s: GameState = {
    roles: strings(v.roles),
    state: strings(v.state),
    step: typeof v.step === "number" ? v.step : 0,
    history,
    terminal: v.terminal === true,
    legal,
    goals,
    error: errorOf(v),
    line: line.length >= history.length ? line : history,
    board: typeof v.board === "string" ? v.board : "",
    view,
    squares: squaresOf(v.squares, legal, view.boards),
    random: strings(v.random),
    // What the server's lists leave out (a state's fluents, a role's legal moves) is a note.
    notes: [...strings(v.notes), ...strings(v.truncated).map((t) => `Not all listed: ${t}.`)],
    computer: Array.isArray(v.computer)
      ? v.computer.filter(isObject).map((c) => ({
          role: typeof c.role === "string" ? c.role : "",
          move: typeof c.move === "string" ? c.move : "",
          playouts: num(c.playouts),
          states: num(c.states, 1),
          value: num(c.value),
          elapsedMs: num(c.elapsedMs),
          engine: typeof c.engine === "string" ? c.engine : "",
        }))
      : [],
  };
  if (isObject(v.why)) s.why = toExplainResult(v.why, "");
  const n = notationOf(v);
  if (n) s.notation = n;
  if (Array.isArray(v.percepts)) {
    s.percepts = v.percepts.map((step) => {
      const m: Record<string, string[]> = {};
      if (isObject(step)) for (const [role, ps] of Object.entries(step)) m[role] = strings(ps);
      return m;
    });
  }
  if (isObject(v.viewAs)) s.viewAs = toRoleView(v.viewAs);
  return s;
}

/** Reads the state as a role knows it; squares outside its boards are dropped. */
export function toRoleView(v: Record<string, unknown>): RoleView {
  const view = toStateView(v.view);
  const unknown = Array.isArray(v.unknown)
    ? v.unknown.filter(isObject).map((q) => ({ board: num(q.board, -1), row: num(q.row, -1), column: num(q.column, -1) }))
        .filter((q) => view.boards[q.board] !== undefined && q.row >= 0 && q.row < view.boards[q.board].rows.length && q.column >= 0 && q.column < view.boards[q.board].columns.length)
    : [];
  const out: RoleView = {
    role: typeof v.role === "string" ? v.role : "",
    view,
    unknown,
    unknownOthers: strings(v.unknownOthers),
    known: strings(v.known),
    states: num(v.states),
    complete: v.complete === true,
  };
  const e = errorOf(v);
  if (e) out.error = e;
  return out;
}

/** Reads the result of gdl.playouts. */
export function toPlayoutStats(v: unknown): PlayoutStats {
  const o = isObject(v) ? v : {};
  const goals: PlayoutStats["goals"] = {};
  if (isObject(o.goals)) {
    for (const [role, list] of Object.entries(o.goals)) {
      goals[role] = Array.isArray(list)
        ? list.filter(isObject).map((g) => ({ value: typeof g.value === "string" ? g.value : String(g.value), count: num(g.count) }))
        : [];
    }
  }
  const f = isObject(o.first_player) ? o.first_player : undefined;
  return {
    engine: typeof o.engine === "string" ? o.engine : "",
    playouts: num(o.playouts),
    seconds: num(o.seconds),
    meanLength: num(o.mean_length),
    minLength: num(o.min_length),
    maxLength: num(o.max_length),
    terminal: num(o.terminal),
    timeUp: o.time_up === true,
    roles: strings(o.roles),
    goals,
    lengths: Array.isArray(o.lengths) ? o.lengths.filter(isObject).map((l) => ({ length: num(l.length), count: num(l.count) })) : [],
    first: f ? { role: typeof f.role === "string" ? f.role : "", wins: num(f.wins), draws: num(f.draws), losses: num(f.losses) } : undefined,
    violations: Array.isArray(o.violations)
      ? o.violations.filter(isObject).map((x) => ({
          kind: typeof x.kind === "string" ? x.kind : "",
          role: typeof x.role === "string" ? x.role : undefined,
          detail: typeof x.detail === "string" ? x.detail : "",
          count: num(x.count),
        }))
      : [],
    depthLimit: isObject(o.depth_limit) ? { maxDepth: num(o.depth_limit.max_depth), playouts: num(o.depth_limit.playouts) } : undefined,
    error: isObject(v) ? errorOf(o) : "The server gave no statistics.",
  };
}

/** The moves a person picks from for each role, in role order; roles the server gave no legal
 * moves for are listed with none. */
export function legalMovesByRole(s: GameState): { role: string; moves: string[] }[] {
  return s.roles.map((role) => ({ role, moves: s.legal[role] ?? [] }));
}
