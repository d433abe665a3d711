// Finding things: search marks the words it found (inside long panels too), its options, Escape,
// and the filters that agree with the side panel's counts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { site, open, drop, waitForTitle, FIXTURES } from "./harness.mjs";

const web = site();

const GENERAL = join(FIXTURES, "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl");
const MAROT = join(FIXTURES, "marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");

const count = (page) => page.locator(".cctv-search__count").textContent();
// Until the search has looked everywhere, its count says "… so far".
const searched = (page) => page.waitForFunction(() => !/so far/.test(document.querySelector(".cctv-search__count").textContent));

test("search marks the words it found, and reveals the match inside a long output panel", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ path: GENERAL }]);
  await waitForTitle(page, "Session Share");
  // The last line of `claude --help`'s output: far down a panel that scrolls on its own.
  await page.fill("#cctv-search", "install if available");
  await searched(page);
  assert.match(await count(page), /match/);
  await page.press("#cctv-search", "Enter");
  const current = page.locator("mark.cctv-mark--current").first();
  await current.waitFor({ timeout: 10000 });
  assert.equal((await current.textContent()).toLowerCase(), "install if available");
  // The match is inside the scrolling output, and that output was scrolled to show it.
  const visible = await current.evaluate((mark) => {
    const box = mark.getBoundingClientRect();
    let el = mark.parentElement;
    let scrolled = false;
    while (el && !el.classList.contains("cctv-item")) {
      if (el.scrollHeight > el.clientHeight + 1) {
        const outer = el.getBoundingClientRect();
        if (box.top < outer.top || box.bottom > outer.bottom) return "hidden in its panel";
        scrolled ||= el.scrollTop > 0;
      }
      el = el.parentElement;
    }
    return scrolled ? "shown" : "not in a scrolled panel";
  });
  assert.equal(visible, "shown");

  // Marks are text in <mark>s: the row's text reads the same as without them.
  const row = page.locator(".cctv-item--target");
  assert.match(await row.textContent(), /Check for updates and install if available/);

  // A new search that finds nothing takes the old marks and highlight away.
  await page.fill("#cctv-search", "zqxjvwk nothing");
  await page.waitForFunction(() => document.querySelector(".cctv-search__count").textContent === "no matches");
  await page.waitForFunction(() => !document.querySelector("mark.cctv-mark, .cctv-item--target"));
  assert.deepEqual(errors, []);
  await context.close();
});

test("search options: case, whole word, regular expression with a clear error, and scope", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ path: GENERAL }]);
  await waitForTitle(page, "Session Share");
  const matches = async () => {
    await searched(page);
    const text = await count(page);
    return text === "no matches" ? 0 : Number(/(\d+) match/.exec(text)?.[1] ?? /of (\d+)/.exec(text)[1]);
  };
  await page.fill("#cctv-search", "gist");
  const any = await matches();
  await page.click("button[aria-label='match case']");
  await page.fill("#cctv-search", "GIST");
  assert.equal(await matches(), 0, "no upper-case GIST");
  await page.click("button[aria-label='match case']");
  await page.click("button[aria-label='whole words only']");
  await page.fill("#cctv-search", "gis");
  assert.equal(await matches(), 0, "gis is not a word");
  await page.click("button[aria-label='whole words only']");
  await page.click("button[aria-label='regular expression']");
  await page.fill("#cctv-search", "gi(st");
  await page.waitForFunction(() => /not a valid regular expression/.test(document.querySelector(".cctv-search__count").textContent));
  await page.fill("#cctv-search", "g[i]st");
  assert.equal(await matches(), any);
  await page.selectOption(".cctv-search__scope", "prompts");
  const prompts = await matches();
  assert.ok(prompts < any, `${prompts} in prompts of ${any}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("marks stay off the viewer's own buttons and line numbers, and follow the search's scope", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ path: GENERAL }]);
  await waitForTitle(page, "Session Share");
  await page.keyboard.press("e");
  // "copy" is the label of every copy button; "1" is every first line number.
  for (const word of ["copy", "1"]) {
    await page.fill("#cctv-search", word === "1" ? "1 " : word);
    await searched(page);
    await page.waitForTimeout(300);
    const inside = await page.locator(".cctv-copy mark, .cctv-code__no mark, .cctv-diff__no mark").count();
    assert.equal(inside, 0, word);
  }
  assert.ok((await page.locator(".cctv-copy").allTextContents()).every((t) => t === "copy" || t === "md"));
  await page.fill("#cctv-search", "plugin");
  await page.selectOption(".cctv-search__scope", "prompts");
  // The marks of the scope "any" are there until the next frame lays the new scope's over them:
  // wait for that pass (its marks all in the person's rows), or fail with what is outside.
  const settled = await page
    .waitForFunction(() => {
      const marks = [...document.querySelectorAll("mark.cctv-mark")];
      return marks.length > 0 && marks.every((m) => m.closest(".cctv-item--user"));
    }, null, { timeout: 5000 })
    .then(() => true, () => false);
  const outside = await page.locator("mark.cctv-mark").evaluateAll((marks) => marks.filter((m) => !m.closest(".cctv-item--user")).length);
  assert.ok(settled, "the prompts-only marks were laid");
  assert.equal(outside, 0, "prompts only: no mark outside the person's rows");
  assert.deepEqual(errors, []);
  await context.close();
});

test("Escape clears the search and leaves the box, so j moves to the next prompt", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await page.fill("#cctv-search", "verbose");
  await page.press("#cctv-search", "Escape");
  assert.equal(await page.inputValue("#cctv-search"), "");
  assert.notEqual(await page.evaluate(() => document.activeElement?.id), "cctv-search");
  await page.keyboard.press("j");
  const target = page.locator(".cctv-item--target");
  await target.waitFor();
  assert.match(await target.getAttribute("class"), /cctv-item--user/);
  assert.match(await target.textContent(), /--verbose/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the Bash filter shows the Bash calls of sub-agents too, as many as the side panel counts", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ path: MAROT }]);
  await waitForTitle(page, "Work on bead spotter-fum");
  await page.click(".cctv-side__tab >> text=Session");
  const counted = Number(await page.locator(".cctv-stats__tools li", { has: page.locator("span", { hasText: /^Bash$/ }) }).locator("span").nth(1).textContent());
  await page.selectOption(".cctv-tool-filter", "Bash");
  await page.waitForFunction(() => [...document.querySelectorAll(".cctv-tool__name")].every((n) => n.textContent === "Bash"));
  // Every row shown is a Bash call; scroll through the list and count them.
  const seen = new Set();
  let nested = 0;
  const list = page.locator(".cctv-list");
  for (let i = 0; i < 200; i++) {
    const rows = await page.locator(".cctv-item").evaluateAll((rows) =>
      rows.map((r) => [r.dataset.id, r.querySelector(".cctv-tool__name")?.textContent, r.getAttribute("style")]));
    for (const [id, tool, style] of rows) {
      assert.equal(tool, "Bash", id);
      if (!seen.has(id) && !style.includes("--depth: 0")) nested++;
      seen.add(id);
    }
    const done = await list.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1);
    if (done) break;
    await list.evaluate((el) => (el.scrollTop += el.clientHeight));
    await page.waitForTimeout(50);
  }
  assert.equal(seen.size, counted);
  assert.ok(nested > 0, "some are a sub-agent's");
  assert.deepEqual(errors, []);
  await context.close();
});
