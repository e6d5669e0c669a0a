// Game tests (docs/testing.md) as the server's gdl.listTests and gdl.runTests give them, and
// the checks that turn their untrusted JSON into these shapes. Kept free of the vscode API so it
// can be unit tested; testController.ts shows them in the Testing view.

/** The commands of game tests. */
export const TestCommands = {
  listTests: "gdl.listTests",
  runTests: "gdl.runTests",
  recordTest: "gdl.recordTest",
} as const;

/** The result of gdl.recordTest: the test's text and the URI of the test file it goes to. */
export interface RecordedTest {
  text: string;
  testFile: string;
}

/** Reads a gdl.recordTest result; without a test file it is an error. */
export function toRecordedTest(v: unknown): RecordedTest {
  const o = isObject(v) ? v : {};
  const text = str(o.text);
  const testFile = str(o.testFile);
  if (!text || !testFile) throw new Error("the server's gdl.recordTest result has no test or no test file");
  return { text, testFile };
}

/** A range in LSP's terms: 0-based lines and characters. */
export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface TestItemInfo {
  name: string;
  range: LspRange;
  nameRange: LspRange;
  description: string;
}

/** The result of gdl.listTests: the tests of a file and its game ("" when it is not found). */
export interface TestList {
  uri: string;
  game: string;
  tests: TestItemInfo[];
}

export interface TestFailure {
  step: number;
  range: LspRange;
  code: string;
  /** The whole story: the expectation, the finding, the moves that lead there and the state. */
  message: string;
  expected: string;
  found: string;
  moves: string[];
  state: string[];
}

export interface TestResult {
  name: string;
  status: "passed" | "failed" | "errored";
  elapsedMs: number;
  failures: TestFailure[];
}

/** The result of gdl.runTests; error says why nothing ran (no game, a game that cannot be played). */
export interface TestRunResult {
  uri: string;
  results: TestResult[];
  error?: string;
}

/** True for the names of game test files: GAME.test.kif, GAME.test.hrf, GAME.test.gdl. */
export function isTestFileName(fileName: string): boolean {
  return /[^/\\]\.test\.(kif|hrf|gdl)$/i.test(fileName);
}

/** The glob of test files, for the workspace's file search and watcher. */
export const TEST_FILE_GLOB = "**/*.test.{kif,hrf,gdl}";

/** The id of a test's item in the Testing view: its file's URI, "#", its name. */
export function testId(uri: string, name: string): string {
  return `${uri}#${name}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function num(v: unknown, def = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : def;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function position(v: unknown): { line: number; character: number } {
  const o = isObject(v) ? v : {};
  return { line: Math.max(0, Math.floor(num(o.line))), character: Math.max(0, Math.floor(num(o.character))) };
}

function range(v: unknown): LspRange {
  const o = isObject(v) ? v : {};
  return { start: position(o.start), end: position(o.end) };
}

/** Reads a gdl.listTests result; items without a name are left out. */
export function toTestList(v: unknown): TestList {
  const o = isObject(v) ? v : {};
  const tests: TestItemInfo[] = [];
  for (const t of Array.isArray(o.tests) ? o.tests : []) {
    if (!isObject(t) || typeof t.name !== "string" || t.name === "") continue;
    tests.push({ name: t.name, range: range(t.range), nameRange: range(t.nameRange), description: str(t.description) });
  }
  return { uri: str(o.uri), game: str(o.game), tests };
}

/** Reads a gdl.runTests result. */
export function toTestRun(v: unknown): TestRunResult {
  const o = isObject(v) ? v : {};
  const results: TestResult[] = [];
  for (const r of Array.isArray(o.results) ? o.results : []) {
    if (!isObject(r) || typeof r.name !== "string") continue;
    const status = r.status === "passed" || r.status === "failed" ? r.status : "errored";
    const failures: TestFailure[] = [];
    for (const f of Array.isArray(r.failures) ? r.failures : []) {
      if (!isObject(f)) continue;
      failures.push({
        step: num(f.step),
        range: range(f.range),
        code: str(f.code),
        message: str(f.message),
        expected: str(f.expected),
        found: str(f.found),
        moves: strings(f.moves),
        state: strings(f.state),
      });
    }
    results.push({ name: r.name, status, elapsedMs: num(r.elapsedMs), failures });
  }
  const error = str(o.error);
  return { uri: str(o.uri), results, ...(error ? { error } : {}) };
}

/** The message of a failure in the Testing view: what was expected and found, then the rest. */
export function failureMessage(f: TestFailure): string {
  if (f.message) return f.message;
  return f.found ? `expected ${f.expected}; ${f.found}` : `expected ${f.expected}`;
}

/** The tests a lens's gdl.runTests arguments name: all of the file's when none. */
export function lensRequest(arg: unknown): { uri: string; tests: string[] } | undefined {
  if (!isObject(arg) || typeof arg.uri !== "string" || arg.uri === "") return undefined;
  return { uri: arg.uri, tests: strings(arg.tests) };
}
