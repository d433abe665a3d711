// Links a reader sends to someone else: copied from a row, opened in a fresh browser (nothing
// shared with the page it was copied from), before or after the files are opened.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { site, open, drop, foreign, waitForTitle, FIXTURES } from "./harness.mjs";

const web = site();

const MAROT = [{ path: join(FIXTURES, "marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl") }];
const MOREDIP = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");

async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push({ path: join(entry.parentPath ?? entry.path, entry.name) });
  }
  return out;
}

/** Clicks a row's "copy" button and returns what it put on the clipboard. */
async function copyLink(page, row) {
  await row.scrollIntoViewIfNeeded();
  await row.hover();
  await row.locator(".cctv-item__copy").click();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The highlighted row is the one named, and it is on screen inside the conversation. */
async function assertShown(page, id) {
  const target = page.locator(".cctv-item--target").first();
  await target.waitFor({ timeout: 20000 });
  // The list settles (rows above the target are measured) before the position is judged.
  await page.waitForTimeout(300);
  assert.equal(await target.getAttribute("data-id"), id);
  const list = await page.locator(".cctv-list").boundingBox();
  const box = await target.boundingBox();
  assert.ok(box.y >= list.y && box.y < list.y + list.height, `row at ${box.y}, list ${list.y}..${list.y + list.height}`);
}

async function copiedFrom(files, title, pick) {
  const { page, context } = await open(web.chrome, web.server.url);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: web.server.url });
  await drop(page, files);
  await waitForTitle(page, title);
  const id = await (await pick(page)).getAttribute("data-id");
  // Found again by its id: the list renders only the rows on screen, so "the last" moves.
  const url = await copyLink(page, page.locator(`.cctv-item[data-id="${id}"]`));
  await context.close();
  return { url, id };
}

test("a link copied from a row deep in a session opens that row in a fresh browser, before or after the file is opened", async () => {
  const title = "Work on bead spotter-fum";
  const { url, id } = await copiedFrom(MAROT, title, async (page) => {
    // A row far down the session: every row above it has only an estimated height.
    const list = page.locator(".cctv-list");
    await list.evaluate((el) => (el.scrollTop = el.scrollHeight * 0.8));
    await page.waitForTimeout(200);
    return page.locator(".cctv-item").last();
  });
  assert.match(url, /#s=8463c716-a2ea-4c14-9efa-87158ebd9f20&i=/);

  // The link first: the page says where it leads and goes there once the file is opened.
  {
    const { page, context, requests, errors } = await open(web.chrome, url);
    const note = page.locator(".cctv-demo-note[role=status]");
    await note.waitFor();
    assert.match(await note.textContent(), /links to a row of session .*8463c716.* that is not open/);
    await drop(page, MAROT);
    await assertShown(page, id);
    assert.equal(await note.count(), 0, "the note goes once the link is followed");
    assert.deepEqual(foreign(requests, web.server.url), []);
    assert.deepEqual(errors, []);
    await context.close();
  }
  // The file first, then the link.
  {
    const { page, context, errors } = await open(web.chrome, web.server.url);
    await drop(page, MAROT);
    await waitForTitle(page, title);
    await page.goto(url);
    await assertShown(page, id);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("a link copied from a row inside a sub-agent opens its conversation in a fresh browser", async () => {
  const files = await filesUnder(MOREDIP);
  const { url, id } = await copiedFrom(files, "Spawn curry poem agents", async (page) => {
    await page.locator(".cctv-agent-toggle").nth(1).click();
    return page.locator('.cctv-item[style*="--depth: 1"]').nth(2);
  });
  const { page, context, errors } = await open(web.chrome, url);
  await drop(page, files);
  await assertShown(page, id);
  assert.match(await page.locator(".cctv-item--target").getAttribute("style"), /--depth: 1/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a turn link highlights the prompt and all that answered it; a sub-agent link its whole conversation", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, await filesUnder(MOREDIP));
  await waitForTitle(page, "Spawn curry poem agents");
  const prompt = page.locator(".cctv-item--user").first();
  await prompt.hover();
  await prompt.locator(".cctv-item__anchor", { hasText: "turn" }).click();
  assert.match(page.url(), /#s=[^&]+&t=/);
  await page.waitForFunction(() => document.querySelectorAll(".cctv-item--target").length > 3);
  const turn = await page.locator(".cctv-item--target").count();

  await page.locator(".cctv-agent-link").first().click();
  assert.match(page.url(), /#s=[^&]+&a=/);
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll(".cctv-item--target")];
    return rows.length > 1 && rows.every((r) => r.getAttribute("style").includes("--depth: 1"));
  });
  assert.ok(turn > 3, `${turn} rows in the turn`);
  assert.deepEqual(errors, []);
  await context.close();
});
