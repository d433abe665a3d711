// The in-browser benchmark: the built site in headless Chromium, generated sessions handed to it
// through the file picker as a user would. For each size it reports the time to the first screen
// of the conversation, the time until everything is indexed, against the time the same page takes
// only to read the same files, JS heap and wasm memory after load and the growth of the renderer's
// resident memory as the OS sees it, the longest main-thread task while loading, the time to search
// for a word, the time to the Share tab's findings and to the Overview (each with the longest task
// meanwhile), and frame times scrolling end to end. Each size is loaded RUNS times (default 3) in a
// fresh page; the table gives the median of each figure and, for the ratio, the range (the browser
// reads files on the same 2 cores it parses on). A size the viewer refuses to open is reported as
// refused, with its message.
//
//   node tests/e2e/bench.mjs DIR [MB...]     (DIR from `cctv-bench --write DIR MB...`)
//
// CHROMIUM_FLAGS="--js-flags=--no-liftoff" compiles all wasm with V8's optimizing tier up front,
// which shows how much of a short load ran in the baseline tier.

import { readdir } from "node:fs/promises";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { DIST, FIXTURES, serve, browser, drop, rendererRss, timeClick, warmedUp, workersGone } from "./harness.mjs";

// The native serde_json baseline, run on the same files in the same run.
const BENCH = process.env.CCTV_BENCH ?? join(process.env.CARGO_TARGET_DIR ?? join(homedir(), ".cache/cctv-target"), "release/cctv-bench");
const baseline = (dir) => Number(execFileSync(BENCH, ["--baseline", dir], { encoding: "utf8" }).trim());

const [dir, ...sizes] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node tests/e2e/bench.mjs DIR [MB...]");
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 3);
// How long the page sits, after the read-only baseline and the half second that follows it, before
// the files are handed over (default 0). V8 has finished optimizing the code the start-up warm-up
// ran by then (see src/ui/warm.rs).
const IDLE_MS = Number(process.env.IDLE_MS ?? 0);
// Searched for after loading: a word of the generated code (`lines.iter().enumerate()`), so only in
// tool inputs and outputs; about 13 matching rows per MB, where the common words match most rows.
const WORD = "enumerate";
// How long reading, loading or searching may take: sizes up to 2 GB.
const TIMEOUT = 600000;
const server = await serve();
const chrome = await browser();
const rows = [];
for (const mb of sizes.length ? sizes : ["10", "50", "200"]) {
  for (let run = 0; run < RUNS; run++) rows.push(await measure(mb));
}

/// Times the page reading every byte of `files` and nothing else, the way the viewer reads them
/// (16 MB slices, the next read in flight while one is awaited), through a file input of its own.
async function readOnly(page, files) {
  await page.evaluate(() => {
    const input = Object.assign(document.createElement("input"), { type: "file", multiple: true, hidden: true, id: "bench-read-only" });
    document.body.append(input);
  });
  await page.setInputFiles("#bench-read-only", files);
  return page.evaluate(async () => {
    const input = document.querySelector("#bench-read-only");
    const step = 16 * 1024 * 1024;
    const start = performance.now();
    const slices = [];
    for (const file of input.files) {
      const size = file.size;
      // A file read in one step is read without a slice, as the viewer does (each costs a round
      // trip to the browser).
      if (size <= step) slices.push(() => file.arrayBuffer());
      else for (let at = 0; at < size; at += step) slices.push(() => file.slice(at, Math.min(at + step, size)).arrayBuffer());
    }
    let bytes = 0;
    let next = slices[0]?.();
    for (let i = 0; i < slices.length; i++) {
      const current = next;
      next = slices[i + 1]?.();
      bytes += (await current).byteLength;
    }
    const ms = performance.now() - start;
    input.remove();
    return { ms, bytes };
  });
}

/// Loads the `mb` session once in a fresh page and measures it.
async function measure(mb) {
  const root = join(dir, `${mb}mb`);
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".jsonl")).map((f) => join(root, f));
  const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
  const context = await chrome.newContext({ viewport: { width: 1400, height: 1000 } });
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
      // Loading's own long tasks: from the picker's change event on (handing the files over
      // through DevTools is a task of its own, 0.2 s at 1 GB, that a person's picker does not run).
      for (const e of list.getEntries()) if (window.__t?.start !== undefined && e.startTime >= window.__t.start) (window.__loadTasks ??= []).push(e.duration);
    }).observe({ type: "longtask", buffered: true });
    // The picker's change handler runs inside the DevTools task that hands the files over, which
    // the long tasks above leave out: the long-animation-frame API times the handler's own
    // script (it was 50-68 ms when picking files built the viewer anew).
    new PerformanceObserver((list) => {
      for (const frame of list.getEntries()) {
        for (const s of frame.scripts) if (window.__t?.start !== undefined && /onchange/i.test(s.invoker)) (window.__loadTasks ??= []).push(s.duration);
      }
    }).observe({ type: "long-animation-frame", buffered: true });
    addEventListener("TrunkApplicationStarted", (e) => (window.__wasm = e.detail.wasm));
  });
  await page.goto(server.url);
  await page.waitForSelector(".cctv-item");
  await warmedUp(page);
  const read = await readOnly(page, files);
  if (read.bytes !== bytes) throw new Error(`read ${read.bytes} bytes of ${bytes}`);
  // Let the baseline's buffers go before the renderer's memory is taken (a GC through DevTools:
  // no --js-flags=--expose-gc needed), and give the allocator a moment to hand pages back.
  const devtools = await context.newCDPSession(page);
  await devtools.send("HeapProfiler.collectGarbage");
  await devtools.detach();
  await page.waitForTimeout(500 + IDLE_MS);
  const rssBefore = rendererRss();
  await page.evaluate(() => (window.__longTasks = []));
  const firstTitle = await page.locator(".cctv-title").textContent();
  // Watch, in the page, for the first row of the new session and for loading to end, or for the
  // load to end with a problem and no session (a refusal: too large to open).
  await page.evaluate((demoTitle) => {
    // Times count from the picker's change event: when the page has the files (handing them over
    // through DevTools takes time a person's picker does not).
    window.__t = { start: performance.now() };
    addEventListener("change", () => (window.__t.start = performance.now()), { capture: true, once: true });
    const check = () => {
      const title = document.querySelector(".cctv-title")?.textContent ?? "";
      const loading = document.querySelector(".cctv-progress");
      const problem = document.querySelector(".cctv-errors > div");
      if (!window.__t.firstPaint && title !== demoTitle && document.querySelector(".cctv-item")) {
        window.__t.firstPaint = performance.now() - window.__t.start;
      }
      if (window.__t.firstPaint && !loading) window.__t.indexed = performance.now() - window.__t.start;
      // The problem is "<files>: <reason>"; the files can be hundreds of names.
      else if (!window.__t.firstPaint && !loading && problem) window.__t.refused = problem.textContent.slice((problem.querySelector("bdi")?.textContent.length ?? 0) + 2);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, firstTitle);
  const handed = Date.now();
  await page.locator('input[type="file"]').first().setInputFiles(files);
  const handOver = Date.now() - handed;
  await page.waitForFunction(() => window.__t.indexed || window.__t.refused, null, { timeout: TIMEOUT, polling: 100 });
  const rssAfter = rendererRss();
  const t = await page.evaluate(() => window.__t);
  if (t.refused) {
    await context.close();
    return { mb, bytes, read, refused: t.refused };
  }
  const memory = await page.evaluate(() => ({
    js: performance.memory?.usedJSHeapSize ?? 0,
    wasm: window.__wasm?.memory?.buffer?.byteLength ?? 0,
  }));
  const longest = await page.evaluate(() => Math.max(0, ...(window.__loadTasks ?? [])));
  const phases = await page.evaluate(() => performance.getEntriesByType("mark").filter((m) => m.name.startsWith("cctv:phases")).at(-1)?.name.slice(12) ?? "");
  // Scroll end to end, timing frames.
  const frames = await page.evaluate(async () => {
    const list = document.querySelector(".cctv-list");
    const deltas = [];
    let last = performance.now();
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    list.scrollTop = 0;
    await frame();
    last = performance.now();
    let guard = 0;
    while (list.scrollTop + list.clientHeight < list.scrollHeight - 2 && guard++ < 20000) {
      // A screen and a half per frame, or more in a GB session: end to end in at most ~1,000 frames.
      list.scrollTop += Math.max(list.clientHeight * 1.5, list.scrollHeight / 1000);
      await frame();
      const now = performance.now();
      deltas.push(now - last);
      last = now;
    }
    deltas.sort((a, b) => a - b);
    return { count: deltas.length, max: deltas.at(-1) ?? 0, p95: deltas[Math.floor(deltas.length * 0.95)] ?? 0 };
  });
  // Search: from the input event until the count says how many matched (not "… so far · 40%"),
  // and the longest task meanwhile.
  await page.evaluate(() => {
    window.__longTasks = [];
    const count = document.querySelector("#cctv-search-count");
    let start;
    addEventListener("input", () => (start = performance.now()), { capture: true, once: true });
    new MutationObserver((_, observer) => {
      if (start !== undefined && /^(no matches|1 match|\d+ matches|\d+ of \d+)$/.test(count.textContent.trim())) {
        observer.disconnect();
        window.__search = { ms: performance.now() - start, label: count.textContent.trim() };
      }
    }).observe(count, { childList: true, characterData: true, subtree: true });
  });
  await page.fill("#cctv-search", WORD);
  await page.waitForFunction(() => window.__search, null, { timeout: TIMEOUT, polling: 50 });
  // Long tasks are reported after they end: let two frames pass.
  const search = await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    return { ...window.__search, longest: Math.max(0, ...window.__longTasks) };
  });
  // Share (every line looked at for secrets) and the Overview: from the click until their first
  // figure is on screen, and the longest task meanwhile.
  const share = await timeClick(page, ".cctv-side__tab >> text=Share", ".cctv-share__counts");
  // The first figure, and the files changed listed (asked apart, after the figures).
  const overview = await timeClick(page, "button:has-text('Overview')", ".cctv-overview__figure", "#cctv-changes ~ p:not([role=status])");
  // The renderer's memory with the engine worker holding its copy (it runs in the same process).
  const rssEnd = rendererRss() - rssBefore;
  // And once neither is on screen: the engine worker stops 15 s after (and its copy goes).
  await page.click("button:has-text('Back to the conversation')");
  await page.click(".cctv-side__tab >> text=Contents");
  await workersGone(page, 60000);
  await page.waitForTimeout(1000);
  const rssIdle = page.workers().length === 0 ? rendererRss() - rssBefore : NaN;
  // And what the page still holds once its garbage is collected (as before rssBefore): the rest
  // is memory the page let go of that the browser had not taken back yet.
  const collect = await context.newCDPSession(page);
  await collect.send("HeapProfiler.collectGarbage");
  await collect.detach();
  await page.waitForTimeout(500);
  const rssCollected = page.workers().length === 0 ? rendererRss() - rssBefore : NaN;
  await context.close();
  const [, parse, normalize] = (phases.match(/parse (\d+) ms, normalize (\d+) ms/) ?? []).map(Number);
  const wasm = bytes / 1e6 / ((parse + normalize) / 1000);
  const native = baseline(root);
  return { mb, handOver, ...t, read, rss: rssAfter - rssBefore, rssEnd, rssIdle, rssCollected, memory, longest, frames, search, share, overview, bytes, phases, baseline: native, wasm, ratio: wasm / native };
}

// What a first visit downloads: the page's wasm, gzip'd as a static host sends it.
const wasmFile = readdirSync(DIST).find((f) => f.endsWith(".wasm"));
const wasmGzip = gzipSync(readFileSync(join(DIST, wasmFile)), { level: 9 }).length;

// What a shared HTML file of a 1 MB session weighs: the viewer's wasm and the session, gzip'd in
// it as base64 (a real session of 0.95 MB; nothing masked).
const SHARED = join(FIXTURES, "M-Thisness__M-Claude/Archives/abc757d1-3da3-42fb-bb7b-ffa293a4ba29.jsonl");
let sharedHtml;
{
  const context = await chrome.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector(".cctv-item");
  const demo = await page.locator(".cctv-title").textContent();
  await page.locator('input[type="file"]').first().setInputFiles(SHARED);
  await page.waitForFunction((demo) => !document.querySelector(".cctv-progress") && document.querySelector(".cctv-title")?.textContent !== demo, demo);
  await page.click(".cctv-side__tab >> text=Share");
  await page.locator(".cctv-share__counts").waitFor({ timeout: TIMEOUT });
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: TIMEOUT }), page.click("text=Download HTML")]);
  sharedHtml = statSync(await download.path()).size;
  await context.close();
}

// Opening a collapsed panel whose tool output is 1 MB.
const openPanel = [];
{
  // Coloured, as build and test output usually is: every colour change is an element.
  const output = "\u001b[32mok\u001b[0m " + "x".repeat(60) + " \u001b[1m1234\u001b[0m\n";
  const stdout = output.repeat(Math.ceil(1e6 / output.length));
  const lines = [
    { type: "user", uuid: "u1", parentUuid: null, sessionId: "big", message: { role: "user", content: "print a lot" } },
    { type: "assistant", uuid: "a1", parentUuid: "u1", sessionId: "big", message: { id: "m1", role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "cat big.log" } }] } },
    { type: "user", uuid: "r1", parentUuid: "a1", sessionId: "big", toolUseResult: { stdout, stderr: "", interrupted: false, isImage: false }, message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: stdout }] } },
  ];
  const context = await chrome.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector(".cctv-item");
  await drop(page, [{ name: "big.jsonl", bytes: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n") }]);
  await page.waitForFunction(() => document.querySelector(".cctv-tool__name")?.textContent === "Bash");
  for (let run = 0; run < 3; run++) {
    openPanel.push(
      await page.evaluate(async () => {
        const header = document.querySelector(".cctv-tool__panel > .cctv-panel__header");
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        await frame();
        const start = performance.now();
        header.click();
        while (!document.querySelector(".cctv-tool__panel .cctv-out")) await frame();
        await frame();
        const took = performance.now() - start;
        header.click();
        await frame();
        return took;
      }),
    );
  }
  await context.close();
}
await chrome.close();
await server.close();
console.log(`Opening a panel with 1 MB of output: ${openPanel.map((t) => t.toFixed(0) + " ms").join(", ")} (click to painted)`);
const median = (values) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
console.log(`Median of ${RUNS} loads per size. read only = the same page reading the same files and nothing else; indexed vs read = read-only time / fully indexed time (goal: at least 0.9x). ratio = parse + normalize in wasm / native serde_json baseline, each load against a baseline run right after it. Renderer RSS growth = resident memory of the renderer (from /proc) after indexing minus before the files were handed over (goal: at most 0.5x the size). search = typing "${WORD}" until the count is final.`);
console.log("| size | first screen | fully indexed | read only (MB/s) | indexed vs read | parse + normalize in wasm | native serde_json baseline | ratio (range) | JS heap + wasm memory / size | renderer RSS growth / size | longest task | search (longest task) | Share findings (longest task) | Overview (longest task) | scroll frames (n, p95, max) | where the time went (median load) |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const mb of [...new Set(rows.map((r) => r.mb))]) {
  const all = rows.filter((r) => r.mb === mb);
  const runs = all.filter((r) => !r.refused);
  const size = `${(all[0].bytes / 1e6).toFixed(0)} MB`;
  const readMs = median(all.map((r) => r.read.ms));
  const read = `${readMs.toFixed(0)} ms (${(all[0].bytes / 1e3 / readMs).toFixed(0)} MB/s)`;
  if (!runs.length) {
    console.log(`| ${size} | refused: ${all[0].refused} | | ${read} |`);
    continue;
  }
  const m = (f) => median(runs.map(f));
  const ratios = runs.map((r) => r.ratio);
  const memory = m((r) => r.memory.js + r.memory.wasm);
  const rss = m((r) => r.rss);
  const typical = runs.find((r) => r.indexed === m((r) => r.indexed)) ?? runs[0];
  console.log(
    `| ${size} | ${m((r) => r.firstPaint).toFixed(0)} ms | ${m((r) => r.indexed).toFixed(0)} ms | ${read} | ${m((r) => r.read.ms / r.indexed).toFixed(2)}x | ${m((r) => r.wasm).toFixed(0)} MB/s | ${m((r) => r.baseline).toFixed(0)} MB/s | ${m((r) => r.ratio).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}) | ${(memory / 1e6).toFixed(0)} MB (${(memory / runs[0].bytes).toFixed(2)}x) | ${(rss / 1e6).toFixed(0)} MB (${(rss / runs[0].bytes).toFixed(2)}x) | ${m((r) => r.longest).toFixed(0)} ms (max ${Math.max(...runs.map((r) => r.longest)).toFixed(0)}) | ${m((r) => r.search.ms).toFixed(0)} ms (${m((r) => r.search.longest).toFixed(0)} ms) | ${m((r) => r.share.ms).toFixed(0)} ms (${m((r) => r.share.longest).toFixed(0)} ms) | ${m((r) => r.overview.ms).toFixed(0)} ms (${m((r) => r.overview.longest).toFixed(0)} ms) | ${typical.frames.count}, ${m((r) => r.frames.p95).toFixed(0)} ms, ${m((r) => r.frames.max).toFixed(0)} ms | ${typical.phases} |`,
  );
}

// Issue 34's targets, each cell the median figure and whether it meets the target there. The
// longest task is the longest of loading, searching, opening Share and opening the Overview;
// memory is the renderer's resident growth (page and workers) once Share and the Overview ran.
const TARGETS = {
  longest: { 10: 50, 200: 50, 1000: 50, 2000: 50 },
  share: { 10: 200, 200: 1500 },
  overview: { 10: 100, 200: 600, 1000: 3000 },
  memory: { 10: 3, 200: 0.6, 1000: 0.5, 2000: 0.5 },
  indexed: { 10: 0.7, 200: 0.8, 1000: 0.8, 2000: 0.8 },
};
// A size the issue names no figure for (a size in between; Share at 1 GB, "progress shown") has none.
const target = (targets, mb) => targets?.[mb];
const cell = (value, text, target, atMost) =>
  target === undefined ? text : `${text} ${(atMost ? value <= target : value >= target) ? "met" : "**not met**"} (${atMost ? "≤" : "≥"} ${target})`;
const measured = [...new Set(rows.map((r) => r.mb))].map((mb) => [Number(mb), rows.filter((r) => r.mb === mb && !r.refused)]).filter(([, runs]) => runs.length);
console.log("\nTargets (issue 34), medians:");
console.log(`| figure | ${measured.map(([mb]) => `${mb} MB`).join(" | ")} |`);
console.log(`|---|${measured.map(() => "---|").join("")}`);
const line = (label, key, value, format, atMost) =>
  console.log(`| ${label} | ${measured.map(([mb, runs]) => { const v = median(runs.map(value)); return cell(v, format(v), target(TARGETS[key], mb), atMost); }).join(" | ")} |`);
line("longest main-thread task (load, search, Share, Overview), ms", "longest", (r) => Math.max(r.longest, r.search.longest, r.share.longest, r.overview.longest), (v) => v.toFixed(0), true);
line("Share findings on screen, ms", "share", (r) => r.share.ms, (v) => v.toFixed(0), true);
line("Overview on screen, ms", "overview", (r) => r.overview.ms, (v) => v.toFixed(0), true);
line("the same, with the files changed listed, ms", "none", (r) => r.overview.wholeMs, (v) => v.toFixed(0), true);
line("renderer memory growth / file size (page and workers)", "memory", (r) => r.rssEnd / r.bytes, (v) => `${v.toFixed(2)}x`, true);
line("the same once Share and the Overview are closed (the engine worker stopped)", "memory", (r) => r.rssIdle / r.bytes, (v) => `${v.toFixed(2)}x`, true);
line("the same, once the page's garbage is collected", "memory", (r) => r.rssCollected / r.bytes, (v) => `${v.toFixed(2)}x`, true);
line("fully indexed vs the page's read-only time", "indexed", (r) => r.read.ms / r.indexed, (v) => `${v.toFixed(2)}x`, false);
console.log(`\nwasm a first visit downloads: ${(wasmGzip / 1e6).toFixed(2)} MB gzip'd (${wasmFile}; target ≤ 1.0 MB); the engine worker runs the same module, from the browser's cache.`);
console.log(`A shared HTML file of a ${(statSync(SHARED).size / 1e6).toFixed(2)} MB session: ${(sharedHtml / 1e6).toFixed(2)} MB (target ≤ 1.5 MB).`);
