// Shared by the end-to-end tests: a static server for dist/ on 127.0.0.1, Debian's Chromium
// driven by playwright-core (which downloads no browser), and helpers that act as a user would.

import { createServer } from "node:http";
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { extname, join, normalize, dirname, basename } from "node:path";
import { fileURLToPath } from "node:url";
import { before, after } from "node:test";
import { chromium } from "playwright-core";
import assert from "node:assert/strict";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = join(ROOT, "../shared/fixtures");
export const DIST = process.env.CCTV_DIST ?? join(ROOT, "dist");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".png": "image/png",
  ".webmanifest": "application/manifest+json",
  ".ts": "text/plain",
};

/** Serves `dir` under `base` (e.g. "/cctv/") on a free port of 127.0.0.1. `extra` maps more
 *  paths under `base` to their text; `head` is put first in the `<head>` of every HTML page. */
export async function serve(dir = DIST, base = "/", { extra = {}, head = "" } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (!path.startsWith(base)) {
      res.writeHead(404).end("not under " + base);
      return;
    }
    const own = extra[path.slice(base.length)];
    if (own !== undefined) {
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "text/plain" }).end(own);
      return;
    }
    let file = normalize(join(dir, path.slice(base.length)));
    if (!file.startsWith(normalize(dir))) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      let body = await readFile(file);
      if (head && extname(file) === ".html") body = body.toString("utf8").replace(/<head[^>]*>/i, (tag) => tag + head);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}${base}`;
  // Closing waits for open connections to end: a browser keeps some open (keep-alive, a service
  // worker's), so they are ended at once.
  const close = () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
  return { url, close };
}

/**
 * For a test file: before its tests, serves `folder` under `base` (a path, or an async function
 * that prepares one) and starts Chromium; after them, stops both. Returns `{ server, chrome }`,
 * filled in once the tests run.
 */
/**
 * A generated session of `mb` MB for the tests of this file (cctv's own generator,
 * src/generate.rs, the one `make bench` uses; `make test` has built it), written to a temporary
 * folder before them and removed after. `files()` lists its `.jsonl` files.
 */
export function generatedSession(mb) {
  const session = {};
  before(async () => {
    session.dir = await mkdtemp(join(tmpdir(), "cctv-generated-"));
    execFileSync("cargo", ["run", "--quiet", "--no-default-features", "--features", "generate", "--bin", "cctv-bench", "--", "--write", session.dir, String(mb)], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    session.root = join(session.dir, `${mb}mb`);
  });
  after(async () => {
    if (session.dir) await rm(session.dir, { recursive: true, force: true });
  });
  session.files = async () => (await readdir(session.root, { recursive: true })).filter((f) => f.endsWith(".jsonl")).map((f) => join(session.root, f));
  return session;
}

export function site(folder = DIST, base = "/") {
  const web = {};
  before(async () => {
    web.server = await serve(typeof folder === "function" ? await folder() : folder, base);
    web.chrome = await browser();
  });
  after(async () => {
    await web.chrome?.close();
    await web.server?.close();
  });
  return web;
}

/** Headless Chromium with no background networking (this machine has no internet). */
export async function browser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic", ...(process.env.CHROMIUM_FLAGS ?? "").split(" ").filter(Boolean)],
  });
}

/**
 * A page that records every request it makes and every console error. `origin` is the only
 * place requests may go.
 */
export async function open(b, url, { colorScheme = "light", viewport = { width: 1400, height: 1000 } } = {}) {
  // The site's service worker is tested on its own (installed.test.mjs); here every request goes
  // to the server, where tests can stop it.
  const context = await b.newContext({ colorScheme, viewport, serviceWorkers: "block" });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(url);
  await page.waitForSelector(".cctv-item", { timeout: 20000 });
  return { page, context, requests, errors };
}

/** Once the worker the site starts to warm Share's scan (src/browser/warm_scan.rs) has come and
 *  gone: benchmarks measure after it. */
export async function warmedUp(page) {
  if (page.workers().length === 0) await page.waitForEvent("worker", { timeout: 10000 }).catch(() => {});
  while (page.workers().length > 0) await page.waitForTimeout(100);
}

/** Clicks `button` in `page` and waits for `shown`, then for `whole` if given (all of it drawn):
 *  the times from the click to each, noted in the page as each first appears (polling for them
 *  from here took 0.3 s more), and the longest of the tasks a long-task observer of the page
 *  pushed to `window.__longTasks` meanwhile (0 without one). For benchmarks, never tests. */
export async function timeClick(page, button, shown, whole = shown, timeout = 600000) {
  await page.evaluate(([shown, whole]) => {
    window.__longTasks = [];
    window.__clicked = undefined;
    window.__shown = undefined;
    window.__whole = undefined;
    addEventListener("click", () => (window.__clicked = performance.now()), { capture: true, once: true });
    const seen = new MutationObserver(() => {
      window.__shown ??= document.querySelector(shown) ? performance.now() : undefined;
      window.__whole ??= document.querySelector(whole) ? performance.now() : undefined;
      if (window.__shown && window.__whole) seen.disconnect();
    });
    seen.observe(document.body, { childList: true, subtree: true, characterData: true });
  }, [shown, whole]);
  await page.click(button);
  await page.waitForSelector(shown, { timeout });
  await page.waitForSelector(whole, { timeout });
  return page.evaluate(async () => {
    const ms = (window.__shown ?? performance.now()) - window.__clicked;
    const wholeMs = (window.__whole ?? performance.now()) - window.__clicked;
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    return { ms, wholeMs, longest: Math.max(0, ...window.__longTasks) };
  });
}

/** Waits until `page` runs no worker, for at most `ms`; whether none is left. */
export async function workersGone(page, ms) {
  const until = Date.now() + ms;
  while (page.workers().length > 0 && Date.now() < until) await page.waitForTimeout(250);
  return page.workers().length === 0;
}

/**
 * Counts in `globalThis.__heard[key]` the messages with `key` set that workers started from then
 * on post to the page, heard beside the page's own handlers. Runs in the page: pass it to a
 * context's `addInitScript` or a page's `evaluate`, with `key`.
 */
export function countWorkerMessages(key) {
  const Original = globalThis.Worker;
  globalThis.__heard ??= {};
  globalThis.__heard[key] = 0;
  globalThis.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => e.data?.[key] && globalThis.__heard[key]++);
    }
  };
}

/** Requests that left the page's origin (data: URLs are not requests to anywhere). */
export function foreign(requests, url) {
  const origin = new URL(url).origin;
  return requests.filter((r) => !r.startsWith(origin) && !r.startsWith("data:") && !r.startsWith("blob:"));
}

/** Drops files on the viewer the way a browser delivers a drop of files. */
export async function drop(page, files) {
  const payload = await Promise.all(
    files.map(async (f) => ({
      name: f.name ?? basename(f.path),
      b64: (f.bytes ?? (await readFile(f.path))).toString("base64"),
    })),
  );
  await page.evaluate((files) => {
    const transfer = new DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], f.name));
    }
    const target = document.querySelector(".cctv");
    for (const type of ["dragenter", "dragover", "drop"]) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, payload);
}

/** Waits until the viewer shows a session whose title contains `text`. */
export async function waitForTitle(page, text) {
  await page.waitForFunction(
    (t) => [...document.querySelectorAll(".cctv-title, .cctv-sessions option")].some((e) => e.textContent.includes(t)),
    text,
    { timeout: 20000 },
  );
}

/// Resident memory of this browser's renderers, from the OS: the processes under this one (not
/// another Chromium on the machine) whose command line says `--type=renderer`. Each load has its own
/// context and the previous one is closed by then, so the sum is that page's renderer and idle ones
/// (two with Chromium 156) whose memory stays the same.
export function rendererRss() {
  const parents = new Map();
  const renderers = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      parents.set(pid, status.match(/^PPid:\s+(\d+)/m)[1]);
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer")) renderers.push({ pid, status });
    } catch {
      // Exited while we looked.
    }
  }
  const ours = (pid) => {
    for (let p = pid; p && p !== "0"; p = parents.get(p)) if (p === String(process.pid)) return true;
    return false;
  };
  return renderers.filter((r) => ours(r.pid)).reduce((sum, r) => sum + Number(r.status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0) * 1024, 0);
}

/** A scratch project (ES modules) in a new folder named from `prefix`, with the packed npm
 *  package (`npm pack` of pkg/, or $CCTV_PKG) installed from its tarball, offline. */
export async function withPackage(prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const npm = (...args) => execFileSync("npm", args, { cwd: dir, encoding: "utf8" }).trim();
  const tarball = npm("pack", process.env.CCTV_PKG ?? join(ROOT, "pkg"), "--pack-destination", dir, "--loglevel=error").split("\n").pop();
  npm("install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", join(dir, tarball));
  return dir;
}

/** Lines a person and Claude add to a transcript after the last of its `lines` (JSONL lines),
 *  as Claude Code writes them: one line per text of `texts`, the person's first, then in turn;
 *  their uuids counted from `first`, so that lines added later can have others. */
export function linesAfter(lines, texts, first = 0) {
  const last = lines.map((l) => JSON.parse(l)).findLast((e) => e.uuid && e.type === "assistant");
  const at = Date.parse(last.timestamp);
  let parent = last.uuid;
  return texts
    .map((text, i) => {
      const uuid = `00000000-0000-4000-8000-${String(first + i).padStart(12, "0")}`;
      const you = i % 2 === 0;
      const line = {
        ...last,
        type: you ? "user" : "assistant",
        uuid,
        parentUuid: parent,
        timestamp: new Date(at + (i + 1) * 1000).toISOString(),
        message: you
          ? { role: "user", content: text }
          : { ...last.message, id: `msg_live_${first + i}`, content: [{ type: "text", text }], stop_reason: "end_turn" },
      };
      if (you) delete line.requestId;
      parent = uuid;
      return JSON.stringify(line) + "\n";
    })
    .join("");
}

/** Appends `text` to `path` in the page's private file system (made, with its folders, if
 *  missing), as Claude Code appends to a transcript. */
export function appendPrivate(page, path, text) {
  return page.evaluate(
    async ({ path, text }) => {
      let dir = await navigator.storage.getDirectory();
      const parts = path.split("/");
      for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
      const handle = await dir.getFileHandle(parts.at(-1), { create: true });
      const size = (await handle.getFile()).size;
      const writable = await handle.createWritable({ keepExistingData: true });
      await writable.seek(size);
      await writable.write(text);
      await writable.close();
    },
    { path, text },
  );
}

/** Asserts that README.md holds `file` (a path from the repository's root), less its opening `//`
 *  comment, as one of its fenced code blocks: the README's examples are the files tests run. When
 *  it does not, the failure shows the difference from the block that starts most like it. */
export async function assertInReadme(file) {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/^```\w*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  const text = (await readFile(join(ROOT, file), "utf8")).replace(/^(\/\/.*\n)+/, "");
  // How long a start `block` shares with `text`.
  const alike = (block) => {
    let n = 0;
    while (n < block.length && block[n] === text[n]) n++;
    return block === text ? Infinity : n;
  };
  const nearest = blocks.reduce((best, block) => (alike(block) > alike(best) ? block : best), "");
  assert.equal(nearest, text, `README.md holds ${file}`);
}
