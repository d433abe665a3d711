// A reader's path through the built site on each engine a reader may use: Chromium, Firefox
// (firefox-esr) and WebKit (WebKitGTK's MiniBrowser), driven through engines.mjs. Open files and
// read them with panels open, search with marks, the overview, a permalink, a folder's list of
// every session (counted and searched by workers), Share → Download HTML and the file it makes,
// the <cctv-viewer> element, the phone's width, and a reload offline. What an engine lacks
// (showDirectoryPicker: following, a kept folder) the page says and offers what works instead.
// Each page must report no error. The rest of the suite runs on Chromium only.
//
// Screenshots of the same session at desktop and phone width go to
// target/screenshots-engines/<engine>-{desktop,phone}.png, to be looked at side by side.

import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { serve, withPackage, DIST, FIXTURES, ROOT } from "./harness.mjs";
import { ENGINES, EXTRA, ERRORS_HEAD, catchErrors, launch, giveFolder } from "./engines.mjs";
import { writeProjects, PLANTED } from "./projects.mjs";

const GENERAL = join(FIXTURES, "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl");
const MAROT = join(FIXTURES, "marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl");
const MOREDIP = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
const SESSION = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68";
const SHOTS = join(ROOT, "target/screenshots-engines");

const FILES = "input[type=file]:not([webkitdirectory])";
const FOLDER = "input[type=file][webkitdirectory]";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let site;
let scratch;
let host;
before(async () => {
  site = await serve(DIST, "/", { extra: EXTRA, head: ERRORS_HEAD });
  scratch = await mkdtemp(join(tmpdir(), "cctv-core-"));
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await site?.close();
  const served = await host;
  await served?.close();
  if (served?.dir) await rm(served.dir, { recursive: true, force: true });
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A page with the README's <cctv-viewer> example, the packed package installed beside it
 *  (made once, for the first engine that asks). */
function elementHost() {
  host ??= (async () => {
    const dir = await withPackage("cctv-core-element-");
    await copyFile(join(MOREDIP, `${SESSION}.jsonl`), join(dir, "session.jsonl"));
    await cp(join(ROOT, "www/npm/element.html"), join(dir, "element.html"));
    // The example page names no icon: Chromium asks for /favicon.ico, an error were it missing.
    const served = await serve(dir, "/", { extra: { ...EXTRA, "favicon.ico": "" }, head: ERRORS_HEAD });
    served.dir = dir;
    return served;
  })();
  return host;
}

/** Waits until the viewer shows a session whose title contains `text`. */
const titled = (page, text) =>
  page.waitFor((t) => [...document.querySelectorAll(".cctv-title, .cctv-sessions option")].some((e) => e.textContent.includes(t)), text, { what: `the title "${text}"` });

/** Whether every panel on screen is open (the list draws only the rows on screen). */
function allOpen() {
  const headers = [...document.querySelectorAll(".cctv-panel__header")];
  return headers.length > 0 && headers.every((h) => h.getAttribute("aria-expanded") === "true") && document.querySelectorAll(".cctv-panel__body").length >= headers.length;
}

/** Waits for the page's transitions (a panel's chevron turning) to end, for a screenshot. */
const settled = (page) => page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)).then(() => true));

/** Opens the site (at `hash`) and waits for the viewer's first rows. */
async function visit(page, hash = "") {
  await page.goto(site.url + hash);
  await page.waitFor(() => document.querySelector(".cctv-item"), null, { what: "the viewer's rows" });
}

for (const name of ENGINES.filter((e) => !process.env.ENGINES || process.env.ENGINES.split(",").includes(e))) {
  describe(name, () => {
    let engine;
    const pages = [];
    /** A page of this engine at `size`, closed after the test file. */
    const newPage = async (size = DESKTOP) => {
      const page = await engine.page(size);
      pages.push(page);
      return page;
    };
    const done = async (page) => {
      assert.deepEqual(await page.errors(), []);
      await page.close();
      pages.splice(pages.indexOf(page), 1);
    };
    before(async () => {
      engine = await launch(name);
    });
    after(async () => {
      for (const page of pages) await page.close().catch(() => {});
      await engine?.close();
    });

    test("files open, read with every panel open, searched with marks, and the overview", async () => {
      const page = await newPage();
      await visit(page);
      await page.setFiles(FILES, [GENERAL]);
      await titled(page, "Session Share");
      assert.equal(await page.evaluate(allOpen), false, "panels start closed");
      // e: Expand all.
      await page.press("e");
      await page.waitFor(allOpen, null, { what: "every panel opened by e" });
      await settled(page);
      await page.screenshot(join(SHOTS, `${name}-desktop.png`));

      // The last line of `claude --help`'s output, far down a panel that scrolls on its own.
      await page.type("#cctv-search", "install if available");
      // The search's end: while it runs, the count says "… so far".
      await page.waitFor(() => /match/.test(document.querySelector(".cctv-search__count")?.textContent) && !/so far/.test(document.querySelector(".cctv-search__count").textContent), null, { what: "the count of matches" });
      await page.press("Enter");
      const current = await page.waitFor(() => document.querySelector("mark.cctv-mark--current")?.textContent, null, { what: "the current mark" });
      assert.equal(current.toLowerCase(), "install if available");
      assert.match(await page.evaluate(() => document.querySelector(".cctv-item--target").textContent), /Check for updates and install if available/);
      // The mark is in view in its scrolled panel.
      const shown = await page.evaluate(() => {
        const box = document.querySelector("mark.cctv-mark--current").getBoundingClientRect();
        for (let el = document.querySelector("mark.cctv-mark--current").parentElement; el; el = el.parentElement) {
          const outer = el.getBoundingClientRect();
          if (el.scrollHeight > el.clientHeight + 1 && (box.top < outer.top - 1 || box.bottom > outer.bottom + 1)) return `hidden in ${el.className}`;
        }
        return "shown";
      });
      assert.equal(shown, "shown");
      await page.press("Escape");

      await page.clickText("button", "Overview");
      const figure = await page.waitFor(() => document.querySelector(".cctv-overview__figure")?.textContent, null, { what: "the overview" });
      assert.match(figure, /^\$\d/);
      // The sections are drawn one per frame: the context chart comes after the cost.
      await page.waitFor(() => document.querySelectorAll(".cctv-chart__point").length >= 2, null, { what: "the context chart's points" });
      await page.press("Escape");
      await page.waitFor(() => !document.querySelector(".cctv-overview")?.getClientRects().length, null, { what: "the overview to close" });
      await done(page);
    });

    test("at a phone's width nothing scrolls sideways, with a session open", async () => {
      const page = await newPage(PHONE);
      await visit(page);
      assert.deepEqual(await page.evaluate(() => [innerWidth, document.documentElement.scrollWidth]), [390, 390]);
      await page.setFiles(FILES, [GENERAL]);
      await titled(page, "Session Share");
      await page.press("e");
      await page.waitFor(allOpen, null, { what: "every panel opened by e" });
      await settled(page);
      await page.screenshot(join(SHOTS, `${name}-phone.png`));
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
      // No row reaches past the screen's edge.
      const wide = await page.evaluate(() => [...document.querySelectorAll(".cctv-item")].filter((r) => r.getBoundingClientRect().right > 390.5).length);
      assert.equal(wide, 0);
      await done(page);
    });

    test("a link to a row opens that row once its file is opened", async () => {
      const row = "50f89f4c-76d1-4fa8-96ec-04c57bfc6a4d";
      const page = await newPage();
      await visit(page, `#s=8463c716-a2ea-4c14-9efa-87158ebd9f20&i=${row}`);
      const note = await page.waitFor(() => document.querySelector(".cctv-demo-note[role=status]")?.textContent, null, { what: "the note on the link" });
      assert.match(note, /links to a row of session .*8463c716.* that is not open/);
      await page.setFiles(FILES, [MAROT]);
      const target = await page.waitFor((id) => document.querySelector(`.cctv-item--target[data-id="${id}"]`)?.textContent, row, { what: "the linked row" });
      assert.match(target, /Need lazy_html dependency/);
      // In view, inside the list.
      const inView = await page.evaluate((id) => {
        const box = document.querySelector(`.cctv-item[data-id="${id}"]`).getBoundingClientRect();
        const list = document.querySelector(".cctv-list").getBoundingClientRect();
        return box.top >= list.top - 1 && box.top < list.bottom;
      }, row);
      assert.ok(inView, "the row is in view");
      await done(page);
    });

    test("a folder opens on the list of every session, counted and searched by workers", async () => {
      const root = join(scratch, `${name}-projects`);
      await writeProjects(root, { projects: 2, perProject: 5, plant: [1, 3] });
      const page = await newPage();
      await visit(page);
      // The list's workers started, counted (the site starts one of its own to warm Share's
      // scan); and the folder picker the page asks for, seen.
      await page.evaluate(() => {
        const Original = globalThis.Worker;
        globalThis.__e2eWorkers = 0;
        globalThis.Worker = class extends Original {
          constructor(...args) {
            super(...args);
            const post = this.postMessage.bind(this);
            this.postMessage = (message, transfer) => {
              if (message?.role === "list") globalThis.__e2eWorkers++;
              return post(message, transfer);
            };
          }
        };
        globalThis.__e2eWarnings = [];
        const warn = console.warn;
        console.warn = (...args) => {
          globalThis.__e2eWarnings.push(args.join(" "));
          warn.apply(console, args);
        };
        globalThis.__e2ePicked = [];
        const click = HTMLInputElement.prototype.click;
        HTMLInputElement.prototype.click = function () {
          // The dialog is not opened: a test cannot answer it.
          if (this.type === "file") globalThis.__e2ePicked.push(this.hasAttribute("webkitdirectory") ? "folder input" : "files input");
          else click.call(this);
        };
        if (typeof showDirectoryPicker === "function") {
          globalThis.showDirectoryPicker = async () => {
            globalThis.__e2ePicked.push("showDirectoryPicker");
            throw new DOMException("cancelled", "AbortError");
          };
        }
      });
      const hasPicker = await page.evaluate(() => typeof showDirectoryPicker === "function");
      assert.equal(hasPicker, name === "chromium", "only Chromium has showDirectoryPicker");
      await page.clickText("button", "Open folder");
      const picked = await page.waitFor(() => globalThis.__e2ePicked.length && globalThis.__e2ePicked, null, { what: "a picker" });
      // Where the browser cannot keep a folder's handle, the folder input picks it.
      assert.deepEqual(picked, [hasPicker ? "showDirectoryPicker" : "folder input"]);

      await giveFolder(page, FOLDER, root);
      await page.waitFor(() => document.querySelectorAll(".cctv-library__project").length === 2, null, { what: "two projects" });
      assert.match(await page.evaluate(() => document.querySelector(".cctv-library__totals").textContent), /2 projects · 10 sessions/);
      await page.waitFor(() => [...document.querySelectorAll(".cctv-library__session")].some((s) => s.textContent.includes("1 prompt · 2 tool calls · 1 sub-agent")), null, { what: "a session counted" });
      await page.type(".cctv-library__search", PLANTED);
      await page.press("Enter");
      await page.waitFor(() => /1 match in 1 of 10 sessions/.test(document.querySelector(".cctv-library__results [role=status]")?.textContent ?? ""), null, { what: "the search's result" });
      assert.match(await page.evaluate(() => document.querySelector(".cctv-library__hit").textContent), /sub-agent · Bash/);
      assert.ok((await page.evaluate(() => globalThis.__e2eWorkers)) >= 1, "workers started");
      assert.deepEqual(await page.evaluate(() => globalThis.__e2eWarnings.filter((w) => /no worker/.test(w))), []);
      // The result opens its session at that row, inside the sub-agent's conversation.
      await page.clickText(".cctv-library__hit", PLANTED);
      const style = await page.waitFor(() => document.querySelector(".cctv-item--target")?.getAttribute("style"), null, { what: "the found row" });
      assert.match(style, /--depth: 1/);
      await done(page);
    });

    test("where following cannot work the page says so and offers opening the file", async () => {
      const page = await newPage();
      await visit(page);
      const can = await page.evaluate(() => typeof showDirectoryPicker === "function");
      assert.equal(can, name === "chromium");
      if (!can) {
        await page.clickText("button", "Follow");
        const said = await page.waitFor(() => document.querySelector(".cctv-errors[role=alert]")?.textContent, null, { what: "what the page says" });
        assert.match(said, /needs a Chromium-based browser.*Open the file instead/);
        // It offers that at once: its button asks for files with the files input.
        await page.evaluate(() => {
          globalThis.__e2ePicked = [];
          HTMLInputElement.prototype.click = function () {
            globalThis.__e2ePicked.push(this.hasAttribute("webkitdirectory") ? "folder input" : "files input");
          };
        });
        await page.clickText(".cctv-errors button", "Open files");
        assert.deepEqual(await page.waitFor(() => globalThis.__e2ePicked.length && globalThis.__e2ePicked, null, { what: "a picker" }), ["files input"]);
        assert.equal(await page.evaluate(() => document.querySelector(".cctv-errors")), null, "the message goes");
        await page.setFiles(FILES, [GENERAL]);
        await titled(page, "Session Share");
      } else {
        // Chromium follows (follow.test.mjs); nothing is said against it.
        assert.equal(await page.evaluate(() => document.querySelector(".cctv-errors")), null);
      }
      await done(page);
    });

    test("Share → Download HTML makes a file that opens and works in this engine", async () => {
      const page = await newPage();
      await visit(page);
      // The download, kept in the page (drivers save downloads differently or not at all; that
      // Chromium saves it is share.test.mjs's).
      await page.evaluate(() => {
        const made = new Map();
        const create = URL.createObjectURL;
        URL.createObjectURL = (blob) => {
          const url = create.call(URL, blob);
          made.set(url, blob);
          return url;
        };
        globalThis.__e2eDownloads = [];
        HTMLAnchorElement.prototype.click = async function () {
          const blob = made.get(this.href);
          if (this.download && blob) globalThis.__e2eDownloads.push({ name: this.download, text: await blob.text() });
        };
      });
      await page.setFiles(FILES, [join(MOREDIP, `${SESSION}.jsonl`)]);
      await titled(page, "Spawn curry poem agents");
      await page.clickText(".cctv-side__tab", "Share");
      await page.waitFor(() => document.querySelector(".cctv-share__counts"), null, { what: "the Share tab" });
      await page.clickText("button", "Download HTML");
      const saved = await page.waitFor(() => /Saved/.test(document.querySelector(".cctv-share__status")?.textContent) && globalThis.__e2eDownloads[0], null, { what: "the download" });
      assert.equal(saved.name, `session-${SESSION}.html`);
      await done(page);

      const file = join(scratch, `${name}-${saved.name}`);
      await writeFile(file, saved.text);
      const reader = await newPage();
      await reader.goto(pathToFileURL(file).href);
      // The file's policy allows its own script only; errors are caught from here on.
      await reader.evaluate(catchErrors);
      await titled(reader, "Spawn curry poem agents");
      await reader.type("#cctv-search", "curry");
      await reader.waitFor(() => document.querySelector("mark.cctv-mark"), null, { what: "a mark in the file" });
      await reader.clickText(".cctv-side__tab", "Session");
      await reader.waitFor(() => /sub-agents\s*\d/.test(document.querySelector(".cctv-stats")?.textContent ?? ""), null, { what: "the session's stats" });
      await done(reader);
    });

    test("<cctv-viewer> shows a session on a page of its own", async () => {
      const served = await elementHost();
      const page = await newPage();
      await page.goto(served.url + "element.html");
      const prompt = await page.waitFor(() => document.querySelector("cctv-viewer")?.shadowRoot?.querySelector(".cctv-prompt")?.textContent, null, { what: "the element's first prompt" });
      assert.match(prompt, /curry/i);
      const background = await page.evaluate(() => getComputedStyle(document.querySelector("cctv-viewer").shadowRoot.querySelector(".cctv-prompt")).backgroundColor);
      assert.equal(background, "rgb(238, 244, 255)");
      await done(page);
    });

    test("once visited, the site reloads with its server gone", async () => {
      // Served as it is: a script put into the page would be missing once the server is gone.
      const own = await serve(DIST);
      const page = await newPage();
      try {
        await page.goto(own.url);
        await page.waitFor(() => document.querySelector(".cctv-item"), null, { what: "the viewer's rows" });
        await page.evaluate(catchErrors);
        await page.waitFor(async () => (await navigator.serviceWorker.getRegistration())?.active?.state === "activated" && (await caches.keys()).length > 0, null, { what: "the service worker", timeout: 30000 });
      } finally {
        await own.close();
      }
      await page.evaluate(() => {
        globalThis.__e2eOld = true;
        setTimeout(() => location.reload(), 0);
      });
      await page.waitFor(() => !globalThis.__e2eOld && document.querySelector(".cctv-item"), null, { what: "the viewer, reloaded offline" });
      await page.evaluate(catchErrors);
      await titled(page, "Add a --verbose flag to the greet CLI");
      await done(page);
    });
  });
}
