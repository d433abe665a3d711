// <cctv-viewer> from the packed package: a page whose own CSS styles `button`, `div` and `*` as
// loudly as it can shows the viewer exactly as a page without that CSS does (its styles are in
// the element's shadow root), with a fixture's first prompt and its sub-agents; keys work inside
// it, and selecting a row fires `cctv-select`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFile, cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { site, assertInReadme, withPackage, FIXTURES, ROOT } from "./harness.mjs";

const SESSION = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl";
const HOSTILE = `
  * { color: red !important; font-family: cursive !important; letter-spacing: 3px !important; line-height: 3 !important; }
  div { border: 5px solid magenta !important; padding: 20px !important; margin: 10px !important; background: yellow !important; }
  button { background: lime !important; padding: 30px !important; font-size: 30px !important; border-radius: 0 !important; }
`;
// The README's example (www/npm/element.html), under the page's own CSS; it shows session.jsonl.
const EXAMPLE = await readFile(join(ROOT, "www/npm/element.html"), "utf8");
const page = (css) => `<!doctype html><meta charset="utf-8"><style>${css}</style>\n${EXAMPLE}`;

// Attributes with hostile values (issue 37), each element named for what it attacks.
const MARKUP = "&quot;&gt;&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;";
const ATTACKS = `<!doctype html><meta charset="utf-8">
<script type="module" src="./node_modules/cctv/element.js"></script>
<cctv-viewer id="theme-with-markup" src="session.jsonl" theme="${MARKUP}"></cctv-viewer>
<cctv-viewer id="open-that-is-no-id" src="session.jsonl" open="${MARKUP}"></cctv-viewer>
<cctv-viewer id="src-javascript" src="javascript:window.__pwned=3"></cctv-viewer>
<cctv-viewer id="src-on-another-origin" src="http://127.0.0.1:9/session.jsonl"></cctv-viewer>
<cctv-viewer id="src-with-markup" src="${MARKUP}.jsonl"></cctv-viewer>`;

const web = site(async () => {
  const host = await withPackage("cctv-element-");
  const project = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
  await copyFile(join(project, SESSION), join(host, SESSION));
  await copyFile(join(project, SESSION), join(host, "session.jsonl"));
  await cp(join(project, SESSION.replace(".jsonl", "")), join(host, SESSION.replace(".jsonl", "")), { recursive: true });
  await writeFile(join(host, "plain.html"), page(""));
  await writeFile(join(host, "hostile.html"), page(HOSTILE));
  await writeFile(join(host, "missing.html"), page("").replace('src="session.jsonl"', 'src="missing.jsonl"'));
  await writeFile(join(host, "attacks.html"), ATTACKS);
  web.host = host;
  return host;
});

/** The computed styles that make the viewer's look, of its root, a row, a prompt and a button. */
async function look(name) {
  const context = await web.chrome.newContext({ viewport: { width: 1300, height: 1000 } });
  const tab = await context.newPage();
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  await tab.goto(web.server.url + name);
  // Playwright's locators pierce open shadow roots.
  await tab.locator("cctv-viewer .cctv-prompt").first().waitFor({ timeout: 20000 });
  const styles = await tab.evaluate(() => {
    const root = document.querySelector("cctv-viewer").shadowRoot;
    const keys = ["color", "background-color", "font-family", "font-size", "letter-spacing", "line-height", "padding", "margin", "border-top-width", "border-radius"];
    const of = (el) => Object.fromEntries(keys.map((k) => [k, getComputedStyle(el).getPropertyValue(k)]));
    return {
      root: of(root.querySelector(".cctv")),
      row: of(root.querySelector(".cctv-item")),
      prompt: of(root.querySelector(".cctv-prompt")),
      button: of(root.querySelector(".cctv-button")),
      box: root.querySelector(".cctv-prompt").getBoundingClientRect().toJSON(),
    };
  });
  return { context, tab, errors, styles };
}

test("<cctv-viewer> looks the same on a page whose CSS restyles button, div and *", async () => {
  const plain = await look("plain.html");
  const hostile = await look("hostile.html");
  assert.deepEqual(hostile.styles, plain.styles);
  // And that look is the viewer's own stylesheet's (a prompt's light-theme background).
  assert.equal(plain.styles.prompt["background-color"], "rgb(238, 244, 255)");
  assert.doesNotMatch(plain.styles.root["font-family"], /cursive/);
  // The host's rules did apply to the page itself.
  assert.equal(await hostile.tab.evaluate(() => getComputedStyle(document.body).color), "rgb(255, 0, 0)");
  // Files given through the property: the session with its sub-agents, nested under their calls.
  const folder = SESSION.replace(".jsonl", "");
  const names = [SESSION, ...(await readdir(join(web.host, folder, "subagents"))).map((f) => `${folder}/subagents/${f}`)];
  await hostile.tab.evaluate(async (names) => {
    document.querySelector("cctv-viewer").files = await Promise.all(
      names.map(async (name) => ({ name, bytes: new Uint8Array(await (await fetch(name)).arrayBuffer()) })),
    );
  }, names);
  await hostile.tab.locator("cctv-viewer .cctv-agent-toggle").first().click();
  await hostile.tab.locator('cctv-viewer .cctv-item[style*="--depth: 1"]').first().waitFor();
  assert.deepEqual(plain.errors, []);
  assert.deepEqual(hostile.errors, []);
  await plain.context.close();

  // Keys work inside the shadow root, and selecting a row is told to the page.
  const { tab } = hostile;
  await tab.evaluate(() => {
    window.selected = [];
    document.addEventListener("cctv-select", (e) => window.selected.push(e.detail.id));
  });
  await tab.locator("cctv-viewer .cctv-list").click({ position: { x: 5, y: 5 } });
  await tab.keyboard.press("j");
  await tab.waitForFunction(() => window.selected.length === 1);
  await tab.keyboard.press("/");
  assert.equal(await tab.evaluate(() => document.querySelector("cctv-viewer").shadowRoot.activeElement?.id), "cctv-search");
  // The theme attribute reaches the viewer.
  await tab.evaluate(() => document.querySelector("cctv-viewer").setAttribute("theme", "dark"));
  await tab.waitForFunction(() => document.querySelector("cctv-viewer").shadowRoot.querySelector(".cctv").dataset.theme === "dark");
  await hostile.context.close();
});

test("<cctv-viewer> whose src cannot be fetched says so inside it", async () => {
  const context = await web.chrome.newContext();
  const tab = await context.newPage();
  await tab.goto(web.server.url + "missing.html");
  await tab.locator("cctv-viewer .cctv").waitFor();
  await tab.locator('cctv-viewer [role="alert"]', { hasText: "missing.jsonl could not be fetched: HTTP 404" }).waitFor();
  // A src that can be fetched clears it.
  await tab.evaluate(() => document.querySelector("cctv-viewer").setAttribute("src", "session.jsonl"));
  await tab.locator("cctv-viewer .cctv-prompt").first().waitFor();
  assert.equal(await tab.locator('cctv-viewer [role="alert"]').isHidden(), true);
  await context.close();
});

test("<cctv-viewer> with hostile attributes says what is wrong as text, runs nothing, and its events carry no way in", async () => {
  const context = await web.chrome.newContext();
  const tab = await context.newPage();
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  await tab.goto(web.server.url + "attacks.html");
  const said = (id) => tab.locator(`#${id} [role="alert"]`);
  const markup = '"><img src=x onerror="window.__pwned=1">';
  await said("theme-with-markup").filter({ hasText: `theme ${JSON.stringify(markup)} is none of light, dark, system, auto: the system's is used` }).waitFor();
  await tab.locator("#theme-with-markup .cctv-prompt").first().waitFor();
  await said("open-that-is-no-id").filter({ hasText: `no row has the id ${JSON.stringify(markup)}` }).waitFor();
  // Taken away, it is no longer said.
  await tab.evaluate(() => document.querySelector("#open-that-is-no-id").removeAttribute("open"));
  await said("open-that-is-no-id").waitFor({ state: "hidden" });
  await said("src-javascript").filter({ hasText: "javascript:window.__pwned=3 could not be fetched" }).waitFor();
  await said("src-on-another-origin").filter({ hasText: "http://127.0.0.1:9/session.jsonl could not be fetched" }).waitFor();
  await said("src-with-markup").filter({ hasText: "could not be fetched: HTTP 404" }).waitFor();
  const report = await tab.evaluate(() => {
    const roots = [...document.querySelectorAll("cctv-viewer")].map((e) => e.shadowRoot);
    const all = roots.flatMap((r) => [...r.querySelectorAll("*")]);
    return {
      pwned: window.__pwned ?? null,
      images: all.filter((e) => e.tagName === "IMG").length,
      handlers: all.flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith("on")).map((a) => a.name)),
    };
  });
  assert.deepEqual(report, { pwned: null, images: 0, handlers: [] });
  // The viewer's event, heard by the host page: it comes from the element itself (no node of the
  // shadow root on its path) and carries a row's id, nothing else.
  await tab.evaluate(() => {
    const viewer = document.querySelector("#theme-with-markup");
    document.addEventListener("cctv-select", (e) => {
      const path = e.composedPath();
      window.heard = { first: path[0] === viewer, inside: path.filter((n) => n instanceof Node && viewer.shadowRoot.contains(n)).length, detail: Object.keys(e.detail), id: typeof e.detail.id };
    }, { once: true });
  });
  await tab.locator("#theme-with-markup .cctv-list").click({ position: { x: 5, y: 5 } });
  await tab.keyboard.press("j");
  await tab.waitForFunction(() => window.heard, null, { timeout: 10000 });
  const heard = await tab.evaluate(() => window.heard);
  assert.deepEqual(heard, { first: true, inside: 0, detail: ["id"], id: "string" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the README's custom-element example is the one this test shows", async () => {
  await assertInReadme("www/npm/element.html");
});
