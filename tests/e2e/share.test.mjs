// Sharing a session: a real fixture with secrets planted in a prompt and in a sub-agent, the Share
// tab's preview (counts, checkboxes, marks in the rows), then the exports. The HTML file is opened
// from file:// in a fresh, offline context, where it must show the session with working panels and
// make no request; neither it nor its compressed data holds a masked secret. The Markdown renders
// with a Markdown library into the expected headings. A followed session's secret, written after
// the Share tab first looked, is found and masked too.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir, mkdtemp, writeFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { marked } from "marked";
import { site, open, drop, waitForTitle, foreign, appendPrivate, linesAfter, countWorkerMessages, FIXTURES } from "./harness.mjs";

const web = site();
const MOREDIP = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
const ID = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68";

/** Letters that look random to the rules, made here so that no string in this file is a credential. */
function noise(length, seed) {
  const alphabet = "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz";
  let x = seed;
  return Array.from({ length }, () => alphabet[(x = (x * 1103515245 + 12345) % 2147483648) % alphabet.length]).join("");
}
const TOKEN = `ghp_${noise(36, 7)}`;
const KEY = `sk-ant-api03-${noise(93, 8)}AA`;

/** Adds ` <secret>` to the first prompt typed in a transcript (not a command's markup). */
function plant(text, secret) {
  const lines = text.split("\n");
  const typed = (l) => l && /^[^<]/.test(JSON.parse(l).message?.content ?? "<");
  const n = lines.findIndex(typed);
  const value = JSON.parse(lines[n]);
  value.message.content += ` ${secret}`;
  lines[n] = JSON.stringify(value);
  return lines.join("\n");
}

/** The session and its sub-agents, with the token in its prompt and the key in a sub-agent's. */
async function files() {
  const agents = (await readdir(join(MOREDIP, ID, "subagents"))).sort();
  const out = [{ name: `${ID}.jsonl`, bytes: Buffer.from(plant(await readFile(join(MOREDIP, `${ID}.jsonl`), "utf8"), TOKEN)) }];
  for (const [i, a] of agents.entries()) {
    let text = await readFile(join(MOREDIP, ID, "subagents", a), "utf8");
    if (i === 0) text = plant(text, KEY);
    out.push({ name: `${ID}/subagents/${a}`, bytes: Buffer.from(text) });
  }
  return out;
}

/** Opens the site with the planted session and its Share tab. */
async function sharing() {
  const opened = await open(web.chrome, web.server.url);
  await drop(opened.page, await files());
  await waitForTitle(opened.page, "Spawn curry poem agents");
  await opened.page.click(".cctv-side__tab >> text=Share");
  await opened.page.locator(".cctv-share__counts").waitFor({ timeout: 20000 });
  return opened;
}

/** Follows the moredip session, written whole into folder `folder` of the page's private file
 *  system; resolves to the session's lines and the file's path there, once it is followed. */
async function follow(page, folder) {
  const lines = (await readFile(join(MOREDIP, `${ID}.jsonl`), "utf8")).split("\n").filter(Boolean);
  const file = `${folder}/${ID}.jsonl`;
  await appendPrivate(page, file, lines.join("\n") + "\n");
  await page.evaluate((folder) => {
    window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
  }, folder);
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await page.locator(".cctv-live", { hasText: `Following ${ID}.jsonl` }).waitFor({ timeout: 20000 });
  return { lines, file };
}

/** The text of the shared page's data block `id`, decoded from base64. */
function block(html, id) {
  const match = html.match(new RegExp(`id="${id}">([^<]*)</script>`));
  assert.ok(match, `#${id}`);
  return Buffer.from(match[1], "base64");
}

/** Every form of `secret` that must not be in `text`: itself, and its base64 at each alignment. */
function assertNowhere(text, secret, where) {
  assert.ok(!text.includes(secret), `${where} holds the secret`);
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.from("x".repeat(shift) + secret).toString("base64");
    assert.ok(!text.includes(encoded.slice(4, -4)), `${where} holds the secret in base64 (${shift})`);
  }
}

test("the Share tab counts what it found, masks the certain findings and marks them in the rows", async () => {
  const { page, context, errors } = await sharing();
  const counts = await page.locator(".cctv-share__counts").textContent();
  assert.match(counts, /secrets 2 \(2 masked\)/);
  const token = page.locator(".cctv-finding", { hasText: TOKEN });
  assert.equal(await token.locator("input[type=checkbox]").isChecked(), true);
  assert.match(await token.textContent(), /→ \[REDACTED github-pat\]/);
  // In the conversation: the prompt's token is struck through and followed by its mask.
  const mark = page.locator(".cctv-conversation mark.cctv-mark--masked", { hasText: TOKEN }).first();
  await mark.waitFor();
  assert.equal(await mark.getAttribute("data-mask"), "[REDACTED github-pat]");
  // Kept: the count and the mark say so.
  await token.locator("input[type=checkbox]").uncheck();
  assert.match(await page.locator(".cctv-share__counts").textContent(), /secrets 2 \(1 masked\)/);
  await page.locator(".cctv-conversation mark.cctv-mark--kept", { hasText: TOKEN }).first().waitFor();
  await token.locator("input[type=checkbox]").check();
  // Its place: the link opens the row the finding is in.
  await page.locator(".cctv-finding", { hasText: KEY }).locator(".cctv-finding__where button").click();
  await page.locator(".cctv-item--target", { hasText: KEY }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("a small session's findings are looked for as soon as it is loaded: Share opens on them, never on 'Looking…'", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  // The engine worker starts after this, on the first ask.
  await page.evaluate(countWorkerMessages, "answer");
  await drop(page, await files());
  await waitForTitle(page, "Spawn curry poem agents");
  // The Share tab was not opened: the look ahead asked.
  await page.waitForFunction(() => globalThis.__heard.answer > 0, null, { timeout: 20000 });
  const opened = await page.evaluate(async () => {
    let looking = false;
    const status = () => [...document.querySelectorAll("[role=status]")].some((e) => e.textContent.startsWith("Looking"));
    const watch = new MutationObserver(() => (looking ||= status()));
    watch.observe(document.body, { childList: true, subtree: true, characterData: true });
    [...document.querySelectorAll(".cctv-side__tab")].find((b) => b.textContent.trim() === "Share").click();
    for (let i = 0; i < 300 && !document.querySelector(".cctv-share__counts"); i++) await new Promise((r) => requestAnimationFrame(r));
    watch.disconnect();
    return { looking: looking || status(), counts: document.querySelector(".cctv-share__counts")?.textContent ?? "" };
  });
  assert.equal(opened.looking, false, "the tab said it was looking");
  assert.match(opened.counts, /secrets 2 \(2 masked\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the engine reads the picked file itself; one changed on disk since the page read it is handed over by the page instead", async () => {
  const dir = await mkdtemp(join(tmpdir(), "cctv-picked-"));
  const path = join(dir, `${ID}.jsonl`);
  const text = plant(await readFile(join(MOREDIP, `${ID}.jsonl`), "utf8"), TOKEN);
  for (const changed of [false, true]) {
    await writeFile(path, text);
    const { page, context, errors } = await open(web.chrome, web.server.url);
    const warnings = [];
    page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
    await page.locator('input[type="file"]').first().setInputFiles(path);
    await waitForTitle(page, "Spawn curry poem agents");
    // As many bytes, with nothing the rules find (what the engine would find, had it read this),
    // and a first line that differs where the engine's check looks.
    if (changed) await writeFile(path, " ".repeat(8) + text.slice(8).replace(TOKEN, "x".repeat(TOKEN.length)));
    await page.click(".cctv-side__tab >> text=Share");
    assert.match(await page.locator(".cctv-share__counts").textContent(), /secrets 1 \(1 masked\)/, `changed: ${changed}`);
    const fellBack = warnings.filter((w) => w.includes("the engine read the files otherwise than the page"));
    assert.equal(fellBack.length, changed ? 1 : 0, warnings.join("\n"));
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("the HTML export opens offline from file://, works, asks for nothing, and holds no masked secret", async () => {
  const { page, context, errors } = await sharing();
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("text=Download HTML")]);
  const path = join(await mkdtemp(join(tmpdir(), "cctv-share-")), download.suggestedFilename());
  await download.saveAs(path);
  assert.equal(download.suggestedFilename(), `session-${ID}.html`);
  await page.locator(".cctv-share__status", { hasText: "Saved" }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();

  const html = await readFile(path, "utf8");
  const session = gunzipSync(block(html, "cctv-session")).toString("latin1");
  for (const secret of [TOKEN, KEY]) {
    assertNowhere(html, secret, "the page");
    assertNowhere(session, secret, "the session, decompressed");
  }
  assert.ok(session.includes("[REDACTED github-pat]") && session.includes("[REDACTED anthropic-api-key]"));
  assert.ok(session.includes(`${ID}/subagents/`), "the sub-agents' files are in it");

  // A fresh browser context with no network.
  const offline = await web.chrome.newContext({ offline: true, viewport: { width: 1400, height: 1000 } });
  const reader = await offline.newPage();
  const requests = [];
  const problems = [];
  reader.on("request", (r) => requests.push(r.url()));
  reader.on("pageerror", (e) => problems.push(String(e)));
  reader.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  const url = pathToFileURL(path).href;
  await reader.goto(url);
  await waitForTitle(reader, "Spawn curry poem agents");
  // The panels work: a sub-agent's call opens its conversation, and the side panel has its stats.
  const text = await reader.locator(".cctv-conversation").textContent();
  assert.ok(text.includes("[REDACTED github-pat]") && !text.includes(TOKEN));
  await reader.click(".cctv-side__tab >> text=Session");
  assert.match(await reader.locator(".cctv-stats").textContent(), /sub-agents\s*5/);
  await reader.locator("#cctv-search").fill("curry");
  await reader.locator("mark.cctv-mark").first().waitFor();
  assert.deepEqual(requests.filter((r) => r !== url && !r.startsWith("data:") && !r.startsWith("blob:")), []);
  assert.deepEqual(problems, []);
  await offline.close();
});

test("the Markdown export renders into a title and a heading per turn, with no masked secret", async () => {
  const { page, context, requests, errors } = await sharing();
  // The session has sub-agents beside its own conversation: whether they go in is a choice.
  assert.equal(await page.locator(".cctv-share__option", { hasText: "sub-agents" }).count(), 1);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("text=Download Markdown")]);
  const markdown = await readFile(await download.path(), "utf8");
  for (const secret of [TOKEN, KEY]) assertNowhere(markdown, secret, "the Markdown");
  // Claude's own headings are demoted below the turns'.
  const headings = marked.lexer(markdown).filter((t) => t.type === "heading" && t.depth <= 2);
  assert.equal(headings[0].depth, 1);
  assert.match(headings[0].text, /curry poem/i);
  const turns = headings.slice(1);
  assert.ok(turns.length >= 5 && turns.every((h, i) => h.depth === 2 && h.text.startsWith(`${i + 1}. `)), turns.map((h) => h.text).join("\n"));
  // The mask reads as written once rendered (the Markdown escapes its brackets).
  assert.ok(marked.parse(markdown).includes("[REDACTED github-pat]"));
  // Turns 2 to 3 of them: those two headings, numbered as in the whole.
  const range = page.locator(".cctv-share__turns");
  assert.equal(await range.textContent(), `turns  to  of ${turns.length}`);
  for (const [n, value] of [[0, "3"], [1, "2"]]) {
    await range.locator("input").nth(n).fill(value);
    await range.locator("input").nth(n).dispatchEvent("change");
  }
  assert.deepEqual(await range.locator("input").evaluateAll((inputs) => inputs.map((i) => i.value)), ["2", "3"]);
  const [some] = await Promise.all([page.waitForEvent("download"), page.click("text=Download Markdown")]);
  const chosen = marked.lexer(await readFile(await some.path(), "utf8")).filter((t) => t.type === "heading" && t.depth === 2);
  assert.deepEqual(chosen.map((h) => h.text), turns.slice(1, 3).map((h) => h.text));
  // One turn, copied from its row, is masked too.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: web.server.url });
  const prompt = page.locator(".cctv-item--user:has(h3)", { hasText: TOKEN }).first();
  await prompt.scrollIntoViewIfNeeded();
  await prompt.hover();
  // Worked out by the engine, then written: the button says when.
  await prompt.locator("button[title^='copy this turn as Markdown']").click();
  await prompt.locator("button[title^='copy this turn as Markdown']", { hasText: "copied" }).waitFor({ timeout: 60000 });
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(marked.parse(copied).includes("[REDACTED github-pat]") && !copied.includes(TOKEN), copied.slice(0, 600));
  // The tab's "Copy Markdown": the clipboard is asked within the click, the text comes after.
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await page.click("text=Copy Markdown");
  await page.locator(".cctv-share__status", { hasText: /^Copied .* of Markdown/ }).waitFor({ timeout: 60000 });
  const all = await page.evaluate(() => navigator.clipboard.readText());
  assert.deepEqual(marked.lexer(all).filter((t) => t.type === "heading" && t.depth === 2).map((h) => h.text), turns.slice(1, 3).map((h) => h.text), "the turns chosen");
  for (const secret of [TOKEN, KEY]) assertNowhere(all, secret, "the Markdown copied");
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a sub-agent's file opened alone exports whole: no turn range, no sub-agents to choose", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  const [, agent] = await files();
  await drop(page, [agent]);
  await page.locator(".cctv-item").first().waitFor();
  await page.click(".cctv-side__tab >> text=Share");
  await page.locator(".cctv-share__options").waitFor();
  assert.equal(await page.locator(".cctv-share__turns").count(), 0);
  assert.equal(await page.locator(".cctv-share__option", { hasText: "sub-agents" }).count(), 0);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("text=Download Markdown")]);
  const markdown = await readFile(await download.path(), "utf8");
  assertNowhere(markdown, KEY, "the sub-agent's Markdown");
  assert.ok(markdown.includes("REDACTED"), markdown.slice(0, 600));
  assert.deepEqual(errors, []);
  await context.close();
});

test("a secret appended to a followed session after the Share tab looked is found, and masked in both exports", async () => {
  const { page, context, requests, errors } = await open(web.chrome, web.server.url);
  const { lines, file } = await follow(page, "followed");
  await page.click(".cctv-side__tab >> text=Share");
  await page.locator(".cctv-share__counts, .cctv-share__none").waitFor({ timeout: 20000 });
  const before = await page.locator(".cctv-findings").allTextContents();

  // The reader goes back to the contents while Claude Code writes on: a prompt with a token, then
  // an answer. Each append is a new workspace, and the first one is freed meanwhile: its memory
  // can hold the one shown when the reader comes back to the Share tab (whether it does is the
  // allocator's choice, which a page cannot force; tests/live.rs holds that every workspace has a
  // generation of its own, which is what the tab compares).
  const token = `ghp_${noise(36, 11)}`;
  const [prompt, answer] = linesAfter(lines, [`deploy it with ${token} please`, "Deployed."], 20).split(/(?<=\n)/);
  await page.click(".cctv-side__tab >> text=Contents");
  await page.check("text=Keep newest in view");
  await appendPrivate(page, file, prompt);
  await page.locator(".cctv-prompt", { hasText: token }).waitFor({ timeout: 5000 });
  await appendPrivate(page, file, answer);
  await page.locator(".cctv-item", { hasText: "Deployed." }).waitFor({ timeout: 5000 });

  await page.click(".cctv-side__tab >> text=Share");
  const finding = page.locator(".cctv-finding", { hasText: token });
  await finding.waitFor({ timeout: 20000 });
  assert.ok(!before.join("").includes(token), "it was not there before the append");
  assert.equal(await finding.locator("input[type=checkbox]").isChecked(), true);
  assert.match(await finding.textContent(), /→ \[REDACTED github-pat\]/);

  const [markdown] = await Promise.all([page.waitForEvent("download"), page.click("text=Download Markdown")]);
  const text = await readFile(await markdown.path(), "utf8");
  assertNowhere(text, token, "the Markdown");
  assert.ok(text.includes("Deployed.") && marked.parse(text).includes("[REDACTED github-pat]"), "the appended lines are in it, masked");
  const [html] = await Promise.all([page.waitForEvent("download"), page.click("text=Download HTML")]);
  const shared = await readFile(await html.path(), "utf8");
  const session = gunzipSync(block(shared, "cctv-session")).toString("latin1");
  assertNowhere(shared, token, "the page");
  assertNowhere(session, token, "the session, decompressed");
  assert.ok(session.includes("Deployed.") && session.includes("[REDACTED github-pat]"), "the appended lines are in it, masked");
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a stop stands while a followed session grows: nothing is looked for or exported until the reader asks again", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  // The engine's worker starts half a second late, so that the reader's Stop comes while it starts.
  await context.route("**/worker.js", async (route) => {
    await new Promise((r) => setTimeout(r, 500));
    await route.continue();
  });
  const { lines, file } = await follow(page, "stopped");
  await page.click(".cctv-side__tab >> text=Share");
  await page.click(".cctv-share__looking button:has-text('Stop')");
  const stopped = page.locator(".cctv-share__error", { hasText: "Stopped before every line was looked at" });
  await stopped.waitFor();
  // From now on, any word of looking is noted.
  await page.evaluate(() => {
    window.__looked = 0;
    new MutationObserver(() => {
      if (document.querySelector(".cctv-share__looking [role=status]")) window.__looked++;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  // Claude Code writes on, a token in the prompt; the reader sees it arrive, then comes back.
  const token = `ghp_${noise(36, 12)}`;
  await page.click(".cctv-side__tab >> text=Contents");
  await page.check("text=Keep newest in view");
  await appendPrivate(page, file, linesAfter(lines, [`ship it with ${token} now`, "Shipped."], 30));
  await page.locator(".cctv-item", { hasText: "Shipped." }).waitFor({ timeout: 5000 });
  await page.click(".cctv-side__tab >> text=Share");
  await stopped.waitFor();
  await page.click("button:has-text('Download Markdown')");
  await page.locator(".cctv-share__status", { hasText: "Nothing exported: Stopped before every line was looked at" }).waitFor();
  assert.equal(await page.evaluate(() => window.__looked), 0, "it looked again unasked");

  // Asked, it looks through the grown session and finds the token.
  await page.click(".cctv-share__looking button:has-text('Look again')");
  await page.locator(".cctv-finding", { hasText: token }).waitFor({ timeout: 20000 });
  assert.deepEqual(errors, []);
  await context.close();
});
