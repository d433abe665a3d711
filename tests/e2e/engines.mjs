// The three browser engines a reader may use, behind one small interface, for the core tests
// (core.test.mjs): Chromium (Debian's, through playwright-core, as every other test), Firefox
// (Debian's firefox-esr, through puppeteer-core over WebDriver BiDi) and WebKit (Debian's
// WebKitWebDriver starting MiniBrowser under Xvfb, through classic WebDriver, spoken here with
// fetch). None of them downloads a browser; scripts/setup.sh installs all three from apt.
//
// A page does what a reader does: opens an address at a size, clicks, types, presses keys, gives
// files to a file input, and is asked about its DOM with a function run in it. Console errors,
// uncaught errors and refused content are collected in the page by ERRORS_JS, which the test
// server puts first in every HTML page (classic WebDriver has no console to listen to), and, where
// the driver reports them, from the driver too.

import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";
import { browser as chromiumBrowser } from "./harness.mjs";

export const ENGINES = ["chromium", "firefox", "webkit"];

export const FIREFOX = process.env.FIREFOX ?? "/usr/bin/firefox-esr";
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";
export const MINIBROWSER = process.env.MINIBROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/** The script that records a page's errors in `__e2eErrors`, served at ERRORS_PATH. */
export const ERRORS_PATH = "e2e-errors.js";
/** Records the page's errors in `__e2eErrors` (once). */
export function catchErrors() {
  if (globalThis.__e2eErrors) return;
  const errors = (globalThis.__e2eErrors = []);
  addEventListener(
    "error",
    (e) => {
      const el = e.target;
      // What a ResizeObserver whose callback changed the layout leaves for the next frame is
      // reported as an error event, not thrown: noted apart (the virtual list measures its rows so).
      if (/^ResizeObserver loop/.test(e.message ?? "")) return (globalThis.__e2eNotices ??= []).push(e.message);
      errors.push(el && el !== window && el.tagName ? "could not load " + (el.src || el.href || el.tagName) : String(e.error ?? e.message));
    },
    true,
  );
  addEventListener("TrunkApplicationStarted", () => (globalThis.__e2eTrunkStarted = performance.now()));
  addEventListener("unhandledrejection", (e) => errors.push("unhandled rejection: " + String(e.reason)));
  addEventListener("securitypolicyviolation", (e) => errors.push("refused by the CSP: " + e.violatedDirective + " " + e.blockedURI));
  const error = console.error;
  console.error = function (...args) {
    errors.push(args.map(String).join(" "));
    return error.apply(this, args);
  };
}
export const ERRORS_JS = `(${catchErrors})();`;
/** What serve() puts first in every HTML page's head, for the script above. */
export const ERRORS_HEAD = `<script src="/${ERRORS_PATH}"></script>`;

/** A page that shows the address after its `#` in a frame of the size its query names: where a
 *  browser's window cannot be as narrow as a phone (MiniBrowser's is at least 447 px wide, for its
 *  toolbar), the site is shown in a frame that is. */
export const FRAME_PATH = "e2e-frame.html";
const FRAME_HTML = `<!doctype html><meta charset="utf-8"><style>html, body { margin: 0 } iframe { border: 0; display: block }</style>
<iframe></iframe><script src="/e2e-frame.js"></script>`;
const FRAME_JS = `const q = new URLSearchParams(location.search);
const frame = document.querySelector("iframe");
frame.width = q.get("w");
frame.height = q.get("h");
frame.src = decodeURIComponent(location.hash.slice(1));`;

/** What the test server serves besides the site, for serve()'s `extra`. */
export const EXTRA = { [ERRORS_PATH]: ERRORS_JS, [FRAME_PATH]: FRAME_HTML, "e2e-frame.js": FRAME_JS };

/** Starts engine `name`. */
export async function launch(name) {
  if (name === "chromium") return launchChromium();
  if (name === "firefox") return launchFirefox();
  if (name === "webkit") return launchWebKit();
  throw new Error(`no engine ${name}`);
}

/** The version of engine `name`'s browser, as the README lists it. */
export function versionOf(name) {
  return launch(name).then(async (engine) => {
    const v = engine.version;
    await engine.close();
    return v;
  });
}

/** The expression that calls the function whose source is `source` with `arg` (JSON): the
 *  drivers evaluate it as their own script, which the page's CSP (no eval) does not stop. */
function invocation(source, arg) {
  // An element found is answered as `true`: drivers serialize nodes each their own way.
  return `(async () => { const v = await (${source})(${JSON.stringify(arg)}); return typeof Node !== "undefined" && v instanceof Node ? true : v; })()`;
}

// ---------------------------------------------------------------- Chromium (playwright-core)

async function launchChromium() {
  const b = await chromiumBrowser();
  return {
    name: "chromium",
    version: `Chromium ${b.version()}`,
    async page({ width, height }) {
      const context = await b.newContext({ viewport: { width, height } });
      const p = await context.newPage();
      const own = [];
      p.on("pageerror", (e) => own.push(String(e)));
      p.on("console", (m) => {
        if (m.type() === "error") own.push(m.text());
      });
      return wrap({
        goto: (url) => p.goto(url),
        run: (source, arg) => p.evaluate(invocation(source, arg)),
        click: (selector) => p.click(selector),
        type: (selector, text) => p.fill(selector, text),
        press: (key) => p.keyboard.press(key),
        setFiles: (selector, paths) => p.setInputFiles(selector, paths),
        screenshot: (path) => p.screenshot({ path }),
        own,
        close: () => context.close(),
      }, "chromium");
    },
    close: () => b.close(),
  };
}

// ---------------------------------------------------------------- Firefox (puppeteer-core, BiDi)

async function launchFirefox() {
  const b = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    protocol: "webDriverBiDi",
    // No updates, studies or telemetry: this machine has no internet.
    extraPrefsFirefox: { "app.update.enabled": false, "datareporting.policy.dataSubmissionEnabled": false, "toolkit.telemetry.enabled": false },
  });
  return {
    name: "firefox",
    version: (await b.version()).replace(/^firefox\//, "Firefox "),
    async page({ width, height }) {
      const context = await b.createBrowserContext();
      const p = await context.newPage();
      await p.setViewport({ width, height });
      const own = [];
      p.on("pageerror", (e) => own.push(String(e)));
      p.on("console", (m) => {
        if (m.type() === "error") own.push(m.text());
      });
      return wrap({
        goto: (url) => p.goto(url),
        run: (source, arg) => p.evaluate(invocation(source, arg)),
        click: (selector) => p.click(selector),
        async type(selector, text) {
          await p.$eval(selector, (el) => (el.value = ""));
          await p.type(selector, text);
        },
        press: (key) => p.keyboard.press(key),
        async setFiles(selector, paths) {
          const input = await p.$(selector);
          await input.uploadFile(...paths);
        },
        screenshot: (path) => p.screenshot({ path }),
        own,
        close: () => context.close(),
      }, "firefox");
    },
    close: () => b.close(),
  };
}

// ---------------------------------------------------------------- WebKit (WebKitWebDriver)

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
const KEYS = { Enter: "\uE007", Escape: "\uE00C", Tab: "\uE004" };

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// WebKitGTK 2.50 breaks the viewer now and then when its JIT compiles in the background while the
// page runs: one run of core.test.mjs in four failed (8 of 28) at a place that cannot fail in
// the wasm as written, a different one each time (a RefCell borrowed twice in js-sys's task
// queue, an index out of bounds in fancy-regex's matcher, a start that never ended with every
// file loaded and no error). With JSC compiling on the page's own thread (JSC_useConcurrentJIT=0,
// every tier still on) none did (0 of 10), nor with its optimizing wasm tier off (0 of 10); nor
// in Chromium or Firefox, on the same build. So WebKit's pages run so (the test's environment can
// say otherwise), and the README says so.
async function launchWebKit() {
  for (const path of [WEBKIT_DRIVER, MINIBROWSER]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: scripts/setup.sh installs webkit2gtk-driver`);
  }
  let driver, base, said;
  const call = async (method, path, body, timeout) => {
    const res = await fetch(base + path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: timeout ? AbortSignal.timeout(timeout) : undefined,
    });
    const json = await res.json();
    if (json.value?.error && json.value?.message !== undefined) throw new Error(`WebKitWebDriver ${method} ${path}: ${json.value.error}: ${json.value.message}`);
    return json.value;
  };
  const end = () => {
    try {
      process.kill(-driver.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  const start = async () => {
    const port = await freePort();
    // MiniBrowser needs a display: Xvfb's, unless there is one. Its own process group, so that
    // closing ends xvfb-run, Xvfb, the driver and the browsers it started together.
    const command = process.env.DISPLAY ? [WEBKIT_DRIVER] : ["xvfb-run", "-a", "-s", "-screen 0 1600x1200x24", WEBKIT_DRIVER];
    driver = spawn(command[0], [...command.slice(1), `--port=${port}`], { detached: true, stdio: ["ignore", "ignore", "pipe"], env: { JSC_useConcurrentJIT: "0", ...process.env } });
    said = "";
    driver.stderr.on("data", (d) => (said += d));
    base = `http://127.0.0.1:${port}`;
    for (let tries = 0; ; tries++) {
      try {
        if ((await call("GET", "/status")).ready) break;
      } catch (e) {
        if (tries > 100 || driver.exitCode !== null) throw new Error(`WebKitWebDriver did not start: ${e.message}\n${said}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await start();
  process.on("exit", () => end());
  // Now and then (one run in several) WebKitWebDriver never answers a new session: the run
  // waited five minutes for fetch's own timeout and failed. A session not made in a minute is
  // asked of a driver started again, up to three times.
  const newSession = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call("POST", "/session", { capabilities }, 60_000);
      } catch (e) {
        if (attempt >= 3) throw new Error(`WebKitWebDriver made no session in ${attempt} tries: ${e.message}\n${said.slice(-2000)}`);
        end();
        await start();
      }
    }
  };
  const capabilities = { alwaysMatch: { "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } } };
  let version = "";
  return {
    name: "webkit",
    get version() {
      return version;
    },
    async page({ width, height }) {
      const created = await newSession();
      version = `WebKitGTK ${created.capabilities.browserVersion}`;
      const s = `/session/${created.sessionId}`;
      const find = async (selector) => (await call("POST", `${s}/element`, { using: "css selector", value: selector }))[ELEMENT];
      const run = async (source, arg) => {
        const script = `const done = arguments[arguments.length - 1];
          Promise.resolve().then(() => ${invocation(source, arg)})
            .then((value) => done({ value }), (e) => done({ error: String(e) + "\\n" + ((e && e.stack) || "") }));`;
        const out = await call("POST", `${s}/execute/async`, { script, args: [] });
        if (out && "error" in out) throw new Error(out.error);
        return out?.value;
      };
      // The window is the viewport and the browser's own bars: grown until the viewport is the
      // size asked. Narrower than the window can be, the site is shown in a frame of that size.
      let framed = false;
      const size = async () => {
        await call("POST", `${s}/window/rect`, { width, height });
        for (let i = 0; i < 3; i++) {
          const [w, h] = await run("() => [innerWidth, innerHeight]");
          if (w === width && h === height) return true;
          const rect = await call("GET", `${s}/window/rect`);
          await call("POST", `${s}/window/rect`, { width: rect.width + width - w, height: rect.height + height - h });
        }
        const [w, h] = await run("() => [innerWidth, innerHeight]");
        return w === width && h === height;
      };
      await call("POST", `${s}/timeouts`, { script: 60000 });
      let sized = false;
      return wrap({
        async goto(url) {
          await call("POST", `${s}/url`, { url });
          if (!sized) {
            sized = true;
            framed = !(await size()) && width < (await run("() => innerWidth"));
          }
          if (framed) {
            const origin = new URL(url).origin;
            await call("POST", `${s}/url`, { url: `${origin}/${FRAME_PATH}?w=${width}&h=${height}#${encodeURIComponent(url)}` });
            for (let i = 0; ; i++) {
              const ready = await run("() => { const d = document.querySelector('iframe')?.contentDocument; return !!d && d.readyState !== 'loading' && d.location.href !== 'about:blank'; }");
              if (ready) break;
              if (i > 200) throw new Error("the frame did not load " + url);
              await new Promise((r) => setTimeout(r, 100));
            }
            await call("POST", `${s}/frame`, { id: 0 });
          }
        },
        get framed() {
          return framed;
        },
        run,
        click: async (selector) => call("POST", `${s}/element/${await find(selector)}/click`, {}),
        async type(selector, text) {
          const el = await find(selector);
          await call("POST", `${s}/element/${el}/clear`, {});
          await call("POST", `${s}/element/${el}/value`, { text });
        },
        press: (key) =>
          call("POST", `${s}/actions`, {
            actions: [{ type: "key", id: "keyboard", actions: [{ type: "keyDown", value: KEYS[key] ?? key }, { type: "keyUp", value: KEYS[key] ?? key }] }],
          }),
        setFiles: async (selector, paths) => call("POST", `${s}/element/${await find(selector)}/value`, { text: paths.join("\n") }),
        async screenshot(path) {
          let png;
          if (framed) {
            await call("POST", `${s}/frame/parent`, {});
            png = await call("GET", `${s}/element/${await find("iframe")}/screenshot`);
            await call("POST", `${s}/frame`, { id: 0 });
          } else {
            png = await call("GET", `${s}/screenshot`);
          }
          await writeFile(path, Buffer.from(png, "base64"));
        },
        own: [],
        close: () => call("DELETE", s),
      }, "webkit");
    },
    async close() {
      end();
      process.off("exit", end);
    },
  };
}

// ---------------------------------------------------------------- what every page adds

/**
 * A driver's page as the tests use it. `evaluate(fn, arg)` runs `fn(arg)` in the page (a
 * function's source, so it closes over nothing of the test's) and returns its JSON-able result;
 * `waitFor(fn, arg)` runs it until it is truthy; `clickText(selector, text)` clicks the first
 * element matching `selector` whose text contains `text`; `errors()` is what the page reported.
 */
function wrap(d, engine) {
  let marked = 0;
  const page = {
    engine,
    get framed() {
      return !!d.framed;
    },
    goto: d.goto,
    press: d.press,
    type: d.type,
    click: d.click,
    screenshot: d.screenshot,
    close: d.close,
    setFiles: (selector, paths) => d.setFiles(selector, paths),
    evaluate: (fn, arg = null) => d.run(String(fn), arg),
    async waitFor(fn, arg = null, { timeout = 20000, what = String(fn) } = {}) {
      const until = Date.now() + timeout;
      let last;
      for (;;) {
        try {
          last = await d.run(String(fn), arg);
          if (last) return last;
        } catch (e) {
          // A page being replaced (a reload, a link) answers nothing for a moment.
          last = e.message;
        }
        if (Date.now() > until) {
          // What the page showed instead, so that a failure on a CI machine can be read from its log.
          const seen = await d
            .run("() => ({ url: location.href, state: document.readyState, text: (document.body?.innerText ?? '').slice(0, 400), errors: globalThis.__e2eErrors ?? [], trunkApplicationStarted: globalThis.__e2eTrunkStarted ?? null, loaded: performance.getEntriesByType('resource').map((e) => e.name.split('/').pop().slice(0, 40) + ' ' + Math.round(e.duration) + ' ms') })", null)
            .catch((e) => e.message);
          throw new Error(`waited ${timeout} ms for ${what} (last: ${JSON.stringify(last)}); the page: ${JSON.stringify(seen)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async clickText(selector, text) {
      const mark = `e2e-${++marked}`;
      await page.waitFor(
        ({ selector, text, mark }) => {
          const el = [...document.querySelectorAll(selector)].find((e) => e.textContent.includes(text));
          if (!el) return false;
          el.setAttribute("data-e2e", mark);
          el.scrollIntoView({ block: "center" });
          return true;
        },
        { selector, text, mark },
        { what: `${selector} with "${text}"` },
      );
      await d.click(`[data-e2e="${mark}"]`);
    },
    async errors() {
      const inPage = await d.run("() => globalThis.__e2eErrors ?? []", null).catch(() => []);
      return [...new Set([...d.own, ...inPage])];
    },
  };
  return page;
}

/**
 * Gives folder `dir` to the page's folder input (`selector`, an `<input webkitdirectory>`) as a
 * reader picking it does. Chromium's driver picks folders; Firefox's cannot (BiDi input.setFiles
 * refuses one: "Is directory") nor can WebKit's (it gives the folder as one file), so there the
 * input is handed the folder's files as the browser's folder picker hands them, each with its
 * path from the folder's own name (webkitRelativePath), and says it changed.
 */
export async function giveFolder(page, selector, dir) {
  if (page.engine === "chromium") return page.setFiles(selector, [dir]);
  const top = basename(dir);
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
  const payload = await Promise.all(files.map(async (f) => ({ path: [top, ...relative(dir, f).split(sep)].join("/"), text: await readFile(f, "utf8") })));
  await page.evaluate(
    ({ selector, payload }) => {
      const transfer = new DataTransfer();
      for (const { path, text } of payload) {
        const file = new File([text], path.split("/").pop());
        Object.defineProperty(file, "webkitRelativePath", { value: path });
        transfer.items.add(file);
      }
      const input = document.querySelector(selector);
      input.files = transfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
      return input.files.length;
    },
    { selector, payload },
  );
}

/** Reads a PNG's width and height. */
export function pngSize(path) {
  const png = readFileSync(path);
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}
