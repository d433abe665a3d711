// Takes the README's screenshots from the built site: the demo and a real fixture, light and dark,
// and the list of every session.
// Run with `make screenshots`; look at them before committing.

import { cp, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, browser, open, drop, waitForTitle, appendPrivate, FIXTURES, ROOT } from "./harness.mjs";

const out = join(ROOT, "www/screenshots");
await mkdir(out, { recursive: true });
const server = await serve();
const chrome = await browser();
for (const scheme of ["light", "dark"]) {
  const { page, context } = await open(chrome, server.url, { colorScheme: scheme });
  await waitForTitle(page, "greet CLI");
  // Open the Edit diff and the Bash output, as a reader would.
  for (const name of ["Edit", "Bash"]) {
    await page.locator(".cctv-tool__panel > .cctv-panel__header", { has: page.locator(".cctv-tool__name", { hasText: new RegExp(`^${name}$`) }) }).first().click();
  }
  await page.locator(".cctv-diff").first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(out, `demo-${scheme}.png`) });

  await drop(page, [{ path: join(FIXTURES, "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl") },
    ...["a5bdbc1", "a9cad17", "aa5ef13", "ac27727", "afbbf75"].map((id) => ({ path: join(FIXTURES, `moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-${id}.jsonl`) }))]);
  await waitForTitle(page, "Spawn curry poem agents");
  await page.locator(".cctv-agent-toggle").first().click();
  await page.locator('.cctv-item[style*="--depth: 1"]').first().waitFor();
  await page.screenshot({ path: join(out, `fixture-${scheme}.png`) });
  await context.close();
}
// What Claude Code writes around the conversation, from the demo: a rejected tool use next to an
// API error, and at the end a slash command with its output and a bash-mode command.
{
  const { page, context } = await open(chrome, server.url, { colorScheme: "light", viewport: { width: 1280, height: 800 } });
  await waitForTitle(page, "greet CLI");
  const rejected = page.locator(".cctv-tool", { has: page.locator(".cctv-badge", { hasText: "rejected" }) });
  for (let i = 0; i < 40 && !(await rejected.count()); i++) await page.evaluate(() => (document.querySelector(".cctv-list").scrollTop += 300));
  await rejected.first().locator(".cctv-panel__header").click();
  await rejected.first().evaluate((e) => e.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: join(out, "around-rejected-light.png") });
  await page.evaluate(() => { const l = document.querySelector(".cctv-list"); l.scrollTop = l.scrollHeight; });
  await page.locator(".cctv-command", { hasText: "git log" }).waitFor();
  await page.screenshot({ path: join(out, "around-commands-light.png") });
  await context.close();
}
// Finding things on a desktop and on a phone: search marks in the real general-tool-calls session
// with its contents beside it at 1280 wide, and at phone size in both themes.
const GENERAL = join(FIXTURES, "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl");
for (const [name, viewport, scheme] of [
  ["search-light", { width: 1280, height: 800 }, "light"],
  ["phone-light", { width: 390, height: 844 }, "light"],
  ["phone-dark", { width: 390, height: 844 }, "dark"],
]) {
  const { page, context } = await open(chrome, server.url, { colorScheme: scheme, viewport });
  await drop(page, [{ path: GENERAL }]);
  await waitForTitle(page, "Session Share");
  await page.fill("#cctv-search", "plugin");
  await page.press("#cctv-search", "Enter");
  await page.press("#cctv-search", "Enter");
  await page.locator("mark.cctv-mark--current").first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, `${name}.png`) });
  await context.close();
}
// The Share tab's preview: the moredip session with a token and an address planted in its first
// prompt (made here, so that no string in this file is a credential), masked in the row.
{
  const MOREDIP = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
  const ID = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68";
  let x = 7;
  const token = "ghp_" + Array.from({ length: 36 }, () => "aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz"[(x = (x * 1103515245 + 12345) % 2147483648) % 31]).join("");
  const lines = (await readFile(join(MOREDIP, `${ID}.jsonl`), "utf8")).split("\n");
  const n = lines.findIndex((l) => l && /^Spaw/.test(JSON.parse(l).message?.content ?? ""));
  const prompt = JSON.parse(lines[n]);
  prompt.message.content += `\n\nPush the poems with ${token} and mail them to ada@analytical.engine.uk`;
  lines[n] = JSON.stringify(prompt);
  const { page, context } = await open(chrome, server.url, { colorScheme: "light", viewport: { width: 1280, height: 800 } });
  await drop(page, [{ name: `${ID}.jsonl`, bytes: Buffer.from(lines.join("\n")) }]);
  await waitForTitle(page, "Spawn curry poem agents");
  await page.click(".cctv-side__tab >> text=Share");
  await page.locator(".cctv-conversation mark.cctv-mark--masked").first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, "share-light.png") });
  await context.close();
}
// The overview of a real 2.1 session: its cost, context, timeline; light and dark.
for (const scheme of ["light", "dark"]) {
  const { page, context } = await open(chrome, server.url, { colorScheme: scheme, viewport: { width: 1280, height: 1250 } });
  await drop(page, [{ path: join(FIXTURES, "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl") }]);
  await page.waitForFunction(() => !document.querySelector(".cctv-demo-note"));
  await page.click("button:has-text('Overview')");
  await page.locator(".cctv-timeline").waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, `overview-${scheme}.png`) });
  await context.close();
}
// A session followed while it is written: the project in the page's private file system, its
// sub-agents' conversation open, and lines appended below where the reader is.
{
  const { page, context } = await open(chrome, server.url, { colorScheme: "light", viewport: { width: 1280, height: 800 } });
  const project = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
  const session = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68";
  const lines = (await readFile(join(project, `${session}.jsonl`), "utf8")).split("\n").filter(Boolean);
  const write = (path, text) => appendPrivate(page, path, text);
  await write(`p/${session}.jsonl`, lines.slice(0, 30).join("\n") + "\n");
  for (const id of ["a5bdbc1", "a9cad17", "aa5ef13"]) {
    await write(`p/${session}/subagents/agent-${id}.jsonl`, await readFile(join(project, session, "subagents", `agent-${id}.jsonl`), "utf8"));
  }
  await page.evaluate(() => { window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle("p"); });
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await page.locator(".cctv-live").waitFor();
  await page.locator(".cctv-agent-toggle").first().click();
  await page.locator(".cctv-list").evaluate((el) => el.scrollTo(0, 0));
  await write(`p/${session}.jsonl`, lines.slice(30, 36).join("\n") + "\n");
  await page.locator(".cctv-fresh").waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, "follow-light.png") });
  await context.close();
}
// The list of every session: real projects folders from the fixtures, put together as one
// ~/.claude/projects, one project open.
{
  const root = await mkdtemp(join(tmpdir(), "cctv-projects-"));
  const copy = (from, to = "") => cp(join(FIXTURES, from), join(root, to), { recursive: true });
  await copy("handgemacht-ai__claude-code-log/test/test_data/real_projects");
  await copy("tensiondriven__athena/data/claude-logs/archive/20250608_234910_claude_projects_backup");
  await copy("moredip__session-share/samples/claude-code-projects", "-Users-me-moredip");
  const { page, context } = await open(chrome, server.url, { colorScheme: "light", viewport: { width: 1400, height: 800 } });
  await page.locator('input[type="file"]').nth(1).setInputFiles(root);
  await page.waitForFunction(() => document.querySelectorAll(".cctv-library__project").length && !document.querySelector(".cctv-library__status"));
  await page.locator(".cctv-library__project", { hasText: "deep-manifest" }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, "library.png") });
  await context.close();
  await rm(root, { recursive: true, force: true });
}
await chrome.close();
await server.close();
console.log("screenshots written to", out);
