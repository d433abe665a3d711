// A followed file that misbehaves (issue 37): rewritten with other bytes of the same size,
// emptied, grown by a line of 100 MB, grown past what the tab can hold, or no longer readable.
// Each time the page says what happened, and what it showed stays on screen unless the file
// could be read again whole. A project folder in the origin-private file system stands in for
// the one the picker gives (follow.test.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { site, open, foreign, appendPrivate, linesAfter, FIXTURES } from "./harness.mjs";

const web = site();
const SESSION = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68";
const LINES = readFileSync(join(FIXTURES, "moredip__session-share/samples/claude-code-projects", `${SESSION}.jsonl`), "utf8")
  .split("\n")
  .filter(Boolean);
const FILE = `${SESSION}.jsonl`;

/** A page following `folder` (in its private file system), which holds the session's first lines. */
async function following(folder, query = "") {
  const opened = await open(web.chrome, web.server.url + query);
  const { page } = opened;
  await appendPrivate(page, `${folder}/${FILE}`, LINES.slice(0, 4).join("\n") + "\n");
  await page.evaluate((folder) => {
    window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
  }, folder);
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await page.locator(".cctv-live", { hasText: `Following ${FILE}` }).waitFor({ timeout: 20000 });
  await page.locator(".cctv-prompt").first().waitFor();
  return opened;
}

/** Writes `parts` (strings, or [byte, count] runs of one byte) as the whole of `path`. */
function rewrite(page, path, parts) {
  return page.evaluate(
    async ({ path, parts }) => {
      let dir = await navigator.storage.getDirectory();
      const names = path.split("/");
      for (const name of names.slice(0, -1)) dir = await dir.getDirectoryHandle(name);
      const writable = await (await dir.getFileHandle(names.at(-1), { create: true })).createWritable();
      for (const part of parts) await writable.write(typeof part === "string" ? part : new Uint8Array(part[1]).fill(part[0]));
      await writable.close();
    },
    { path, parts },
  );
}

/** The prompts on screen. */
function prompts(page) {
  return page.locator(".cctv-prompt").allTextContents();
}

test("a file rewritten with other bytes of the same size is read again, and the reader told", async () => {
  const { page, context, requests, errors } = await following("same-size");
  const before = await prompts(page);
  // The same lines with every letter of the first prompt changed: not one byte more or less.
  const text = LINES.slice(0, 4).join("\n") + "\n";
  const first = JSON.parse(LINES.find((l) => JSON.parse(l).type === "user")).message.content;
  const prompt = typeof first === "string" ? first : first.find((b) => b.type === "text").text;
  const changed = prompt.replace(/[a-z]/g, "x");
  assert.equal(changed.length, prompt.length);
  await rewrite(page, `same-size/${FILE}`, [text.replace(JSON.stringify(prompt).slice(1, -1), JSON.stringify(changed).slice(1, -1))]);
  await page.locator(".cctv-live", { hasText: `${FILE} was rewritten, not appended to: read again whole` }).waitFor({ timeout: 10000 });
  await page.locator(".cctv-prompt", { hasText: changed.slice(0, 40) }).first().waitFor();
  assert.notDeepEqual(await prompts(page), before);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign(requests, web.server.url), []);
  await context.close();
});

test("a followed file emptied keeps what was shown, and says so", async () => {
  const { page, context, requests, errors } = await following("emptied");
  const before = await prompts(page);
  await rewrite(page, `emptied/${FILE}`, []);
  await page.locator(".cctv-errors", { hasText: "Following stopped" }).waitFor({ timeout: 10000 });
  assert.match(await page.locator(".cctv-errors").textContent(), /emptied/);
  assert.deepEqual(await prompts(page), before, "what was shown stays");
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign(requests, web.server.url), []);
  await context.close();
});

test("a line of 100 MB appended to a followed file is read in steps and shown cut, and following goes on", async () => {
  const { page, context, requests, errors } = await following("long-line");
  // A prompt of 100 MB, then an answer of a few words: both arrive.
  const [huge, after] = linesAfter(LINES.slice(0, 4), ["HUGE", "after the long line"]).trim().split("\n");
  const [head, tail] = huge.split("HUGE");
  await appendPrivate(page, `long-line/${FILE}`, head);
  await rewrite(page, "long-line/tail", [[0x61, 100 * 1024 * 1024]]);
  // Appended in parts, as a writer does: the page reads what is there each second, 64 MB at most
  // at a time.
  await page.evaluate(async ({ file }) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle("long-line");
    const a = await (await dir.getFileHandle("tail")).getFile();
    const handle = await dir.getFileHandle(file);
    const writable = await handle.createWritable({ keepExistingData: true });
    await writable.seek((await handle.getFile()).size);
    await writable.write(a);
    await writable.close();
  }, { file: FILE });
  await appendPrivate(page, `long-line/${FILE}`, tail + "\n" + after + "\n");
  // The answer after it arrives below it.
  await page.waitForFunction(
    () => {
      const list = document.querySelector(".cctv-list");
      list.scrollTo(0, list.scrollHeight);
      return [...document.querySelectorAll(".cctv-item")].some((row) => row.textContent.includes("after the long line"));
    },
    null,
    { timeout: 60000, polling: 500 },
  );
  // The long prompt is a row of its own (back at the top), and the page holds only its start.
  await page.locator(".cctv-list").evaluate((el) => el.scrollTo(0, 0));
  const long = page.locator(".cctv-item", { hasText: "aaaaaaaaaaaaaaaaaaaa" }).first();
  await long.waitFor();
  const held = (await long.textContent()).length;
  assert.ok(held >= 20_000 && held < 100_000, `the long row holds ${held} characters`);
  assert.equal(await page.locator(".cctv-live", { hasText: `Following ${FILE}` }).count(), 1, "still following");
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign(requests, web.server.url), []);
  await context.close();
});

test("a followed file that grows past what the tab can hold stops following and keeps what was read", async () => {
  // The tab's limit lowered to 5 MB: the same as a session that grows by gigabytes.
  const { page, context, requests, errors } = await following("too-large", "?max-mb=5");
  const before = await prompts(page);
  const [line] = linesAfter(LINES.slice(0, 4), ["P".repeat(8_000_000)]).trim().split("\n");
  await appendPrivate(page, `too-large/${FILE}`, line + "\n");
  await page.locator(".cctv-errors", { hasText: "Following stopped" }).waitFor({ timeout: 10000 });
  assert.match(await page.locator(".cctv-errors").textContent(), /more than this tab can hold/);
  assert.deepEqual(await prompts(page), before, "what was shown stays");
  assert.equal(await page.locator(".cctv-live").count(), 0);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign(requests, web.server.url), []);
  await context.close();
});

test("a followed file that can no longer be read stops following with the browser's reason", async () => {
  const { page, context, requests, errors } = await following("refused");
  const before = await prompts(page);
  // As when the reader takes the permission back: every read is refused from now on.
  await page.evaluate(() => {
    FileSystemFileHandle.prototype.getFile = async function () {
      throw new DOMException("The request is not allowed by the user agent or the platform in the current context.", "NotAllowedError");
    };
  });
  await page.locator(".cctv-errors", { hasText: "Following stopped" }).waitFor({ timeout: 15000 });
  assert.match(await page.locator(".cctv-errors").textContent(), /not allowed/);
  assert.deepEqual(await prompts(page), before, "what was shown stays");
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign(requests, web.server.url), []);
  await context.close();
});
