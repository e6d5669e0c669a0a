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
} as const;

export type ServerCommand = (typeof ServerCommands)[keyof typeof ServerCommands];

export const STATE_COMMANDS: readonly string[] = [
  ServerCommands.showState,
  ServerCommands.playMove,
  ServerCommands.playRandom,
  ServerCommands.resetState,
  ServerCommands.replayMoves,
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
}

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
  return q;
}

/** Reads a GameState; anything malformed becomes a state with an error. */
export function toGameState(v: unknown): GameState {
  if (!isObject(v)) {
    return { roles: [], state: [], step: 0, history: [], terminal: false, legal: {}, goals: {}, error: "The server gave no game state." };
  }
  const legal: Record<string, string[]> = {};
  if (isObject(v.legal)) for (const [role, moves] of Object.entries(v.legal)) legal[role] = strings(moves);
  const goals: Record<string, number[]> = {};
  if (isObject(v.goals)) {
    for (const [role, g] of Object.entries(v.goals)) {
      goals[role] = Array.isArray(g) ? g.filter((x): x is number => typeof x === "number") : [];
    }
  }
  return {
    roles: strings(v.roles),
    state: strings(v.state),
    step: typeof v.step === "number" ? v.step : 0,
    history: Array.isArray(v.history) ? v.history.map(strings) : [],
    terminal: v.terminal === true,
    legal,
    goals,
    error: errorOf(v),
  };
}

/** The moves a person picks from for each role, in role order; roles the server gave no legal
 * moves for are listed with none. */
export function legalMovesByRole(s: GameState): { role: string; moves: string[] }[] {
  return s.roles.map((role) => ({ role, moves: s.legal[role] ?? [] }));
}
