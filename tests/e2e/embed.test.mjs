// The npm package as another page uses it: packed with `npm pack`, installed from the tarball into
// a scratch folder, imported by a plain ES module page (www/embed), in headless Chromium.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, readdir, copyFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { site, foreign, assertInReadme, withPackage, FIXTURES, ROOT } from "./harness.mjs";

const PKG = process.env.CCTV_PKG ?? join(ROOT, "pkg");
const MOREDIP = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
const SESSION = join(MOREDIP, "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl");

let host;
const web = site(async () => {
  host = await withPackage("cctv-embed-");
  for (const file of ["index.html", "main.js"]) await copyFile(join(ROOT, "www/embed", file), join(host, file));
  return host;
});

async function hostPage() {
  const context = await web.chrome.newContext({ viewport: { width: 1300, height: 1000 } });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(web.server.url);
  await page.locator("#viewer .cctv").waitFor();
  return { page, context, requests, errors };
}

test("the packed package has its name, types, files and README", async () => {
  const files = await readdir(join(PKG));
  const manifest = JSON.parse(await readFile(join(PKG, "package.json"), "utf8"));
  assert.equal(manifest.name, "cctv");
  for (const key of ["version", "description", "license", "repository", "files", "types"]) assert.ok(manifest[key], key);
  assert.ok(files.includes("README.md") && files.includes("cctv.d.ts"));
  const types = await readFile(join(PKG, "cctv.d.ts"), "utf8");
  for (const name of ["parseTranscript", "normalizeSession", "findSecrets", "exportMarkdown", "exportHtml", "mountViewer", "class ViewerHandle"]) assert.match(types, new RegExp(name));
});

test("parseTranscript and normalizeSession work on real files in the host page", async () => {
  const { page, context, errors } = await hostPage();
  const session = await readFile(SESSION, "utf8");
  const agents = await readdir(join(MOREDIP, "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents"));
  const files = [{ name: "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl", text: session }];
  for (const a of agents) {
    files.push({ name: `0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/${a}`, text: await readFile(join(MOREDIP, "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents", a), "utf8") });
  }
  const result = await page.evaluate(async (files) => {
    const cctv = await import("/node_modules/cctv/cctv.js");
    const parsed = cctv.parseTranscript(new TextEncoder().encode(files[0].text));
    const normalized = cctv.normalizeSession(files.map((f) => ({ name: f.name, bytes: f.text })));
    let error = null;
    try {
      cctv.normalizeSession([{ bytes: "x" }]);
    } catch (e) {
      error = e.message;
    }
    return { lines: parsed.lines.length, census: parsed.census, normalized, error };
  }, files);
  assert.equal(result.lines, 86);
  assert.equal(result.census.user, 24);
  assert.equal(result.census["system/api_error"], 9);
  const [s] = result.normalized.sessions;
  assert.equal(result.normalized.sessions.length, 1);
  assert.equal(s.agents.length, 5);
  assert.ok(s.agents.every((a) => a.spawnedBy && a.spawnedBy.evidence === "ResultAgentId"));
  assert.equal(s.accounting.rendered + s.accounting.merged + Object.values(s.accounting.notShown).reduce((a, b) => a + b, 0), s.accounting.lines);
  assert.ok(s.items.some((i) => i.kind === "toolCall" && i.tool.name === "Task" && i.tool.agent !== undefined));
  assert.match(result.error, /no string `name`/, "bad input crosses as an exception with a message");
  assert.deepEqual(errors, []);
  await context.close();
});

test("exportMarkdown masks every certain secret unless asked to keep it; findSecrets lists them", async () => {
  const { page, context, errors } = await hostPage();
  const session = await readFile(SESSION, "utf8");
  // A token made here (so that no string in this file is one), in a prompt added at the end.
  let x = 7;
  const token = "ghp_" + Array.from({ length: 36 }, () => "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz"[(x = (x * 1103515245 + 12345) % 2147483648) % 31]).join("");
  const lines = session.trimEnd().split("\n");
  const last = lines.map((l) => JSON.parse(l)).findLast((l) => l.uuid);
  lines.push(JSON.stringify({ type: "user", uuid: "6f1d2c3b-0000-4000-8000-000000000001", parentUuid: last.uuid, sessionId: last.sessionId, timestamp: "2026-01-23T00:00:00.000Z", message: { role: "user", content: `push with ${token} and mail ada@analytical.engine.uk` } }));
  const files = [{ name: "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl", bytes: lines.join("\n") + "\n" }];
  const result = await page.evaluate(async (files) => {
    const cctv = await import("/node_modules/cctv/cctv.js");
    return {
      findings: cctv.findSecrets(files),
      masked: cctv.exportMarkdown(files),
      kept: cctv.exportMarkdown(files, { keep: ["github-pat"] }),
      first: cctv.exportMarkdown(files, { turns: [0, 1], toolOutput: false }),
    };
  }, files);
  const found = result.findings.find((f) => f.text === token);
  assert.equal(found.rule, "github-pat");
  assert.equal(found.certain, true);
  assert.ok(result.findings.some((f) => f.kind === "email" && f.text === "ada@analytical.engine.uk"));
  // In a quoted prompt Markdown's own characters are escaped: ghp\_…
  const written = token.replace("_", "\\_");
  assert.ok(!result.masked.includes(token) && !result.masked.includes(written) && result.masked.includes("REDACTED github-pat"));
  assert.ok(!result.masked.includes("ada@analytical.engine.uk"));
  assert.ok(result.kept.includes(written) && !result.kept.includes("ada@analytical.engine.uk"), "only what was asked is kept");
  assert.match(result.masked, /^# .+\n/);
  const turns = result.masked.match(/^## \d+\. /gm);
  assert.ok(turns.length >= 2, result.masked.slice(0, 500));
  assert.equal(result.first.match(/^## \d+\. /gm).length, 1);
  assert.ok(!result.first.includes("<summary>output</summary>"));
  assert.deepEqual(errors, []);
  await context.close();
});

test("exportHtml makes one file of the package's viewer and the masked session, which opens offline", async () => {
  const { page, context, errors } = await hostPage();
  const session = await readFile(SESSION, "utf8");
  const mail = "ada@analytical.engine.uk";
  const files = [{ name: "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl", bytes: session.replace("Spaw sub-agents", `Spaw sub-agents (ask ${mail})`) }];
  const html = await page.evaluate(async (files) => (await import("/node_modules/cctv/cctv.js")).exportHtml(files), files);
  assert.match(html, /^<!doctype html>/);
  assert.ok(!html.includes(mail) && html.includes('id="cctv-session"'));
  assert.deepEqual(errors, []);
  await context.close();

  const path = join(await mkdtemp(join(tmpdir(), "cctv-export-")), "shared.html");
  await writeFile(path, html);
  const offline = await web.chrome.newContext({ offline: true });
  const reader = await offline.newPage();
  const problems = [];
  reader.on("pageerror", (e) => problems.push(String(e)));
  reader.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  await reader.goto(pathToFileURL(path).href);
  await reader.locator(".cctv-item", { hasText: "Spaw sub-agents (ask [email])" }).waitFor();
  assert.deepEqual(problems, []);
  await offline.close();
});

test("mountViewer shows the viewer inside the host element, leaves the host alone, and destroy removes it", async () => {
  const { page, context, requests, errors } = await hostPage();
  const before = await page.evaluate(() => getComputedStyle(document.querySelector("#host-text")).fontFamily);
  const files = (await readdir(MOREDIP, { recursive: true })).filter((f) => f.endsWith(".jsonl")).map((f) => join(MOREDIP, f));
  await page.setInputFiles("#files", files);
  await page.locator("#viewer .cctv-item").first().waitFor();
  await page.waitForFunction(() => document.querySelector("#summary").textContent.includes("5 sub-agents"));
  assert.ok(await page.locator("#viewer .cctv-tool__name", { hasText: "Task" }).count() >= 1, "panels render inside the host element");
  assert.equal(await page.locator(".cctv").count(), 1, "nothing of the viewer outside it");
  assert.equal(await page.locator("#host-title").textContent(), "My project's notes");
  // The syntax grammars come from beside the package's wasm, not from the host page's folder.
  const grammars = await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.endsWith("grammars.packdump")).map((r) => [new URL(r.name).pathname, r.responseStatus]));
  assert.deepEqual(grammars, [["/node_modules/cctv/grammars.packdump", 200]]);
  const after = await page.evaluate(() => getComputedStyle(document.querySelector("#host-text")).fontFamily);
  assert.equal(after, before, "the viewer's styles do not reach the host's text");
  const viewerFont = await page.evaluate(() => getComputedStyle(document.querySelector("#viewer .cctv")).fontFamily);
  assert.ok(!viewerFont.includes("Georgia"), "nor do the host's styles reach the viewer: " + viewerFont);
  await page.click("#close");
  await page.waitForFunction(() => !document.querySelector("#viewer .cctv"));
  assert.equal(await page.locator("#viewer *").count(), 0, "destroy() removed everything it added");
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the README's plain-page example is the page this test runs", async () => {
  await assertInReadme("www/embed/main.js");
});
