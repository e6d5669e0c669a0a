// End-to-end test of the playground in headless Chromium (Debian's, driven by playwright-core),
// served by the real `gdl playground`: load the page, type a typo and see its diagnostic (then
// its fix), hover a keyword, open an example, play three moves on the board including one of
// the computer (MCTS), step back, chart random matches, verify a broken example and replay its
// witness, a shared link opened in a new page, and the page reloaded offline (the service
// worker). It measures what the targets are about: the first load to a checked game, a
// keystroke to its diagnostics on chess.kif (from ../shared/games, when it is there), and the
// main thread's tasks while the computer thinks and verify runs (from Chromium's trace; each
// task's CPU time is reported against 50 ms, see reportTasks). Screenshots of each step and
// measurements.json go to OUT.
//
//   node playground/test/e2e.mjs URL OUT
import { chromium } from "playwright-core";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [url, outDir] = process.argv.slice(2);
if (!url || !outDir) {
  console.error("usage: node e2e.mjs URL OUT");
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const chess = resolve(repo, "../shared/games/ggp-org__ggp-repository/war/root/games/chess/chess.kif");

let passed = 0;
let failed = 0;
const measured = {};
const log = (...a) => console.log("playground e2e:", ...a);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
// Long animation frames with the scripts that ran in them, to say what a long task was.
await context.addInitScript(() => {
  window.gdlFrames = [];
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        if (e.duration <= 50) continue;
        const scripts = e.scripts.map((s) => `${s.invoker || "?"} ${s.sourceFunctionName || ""} ${Math.round(s.duration)} ms`);
        window.gdlFrames.push({ blocking: e.blockingDuration, text: `${Math.round(e.startTime)}+${Math.round(e.duration)} ms (blocking ${Math.round(e.blockingDuration)}): ${scripts.join("; ") || "no script"}` });
      }
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch {}
});
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
page.on("pageerror", (e) => log("page error:", e.message));
page.on("console", (m) => m.type() === "error" && log("console:", m.text()));
let shot = 0;

async function step(name, f) {
  const t0 = Date.now();
  try {
    await f();
    passed++;
    log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed++;
    log(`FAIL ${name}: ${e.message}`);
  }
  shot++;
  await page.screenshot({ path: join(outDir, `${String(shot).padStart(2, "0")}-${name.replace(/[^a-z0-9]+/gi, "-")}.png`) }).catch(() => {});
}

const stats = () => page.evaluate(() => ({ ...window.gdlPlayground }));
// The long animation frames since the last call: their text, and the longest time they blocked
// input (what a person feels; a long task's wall time also counts the time the machine gave to
// other processes).
async function frames() {
  const fs = await page.evaluate(() => window.gdlFrames.splice(0));
  return { text: fs.map((f) => f.text).join(" | "), blocking: Math.round(Math.max(0, ...fs.map((f) => f.blocking))) };
}
const statusText = () => page.locator("#status").textContent();
async function waitChecked(p = page) {
  await p.waitForFunction(() => document.body.dataset.ready === "true" && window.gdlPlayground.shownVersion === window.gdlPlayground.version, null, { timeout: 60000 });
}
async function waitStep(n) {
  await page.waitForFunction((n) => document.querySelector("#step")?.textContent?.startsWith(`Step ${n} `), n, { timeout: 60000 });
}
async function openExample(file) {
  await page.selectOption("#examples", file);
  await page.waitForFunction((f) => window.gdlPlayground.text().length > 0 && document.querySelector("#examples").value === f, file);
  await waitChecked();
  await waitStep(0);
}
function assert(ok, what) {
  if (!ok) throw new Error(what);
}

// The main thread's tasks while f runs, from Chromium's trace: each task's wall time and its
// thread's CPU time. On this shared machine (2 cores, other jobs, and the page's two workers
// busy) the operating system often leaves the page's thread waiting in the middle of a task, so
// a task of 6 ms of CPU can last 170 ms of wall time: the CPU time is what the page does, the
// wall time what the machine did to it.
async function trace(f) {
  const events = [];
  const collect = (e) => events.push(...e.value);
  cdp.on("Tracing.dataCollected", collect);
  await cdp.send("Tracing.start", { transferMode: "ReportEvents", categories: "toplevel,devtools.timeline" });
  const load = [loadavg()[0]];
  try {
    await f();
  } finally {
    const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
    await cdp.send("Tracing.end");
    await done;
    cdp.off("Tracing.dataCollected", collect);
  }
  load.push(loadavg()[0]);
  return { events, loadAverage: Math.max(...load) };
}

// The complete events of the threads so named, sorted, and among them the tasks: the events
// that no other event of the same thread contains.
function threadTasks(events, name) {
  const threads = new Set(events.filter((e) => e.name === "thread_name" && e.args.name === name).map((e) => `${e.pid}:${e.tid}`));
  const all = events.filter((e) => e.ph === "X" && threads.has(`${e.pid}:${e.tid}`)).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const last = new Map();
  const tasks = [];
  for (const e of all) {
    const k = `${e.pid}:${e.tid}`;
    const l = last.get(k);
    if (!l || e.ts >= l.ts + l.dur) {
      tasks.push(e);
      last.set(k, e);
    }
  }
  return { all, tasks };
}

const ms = (us) => Math.round((us ?? 0) / 100) / 10;

// The CPU time of each of the page's workers (gdl.wasm: the editor's, the game's) in a trace.
function workersCpuMs(events) {
  const by = new Map();
  for (const t of threadTasks(events, "DedicatedWorker thread").tasks) by.set(`${t.pid}:${t.tid}`, (by.get(`${t.pid}:${t.tid}`) ?? 0) + (t.tdur ?? 0));
  return [...by.values()].map(ms).sort((a, b) => b - a);
}

async function traceMainThread(f) {
  const { events, loadAverage } = await trace(f);
  const { all: onMain, tasks } = threadTasks(events, "CrRendererMain");
  // What a task did: its longest steps (scripts with their function, layout, paint).
  const what = (t) =>
    onMain
      .filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && !/RunTask/.test(e.name))
      .sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))
      .slice(0, 4)
      .map((e) => {
        const d = e.args?.data ?? {};
        const fn = d.functionName ? ` ${d.functionName}` : d.url ? ` ${d.url.split("/").pop()}:${d.lineNumber ?? ""}` : "";
        return `${e.name}${fn} ${ms(e.tdur)} ms`;
      })
      .join(", ");
  const byCpu = [...tasks].sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))[0];
  const byWall = [...tasks].sort((a, b) => b.dur - a.dur)[0];
  const describe = (t) => (t ? `${ms(t.tdur)} ms of CPU in ${ms(t.dur)} ms (${what(t) || "no script, layout or paint"})` : "none");
  return {
    tasks: tasks.length,
    cpuMs: ms(tasks.reduce((s, t) => s + (t.tdur ?? 0), 0)),
    longestCpuMs: ms(byCpu?.tdur),
    longestWallMs: ms(byWall?.dur),
    longestCpu: describe(byCpu),
    longestWall: describe(byWall),
    loadAverage,
  };
}

// The target: no task over 50 ms on the main thread while the computer thinks or verify runs.
// It is measured and reported (the log, measurements.json), not asserted: speed targets are
// measured, never timed assertions in tests (DEVELOPERS.md). The log says when a task ran more
// than 50 ms of CPU (drawing a thousand findings at once took 70 to 83 ms; the page's own CPU
// time is what a change can regress), and when a task's wall time is over 50 ms times the load
// average over the cores: on a shared machine the wall time of single tasks has a long tail (a
// task of 6 ms of CPU lasted 174 ms at load average 12, one of 4 ms 344 ms at 29). What the
// test asserts is the design that keeps tasks short: long lists are drawn over several frames.
const taskBoundMs = 50;
const cores = availableParallelism();
function reportTasks(t, what) {
  log(`${what}: ${t.tasks} main-thread tasks, ${t.cpuMs} ms of CPU; longest by CPU ${t.longestCpu}; longest by wall time ${t.longestWall}; load average ${t.loadAverage}`);
  if (t.longestCpuMs > taskBoundMs) {
    log(`${what}: OVER TARGET: a main-thread task ran ${t.longestCpuMs} ms of CPU, over ${taskBoundMs} ms: ${t.longestCpu}`);
  }
  const wallBound = Math.round(taskBoundMs * Math.max(1, t.loadAverage / cores));
  if (t.longestWallMs > wallBound) {
    log(`${what}: note: a task lasted ${t.longestWallMs} ms of wall time, over ${wallBound} ms (${taskBoundMs} ms × the load average ${t.loadAverage} over ${cores} cores), for ${t.longestWall.split(" in ")[0]}: the machine left the page's thread waiting`);
  }
}

await step("load", async () => {
  const t0 = Date.now();
  await page.goto(url);
  await waitChecked();
  const s = await stats();
  measured.firstLoadMs = Math.round(s.firstCheckedMs);
  measured.firstLoadWallMs = Date.now() - t0;
  assert((await statusText()).includes("no problems"), `status ${await statusText()}`);
  assert((await page.locator("#board rect.square").count()) === 9, "no 3x3 board");
  const marks = await page.evaluate(() => performance.getEntriesByType("mark").map((m) => `${m.name} ${Math.round(m.startTime)}`));
  log(`first load to a checked tictactoe: ${measured.firstLoadMs} ms after navigation (${marks.join(", ")})`);
});

await step("typo", async () => {
  const line = page.locator(".cm-line", { hasText: "(true (control ?player))" }).first();
  await line.click();
  await page.keyboard.press("End");
  await page.keyboard.type(" (true (contrl ?player))");
  await waitChecked();
  await page.waitForSelector(".cm-lintRange-warning");
  await page.click("[role=tab][data-tab=problems]");
  const problem = page.locator("#problems li", { hasText: "undefined-fluent" });
  await problem.waitFor();
  assert((await problem.textContent()).includes("contrl"), await problem.textContent());
  await page.screenshot({ path: join(outDir, "02a-typo-problem.png") });
  await problem.locator("button.fix").first().click();
  await waitChecked();
  assert((await statusText()).includes("no problems"), `after the fix: ${await statusText()}`);
});

await step("hover", async () => {
  await page.locator(".cm-line", { hasText: "(<= (legal ?player noop)" }).locator("text=legal").first().hover();
  const tip = page.locator(".cm-tooltip-hover");
  await tip.waitFor({ timeout: 10000 });
  assert((await tip.textContent()).includes("legal"), await tip.textContent());
});

await step("example with mistakes", async () => {
  await page.mouse.move(5, 5);
  await page.selectOption("#examples", "examples-tictactoe-bug.kif");
  await page.waitForFunction(() => /2 errors/.test(document.querySelector("#status").textContent));
  await page.click("[role=tab][data-tab=problems]");
  assert((await page.locator("#problems li.error").count()) === 2, "not two errors");
});

await step("play against MCTS", async () => {
  await openExample("tictactoe.kif");
  await page.click("[role=tab][data-tab=game]");
  await page.selectOption("#movetime", "500");
  await page.selectOption("#computer-role", "oplayer");
  await page.waitForTimeout(1000); // what opening the example started settles
  await page.evaluate(() => ((window.gdlPlayground.longestTaskMs = 0), (window.gdlFrames = [])));
  const t = await traceMainThread(async () => {
    await page.click('#board rect.square[data-row="1"][data-column="1"]');
    await waitStep(2); // x in the centre, then the computer's o
    const info = await page.locator("#computer-info").textContent();
    assert(/oplayer played \(mark \d \d\)/.test(info), `computer: ${info}`);
    // A blank square for x: the playable ones are those the legal moves mention.
    const free = await page.evaluate(() => {
      const r = document.querySelector("#board rect.square.playable");
      return [r.dataset.row, r.dataset.column];
    });
    await page.click(`#board rect.square[data-row="${free[0]}"][data-column="${free[1]}"]`);
    await waitStep(4);
  });
  const sm = await stats();
  measured.longestTaskDuringMctsMs = Math.round(sm.longestTaskMs);
  measured.longestTaskCpuDuringMctsMs = t.longestCpuMs;
  measured.longestTaskWallDuringMctsMs = t.longestWallMs;
  measured.loadAverageDuringMcts = t.loadAverage;
  const fr = await frames();
  measured.longestBlockingDuringMctsMs = fr.blocking;
  log(`long frames while playing: ${fr.text || "none"}`);
  assert((await page.locator("#board text", { hasText: /^x$/ }).count()) === 2, "not two x on the board");
  reportTasks(t, "while the computer thinks");
});

await step("step back", async () => {
  await page.selectOption("#computer-role", "");
  await page.click("#back");
  await waitStep(3);
  await page.click("#back");
  await waitStep(2);
  assert((await page.locator("#board text", { hasText: /^x$/ }).count()) === 1, "not one x after two steps back");
  await page.click("#forward");
  await waitStep(3);
});

await step("random matches and their charts", async () => {
  await page.fill("#playouts-n", "200");
  await page.click("#playouts-run");
  const stats = page.locator("#playouts-out section.stats");
  await stats.waitFor({ timeout: 60000 });
  const text = await stats.textContent();
  assert(/200 random matches/.test(text), `stats: ${text}`);
  assert((await stats.locator("figure.chart").count()) >= 3, "not the charts of two roles' goals and the lengths");
});

await step("verify runs while typing is checked, then stops", async () => {
  await openExample("connectfour.kif");
  await page.click("[role=tab][data-tab=verify]");
  await page.waitForTimeout(1000); // what opening the example started settles
  await page.evaluate(() => (window.gdlPlayground.longestTaskMs = 0));
  await page.selectOption("#verify-states", "1000000");
  await page.selectOption("#verify-time", "120000");
  await page.evaluate(() => (window.gdlFrames = []));
  const t = await traceMainThread(async () => {
    await page.click("#verify-run");
    await page.waitForFunction(() => /states explored/.test(document.querySelector("#verify-progress").textContent), null, { timeout: 60000 });
    // A keystroke while verify runs in the game's worker is checked in the editor's.
    await page.locator(".cm-line", { hasText: "(role red)" }).first().click();
    await page.keyboard.press("End");
    await page.keyboard.type(" ");
    await waitChecked();
    assert(/states explored/.test(await page.locator("#verify-progress").textContent()), "verify ended before the keystroke was checked");
    measured.keystrokeDuringVerifyMs = Math.round((await stats()).lastDiagnosticsMs);
    await page.waitForTimeout(1500);
  });
  const s = await stats();
  measured.longestTaskDuringVerifyMs = Math.round(s.longestTaskMs);
  measured.longestTaskCpuDuringVerifyMs = t.longestCpuMs;
  measured.longestTaskWallDuringVerifyMs = t.longestWallMs;
  measured.loadAverageDuringVerify = t.loadAverage;
  const fr = await frames();
  measured.longestBlockingDuringVerifyMs = fr.blocking;
  log(`long frames while verifying: ${fr.text || "none"}`);
  reportTasks(t, "while verify runs");
  await page.screenshot({ path: join(outDir, "07a-verify-running.png") });
  await page.click("#verify-stop");
  await page.waitForFunction(() => document.querySelector("#verify-progress").textContent === "Stopped.");
  await waitStep(0);
});

await step("verify and replay the witness", async () => {
  await openExample("verify-termination.kif");
  await page.click("[role=tab][data-tab=verify]");
  const finding = page.locator("#findings li.finding", { hasText: "verify-termination" }).first();
  const t = await traceMainThread(async () => {
    await page.click("#verify-run");
    await finding.waitFor({ timeout: 90000 });
    await page.waitForSelector("#findings[aria-busy=false]", { timeout: 60000 }); // all of them drawn
  });
  measured.longestTaskCpuDuringVerifyFindingsMs = t.longestCpuMs;
  measured.longestTaskWallDuringVerifyFindingsMs = t.longestWallMs;
  reportTasks(t, "while verify ends and its findings are drawn");
  // A thousand findings (these, repeated) are drawn in short tasks too.
  const many = await traceMainThread(async () => {
    const first = await page.evaluate(() => {
      const fs = (window.gdlFound = window.gdlPlayground.findings);
      window.gdlPlayground.showFindings(Array.from({ length: Math.ceil(1000 / fs.length) }, () => fs).flat());
      // What the task that asked for the list drew: a part of it, the rest in later frames.
      const list = document.getElementById("findings");
      return { drawn: list.querySelectorAll("li.finding").length, busy: list.getAttribute("aria-busy") };
    });
    assert(
      first.drawn < 1000 && first.busy === "true",
      `a thousand findings drawn in one task (${first.drawn} drawn, aria-busy ${first.busy}): long lists must be drawn over several frames`,
    );
    await page.waitForSelector("#findings[aria-busy=false]", { timeout: 60000 });
  });
  measured.longestTaskCpuDrawingThousandFindingsMs = many.longestCpuMs;
  assert((await page.locator("#findings li.finding").count()) >= 1000, "not a thousand findings drawn");
  reportTasks(many, "while a thousand findings are drawn");
  await page.evaluate(() => window.gdlPlayground.showFindings(window.gdlFound)); // verify's own again
  await page.screenshot({ path: join(outDir, "08a-verify-findings.png") });
  await finding.locator("button.witness").click();
  await waitStep(6);
});

let shared = "";
await step("share link round trip", async () => {
  await openExample("noughts.hrf");
  await page.click("#share");
  await page.waitForFunction(() => document.querySelector("#share-link").value !== "");
  const link = await page.inputValue("#share-link");
  assert(link.includes("#code=") && link.includes("&infix"), `link ${link}`);
  shared = await page.evaluate(() => window.gdlPlayground.text());
  const other = await context.newPage();
  await other.goto(link);
  await waitChecked(other);
  const text = await other.evaluate(() => window.gdlPlayground.text());
  assert(text === shared, "the shared page has another text");
  assert((await other.locator("#notation").textContent()).includes("infix"), "not infix");
  await other.screenshot({ path: join(outDir, "09a-shared-page.png") });
  await other.close();
});

await step("offline", async () => {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await context.setOffline(true);
  await page.reload();
  await waitChecked();
  assert((await page.evaluate(() => window.gdlPlayground.text())) === shared, "offline: another text");
  assert((await page.locator("#board rect.square").count()) === 9, "offline: no board");
  await context.setOffline(false);
});

await step("keystroke to diagnostics on chess.kif", async () => {
  if (!existsSync(chess)) {
    log(`skipped: no ${chess} (the shared corpus is not beside the repository)`);
    return;
  }
  await page.evaluate((t) => window.gdlPlayground.open(t, false), readFileSync(chess, "utf8"));
  await waitChecked();
  // The first rule, line 103: the cursor goes there by keys (the editor draws only the lines in view).
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+Home");
  for (let i = 1; i < 103; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("End");
  assert((await page.locator(".cm-activeLine").textContent()).startsWith("(<= (next (cell ?u ?v b))"), "not on line 103");
  const times = [];
  // The workers' CPU time too: on a loaded machine the wall time is mostly waiting for a core.
  const { events, loadAverage } = await trace(async () => {
    for (let i = 0; i < 10; i++) {
      await page.keyboard.type(i % 2 === 0 ? " " : "");
      if (i % 2 === 1) await page.keyboard.press("Backspace");
      await waitChecked();
      times.push(Math.round((await stats()).lastDiagnosticsMs));
    }
  });
  const cpu = workersCpuMs(events);
  // The editor's worker checks every keystroke, the game's only takes the edit: the busier one.
  measured.keystrokeCpuChessMs = Math.round((cpu[0] ?? 0) / times.length);
  measured.loadAverageDuringChess = loadAverage;
  log(`the workers' CPU time over the 10 keystrokes: ${cpu.join(" and ")} ms`);
  times.sort((a, b) => a - b);
  measured.keystrokeToDiagnosticsChessMs = times;
  measured.keystrokeToDiagnosticsChessMedianMs = times[Math.floor(times.length / 2)];
  log(`keystroke to diagnostics on chess.kif: ${times.join(", ")} ms`);
});

measured.longestTaskOverallMs = Math.round((await stats()).longestTaskMs);
measured.loadAverage = loadavg().map((x) => Math.round(x * 10) / 10); // of the machine: 2 cores, shared
writeFileSync(join(outDir, "measurements.json"), JSON.stringify(measured, null, 2) + "\n");
log(JSON.stringify(measured));
await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
