// The benchmark of embedding: the cold time from navigation to the viewer on the page in each
// setup of the README (a plain page, <cctv-viewer>, and the same app under Vite's dev server,
// built by `vite build` and built by webpack), each from the packed package (pkg/) installed
// into a scratch project. Every load is in a fresh browser context, so nothing is cached; the
// plain page is the baseline.
// The first load of Vite's dev server includes its optimizing the package.
//
//   node tests/e2e/bench-embed.mjs [RUNS]

import { browser } from "./harness.mjs";
import { SETUPS, app, mounted } from "./bundlers.mjs";

const runs = Number(process.argv[2] ?? 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const chrome = await browser();
// All served at once and loaded in turn, so that the machine's drift reaches every setup alike.
const sites = [];
for (const setup of SETUPS) sites.push(await app(setup));
const times = SETUPS.map(() => []);
for (let i = 0; i < runs; i++) {
  for (const [at, site] of sites.entries()) {
    const context = await chrome.newContext({ viewport: { width: 1300, height: 900 } });
    const page = await context.newPage();
    await page.goto(site.url);
    times[at].push(await mounted(page));
    await context.close();
  }
}
const baseline = median(times[0]);
console.log(`| setup | cold mount, median of ${runs} | first load | vs plain page |`);
console.log("|---|---|---|---|");
for (const [at, setup] of SETUPS.entries()) {
  const ms = median(times[at]);
  console.log(`| ${setup} | ${ms.toFixed(0)} ms | ${times[at][0].toFixed(0)} ms | ${(ms / baseline).toFixed(2)}x |`);
}
for (const site of sites) await site.close();
await chrome.close();
