// The benchmark of the list of every session: a generated projects folder (1,000 sessions in 50
// projects with a sub-agent each, about 2 GB; `projects.mjs`) handed to the built site's folder
// picker in headless Chromium. It reports the time until the projects are listed and until every
// session is listed from its ends, the time a project's sessions take to show after a click, the
// time to the first result and to the end of a search across every session for a string planted in
// one sub-agent's output and for a word in every session, the time until every session is counted
// and the first search again once it is (when each session's index rules most of them out), the growth of the renderer's
// resident memory, and the longest main-thread task in each phase.
//
//   node tests/e2e/bench-library.mjs DIR     (the folder is written to DIR/projects when missing)

import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { serve, browser, rendererRss, warmedUp } from "./harness.mjs";
import { writeProjects, PLANTED } from "./projects.mjs";

const dir = process.argv[2] ?? "target/bench";
const root = join(dir, "projects");
if (!existsSync(root)) await writeProjects(root, { projects: 50, perProject: 20, plant: [37, 13], extraCalls: 500 });
const bytes = readdirSync(root, { recursive: true }).map((f) => join(root, f)).filter((f) => statSync(f).isFile()).reduce((s, f) => s + statSync(f).size, 0);
const TIMEOUT = 600000;

const server = await serve();
const chrome = await browser();
const context = await chrome.newContext({ viewport: { width: 1400, height: 1000 } });
context.setDefaultTimeout(TIMEOUT);
const page = await context.newPage();
await page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: "longtask", buffered: true });
});
await page.goto(server.url);
await page.waitForSelector(".cctv-item");
await warmedUp(page);
await page.waitForTimeout(500);
const rssBefore = rendererRss();
const longest = () => page.evaluate(() => {
  const l = Math.max(0, ...window.__longTasks);
  window.__longTasks = [];
  return l;
});
await longest();
// Times count from the picker's change event, in the page.
await page.evaluate(() => {
  window.__t = {};
  addEventListener("change", () => (window.__t.start = performance.now()), { capture: true, once: true });
  const check = () => {
    const t = window.__t;
    const status = document.querySelector(".cctv-library__status")?.textContent ?? "";
    if (t.start && !t.projects && document.querySelectorAll(".cctv-library__project").length) t.projects = performance.now() - t.start;
    if (t.projects && !t.listed && !/first and last lines|Listing/.test(status)) t.listed = performance.now() - t.start;
    if (t.listed && !t.counted && status === "") t.counted = performance.now() - t.start;
    if (!t.counted) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
});
await page.locator('input[type="file"]').nth(1).setInputFiles(root);
await page.waitForFunction(() => window.__t.listed, null, { timeout: TIMEOUT, polling: 50 });
const listing = await page.evaluate(() => window.__t);
const listingLongest = await longest();

// A project's sessions after a click on it.
const click = await page.evaluate(async () => {
  const button = [...document.querySelectorAll(".cctv-library__project")].find((b) => b.textContent.includes("app-12"));
  const start = performance.now();
  button.click();
  while (!document.querySelector(".cctv-library__session .cctv-library__title")?.textContent.includes("project 12")) {
    await new Promise((r) => requestAnimationFrame(r));
  }
  return performance.now() - start;
});

/** Searches every session for `text`: the time to the first result and to the last. */
async function searchFor(text) {
  await page.evaluate(() => {
    const t = (window.__s = {});
    addEventListener("change", () => (t.start = performance.now()), { capture: true, once: true });
    const check = () => {
      const status = document.querySelector(".cctv-library__results [role=status]")?.textContent ?? "";
      if (t.start && !t.first && document.querySelector(".cctv-library__hit")) t.first = performance.now() - t.start;
      if (t.start && /^[\d,]+ match(es)? in [\d,]+ of [\d,]+ sessions$/.test(status)) {
        t.all = performance.now() - t.start;
        t.status = status;
      } else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await page.locator(".cctv-library__search").fill(text);
  await page.locator(".cctv-library__search").press("Enter");
  await page.waitForFunction(() => window.__s.all, null, { timeout: TIMEOUT, polling: 50 });
  return page.evaluate(() => window.__s);
}

// Search every session (while they are still being counted, as a reader would): for the string
// in one sub-agent's output, then for a word in every session's output.
const search = await searchFor(PLANTED);
const searchLongest = await longest();
const common = await searchFor("compiling");
const rssSearched = rendererRss();
await page.waitForFunction(() => window.__t.counted, null, { timeout: TIMEOUT, polling: 100 });
const counted = await page.evaluate(() => window.__t.counted);
const countLongest = await longest();
// Once every session is counted, its index of three-byte sequences rules out most sessions.
await page.locator(".cctv-library__search").fill("");
await page.locator(".cctv-library__search").press("Enter");
const indexed = await searchFor(PLANTED);
const indexedLongest = await longest();
const rssAfter = rendererRss();
await context.close();
await chrome.close();
await server.close();

const s = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
console.log(`folder: ${(bytes / 1e9).toFixed(2)} GB, 1,000 sessions in 50 projects\n`);
console.log("| figure | value |\n|---|---|");
console.log(`| projects on screen | ${s(listing.projects)} |`);
console.log(`| every session listed from its ends | ${s(listing.listed)} |`);
console.log(`| a project's sessions after a click | ${s(click)} |`);
console.log(`| search: first result | ${s(search.first)} |`);
console.log(`| search: all results (${search.status}) | ${s(search.all)} |`);
console.log(`| search for a word in every session: first result / all (${common.status}) | ${s(common.first)} / ${s(common.all)} |`);
console.log(`| every session counted | ${s(counted)} |`);
console.log(`| search for the string once every session is counted: first result / all | ${s(indexed.first)} / ${s(indexed.all)} |`);
console.log(`| longest task: listing / searching / counting / searching counted | ${s(listingLongest)} / ${s(searchLongest)} / ${s(countLongest)} / ${s(indexedLongest)} |`);
console.log(`| renderer memory growth: after the search / at the end | ${((rssSearched - rssBefore) / bytes).toFixed(2)}x / ${((rssAfter - rssBefore) / bytes).toFixed(2)}x (${Math.round((rssAfter - rssBefore) / 1e6)} MB) |`);
