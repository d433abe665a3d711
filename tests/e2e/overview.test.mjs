// The overview of a session: its estimated cost, its context chart and its tools, on the demo and
// on a real 2.1 session; a point of the chart, a compaction and a tool's longest call each open
// their row.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { site, open, drop, foreign, FIXTURES } from "./harness.mjs";

const web = site();
const PLANETFALL = join(FIXTURES, "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl");

async function overviewOf(path) {
  const opened = await open(web.chrome, web.server.url);
  if (path) {
    await drop(opened.page, [{ path }]);
    await opened.page.waitForFunction(() => !document.querySelector(".cctv-demo-note"));
  }
  await opened.page.click("button:has-text('Overview')");
  await opened.page.locator(".cctv-overview").waitFor();
  return opened;
}

test("the demo's overview shows its cost, context and tools", async () => {
  const { page, context, requests, errors } = await overviewOf();
  assert.match(await page.locator(".cctv-overview__figure").textContent(), /^\$\d/);
  // The sections are drawn one per task: wait for the last, the tools, with a row per tool.
  await page.waitForFunction(() => document.querySelectorAll("[aria-labelledby=cctv-tools] tbody tr").length >= 3);
  assert.ok(await page.locator(".cctv-chart__point").count() >= 2);
  assert.ok(await page.locator(".cctv-timeline__bar").count() >= 3, "the timeline");
  await page.locator(".cctv-overview__file", { hasText: "src/main.rs" }).waitFor();
  await page.click("text=Back to the conversation");
  await page.locator(".cctv-overview").waitFor({ state: "hidden" });
  // Open again: focus is in it, the rows under it take none, and Escape closes it.
  await page.click("button:has-text('Overview')");
  await page.locator(".cctv-overview").waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Overview");
  assert.equal(await page.locator(".cctv-conversation__rows").getAttribute("inert"), "");
  await page.keyboard.press("Escape");
  await page.locator(".cctv-overview").waitFor({ state: "hidden" });
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a real session's overview has its cost, a point per response, and leads to rows", async () => {
  const { page, context, errors } = await overviewOf(PLANETFALL);
  // The figures tests/cost.rs checks by hand: 171 responses of claude-opus-4-8.
  assert.match(await page.locator(".cctv-overview__figure").textContent(), /^\$25\.17 · 171 responses/);
  // Points and rows are drawn 50 per frame.
  await page.waitForFunction(() => document.querySelectorAll(".cctv-chart__point").length === 171 && document.querySelectorAll(".cctv-sr-only tbody tr").length === 171);
  assert.equal(await page.locator(".cctv-chart__mark").count(), 2);
  // A point opens the first row of its response.
  await page.locator(".cctv-chart__point").nth(100).click();
  await page.locator(".cctv-overview").waitFor({ state: "hidden" });
  await page.locator(".cctv-item--target").waitFor();
  // A compaction mark opens the compaction.
  await page.click("button:has-text('Overview')");
  await page.locator(".cctv-chart__mark").first().click({ force: true });
  await page.locator(".cctv-item--target", { hasText: /compact/i }).waitFor();
  // A tool's longest call opens that call.
  await page.click("button:has-text('Overview')");
  const bash = page.locator(".cctv-overview tr", { has: page.locator("th", { hasText: /^Bash$/ }) });
  await bash.locator("button").click();
  await page.locator(".cctv-item--target .cctv-tool__name", { hasText: /^Bash$/ }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("the files a real session changed: a net diff each, a turn's own changes, and a file as it was after a turn", async () => {
  const { page, context, errors } = await overviewOf(PLANETFALL);
  const files = page.locator(".cctv-overview__file");
  await files.first().waitFor();
  assert.equal(await files.count(), 6);
  const drone = files.filter({ has: page.locator("summary", { hasText: "src/droneBayView.js" }) });
  assert.match(await drone.locator("summary").textContent(), /\+\d+ −\d+ · 36 changes/);
  // Its diff is built as it opens.
  await drone.locator("summary").click();
  await drone.locator(".cctv-diff__added").first().waitFor();
  assert.ok(await drone.locator(".cctv-diff__added").count() > 100, "its net diff");
  assert.match(await drone.textContent(), /Also changed by something other than this session/);
  // The file as it was after the first turn that changed it: its whole text, numbered.
  await drone.locator("select").selectOption({ index: 3 });
  await drone.locator(".cctv-copyable").waitFor();
  // One turn: only what it changed.
  await page.locator(".cctv-overview__turn select").selectOption({ index: 3 });
  await page.waitForFunction(() => { const n = document.querySelectorAll(".cctv-overview__file").length; return n > 0 && n < 6; });
  // And the whole session's again, as it was first listed.
  await page.locator(".cctv-overview__turn select").selectOption({ index: 0 });
  await page.waitForFunction(() => document.querySelectorAll(".cctv-overview__file").length === 6);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the timeline draws every call, those closer than a pixel in one bar, zooms, and a bar opens its call", async () => {
  const { page, context, errors } = await overviewOf(PLANETFALL);
  const svg = page.locator(".cctv-timeline");
  await svg.waitFor();
  // tests/timeline.rs: 167 calls with both times known, one lane. Calls closer than a pixel
  // share a bar that says how many it holds ("12 calls from Bash · …"); zoomed in, they part.
  // Bars are drawn 50 per frame: until all 167 calls are in them.
  const calls = () =>
    page.waitForFunction(() => [...document.querySelectorAll(".cctv-timeline__bar title")].reduce((n, t) => n + Number(t.textContent.match(/^(\d+) calls from /)?.[1] ?? 1), 0) === 167);
  const bars = () => page.locator(".cctv-timeline__bar").count();
  await calls();
  const fit = await bars();
  assert.ok(fit > 10 && fit <= 167, `${fit} bars`);
  const width = async () => Number(await svg.getAttribute("width"));
  const before = await width();
  for (let i = 0; i < 3; i++) await page.click("button[aria-label='zoom in']");
  await page.waitForFunction((w) => Number(document.querySelector(".cctv-timeline").getAttribute("width")) > w * 1.5, before);
  await page.waitForFunction((n) => document.querySelectorAll(".cctv-timeline__bar").length > n, fit);
  await calls();
  const bar = page.locator(".cctv-timeline__bar").nth(40);
  const label = await bar.locator("title").textContent();
  await bar.click({ force: true });
  await page.locator(".cctv-overview").waitFor({ state: "hidden" });
  const tool = label.replace(/^\d+ calls from /, "").split(" · ")[0];
  await page.locator(".cctv-item--target .cctv-tool__name", { hasText: new RegExp(`^${tool}$`) }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

