// The benchmark of warming Share's scan (src/browser/warm_scan.rs): the time from the click on
// Share to its findings on screen, on the generated session under DIR/<MB>mb, in pairs of fresh
// pages of the same build: one where the warming worker could not start (its script refused
// until it had tried), one where it ran and went, each before the click.
//
//   node tests/e2e/bench-warm.mjs DIR MB [PAIRS]

import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { serve, browser, timeClick, warmedUp } from "./harness.mjs";

const dir = resolve(process.argv[2] ?? "target/bench");
const mb = process.argv[3] ?? "10";
const pairs = Number(process.argv[4] ?? 4);
const root = join(dir, `${mb}mb`);
const files = readdirSync(root, { recursive: true }).filter((f) => f.endsWith(".jsonl")).map((f) => join(root, f));
const server = await serve();
const chrome = await browser();

/** Share's time in a fresh page, the warming worker let start or not. */
async function share(warmed) {
  const context = await chrome.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: "block" });
  context.setDefaultTimeout(600000);
  let refused = 0;
  const refuse = (route) => (refused++, route.fulfill({ status: 404, body: "" }));
  if (!warmed) await context.route("**/worker.js", refuse);
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector(".cctv-item");
  const demo = await page.locator(".cctv-title").textContent();
  await page.locator('input[type="file"]').first().setInputFiles(files);
  await page.waitForFunction((demo) => !document.querySelector(".cctv-progress") && document.querySelector(".cctv-title")?.textContent !== demo, demo);
  // The warming worker refused, or come and gone; the engine worker, started by the click, is
  // let start either way.
  if (!warmed) {
    while (refused === 0) await page.waitForTimeout(100);
    await context.unroute("**/worker.js", refuse);
  } else await warmedUp(page);
  await page.waitForTimeout(500);
  const { ms } = await timeClick(page, ".cctv-side__tab >> text=Share", ".cctv-share__counts");
  await context.close();
  return ms;
}

const times = { cold: [], warmed: [] };
for (let i = 0; i < pairs; i++) {
  times.cold.push(await share(false));
  times.warmed.push(await share(true));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of Object.entries(times)) {
  console.log(`${mb} MB, Share ${name}: ${xs.map((x) => x.toFixed(0)).join(", ")} ms (median ${median(xs).toFixed(0)})`);
}
await chrome.close();
server.close?.();
