// Drives the real VS Code workbench (code-server) in Chromium and checks what a person sees.
// Started by run.sh, which sets CODE_SERVER_URL, E2E_OUT and E2E_WORKSPACE. Each step saves a
// screenshot NN-name.png in E2E_OUT; the run ends with "N passed, N failed".
import { chromium } from "playwright-core";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const url = process.env.CODE_SERVER_URL;
const out = process.env.E2E_OUT;
const workspace = process.env.E2E_WORKSPACE;
const GAME = "tictactoe.kif";
const RESULTS = `${GAME}.results`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const page = await browser.newPage({ viewport: { width: 1500, height: 1300 } });
page.setDefaultTimeout(30_000);

let n = 0;
let passed = 0;
let failed = 0;

async function shot(name) {
  const file = join(out, `${String(n).padStart(2, "0")}-${name}.png`);
  await page.screenshot({ path: file }).catch((e) => console.log(`# screenshot ${file} failed: ${e.message}`));
}

/** Runs one check; on failure it saves a screenshot and goes on (each step sets up what it needs,
 * so one failure does not hide the others). */
async function step(name, fn) {
  n++;
  // E2E_ONLY (a regular expression) runs only the steps it matches, while working on them.
  if (process.env.E2E_ONLY && !new RegExp(process.env.E2E_ONLY).test(name)) {
    console.log(`ok ${n} - ${name} # SKIP (E2E_ONLY)`);
    return;
  }
  const t0 = Date.now();
  try {
    await fn();
    await shot(name);
    passed++;
    console.log(`ok ${n} - ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed++;
    await shot(`${name}-FAILED`);
    const lines = String(e && e.stack ? e.stack : e).split("\n").filter((l) => !/^\s+at |\[2m/.test(l));
    console.log(`not ok ${n} - ${name}\n# ${lines.join("\n# ")}`);
    await page.keyboard.press("Escape").catch(() => {});
  }
}

async function finish() {
  await browser.close().catch(() => {});
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

/** Polls until fn returns a truthy value; the error says what was last seen. */
async function until(what, fn, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last && last.ok !== false) return last;
    } catch (e) {
      last = e.message;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 2000)}`);
    await page.waitForTimeout(250);
  }
}

/** Runs a command from the command palette by its title. */
async function command(title) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`>${title}`);
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
  await row.waitFor({ state: "visible" });
  await page.waitForTimeout(150);
  await input.press("Enter");
}

/** The text of the editor whose active tab has this label, in line order (only drawn lines). */
async function editorText(tabLabel) {
  return page.evaluate((label) => {
    for (const group of document.querySelectorAll(".editor-group-container")) {
      const tab = group.querySelector(".tab.active");
      if (!tab || !(tab.getAttribute("aria-label") ?? tab.textContent ?? "").includes(label)) continue;
      const lines = [...group.querySelectorAll(".view-lines .view-line")];
      lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
      return lines.map((l) => l.textContent.replace(/\u00a0/g, " ")).join("\n");
    }
    return "";
  }, tabLabel);
}

/** Opens a workspace file with Quick Open and waits until its text shows. */
async function openFile(name, expectText) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(name);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor();
  await page.waitForTimeout(150);
  await input.press("Enter");
  await until(`${name} in an editor`, async () => (await editorText(name)).includes(expectText));
}

/** Focuses the game's editor and puts the cursor at line:column (1-based). */
async function goTo(line, column) {
  await page.keyboard.press("Escape");
  // The game is in the first editor group (views open beside it).
  await page.keyboard.press("Control+1");
  await until("the game's editor focused", async () => page.evaluate((game) => {
    const group = document.activeElement?.closest(".editor-group-container");
    return !!group?.querySelector(`.tab.active[aria-label*="${game}"]`);
  }, GAME), 5_000);
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`:${line}:${column}`);
  await page.waitForTimeout(150);
  await input.press("Enter");
  await page.waitForTimeout(200);
}

/** 1-based line and column of the first occurrence of `needle` in the game file. */
const gameText = readFileSync(join(workspace, GAME), "utf8");
function where(needle, offsetInNeedle = 0) {
  const i = gameText.indexOf(needle);
  if (i < 0) throw new Error(`${needle} is not in the game`);
  const before = gameText.slice(0, i + offsetInNeedle);
  const line = before.split("\n").length;
  return { line, column: before.length - before.lastIndexOf("\n") };
}

await step("workbench-loads", async () => {
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 });
  await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ state: "visible", timeout: 60_000 });
});

await step("game-opens-as-gdl-with-colors", async () => {
  await openFile(GAME, "(role xplayer)");
  await until("the language mode GDL in the status bar", async () =>
    (await page.locator('[id="status.editor.mode"]').textContent())?.trim() === "GDL");
  // The grammar colours the rule line: the paren, "<=", "legal", variables and relation names
  // each get a token class, so the line has several distinct ones.
  const colors = await until("a coloured rule line", async () => {
    const c = await page.evaluate(() => {
      const line = [...document.querySelectorAll(".view-line")].find((l) => l.textContent.replace(/\u00a0/g, " ").includes("(<= (legal ?w"));
      return line ? [...line.querySelectorAll("span > span")].map((s) => `${s.textContent.replace(/\u00a0/g, " ")}=${s.className}=${getComputedStyle(s).color}`) : [];
    });
    // Bracket pair colours come from the editor, not the grammar: count the other tokens only.
    const grammar = c.filter((x) => !x.includes("bracket-highlighting"));
    return new Set(grammar.map((x) => x.split("=")[2])).size >= 3 ? c : { ok: false, spans: c };
  });
  console.log(`# rule line tokens: ${colors.join(" | ")}`);
});

await step("server-not-found-message", async () => {
  const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "GDL language server was not found" });
  await toast.first().waitFor({ state: "visible", timeout: 60_000 });
  const text = await toast.first().textContent();
  if (!text.includes("gdl.server.path")) throw new Error(`the message does not say how to fix it: ${text}`);
  if (!(await toast.first().locator("a, .monaco-button", { hasText: "Open Settings" }).count())) {
    throw new Error("the message has no Open Settings button");
  }
});

await step("suo-kif-file-is-not-gdl", async () => {
  await openFile("ontology.kif", "(subclass Game Activity)");
  // .kif is GDL's by extension; the content check hands this SUO-KIF file to plain text.
  await until("a language other than GDL", async () => {
    const mode = (await page.locator('[id="status.editor.mode"]').textContent())?.trim();
    return mode && mode !== "GDL" ? mode : { ok: false, mode };
  }, 10_000);
  await shot("suo-kif-opened-as-plain-text");
  await command("View: Close Editor");
  await openFile(GAME, "(role xplayer)");
});

let errorCode;

await step("shipped-server-reports-the-error", async () => {
  // Clearing the setting restarts the extension's client with the server inside the .vsix.
  writeFileSync(join(workspace, ".vscode", "settings.json"), "{}\n");
  await command("Notifications: Clear All Notifications");
  const bad = where("(<= (threat ?p ?w)");
  await page.keyboard.press("Control+Shift+M");
  const rows = page.locator(".markers-panel .monaco-list-row");
  const texts = await until("a Problems entry on the deliberate error", async () => {
    const t = await rows.allTextContents();
    return t.some((x) => x.includes(`Ln ${bad.line},`) || x.includes(`Ln ${bad.line + 1},`)) ? t : { ok: false, t };
  }, 60_000);
  console.log(`# Problems: ${texts.join(" | ")}`);
  const row = rows.filter({ hasText: new RegExp(`Ln (${bad.line}|${bad.line + 1}),`), has: page.locator(".codicon-error") }).first();
  // The row reads "<message>gdl<code>[Ln l, Col c]" (source and code are separate elements).
  errorCode = /gdl\(?([a-z0-9-]+)\)?\s*\[Ln/.exec(await row.textContent())?.[1];
  if ((await row.count()) === 0) throw new Error("no entry with error severity on that line");
  await shot("problems");
  // Opening the entry reveals the line; its squiggle is drawn.
  await row.dblclick();
  await page.locator(".monaco-editor .squiggly-error").first().waitFor({ state: "attached" });
  await page.keyboard.press("Home"); // drop the selection that would cover the squiggle
  await page.waitForTimeout(300);
  await shot("squiggle");
  await command("View: Hide Panel"); // room for the results view in the next steps
});

await step("severity-setting-reaches-the-server", async () => {
  if (!errorCode) throw new Error("the Problems entry shows no diagnostic code");
  const bad = where("(<= (threat ?p ?w)");
  const onBadLine = async () => (await page.locator(".markers-panel .monaco-list-row").allTextContents())
    .some((x) => x.includes(errorCode) && (x.includes(`Ln ${bad.line},`) || x.includes(`Ln ${bad.line + 1},`)));
  await page.keyboard.press("Control+Shift+M");
  writeFileSync(join(workspace, ".vscode", "settings.json"), JSON.stringify({ "gdl.severity": { [errorCode]: "off" } }, null, 2));
  await until(`no ${errorCode} entry once it is "off"`, async () => !(await onBadLine()));
  await shot("severity-off");
  writeFileSync(join(workspace, ".vscode", "settings.json"), "{}\n");
  await until(`the ${errorCode} entry back`, onBadLine);
  await command("View: Hide Panel");
});

await step("hover-shows-the-relation-summary", async () => {
  const p = where("(line ?x) (row", 2);
  await goTo(p.line, p.column);
  const hover = page.locator(".monaco-hover-content").first();
  // "Show Hover" is a chord (Ctrl+K Ctrl+I); in one CI run of many the workbench showed no
  // hover after it while the server had answered the other requests of that position (the
  // highlights): the chord is pressed again once, and the log says so, before the step fails.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    try {
      await hover.waitFor({ state: "visible", timeout: attempt === 1 ? 15_000 : 30_000 });
      break;
    } catch (e) {
      if (attempt === 2) throw e;
      console.log("# no hover 15 s after Ctrl+K Ctrl+I: pressing the chord again");
    }
  }
  const text = await until("the hover text", async () => {
    const t = await hover.textContent();
    return t.includes("line/1") ? t : { ok: false, t };
  });
  if (!/Three marks of one player/.test(text)) throw new Error(`the hover lacks the relation's comment: ${text}`);
});

await step("code-lens-runs-its-query", async () => {
  // Scroll to the legal rule: its query has answers in the initial state.
  const p = where("(<= (legal ?w", 1);
  await goTo(p.line, p.column);
  // Lenses are resolved when they come into view; VS Code keeps the widgets of those scrolled
  // away hidden in the page: only the visible ones count.
  const lenses = page.locator(".monaco-editor .codelens-decoration a:visible");
  await lenses.first().waitFor({ state: "visible", timeout: 30_000 });
  const titles = await lenses.allTextContents();
  const i = Math.max(0, titles.findIndex((t) => /legal/i.test(t)));
  await lenses.nth(i).click();
  const text = await until("answers in the results view", async () => {
    const t = await editorText(RESULTS);
    return /; ===== Query .*: \d+ answers? in/.test(t) ? t : { ok: false, t };
  });
  if (!/^\(\S/m.test(text.split("; ===== Query")[1] ?? "")) throw new Error(`no answers under the query: ${text}`);
  console.log(`# lens "${titles[i]}" gave:\n# ${text.split("\n").slice(0, 8).join("\n# ")}`);
});

await step("run-query-at-cursor", async () => {
  const p = where("(<= (legal ?w", 1);
  await goTo(p.line, p.column);
  await command("GDL: Run Query at Cursor");
  await until("the legal moves as answers", async () => {
    const t = await editorText(RESULTS);
    return /; ===== Query \(legal \?w \(mark \?x \?y\)\): 9 answers/.test(t) && t.includes("(legal xplayer (mark 2 2))") ? t : { ok: false, t };
  });
});

await step("show-current-state", async () => {
  await goTo(1, 1);
  await command("GDL: Show Current State");
  await until("the initial state", async () => {
    const t = await editorText(RESULTS);
    return /State at step 0 \(not terminal\)/.test(t) && t.includes("(true (cell 2 2 b))") ? t : { ok: false, t };
  });
});

await step("play-joint-move-changes-the-state", async () => {
  await goTo(1, 1);
  await command("GDL: Play Joint Move");
  const input = page.locator(".quick-input-widget input");
  await page.locator(".quick-input-widget", { hasText: "Move for xplayer" }).waitFor({ state: "visible" });
  await input.fill("(mark 2 2)");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "(mark 2 2)" }).first().waitFor();
  await shot("play-joint-move-pick");
  await input.press("Enter");
  await until("the state after xplayer marks 2 2", async () => {
    const t = await editorText(RESULTS);
    return /State at step 1 /.test(t) && t.includes("(true (cell 2 2 x))") && !t.includes("(true (cell 2 2 b))") ? t : { ok: false, t };
  });
});

await step("play-random-move", async () => {
  await command("GDL: Play Random Move");
  await until("step 2", async () => /State at step 2 /.test(await editorText(RESULTS)));
});

await step("reset-to-initial-state", async () => {
  await command("GDL: Reset to Initial State");
  await until("step 0 again", async () => {
    const t = await editorText(RESULTS);
    return /State at step 0 /.test(t) && t.includes("(true (cell 2 2 b))") ? t : { ok: false, t };
  });
});

// Verify Game on a game whose role bob gets stuck after a code of five joint moves: the finding
// is a diagnostic on bob's legal rule, and its quick fix replays the witness into the state.
const STUCK = "stuck.kif";
await step("verify-game-shows-the-finding", async () => {
  await openFile(STUCK, "(role alice)");
  await command("GDL: Verify Game");
  await page.locator(".notifications-toasts .notification-toast", { hasText: "1 finding" }).first().waitFor({ state: "visible", timeout: 60_000 });
  await page.locator(".monaco-editor .squiggly-error").first().waitFor({ state: "attached" });
  await page.keyboard.press("Control+Shift+M");
  await until("the finding in the Problems view", async () => {
    const t = await page.locator(".markers-panel").innerText().catch(() => "");
    return t.includes("verify-playability") && t.includes("bob") ? t : { ok: false, t };
  });
});

await step("verify-quick-fix-replays-the-witness", async () => {
  const text = readFileSync(join(workspace, STUCK), "utf8");
  // The finding is on bob's legal rule, the rule of the role without a move.
  const line = text.slice(0, text.indexOf("(<= (legal bob")).split("\n").length;
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+Shift+M"); // close the panel's focus
  await openFile(STUCK, "(role alice)");
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`:${line}:6`);
  await input.press("Enter");
  await page.waitForTimeout(300);
  await page.keyboard.press("Control+.");
  const fix = page.locator(".action-widget .monaco-list-row", { hasText: "Replay the 5 joint moves" }).first();
  await fix.waitFor({ state: "visible" });
  await shot("verify-quick-fix-menu");
  // The menu has the one fix, focused: Enter applies it (a click can be taken by the hover that
  // the squiggle under the pointer opens).
  await page.keyboard.press("Enter");
  await until("the state after the witness", async () => {
    const t = await editorText(`${STUCK}.results`);
    return /State at step 5 \(not terminal\)/.test(t) ? t : { ok: false, t };
  });
});

// ---- The game view (a webview beside the game) ------------------------------------------------

/** The frame of the game view's page (the webview's inner iframe). */
async function gameFrame() {
  return until("the game view's page", async () => {
    for (const f of page.frames()) {
      try {
        if (await f.locator("main#root.game-view").count()) return f;
      } catch {
        // a frame that is going away
      }
    }
    return { ok: false, frames: page.frames().map((f) => f.url().slice(0, 80)) };
  });
}

/** The view's status line ("Step 2, not terminal"). */
async function viewStatus(f) {
  return (await f.locator("p.status").first().textContent()) ?? "";
}

async function waitStep(f, step, extra = "") {
  return until(`the view at step ${step}${extra ? ` (${extra})` : ""}`, async () => {
    const t = await viewStatus(f);
    return new RegExp(`^Step ${step}\\b`).test(t) && t.includes(extra) ? t : { ok: false, t };
  });
}

/** The square of the board whose fluents start with (cell M N. */
function square(f, m, n) {
  return f.locator(`button.sq[title^="(cell ${m} ${n} "]`);
}

/** The text drawn on the board, row by row, "." for an empty square. */
async function drawnBoard(f) {
  return f.locator("table.board tbody tr").evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll("button.sq")].map((b) => b.textContent.trim() || ".").join(" ")).join("\n"));
}

let view;

await step("game-view-opens-beside-the-game", async () => {
  await openFile(GAME, "(role xplayer)"); // the verify steps left stuck.kif in front
  await goTo(1, 1);
  await command("GDL: Open Game View");
  view = await gameFrame();
  await until("a 3x3 board", async () => (await view.locator("button.sq").count()) === 9);
  await waitStep(view, 0, "not terminal");
  const tab = page.locator(".tab", { hasText: `Game: ${GAME}` });
  if (!(await tab.count())) throw new Error("no tab titled Game: tictactoe.kif");
  const board = await drawnBoard(view);
  if (board !== ". . .\n. . .\n. . .") throw new Error(`the initial board is not empty:\n${board}`);
});

await step("game-view-plays-a-match-by-clicking-squares", async () => {
  if (!view) throw new Error("no game view");
  // xplayer takes the first row; oplayer answers on the second.
  const clicks = [[1, 1], [2, 1], [1, 2], [2, 2], [1, 3]];
  for (const [i, [m, n]] of clicks.entries()) {
    await square(view, m, n).click();
    await waitStep(view, i + 1);
  }
  const t = await waitStep(view, 5, "terminal");
  if (!/^Step 5, terminal/.test(t)) throw new Error(`not terminal after the fifth move: ${t}`);
  const over = await view.locator("section.moves").textContent();
  if (!/Game over/.test(over) || !/xplayer: 100/.test(over) || !/oplayer: 0/.test(over)) throw new Error(`the goals: ${over}`);
  for (const [m, n] of [[1, 1], [1, 2], [1, 3]]) {
    const text = (await square(view, m, n).textContent()).trim();
    if (text !== "x") throw new Error(`(cell ${m} ${n}) shows ${JSON.stringify(text)}, not x`);
  }
  for (const [m, n] of [[2, 1], [2, 2]]) {
    const text = (await square(view, m, n).textContent()).trim();
    if (text !== "o") throw new Error(`(cell ${m} ${n}) shows ${JSON.stringify(text)}, not o`);
  }
  console.log(`# the board at the end:\n# ${(await drawnBoard(view)).replace(/\n/g, "\n# ")}`);
});

await step("game-view-steps-back-and-forward", async () => {
  if (!view) throw new Error("no game view");
  await view.locator('button[data-action="back"]').click();
  const t = await waitStep(view, 4, "of 5");
  if (!t.includes("not terminal")) throw new Error(`one step back is not terminal: ${t}`);
  if ((await square(view, 1, 3).textContent()).trim() !== "") throw new Error("(cell 1 3) still marked one step back");
  if (!(await view.locator('button.move', { hasText: "(mark 1 3)" }).count())) throw new Error("(mark 1 3) is not a legal move again");
  await shot("game-view-step-back");
  // Jump to the initial state from the history, then forward along the line.
  await view.locator('button.step[data-step="0"]').click();
  await waitStep(view, 0, "of 5");
  if ((await drawnBoard(view)) !== ". . .\n. . .\n. . .") throw new Error("the initial state is not empty");
  await view.locator('button[data-action="forward"]').click();
  await waitStep(view, 1, "of 5");
  if ((await square(view, 1, 1).textContent()).trim() !== "x") throw new Error("step 1 does not show x at (cell 1 1)");
  await view.locator('button.step[data-step="5"]').click();
  await waitStep(view, 5, "terminal");
});

await step("game-view-keyboard-and-computer-move", async () => {
  if (!view) throw new Error("no game view");
  await view.locator('button.step[data-step="0"]').click();
  await waitStep(view, 0);
  // Tab to the board, move with the arrow keys and play with Enter: the first square is the
  // board's tab stop; one step right is its neighbour.
  const first = view.locator('button.sq[tabindex="0"]');
  await first.focus();
  await page.keyboard.press("ArrowRight");
  const focused = await view.evaluate(() => document.activeElement?.getAttribute("title") ?? "");
  await page.keyboard.press("Enter");
  await waitStep(view, 1);
  const played = await view.locator('button.sq[title^="' + focused.split(" ").slice(0, 3).join(" ") + '"]').textContent();
  if (played.trim() !== "x") throw new Error(`Enter on ${focused} did not mark it: ${played}`);
  // [ steps back, and the computer plays oplayer's move after a move of xplayer.
  await page.keyboard.press("[");
  await waitStep(view, 0);
  await view.locator('select[data-action="computer-role"]').selectOption("oplayer");
  await square(view, 2, 2).click();
  const t = await waitStep(view, 2);
  const computer = await view.locator("p.computer").textContent();
  if (!/oplayer chose \(mark \d \d\) after [\d,]+ playouts/.test(computer)) throw new Error(`the computer's move: ${computer} (${t})`);
  console.log(`# ${computer}`);
  await view.locator('select[data-action="computer-role"]').selectOption("");
  await view.locator('button[data-action="computer"]').click();
  await waitStep(view, 3);
  await view.locator('button[data-action="random"]').click();
  await waitStep(view, 4);
});

await step("game-view-charts-random-matches", async () => {
  if (!view) throw new Error("no game view");
  await view.locator("#playouts-n").fill("300");
  await view.locator('button[data-action="playouts"]').click();
  await until("four charts", async () => (await view.locator("section.stats figure.chart").count()) === 4);
  const caps = await view.locator("section.stats figcaption").allTextContents();
  const want = ["Goal values of xplayer", "Goal values of oplayer", "Match lengths (joint moves)", "First role (xplayer) against the others"];
  if (JSON.stringify(caps) !== JSON.stringify(want)) throw new Error(`charts: ${caps.join(" | ")}`);
  const bars = await view.locator("section.stats rect.bar").count();
  if (bars < 6) throw new Error(`only ${bars} bars`);
  const summary = await view.locator("section.stats p").first().textContent();
  if (!/^300 random matches/.test(summary)) throw new Error(`summary: ${summary}`);
  await view.locator("section.stats").scrollIntoViewIfNeeded();
});

await step("game-view-follows-the-document", async () => {
  if (!view) throw new Error("no game view");
  // A new init fact typed in the game shows in the view's table of other fluents (in the
  // initial state: nothing keeps it after a move).
  await view.locator('button.step[data-step="0"]').click();
  await waitStep(view, 0);
  const p = where("(init (control xplayer))");
  await goTo(p.line, 1);
  await page.keyboard.press("Home");
  await page.keyboard.type("(init (bonus 7))\n");
  await until("the bonus fluent in the view", async () => (await view.locator("section.others").textContent().catch(() => "")).includes("bonus"));
  await shot("game-view-after-edit");
  // Delete the line typed (the cursor is on the line after it).
  const gone = async () => !(await view.locator("section.others").textContent().catch(() => "bonus")).includes("bonus");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Control+Shift+K");
  await until("the text as it was", async () => !(await editorText(GAME)).includes("bonus"), 10_000);
  await until("the bonus fluent gone", gone);
});

await step("game-view-follows-the-theme", async () => {
  if (!view) throw new Error("no game view");
  const colors = async () => view.evaluate(() => {
    const sq = document.querySelector("button.sq.dark");
    return { body: document.body.className, bg: getComputedStyle(document.body).backgroundColor, square: sq ? getComputedStyle(sq).borderColor : "" };
  });
  const before = await colors();
  // The workspace's settings choose the theme (the theme picker would also offer the
  // marketplace, which the test cannot reach).
  const settingsFile = join(workspace, ".vscode", "settings.json");
  const settings = readFileSync(settingsFile, "utf8");
  writeFileSync(settingsFile, JSON.stringify({ "workbench.colorTheme": "Default High Contrast" }, null, 2));
  const after = await until("the high contrast theme in the view", async () => {
    const c = await colors();
    return c.body.includes("vscode-high-contrast") ? c : { ok: false, c };
  });
  if (after.bg === before.bg || after.square === before.square) {
    throw new Error(`the colours did not change with the theme: ${JSON.stringify(before)} ${JSON.stringify(after)}`);
  }
  console.log(`# theme: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
  await shot("game-view-high-contrast");
  writeFileSync(settingsFile, settings);
  await until("the light theme back", async () => (await colors()).body.includes("vscode-light"));
});

// Run a match (GDL: Run a Match): random against random over the GGP protocol in the server; the
// view then plays the match back move by move to its terminal state.
await step("game-view-runs-a-match", async () => {
  if (!view) throw new Error("no game view");
  await goTo(1, 1);
  await command("GDL: Run a Match");
  const input = page.locator(".quick-input-widget input");
  for (const role of ["xplayer", "oplayer"]) {
    await page.locator(".quick-input-widget", { hasText: `the player of ${role}` }).waitFor({ state: "visible" });
    await input.fill("random");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "built in: a random legal move" }).first().waitFor();
    await page.waitForTimeout(150);
    await input.press("Enter");
  }
  await page.locator(".notifications-toasts .notification-toast", { hasText: "GDL match:" }).first().waitFor({ state: "visible", timeout: 60_000 });
  await shot("game-view-match-summary");
  const end = await until("the view stepping through the match to its end", async () => {
    const t = await viewStatus(view);
    return /terminal/.test(t) && !/not terminal/.test(t) ? t : { ok: false, t };
  }, 60_000);
  console.log(`# after the match: ${end}`);
  // The match's summary is shown as news, not as an error.
  await view.locator("p.info", { hasText: "terminal after" }).first().waitFor({ state: "visible" });
  if (await view.locator("p.message").count()) throw new Error(`an error message after a completed match: ${await view.locator("p.message").first().textContent()}`);
  await shot("game-view-match-end");
});

// Game tests (docs/testing.md) in the Testing view: listed, run from the view, from a lens and
// on save; a failure shows at its step.
const TESTS = "tictactoe.test.kif";

/** The rows of the Test Explorer: label, and whether it shows passed or failed. */
async function testRows() {
  return page.evaluate(() => [...document.querySelectorAll(".test-explorer .monaco-list-row")].map((r) => ({
    label: (r.querySelector(".label-name, .monaco-icon-label .label-name")?.textContent ?? r.textContent ?? "").trim(),
    text: r.textContent ?? "",
    passed: !!r.querySelector(".codicon-testing-passed-icon"),
    failed: !!r.querySelector(".codicon-testing-failed-icon, .codicon-testing-error-icon"),
    expanded: r.getAttribute("aria-expanded"),
  })));
}

await step("testing-view-lists-the-tests", async () => {
  await command("View: Show Testing");
  const file = await until("the test file in the Test Explorer", async () => {
    const rows = await testRows();
    return rows.find((r) => r.text.includes(TESTS)) ?? { ok: false, rows };
  }, 60_000);
  if (file.expanded === "false") {
    await page.locator(".test-explorer .monaco-list-row", { hasText: TESTS }).first().click();
    await page.keyboard.press("ArrowRight");
  }
  const rows = await until("its three tests", async () => {
    const r = await testRows();
    const names = r.map((x) => x.text);
    return ["opening", "x-wins-the-top-row", "wrong-on-purpose"].every((n) => names.some((t) => t.includes(n))) ? r : { ok: false, r };
  });
  console.log(`# Test Explorer: ${rows.map((r) => r.text.trim()).join(" | ")}`);
});

await step("testing-view-runs-the-tests", async () => {
  await command("Test: Run All Tests");
  const rows = await until("passed and failed marks", async () => {
    const r = await testRows();
    const wrong = r.find((x) => x.text.includes("wrong-on-purpose"));
    const wins = r.find((x) => x.text.includes("x-wins-the-top-row"));
    return wrong?.failed && wins?.passed ? r : { ok: false, r };
  }, 60_000);
  console.log(`# after the run: ${rows.map((r) => `${r.text.trim()}=${r.passed ? "passed" : r.failed ? "failed" : "-"}`).join(" | ")}`);
});

await step("test-failure-shows-at-its-step", async () => {
  await openFile(TESTS, "(test wrong-on-purpose");
  // The server's background run puts the failure at the step, in the Problems view.
  await page.keyboard.press("Control+Shift+M");
  const rows = page.locator(".markers-panel .monaco-list-row");
  const texts = await until("the failure in the Problems view", async () => {
    const t = await rows.allTextContents();
    return t.some((x) => x.includes("test wrong-on-purpose: expected the state is terminal") && x.includes("Ln 21")) ? t : { ok: false, t };
  }, 60_000);
  console.log(`# Problems: ${texts.filter((x) => x.includes("test")).join(" | ")}`);
  // The editor marks the step.
  await page.locator(".monaco-editor .squiggly-error").first().waitFor({ state: "attached" });
  await command("View: Hide Panel");
});

await step("test-lens-runs-its-test", async () => {
  await command("Test: Clear All Results");
  await until("no results", async () => {
    const r = await testRows();
    return r.every((x) => !x.passed && !x.failed) ? r : { ok: false, r };
  });
  const lens = page.locator(".monaco-editor .codelens-decoration a:visible", { hasText: /run/i });
  await lens.first().waitFor({ state: "visible", timeout: 30_000 });
  const titles = await lens.allTextContents();
  console.log(`# lenses: ${titles.join(" | ")}`);
  if (!titles.some((t) => t.includes("Run all 3 tests"))) throw new Error(`no "Run all" lens: ${titles.join(" | ")}`);
  // The second lens is the first test's ("opening"): only it runs.
  await lens.nth(1).click();
  const rows = await until("the test the lens ran, and only it", async () => {
    const r = await testRows();
    const opening = r.find((x) => x.text.includes("opening"));
    const others = r.filter((x) => x.text.includes("x-wins") || x.text.includes("wrong-on-purpose"));
    return opening?.passed && others.every((x) => !x.passed && !x.failed) ? r : { ok: false, r };
  });
  console.log(`# after the lens: ${rows.map((r) => `${r.text.trim()}=${r.passed ? "passed" : r.failed ? "failed" : "-"}`).join(" | ")}`);
});

await step("tests-run-on-save", async () => {
  writeFileSync(join(workspace, ".vscode", "settings.json"), JSON.stringify({ "gdl.tests.runOnSave": true }, null, 2));
  await page.waitForTimeout(1000);
  await command("Test: Clear All Results");
  await until("no results", async () => (await testRows()).every((x) => !x.passed && !x.failed));
  // Type a blank at the end of the file and save it.
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n");
  await page.keyboard.press("Control+S");
  await until("the file's tests run on save", async () => {
    const r = await testRows();
    const wrong = r.find((x) => x.text.includes("wrong-on-purpose"));
    const wins = r.find((x) => x.text.includes("x-wins-the-top-row"));
    return wrong?.failed && wins?.passed ? r : { ok: false, r };
  }, 60_000);
});

await step("game-state-recorded-as-a-test", async () => {
  await openFile(GAME, "(role xplayer)");
  await command("GDL: Reset to Initial State");
  await page.waitForTimeout(500);
  await command("GDL: Play Random Move");
  await page.waitForTimeout(500);
  await command("GDL: Record a Test of This State");
  const input = page.locator(".quick-input-widget input");
  await page.locator(".quick-input-widget", { hasText: "Record a test of this state" }).waitFor({ state: "visible" });
  await input.fill("after-one-move");
  await page.waitForTimeout(150);
  await input.press("Enter");
  await until("the recorded test in the test file", async () => {
    const t = readFileSync(join(workspace, TESTS), "utf8");
    return t.includes("(test after-one-move\n    (play ") && t.includes("(legal-moves oplayer") ? t : { ok: false, t: t.slice(-300) };
  });
  await until("the recorded test in the Test Explorer", async () => (await testRows()).some((r) => r.text.includes("after-one-move")));
  await command("Test: Run All Tests");
  const rows = await until("the recorded test passes", async () => {
    const r = await testRows();
    const rec = r.find((x) => x.text.includes("after-one-move"));
    return rec?.passed ? r : { ok: false, r };
  }, 60_000);
  console.log(`# after recording: ${rows.map((r) => `${r.text.trim()}=${r.passed ? "passed" : r.failed ? "failed" : "-"}`).join(" | ")}`);
});

await finish();
