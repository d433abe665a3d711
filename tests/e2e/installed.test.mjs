// cctv as an installed app: the manifest declares the .jsonl file handler, the site works
// offline after one visit, a file handed over by the launch queue ("Open with" from the desktop)
// is followed, and a new version deployed is found in the background and announced.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIST, FIXTURES, browser, serve, foreign } from "./harness.mjs";

const SESSION = join(FIXTURES, "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl");
let chrome;
let copy;

before(async () => {
  chrome = await browser();
  // A copy of the site: one test deploys a new version into it.
  copy = await mkdtemp(join(tmpdir(), "cctv-site-"));
  await cp(DIST, copy, { recursive: true });
});

after(async () => {
  await chrome?.close();
  await rm(copy, { recursive: true, force: true });
});

/** The site in a fresh context, once its service worker has cached it. */
async function visit(url, init) {
  const context = await chrome.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  if (init) await page.addInitScript(init);
  await page.goto(url);
  await page.locator(".cctv-item").first().waitFor({ timeout: 20000 });
  // The worker is active once it cached the site; an install that failed never is.
  await page.evaluate(() =>
    Promise.race([
      navigator.serviceWorker.ready,
      new Promise((_, fail) => setTimeout(() => fail(new Error("the service worker did not install in 20 s")), 20000)),
    ]),
  );
  return { context, page, errors };
}

/** The paths of the files the service worker keeps. */
function cachedPaths(page) {
  return page.evaluate(async () => (await (await caches.open("cctv-site:/")).keys()).map((r) => new URL(r.url).pathname));
}

test("the manifest declares a handler of .jsonl files, with icons to install by", { timeout: 120000 }, async () => {
  const manifest = JSON.parse(await readFile(join(DIST, "manifest.webmanifest"), "utf8"));
  assert.deepEqual(Object.values(manifest.file_handlers[0].accept).flat(), [".jsonl"]);
  assert.equal(manifest.start_url, "./");
  for (const icon of manifest.icons) {
    const png = await readFile(join(DIST, icon.src));
    const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.equal(`${w}x${h}`, icon.sizes);
  }
  const html = await readFile(join(DIST, "index.html"), "utf8");
  assert.match(html, /<link rel="manifest" href="manifest.webmanifest"/);
});

test("after one visit the site opens offline, with the demo", { timeout: 120000 }, async () => {
  const server = await serve(copy);
  const { context, page, errors } = await visit(server.url);
  // Everything the page needs is in the cache before the network goes: the worker is active
  // only once it cached the site.
  assert.ok((await cachedPaths(page)).length >= 8);
  await server.close();
  await context.setOffline(true);
  await page.reload();
  await page.locator(".cctv-demo-note").waitFor({ timeout: 20000 });
  await page.locator(".cctv-item").first().waitFor();
  const cached = await cachedPaths(page);
  assert.ok(cached.some((p) => p.endsWith(".wasm")) && cached.includes("/grammars.packdump") && cached.includes("/worker.js"), cached.join(" "));
  assert.deepEqual(errors, []);
  await context.close();
});

test("a file the launch queue hands over is followed", { timeout: 120000 }, async () => {
  const server = await serve(copy);
  // What Chromium does for an installed app opened with a file: the file's handle in launchQueue.
  const { context, page, errors } = await visit(server.url, () => {
    Object.defineProperty(window, "launchQueue", { value: { setConsumer: (consume) => (window.launched = consume) } });
  });
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  const text = await readFile(SESSION, "utf8");
  await page.evaluate(async (text) => {
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle("opened.jsonl", { create: true });
    const writable = await handle.createWritable();
    await writable.write(text);
    await writable.close();
    window.launched({ files: [handle] });
  }, text);
  await page.locator(".cctv-live", { hasText: "Following opened.jsonl" }).waitFor({ timeout: 20000 });
  await page.locator(".cctv-prompt").first().waitFor();
  // Kept for the next visit.
  await page.reload();
  await page.locator("button", { hasText: "Follow opened.jsonl again" }).waitFor({ timeout: 20000 });
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign(requests, server.url), []);
  await context.close();
  await server.close();
});

test("a new version deployed is found in the background and announced", { timeout: 120000 }, async () => {
  const server = await serve(copy);
  const { context, page } = await visit(server.url);
  assert.ok((await cachedPaths(page)).length >= 8);
  // Deploy: index.html changes.
  const index = join(copy, "index.html");
  await writeFile(index, (await readFile(index, "utf8")).replace("</body>", "<!-- next version --></body>"));
  await page.reload();
  await page.locator(".cctv-demo-note", { hasText: "A new version of cctv is ready" }).waitFor({ timeout: 20000 });
  const cachedIndex = await page.evaluate(async () => (await (await caches.open("cctv-site:/")).match(location.href)).text());
  assert.match(cachedIndex, /next version/);
  await context.close();
  await server.close();
});
