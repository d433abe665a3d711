// A large session, as a person opens one: a generated session of 300 MB (written for the test,
// not kept) handed to the file picker. Its beginning is on screen while the rest is still being
// read (in a worker, while the page parses), and once everything is read its last row is
// reachable by scrolling, and so is the last entry of its contents.

import { test } from "node:test";
import assert from "node:assert/strict";
import { open as openFile, stat } from "node:fs/promises";
import { site, open, generatedSession, countWorkerMessages, workersGone } from "./harness.mjs";

const web = site();
const MB = 300;
const session = generatedSession(MB);

/** The uuid of the last assistant line of `path`: the last row of the conversation. */
async function lastAssistant(path) {
  const file = await openFile(path);
  const { size } = await file.stat();
  const tail = Buffer.alloc(Math.min(size, 1 << 20));
  await file.read(tail, 0, tail.length, size - tail.length);
  await file.close();
  const line = tail.toString("utf8").split("\n").filter((l) => l.includes('"type":"assistant"')).at(-1);
  return JSON.parse(line).uuid;
}

test("a 300 MB session shows its beginning while it loads, and its last row once loaded", { timeout: 180000 }, async () => {
  const files = await session.files();
  const main = files.find((f) => !f.includes("/subagents/"));
  const last = await lastAssistant(main);
  const { page, context, errors } = await open(web.chrome, web.server.url);
  const demo = await page.locator(".cctv-title").textContent();
  // In the page, every frame: was a row of the new session on screen while the progress bar was?
  await page.evaluate((demoTitle) => {
    window.__seen = { rowsWhileLoading: false, loaded: false };
    const check = () => {
      const loading = document.querySelector(".cctv-progress");
      const ours = document.querySelector(".cctv-title")?.textContent !== demoTitle;
      if (ours && loading && document.querySelector(".cctv-list .cctv-item")) window.__seen.rowsWhileLoading = true;
      if (ours && !loading) window.__seen.loaded = true;
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, demo);
  // The slices a worker reads for the page (src/browser/slices.rs) come back as { id, buffer }.
  await page.evaluate(countWorkerMessages, "buffer");
  await page.locator('input[type="file"]').first().setInputFiles(files);
  await page.waitForFunction(() => window.__seen.loaded, null, { timeout: 120000, polling: 100 });
  assert.ok(await page.evaluate(() => window.__seen.rowsWhileLoading), "no row was shown before loading finished");
  // Every slice but the first was read off the page's thread (16 MiB each), and the reader went.
  let bytes = 0;
  for (const f of files) bytes += (await stat(f)).size;
  const slices = await page.evaluate(() => globalThis.__heard.buffer);
  assert.ok(slices >= Math.floor(bytes / (16 << 20)) - 1, `${slices} slices read in a worker`);
  assert.ok(await workersGone(page, 20000), "the reader worker went once the load ended");

  // Scrolled to the end (rows are measured as they come into view, so the end moves a little
  // until it settles), the last row is there.
  const end = page.locator(`.cctv-item[data-id="${last}"]`);
  for (let i = 0; i < 20 && !(await end.isVisible()); i++) {
    await page.evaluate(() => {
      const list = document.querySelector(".cctv-list");
      list.scrollTop = list.scrollHeight;
    });
    await page.waitForTimeout(200);
  }
  assert.ok(await end.isVisible(), `the last row (${last}) is not on screen at the end of the list`);

  // The contents: thousands of lines, of which only those in view are drawn; scrolled to the
  // end, the last entry is there and leads to its prompt.
  const contents = page.locator(".cctv-contents");
  const lines = Math.round((await contents.boundingBox()).height / 24);
  const drawn = await page.locator(".cctv-contents > li").count();
  assert.ok(lines > 1000 && drawn < 150, `${drawn} of ${lines} contents lines drawn`);
  await page.evaluate(() => {
    const side = document.querySelector(".cctv-side");
    side.scrollTop = side.scrollHeight;
  });
  // The lines in view are drawn again on the panel's scroll event, a frame later.
  await page.waitForFunction(() => {
    const list = document.querySelector(".cctv-contents");
    const entry = list.lastElementChild?.querySelector(".cctv-contents__entry");
    return entry && Math.abs(entry.getBoundingClientRect().bottom - list.getBoundingClientRect().bottom) < 2;
  });
  const lastEntry = page.locator(".cctv-contents > li").last().locator(".cctv-contents__entry");
  const time = await lastEntry.locator(".cctv-contents__time").textContent();
  await lastEntry.click();
  const target = page.locator(".cctv-item--target");
  await target.waitFor();
  assert.match(await target.getAttribute("class"), /cctv-item--user/);
  assert.equal((await target.locator(".cctv-item__time").first().textContent()).slice(0, 5), time);
  assert.equal(await page.locator(".cctv-errors").count(), 0, "the load reported a problem");
  assert.deepEqual(errors, []);
  await context.close();
});
