// Reading aids on a real session: the contents, times in the reader's zone with the date and the
// long pauses, files highlighted by their extension, and copy buttons.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { site, open, drop, waitForTitle, FIXTURES } from "./harness.mjs";

const web = site();

const GENERAL = join(FIXTURES, "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl");

async function general(options) {
  const opened = await open(web.chrome, web.server.url, options);
  await opened.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: web.server.url });
  await drop(opened.page, [{ path: GENERAL }]);
  await waitForTitle(opened.page, "Session Share");
  return opened;
}

test("the contents list the prompts and commands with their local time, and lead to them", async () => {
  // Tokyo is UTC+9: the session's first prompt, typed at 15:30:16 UTC, reads 00:30 the next day.
  const tokyo = await web.chrome.newContext({ timezoneId: "Asia/Tokyo", viewport: { width: 1400, height: 1000 } });
  const p = await tokyo.newPage();
  const errors = [];
  p.on("pageerror", (e) => errors.push(String(e)));
  await p.goto(web.server.url);
  await p.waitForSelector(".cctv-item");
  await drop(p, [{ path: GENERAL }]);
  await waitForTitle(p, "Session Share");
  const entries = p.locator(".cctv-contents__entry");
  assert.equal(await entries.count(), 16);
  assert.equal(await p.locator(".cctv-contents__date").first().textContent(), "2026-01-22");
  assert.match(await entries.first().textContent(), /^00:30read plan\.md and roadmap\.md/);
  assert.match(await entries.last().textContent(), /\/publish-session/);
  // The row's own time is local too, and the day is written above the first row.
  assert.equal(await p.locator(".cctv-item--user .cctv-item__time").first().textContent(), "00:30:16");
  // The days are worked out after the rows are drawn: none is shown meanwhile, never the demo's.
  assert.notEqual(await p.evaluate(() => document.querySelector(".cctv-day")?.textContent), "2026-11-20");
  await p.waitForFunction(() => document.querySelector(".cctv-day")?.textContent === "2026-01-22");
  await entries.nth(2).click();
  const target = p.locator(".cctv-item--target");
  await target.waitFor();
  assert.match(await target.textContent(), /name the command \/session-share:publish/);
  // The first /publish-session came almost five hours after the "commit!" before it: the pause
  // is said in words above it.
  const publish = entries.filter({ hasText: "/publish-session" }).first();
  assert.match(await publish.textContent(), /^06:37/);
  await publish.click();
  await p.waitForFunction(() => document.querySelector(".cctv-item--target")?.textContent.includes("publish-session"));
  const gaps = await p.locator(".cctv-gap").allTextContents();
  assert.ok(gaps.some((g) => /^4 h \d+ min later$/.test(g)), gaps.join(", "));
  assert.deepEqual(errors, []);
  await tokyo.close();
});

test("a file read is highlighted by its extension, and a turn copies as Markdown", async () => {
  const { page, context, errors } = await general({});
  // The Read of backup_session.py: Python, highlighted.
  const header = page.locator(".cctv-tool__panel > .cctv-panel__header", { hasText: "backup_session.py" }).first();
  await header.scrollIntoViewIfNeeded();
  await header.click();
  const code = header.locator("xpath=..").locator(".cctv-code");
  // Highlighted once the grammars have arrived (fetched when the page starts).
  await code.locator(".cctv-hl--keyword").first().waitFor();
  const keywords = await code.locator(".cctv-hl--keyword").allTextContents();
  assert.ok(keywords.includes("def") || keywords.includes("import"), keywords.join(" "));
  // Highlighting never changes the text: line 1 reads as the file's first line.
  assert.ok((await code.locator(".cctv-code__line").first().textContent()).length > 0);

  const prompt = page.locator(".cctv-item--user:has(h3)").first();
  await prompt.scrollIntoViewIfNeeded();
  await prompt.hover();
  // Worked out by the engine, then written: the button says when.
  await prompt.locator("button[title^='copy this turn as Markdown']").click();
  await prompt.locator("button[title^='copy this turn as Markdown']", { hasText: "copied" }).waitFor({ timeout: 60000 });
  const markdown = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(markdown, /^\*\*You:\*\*\n\n> read plan\.md and roadmap\.md/);
  // The home directory is a personal detail: masked unless the Share tab keeps it.
  assert.match(markdown, /\*\*Read\*\* `~\/git\/moredip\/session-share\/docs\/plan\.md`/);
  assert.match(markdown, /<details><summary>output<\/summary>/);
  assert.doesNotMatch(markdown, /I forgot to tell you/, "the turn ends before the next prompt");
  assert.deepEqual(errors, []);
  await context.close();
});

test("where the browser gives the page no clipboard (http from another computer), a copy says why not", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  // What Chromium does to a page that is not a secure context: no navigator.clipboard at all.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined, configurable: true }));
  await page.reload();
  await page.waitForSelector(".cctv-item", { timeout: 20000 });
  await drop(page, [{ path: GENERAL }]);
  await waitForTitle(page, "Session Share");
  const prompt = page.locator(".cctv-item--user:has(h3)").first();
  await prompt.scrollIntoViewIfNeeded();
  await prompt.hover();
  for (const title of ["copy a link to this row", "copy this turn as Markdown"]) {
    await prompt.hover();
    const button = prompt.locator(`button[title^='${title}']`);
    await button.click();
    await prompt.locator(`button[title^='${title}']`, { hasText: "not copied" }).waitFor({ timeout: 60000 });
    assert.match(await button.getAttribute("title"), /not copied, the browser lets only a page served over https/);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
