// The package as bundled apps use it: the README's app (www/npm/app) under Vite's dev server,
// built by `vite build` and built by webpack, from the packed tarball with no configuration,
// opened in Chromium and shown a project folder with a session and its sub-agents, which it
// exports as a shared HTML page.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assertInReadme, browser, foreign, FIXTURES, ROOT } from "./harness.mjs";
import { BUNDLERS, app } from "./bundlers.mjs";

const PROJECT = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
const ARCHIVES = join(FIXTURES, "M-Thisness__M-Claude/Archives");
const GRAMMARS = await readFile(join(ROOT, "www/grammars.packdump"));

let chrome;
after(() => chrome?.close());

for (const setup of BUNDLERS) {
  test(`the README's app under ${setup} shows a project's session with its sub-agents nested`, { timeout: 240_000 }, async (t) => {
    const site = await app(setup);
    // Closed whatever happens: an open server would keep the test process from ending.
    t.after(() => site.close());
    chrome ??= await browser();
    const context = await chrome.newContext({ viewport: { width: 1300, height: 900 }, acceptDownloads: true });
    t.after(() => context.close());
    const page = await context.newPage();
    const problems = [];
    const requests = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("console", (m) => ["error", "warning"].includes(m.type()) && problems.push(m.text()));
    context.on("request", (r) => requests.push(r.url()));
    context.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    // The grammars are fetched after the first screen is drawn: nothing else waits for them. (A
    // dev server answers a wrong address with its page, and status 200.)
    const grammars = context.waitForEvent("response", (r) => r.url().endsWith(".packdump")).then(async (r) => (await r.body()).equals(GRAMMARS), String);
    await page.goto(site.url);
    await page.locator("#viewer .cctv").waitFor();
    await page.locator("#folder").setInputFiles(PROJECT);
    // The first prompt, then a sub-agent opened under the call that spawned it.
    await page.locator("#viewer .cctv-prompt").first().filter({ hasText: "Spaw sub-agents to write poems about Thai green curry" }).waitFor();
    await page.locator("#viewer .cctv-agent-toggle").first().click();
    await page.locator('#viewer .cctv-item[style*="--depth: 1"]').first().waitFor();
    // The wasm and the grammars were found where the bundler put them: one request each, and
    // the grammars are the package's, not a page.
    const fetched = (end) => requests.filter((r) => new URL(r).pathname.endsWith(end));
    assert.equal(fetched(".wasm").length, 1, requests.join("\n"));
    assert.equal(fetched(".packdump").length, 1, requests.join("\n"));
    assert.equal(await grammars, true);
    assert.deepEqual(problems, []);
    assert.deepEqual(foreign(requests, site.url), []);
    // Download HTML copies the package's own viewer, from where the bundler put it, into one file
    // that opens from the disk with the session and its sub-agents.
    await page.getByRole("tab", { name: "Share" }).click();
    const html = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download HTML" }).click();
    const shared = join(await mkdtemp(join(tmpdir(), "cctv-shared-")), "shared.html");
    await (await html).saveAs(shared);
    const reader = await context.newPage();
    await reader.goto(pathToFileURL(shared).href);
    await reader.locator(".cctv-prompt").first().filter({ hasText: "Spaw sub-agents to write poems" }).waitFor();
    await reader.locator(".cctv-agent-toggle").first().click();
    await reader.locator('.cctv-item[style*="--depth: 1"]').first().waitFor();
    await reader.close();
    const markdown = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download Markdown" }).click();
    assert.match((await markdown).suggestedFilename(), /\.md$/);
    // The viewer's own "Open folder" lists a folder's sessions, read on the page (the bundle has no
    // worker.js beside it).
    await page.locator("#viewer input[webkitdirectory]").setInputFiles(ARCHIVES);
    await page.locator("#viewer", { hasText: "1 project · 3 sessions" }).waitFor();
    await page.locator("#viewer .cctv-library__title", { hasText: "review, proposal improvemets" }).waitFor();
  });
}

test("the README's Vite and webpack examples are the apps these tests build", async () => {
  for (const file of ["src/index.js", "vite/index.html", "webpack/dist/index.html"]) await assertInReadme(`www/npm/app/${file}`);
});
