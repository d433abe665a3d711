// The in-browser benchmark: the built site in headless Chromium, generated sessions handed to it
// through the file picker as a user would. For each size it reports the time to the first screen
// of the conversation, the time until everything is indexed, JS heap and wasm memory after load,
// the longest main-thread task while loading, and frame times scrolling end to end. Each size is
// loaded RUNS times (default 3) in a fresh page; the table gives the median of each figure and,
// for the ratio, the range (the browser reads files on the same 2 cores it parses on).
//
//   node tests/e2e/bench.mjs DIR [MB...]     (DIR from `cctv-bench --write DIR MB...`)
//
// CHROMIUM_FLAGS="--js-flags=--no-liftoff" compiles all wasm with V8's optimizing tier up front,
// which shows how much of a short load ran in the baseline tier.

import { readdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { serve, browser, drop } from "./harness.mjs";

// The native serde_json baseline, run on the same files in the same run.
const BENCH = process.env.CCTV_BENCH ?? join(process.env.CARGO_TARGET_DIR ?? join(homedir(), ".cache/cctv-target"), "release/cctv-bench");
const baseline = (dir) => Number(execFileSync(BENCH, ["--baseline", dir], { encoding: "utf8" }).trim());

const [dir, ...sizes] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node tests/e2e/bench.mjs DIR [MB...]");
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 3);
// How long the page sits after its first screen before the files are handed over (default 0: at
// once, before V8 has finished optimizing the code the start-up warm-up ran; see src/ui/warm.rs).
const IDLE_MS = Number(process.env.IDLE_MS ?? 0);
const server = await serve();
const chrome = await browser();
const rows = [];
for (const mb of sizes.length ? sizes : ["10", "50", "200"]) {
  for (let run = 0; run < RUNS; run++) rows.push(await measure(mb));
}

/// Loads the `mb` session once in a fresh page and measures it.
async function measure(mb) {
  const root = join(dir, `${mb}mb`);
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".jsonl")).map((f) => join(root, f));
  const context = await chrome.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: "longtask", buffered: true });
    addEventListener("TrunkApplicationStarted", (e) => (window.__wasm = e.detail.wasm));
  });
  await page.goto(server.url);
  await page.waitForSelector(".cctv-item");
  await page.waitForTimeout(IDLE_MS);
  await page.evaluate(() => (window.__longTasks = []));
  const firstTitle = await page.locator(".cctv-title").textContent();
  // Watch, in the page, for the first row of the new session and for loading to end.
  await page.evaluate((demoTitle) => {
    window.__t = { start: performance.now() };
    const check = () => {
      const title = document.querySelector(".cctv-title")?.textContent ?? "";
      const loading = document.querySelector(".cctv-progress");
      if (!window.__t.firstPaint && title !== demoTitle && document.querySelector(".cctv-item")) {
        window.__t.firstPaint = performance.now() - window.__t.start;
      }
      if (window.__t.firstPaint && !loading) window.__t.indexed = performance.now() - window.__t.start;
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, firstTitle);
  const handed = Date.now();
  await page.locator('input[type="file"]').first().setInputFiles(files);
  const handOver = Date.now() - handed;
  await page.waitForFunction(() => window.__t.indexed, null, { timeout: 600000, polling: 100 });
  const t = await page.evaluate(() => window.__t);
  const memory = await page.evaluate(() => ({
    js: performance.memory?.usedJSHeapSize ?? 0,
    wasm: window.__wasm?.memory?.buffer?.byteLength ?? 0,
  }));
  const longest = await page.evaluate(() => Math.max(0, ...window.__longTasks));
  const phases = await page.evaluate(() => performance.getEntriesByType("mark").filter((m) => m.name.startsWith("cctv:phases")).at(-1)?.name.slice(12) ?? "");
  // Scroll end to end, a screen and a half per frame, timing frames.
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
      list.scrollTop += list.clientHeight * 1.5;
      await frame();
      const now = performance.now();
      deltas.push(now - last);
      last = now;
    }
    deltas.sort((a, b) => a - b);
    return { count: deltas.length, max: deltas.at(-1) ?? 0, p95: deltas[Math.floor(deltas.length * 0.95)] ?? 0 };
  });
  const bytes = (await Promise.all(files.map((f) => import("node:fs").then((fs) => fs.statSync(f).size)))).reduce((a, b) => a + b, 0);
  await context.close();
  const [, parse, normalize] = (phases.match(/parse (\d+) ms, normalize (\d+) ms/) ?? []).map(Number);
  const wasm = bytes / 1e6 / ((parse + normalize) / 1000);
  const native = baseline(root);
  return { mb, handOver, ...t, memory, longest, frames, bytes, phases, baseline: native, wasm, ratio: wasm / native };
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
console.log(`Median of ${RUNS} loads per size; ratio = parse + normalize in wasm / native serde_json baseline, each load against a baseline run right after it.`);
console.log("| size | first screen | fully indexed | parse + normalize in wasm | native serde_json baseline | ratio (range) | JS heap + wasm memory | / size | longest task | scroll frames (n, p95, max) | where the time went (median load) |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const mb of [...new Set(rows.map((r) => r.mb))]) {
  const runs = rows.filter((r) => r.mb === mb);
  const m = (f) => median(runs.map(f));
  const ratios = runs.map((r) => r.ratio);
  const memory = m((r) => r.memory.js + r.memory.wasm);
  const typical = runs.find((r) => r.indexed === m((r) => r.indexed)) ?? runs[0];
  console.log(
    `| ${(runs[0].bytes / 1e6).toFixed(0)} MB | ${m((r) => r.firstPaint).toFixed(0)} ms | ${m((r) => r.indexed).toFixed(0)} ms | ${m((r) => r.wasm).toFixed(0)} MB/s | ${m((r) => r.baseline).toFixed(0)} MB/s | ${m((r) => r.ratio).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}) | ${(memory / 1e6).toFixed(0)} MB | ${(memory / runs[0].bytes).toFixed(2)}x | ${m((r) => r.longest).toFixed(0)} ms (max ${Math.max(...runs.map((r) => r.longest)).toFixed(0)}) | ${typical.frames.count}, ${m((r) => r.frames.p95).toFixed(0)} ms, ${m((r) => r.frames.max).toFixed(0)} ms | ${typical.phases} |`,
  );
}
