// The benchmark of following a session as it is written: a session (the moredip fixture, and the
// generated ones under DIR/<MB>mb when present) is put in the page's private file system and
// followed through "Follow"; then
//   - from append to row: one line is appended at a time, with "keep newest in view" on, and the
//     time until its text is on screen is taken (median and slowest of 10);
//   - the longest main-thread task while following starts and while the 10 lines are appended;
//   - idle cost: the main thread's busy time while following a session nobody writes to, against
//     the same page before following (the baseline), 10 s each, from Chromium's Performance
//     metrics (TaskDuration).
//
//   node tests/e2e/bench-follow.mjs DIR [MB...]

import { existsSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DIST, FIXTURES, serve, browser, warmedUp } from "./harness.mjs";

const dir = resolve(process.argv[2] ?? "target/bench");
const sizes = process.argv.slice(3).length ? process.argv.slice(3) : ["10", "50"];
const IDLE_MS = 10000;

// The site and the sessions from one origin: the page's policy lets it fetch only from its own.
const root = mkdtempSync(join(tmpdir(), "cctv-bench-follow-"));
for (const entry of readdirSync(DIST)) symlinkSync(join(DIST, entry), join(root, entry));
symlinkSync(join(FIXTURES, "moredip__session-share/samples/claude-code-projects"), join(root, "fixture"));
const sessions = [["fixture (84 kB, 5 sub-agents)", "fixture"]];
for (const mb of sizes) {
  if (existsSync(join(dir, `${mb}mb`))) {
    symlinkSync(join(dir, `${mb}mb`), join(root, `generated-${mb}`));
    sessions.push([`generated ${mb} MB`, `generated-${mb}`]);
  }
}
const files = (folder) => readdirSync(join(root, folder), { recursive: true }).filter((f) => /\.(jsonl|json)$/.test(f));

const server = await serve(root);
const chrome = await browser();
console.log("| session | append → row on screen, median | slowest | longest task: starting to follow | longest task: 10 appends | main thread busy, following an idle session | baseline: the demo, nothing followed |");
console.log("|---|---|---|---|---|---|---|");
for (const [label, folder] of sessions) {
  const context = await chrome.newContext({ viewport: { width: 1400, height: 1000 } });
  context.setDefaultTimeout(300000);
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector(".cctv-item");
  await warmedUp(page);
  // The session's files, copied into the private file system as project/<name>.
  await page.evaluate(
    async ({ folder, names }) => {
      const project = await (await navigator.storage.getDirectory()).getDirectoryHandle("project", { create: true });
      for (const name of names) {
        let dir = project;
        const parts = name.split("/");
        for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
        const writable = await (await dir.getFileHandle(parts.at(-1), { create: true })).createWritable();
        await writable.write(await (await fetch(`${folder}/${name}`)).blob());
        await writable.close();
      }
      window.showDirectoryPicker = async () => project;
    },
    { folder, names: files(folder) },
  );
  const session = files(folder).find((f) => !f.includes("/") && f.endsWith(".jsonl"));
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const busy = async () => {
    const metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
    const before = await metrics();
    await page.waitForTimeout(IDLE_MS);
    const after = await metrics();
    return ((after.TaskDuration - before.TaskDuration) * 1000) / (IDLE_MS / 1000);
  };
  // The baseline: the same page showing the demo, following nothing.
  const baseline = await busy();
  // Main-thread tasks over 50 ms, from the click on Follow (the session read, parsed and shown).
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: "longtask" });
  });
  const longest = () => page.evaluate(() => Math.max(0, ...window.__longTasks.splice(0)));
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await page.locator(".cctv-live").waitFor();
  await page.check("text=Keep newest in view");
  await page.waitForTimeout(1500);
  const starting = await longest();

  const delays = [];
  for (let i = 0; i < 10; i++) {
    const text = `appended line ${i} of the benchmark`;
    const at = await page.evaluate(
      async ({ session, text, i }) => {
        const handle = await (await (await navigator.storage.getDirectory()).getDirectoryHandle("project")).getFileHandle(session);
        const file = await handle.getFile();
        const tail = (await file.slice(Math.max(0, file.size - 65536)).text()).trimEnd().split("\n");
        const last = tail.map((l) => { try { return JSON.parse(l); } catch { return null; } }).findLast((e) => e?.uuid);
        const line = { ...last, type: "user", uuid: `00000000-0000-4000-9000-${String(i).padStart(12, "0")}`, parentUuid: last.uuid,
          timestamp: new Date(Date.parse(last.timestamp) + 1000).toISOString(), message: { role: "user", content: text } };
        delete line.toolUseResult;
        const writable = await handle.createWritable({ keepExistingData: true });
        await writable.seek(file.size);
        await writable.write(JSON.stringify(line) + "\n");
        await writable.close();
        return performance.now();
      },
      { session, text, i },
    );
    const shown = await page.evaluate(
      (text) => new Promise((done) => {
        const seen = () => [...document.querySelectorAll(".cctv-prompt")].some((e) => e.textContent.includes(text));
        const check = () => (seen() ? done(performance.now()) : requestAnimationFrame(check));
        check();
      }),
      text,
    );
    delays.push(shown - at);
  }
  delays.sort((a, b) => a - b);
  const appending = await longest();

  // Following, with the session on screen and nothing written to it.
  await page.waitForTimeout(2000);
  const following = await busy();
  const ms = (x) => `${x.toFixed(0)} ms`;
  console.log(`| ${label} | ${ms(delays[5])} | ${ms(delays.at(-1))} | ${ms(starting)} | ${ms(appending)} | ${following.toFixed(1)} ms/s | ${baseline.toFixed(1)} ms/s |`);
  await context.close();
}
await chrome.close();
await server.close();
