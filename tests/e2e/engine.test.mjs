// The engine off the page: on a generated session of about 100 MB (written for the test, not
// kept), copying a turn as Markdown, opening the Share tab (every line looked at for secrets), the
// Markdown and HTML exports and the Overview (cost, context, timeline, files changed) are worked
// out by the engine worker, and the page runs no task over 50 ms meanwhile: counted with the
// browser's own long-task observer, not timed. Once neither is on screen the engine worker
// stops, and starts again when asked.

import { test } from "node:test";
import assert from "node:assert/strict";
import { site, open, generatedSession, foreign, countWorkerMessages, workersGone } from "./harness.mjs";

const web = site();
const MB = 100;
const session = generatedSession(MB);
// The findings listed (each with its count and where it is first) once the engine's workers
// looked through their shares: the tests below compare them with the page's own single look.
const found = {};
const findings = (page) => page.locator(".cctv-findings").textContent();

/** Starts counting the page's tasks over 50 ms; `longTasks` says how many there were since. */
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
    }).observe({ type: "longtask" });
  });
}
// The long tasks reported so far: read two frames on, since a task is reported after it ends
// (the frame that draws what an answer brought is a task of its own, after the answer's).
const longTasks = (page) =>
  page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    return window.__long;
  });

/** Opens the generated session in `page` and waits until it is loaded and the page settled (the
 *  contents drawn, the first rows measured). */
async function openSession(page) {
  const demo = await page.locator(".cctv-title").textContent();
  await page.locator('input[type="file"]').first().setInputFiles(await session.files());
  await page.waitForFunction((t) => document.querySelector(".cctv-title")?.textContent !== t && !document.querySelector(".cctv-progress"), demo, { timeout: 120000, polling: 100 });
  await page.waitForTimeout(1000);
}

test("Share, its exports and the Overview of a 100 MB session are worked out off the page: no long task meanwhile", { timeout: 240000 }, async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await openSession(page);

  // A turn copied as Markdown before Share was opened: the engine looks for secrets in every
  // file, then masks and writes the turn (on the page this was one task of seconds).
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: web.server.url });
  await watchLongTasks(page);
  const prompt = page.locator(".cctv-item--user:has(h3)").first();
  await prompt.hover();
  await prompt.locator("button[title^='copy this turn as Markdown']").click();
  await prompt.locator("button[title^='copy this turn as Markdown']", { hasText: "copied" }).waitFor({ timeout: 120000 });
  assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^\*\*You:\*\*/);
  assert.deepEqual(await longTasks(page), [], "tasks over 50 ms while a turn was copied");

  await watchLongTasks(page);
  await page.click(".cctv-side__tab >> text=Share");
  await page.locator(".cctv-share__counts").waitFor({ timeout: 120000 });
  assert.deepEqual(await longTasks(page), [], "tasks over 50 ms while Share looked for secrets");
  // Looked through in shares, its workers handed the copy the engine held (it copied the turn).
  found.held = await findings(page);

  // The Markdown of the whole session, written by the engine too.
  await watchLongTasks(page);
  await page.click("button:has-text('Download Markdown')");
  await page.locator(".cctv-share__status", { hasText: "Saved" }).waitFor({ timeout: 120000 });
  assert.deepEqual(await longTasks(page), [], "tasks over 50 ms while the Markdown was written");

  // One HTML file with the viewer in it, made by the engine too.
  await watchLongTasks(page);
  const saved = page.locator(".cctv-share__status", { hasText: /Saved .*\.html/ });
  await page.click("button:has-text('Download HTML')");
  await saved.waitFor({ timeout: 180000 });
  assert.deepEqual(await longTasks(page), [], "tasks over 50 ms while the HTML file was made");

  await watchLongTasks(page);
  await page.click("button:has-text('Overview')");
  await page.locator(".cctv-overview__figure").waitFor({ timeout: 120000 });
  assert.match(await page.locator(".cctv-overview__figure").textContent(), /^\$\d/);
  // The files changed are asked apart, and listed once their replay is done; the sections are
  // drawn one per frame, the timeline before them.
  await page.locator(".cctv-overview__file").first().waitFor({ timeout: 120000 });
  assert.ok(await page.locator(".cctv-timeline__bar").count() > 0, "the timeline is drawn");
  // The tools, the last section, and every batch of every list drawn (a batch a frame).
  await page.locator("[aria-labelledby=cctv-tools] tbody tr").first().waitFor();
  const drawn = () => page.evaluate(() => document.querySelector(".cctv-overview").querySelectorAll("*").length);
  for (let before = -1, now = await drawn(); now !== before; before = now, now = await drawn()) await page.waitForTimeout(250);
  assert.deepEqual(await longTasks(page), [], "tasks over 50 ms while the Overview was worked out and drawn");

  // Once neither is on screen the engine worker goes (15 s after), and its copy of the files with
  // it; a later ask (the changes of one turn) starts it again, reading the files anew.
  assert.ok(page.workers().length > 0, "the engine worker runs");
  await page.click("button:has-text('Back to the conversation')");
  await page.click(".cctv-side__tab >> text=Contents");
  assert.ok(await workersGone(page, 40000), "the engine worker stopped once Share and the Overview were closed");
  await page.click("button:has-text('Overview')");
  // The first turn's changes: a menu of turns, or (many turns) a turn's number.
  const menu = page.locator(".cctv-overview__turn select");
  if (await menu.count()) await menu.selectOption({ index: 1 });
  else await page.locator(".cctv-overview__turn-number").fill("1").then(() => page.keyboard.press("Tab"));
  await page.waitForFunction(() => !document.querySelector(".cctv-overview")?.textContent.includes("Replaying the edits"), null, { timeout: 120000, polling: 100 });
  assert.match(await page.locator(".cctv-overview").textContent(), /\d+ files? · \+\d+|No file was changed here/);
  assert.ok(page.workers().length > 0, "asked again, the engine worker started again");
  assert.deepEqual(errors, []);
});

test("Share says how far the engine got in a large session, and stops when told (its look, not the Overview beside it): nothing is exported until it looked again", { timeout: 240000 }, async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await openSession(page);
  // Every word the Share tab says while the engine works.
  await page.evaluate(() => {
    window.__said = [];
    new MutationObserver(() => {
      const said = document.querySelector(".cctv-share__looking [role=status]")?.textContent;
      if (said && window.__said.at(-1) !== said) window.__said.push(said);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const stopped = page.locator(".cctv-share__error", { hasText: "Stopped before every line was looked at" });
  // Stopped at once, as its worker starts.
  await page.click(".cctv-side__tab >> text=Share");
  await page.click(".cctv-share__looking button:has-text('Stop')");
  await stopped.waitFor();
  // Looked for again, and stopped once it says how far it looked.
  await page.click(".cctv-share__looking button:has-text('Look again')");
  const looking = page.locator(".cctv-share__looking [role=status]", { hasText: /Looking for secrets and personal details… \d+%/ });
  await looking.waitFor({ timeout: 120000 });
  await page.click(".cctv-share__looking button:has-text('Stop')");
  await stopped.waitFor();
  // Its worker went, and the scan's workers with it.
  assert.ok(await workersGone(page, 10000), "the engine's workers stopped");
  // Without the findings, nothing leaves.
  await page.click("button:has-text('Download HTML')");
  await page.locator(".cctv-share__status", { hasText: "Nothing exported: Stopped before every line was looked at" }).waitFor();

  // A stop stops the look, not the Overview asked beside it: its figures are worked out by a new
  // worker and drawn.
  await page.click(".cctv-share__looking button:has-text('Look again')");
  await page.click("button:has-text('Overview')");
  await looking.waitFor({ timeout: 120000 });
  await page.click(".cctv-share__looking button:has-text('Stop')");
  await stopped.waitFor();
  await page.locator(".cctv-overview__figure").waitFor({ timeout: 120000 });
  assert.match(await page.locator(".cctv-overview__figure").textContent(), /^\$\d/);
  assert.doesNotMatch(await page.locator(".cctv-overview").textContent(), /stopped/i);
  await page.click("button:has-text('Back to the conversation')");

  // Looked for again, from the start: its workers look through the files as the engine reads its
  // own copy, further each time it says so, until the findings are counted (reading, then
  // looking, where the look is not split).
  await page.evaluate(() => (window.__said = []));
  await page.click(".cctv-share__looking button:has-text('Look again')");
  await page.locator(".cctv-share__counts").waitFor({ timeout: 120000 });
  const said = await page.evaluate(() => window.__said);
  const read = said.map((s) => s.match(/^Reading the files: ([\d.]+) MB of [\d.]+ MB…$/)?.[1]).filter(Boolean).map(Number);
  const looked = said.map((s) => s.match(/^Looking for secrets and personal details… (\d+)%$/)?.[1]).filter(Boolean).map(Number);
  assert.ok(looked.length >= 2, said.join(" | "));
  for (const steps of [read, looked]) assert.ok(steps.every((n, i) => i === 0 || n > steps[i - 1]), said.join(" | "));
  // Looked through in shares as the engine read the files.
  found.read = await findings(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test("where no worker can start, the page looks for secrets itself, pausing for the page", { timeout: 240000 }, async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  // As on a host that does not serve the worker's script (or an app that bundled the package).
  await context.route("**/worker.js", (route) => route.fulfill({ status: 404, body: "" }));
  await openSession(page);
  await watchLongTasks(page);
  await page.click(".cctv-side__tab >> text=Share");
  // It says how far it got, and stops when told, at its next pause.
  await page.locator(".cctv-share__looking [role=status]", { hasText: /personal details… \d+%/ }).waitFor({ timeout: 120000 });
  await page.click(".cctv-share__looking button:has-text('Stop')");
  await page.locator(".cctv-share__error", { hasText: "Stopped before every line was looked at" }).waitFor();
  await page.click(".cctv-share__looking button:has-text('Look again')");
  await page.locator(".cctv-share__counts").waitFor({ timeout: 120000 });
  assert.deepEqual(await longTasks(page), [], "tasks over 50 ms while the page looked for secrets");
  // One look through every line finds what the shares found together: the same texts, counts
  // and first places.
  const whole = await findings(page);
  assert.match(whole, /\d+× · /);
  for (const [how, text] of Object.entries(found)) assert.equal(text, whole, `the findings of the shares handed ${how}`);
  assert.deepEqual(errors.filter((e) => !/worker\.js|404/.test(e)), []);
  await context.close();
});

test("a little after it starts, the site warms Share's scan in a worker of its own, which goes once done", async () => {
  const context = await web.chrome.newContext({ serviceWorkers: "block" });
  await context.addInitScript(countWorkerMessages, "warmed");
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(web.server.url);
  // It starts 1.5 s after the viewer, looks through the demo a few times, says so and is stopped.
  await page.waitForFunction(() => globalThis.__heard.warmed === 1, null, { timeout: 30000 });
  assert.ok(await workersGone(page, 30000), "the worker went");
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign(requests, web.server.url), []);
  await context.close();
});
