// The built site in real headless Chromium: what a person sees after opening the page, dropping
// real transcripts from ../shared/fixtures, following a #uuid link, searching, and dropping the
// wrong file. Every test also checks that the page made no request outside its own origin.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { site, open, drop, foreign, waitForTitle, FIXTURES, ROOT } from "./harness.mjs";

const web = site();

const MOREDIP = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
const GENERAL = join(FIXTURES, "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl");

async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return out.sort();
}

async function openToolByName(page, name, nth = 0) {
  const header = page.locator(".cctv-tool__panel > .cctv-panel__header", { has: page.locator(".cctv-tool__name", { hasText: new RegExp(`^${name}$`) }) }).nth(nth);
  await header.scrollIntoViewIfNeeded();
  await header.click();
  return header.locator("xpath=..");
}

test("the demo session opens on first visit with its panels", async () => {
  const { page, context, requests, errors } = await open(web.chrome, web.server.url);
  await waitForTitle(page, "Add a --verbose flag to the greet CLI");
  assert.ok(await page.locator(".cctv-prompt", { hasText: "Add a `--verbose` flag" }).count(), "the first prompt shows");
  assert.match(await page.locator(".cctv-demo-note").textContent(), /This is a demo session.*drop/);
  assert.ok(await page.locator(".cctv-tool__name", { hasText: "TodoWrite" }).count() >= 1);
  // The CSP is in force: the page's own meta tag, read back from the DOM.
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.match(csp, /connect-src 'self'/);
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("dropping the moredip session and its sub-agent files nests each agent under its Task call", async () => {
  const { page, context, requests, errors } = await open(web.chrome, web.server.url);
  const files = (await filesUnder(MOREDIP)).map((path) => ({ path }));
  assert.equal(files.length, 6);
  await drop(page, files);
  await waitForTitle(page, "Spawn curry poem agents");
  assert.equal(await page.locator(".cctv-demo-note").count(), 0, "the demo note goes with the demo");
  const toggles = page.locator(".cctv-agent-toggle");
  await page.waitForFunction(() => document.querySelectorAll(".cctv-agent-toggle").length >= 3);
  // Open the first Task's sub-agent: its rows appear under the call, one level deeper.
  await toggles.first().click();
  const nested = page.locator('.cctv-item[style*="--depth: 1"]');
  await nested.first().waitFor();
  const text = await nested.allTextContents();
  assert.ok(text.some((t) => t.includes("Write a poem about Thai")), text.join("\n").slice(0, 500));
  assert.ok(text.some((t) => t.includes("WebSearch")), "the sub-agent's own tool call shows");
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("opening the moredip folder with the folder picker links all five sub-agents", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  const inputs = page.locator('input[type="file"]');
  await inputs.nth(1).setInputFiles(MOREDIP);
  await waitForTitle(page, "Spawn curry poem agents");
  const sideText = await page.locator(".cctv-stats").textContent();
  assert.match(sideText, /sub-agents\s*5/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("general-tool-calls renders Edit diffs, Bash output, TodoWrite and thinking", async () => {
  const { page, context, requests, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ path: GENERAL }]);
  await waitForTitle(page, "Claude Code Session Share");
  await page.locator(".cctv-filters select").selectOption("Edit");
  const edit = await openToolByName(page, "Edit");
  const diff = edit.locator(".cctv-diff");
  await diff.waitFor();
  assert.ok(await diff.locator(".cctv-diff__hunk").count() >= 1, "hunk headers");
  assert.ok(await diff.locator(".cctv-diff__added, .cctv-diff__removed").count() >= 1, "+/- lines");
  const numbers = await diff.locator(".cctv-diff__no").allTextContents();
  assert.ok(numbers.some((n) => /^\d+$/.test(n.trim())), "line numbers");

  await page.locator(".cctv-filters select").selectOption("Bash");
  const bash = await openToolByName(page, "Bash");
  await bash.locator(".cctv-command").waitFor();
  assert.match(await bash.locator(".cctv-command").textContent(), /^\$ /);
  assert.ok(await bash.locator(".cctv-out").count() >= 1, "output shown");

  await page.locator(".cctv-filters select").selectOption("TodoWrite");
  const todo = await openToolByName(page, "TodoWrite");
  await todo.locator(".cctv-todos").waitFor();
  const states = await todo.locator(".cctv-todo").evaluateAll((els) => els.map((e) => e.dataset.status));
  assert.ok(states.length >= 1 && states.every((s) => ["pending", "in_progress", "completed"].includes(s)), states.join());

  await page.locator(".cctv-filters select").selectOption("");
  const thinking = page.locator(".cctv-thinking > .cctv-panel__header").first();
  await thinking.click();
  await page.locator(".cctv-thinking .cctv-panel__body").first().waitFor();
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a #uuid link opens the item inside its sub-agent and highlights it", async () => {
  // The demo's reviewer agent runs `git diff --stat`: its tool call has this line's uuid.
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await page.goto(web.server.url + "#d3m0003f-5e55-4a1d-9c0d-00000000003f");
  await page.locator(".cctv-item--target").waitFor({ timeout: 10000 });
  const target = await page.locator(".cctv-item--target").textContent();
  assert.match(target, /git diff --stat/);
  assert.ok(await page.locator(".cctv-item--target").isVisible());
  assert.deepEqual(errors, []);
  await context.close();
});

test("search finds text in sub-agents and tool output and steps through matches", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await page.fill("#cctv-search", "insertions");
  await page.waitForFunction(() => /match/.test(document.querySelector(".cctv-search__count").textContent));
  assert.match(await page.locator(".cctv-search__count").textContent(), /^1 match$/);
  await page.press("#cctv-search", "Enter");
  await page.locator(".cctv-item--target").waitFor();
  assert.match(await page.locator(".cctv-search__count").textContent(), /^1 of 1$/);
  assert.match(await page.locator(".cctv-item--target").textContent(), /git diff --stat/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a file that is not a transcript gets a message naming it, and the others still load", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  await drop(page, [
    { name: "screenshot.png", bytes: png },
    { name: "empty.jsonl", bytes: Buffer.alloc(0) },
    { path: GENERAL },
  ]);
  await page.locator(".cctv-errors").waitFor();
  const message = await page.locator(".cctv-errors").textContent();
  assert.match(message, /screenshot\.png: not a Claude Code transcript/);
  assert.match(message, /empty\.jsonl: empty file/);
  await waitForTitle(page, "Claude Code Session Share");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a title holding a right-to-left override does not reorder the words after it", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  const session = "0d7e1a2b-0000-4000-8000-00000000b1d1";
  const lines = [
    { type: "user", uuid: "u1", parentUuid: null, sessionId: session, timestamp: "2026-01-02T03:04:05Z", message: { role: "user", content: "hello" } },
    { type: "custom-title", customTitle: "evil\u202E title", sessionId: session },
  ];
  await drop(page, [{ name: `${session}.jsonl`, bytes: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n") }]);
  await waitForTitle(page, "evil");
  // Where the title ends and the words after it (date, size, model) begin, as painted.
  const { titleRight, detailLeft, detail } = await page.evaluate(() => {
    const title = document.querySelector(".cctv-title bdi");
    const rest = title.nextSibling;
    const range = document.createRange();
    range.selectNodeContents(rest);
    return { titleRight: title.getBoundingClientRect().right, detailLeft: range.getBoundingClientRect().left, detail: rest.textContent };
  });
  assert.match(detail, /2026-01-02 · 1 KB/);
  assert.ok(detailLeft >= titleRight - 1, `the detail starts after the title (${detailLeft} >= ${titleRight})`);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Scrolls the conversation from top to bottom and returns every row's text seen on the way. */
async function allRowText(page) {
  return page.evaluate(async () => {
    const list = document.querySelector(".cctv-list");
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const seen = new Map();
    list.scrollTop = 0;
    for (let guard = 0; guard < 5000; guard++) {
      await frame();
      for (const row of list.querySelectorAll(".cctv-row")) seen.set(row.dataset.row, row.innerText);
      if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) break;
      list.scrollTop += list.clientHeight * 0.8;
    }
    return [...seen.values()].join("\n");
  });
}

const WRAPPERS = ["<command-name>", "<command-message>", "<command-args>", "<bash-input>", "<bash-stdout>",
  "<local-command-stdout>", "<local-command-caveat>", "<system-reminder>", "<task-notification>"];

test("what Claude Code wrote for the person reads as commands and notes, never as its markup", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  const sessions = [
    { files: (await filesUnder(MOREDIP)).map((path) => ({ path })), title: "Spawn curry poem agents", command: "/publish-session" },
    { files: [{ path: join(FIXTURES, "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl") }], title: "Empty Repo Setup", command: "/orchestrator create TODO app by Next.js" },
    { files: [{ path: join(FIXTURES, "handgemacht-ai__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl") }], title: "OK, we're going to make a little experiment", command: "/exit" },
  ];
  for (const { files, title, command } of sessions) {
    await drop(page, files);
    await waitForTitle(page, title);
    await page.click("text=Expand all");
    const text = await allRowText(page);
    for (const wrapper of WRAPPERS) assert.ok(!text.includes(wrapper), `${command}: ${wrapper} shows in the page`);
    assert.ok(text.includes(command), `${command} shows as a command row`);
  }
  // The /exit command shows what it printed, and the session's notes are folded under labels.
  assert.match(await allRowText(page), /See ya!/);
  await drop(page, (await filesUnder(MOREDIP)).map((path) => ({ path })));
  await waitForTitle(page, "Spawn curry poem agents");
  // The title can show a frame before the rows under it.
  await page.locator(".cctv-badge", { hasText: "background task" }).first().waitFor({ state: "attached" });
  assert.match(await allRowText(page), /Interrupted by the user/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the side panel lists what cctv did not recognise, ready to copy for a bug report", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ path: join(FIXTURES, "handgemacht-ai__claude-code-log/test/test_data/edge_cases.jsonl") }]);
  await page.waitForFunction(() => !document.querySelector(".cctv-demo-note") && !document.querySelector(".cctv-progress"));
  await page.click(".cctv-side__tab >> text=Session");
  await page.click("text=Check the files for what cctv does not know");
  const list = await page.locator(".cctv-drift__list").textContent();
  for (const name of ["silly", "timesstamp", "FailingTool", "edge_cases.jsonl line 11"]) assert.ok(list.includes(name), `${name} in ${list}`);
  assert.ok(await page.locator("text=Copy the report").isVisible());
  assert.deepEqual(errors, []);
  await context.close();
});

test("a session folder with agents three deep, a workflow run and a saved output opens with each in place", async () => {
  // tests/layouts: hand-made from the shapes Claude Code 2.1.x documents (see its README).
  const { page, context, requests, errors } = await open(web.chrome, web.server.url);
  await page.locator('input[type="file"]').nth(1).setInputFiles(join(ROOT, "tests/layouts"));
  await waitForTitle(page, "Review the parser, find the TODOs");
  assert.match(await page.locator(".cctv-stats").textContent(), /sub-agents\s*5/);
  assert.equal(await page.locator(".cctv-errors").count(), 0, "every file of the session is read, and the README beside them left alone");

  // Each agent opens under the call that spawned it, one level deeper each time.
  const closed = page.locator(".cctv-agent-toggle:not(.cctv-agent-toggle--open)");
  await closed.filter({ hasText: "reviewer" }).click();
  await page.locator('.cctv-item[style*="--depth: 1"]', { hasText: "Review the parser module" }).waitFor();
  await closed.filter({ hasText: "Explore" }).first().click();
  await page.locator('.cctv-item[style*="--depth: 2"]', { hasText: "Check the tokenizer" }).waitFor();
  await closed.filter({ hasText: "Explore" }).first().click();
  await page.locator('.cctv-item[style*="--depth: 3"]', { hasText: "three levels down" }).waitFor();

  // The Workflow call has both of its run's agents, and says how the run went.
  const workflow = await openToolByName(page, "Workflow");
  await workflow.locator(".cctv-muted", { hasText: "2 agents · 1 returned · 1 failed" }).waitFor();
  assert.match(await workflow.textContent(), /Check everything/);
  const runAgents = workflow.locator("xpath=..").locator(".cctv-agent-toggle");
  assert.deepEqual((await runAgents.allTextContents()).map((t) => t.match(/· (Run the \w+)/)?.[1]), ["Run the unit", "Run the linter"]);
  await runAgents.nth(1).click();
  await page.locator('.cctv-item[style*="--depth: 1"]', { hasText: "Lint failed: 2 warnings." }).waitFor();

  // The Grep's output was saved to tool-results/: the whole of it shows, with a note saying so.
  const grep = await openToolByName(page, "Grep");
  await grep.locator(".cctv-notice", { hasText: "output saved to a file (52.1KB)" }).waitFor();
  assert.match(await grep.textContent(), /TODO item 1204/);
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a background copy of a session shows the copied lines as one row, and a link to one of them opens the original", async () => {
  // Made from a real 2.1.3 session as Claude Code makes a background one: its first lines copied
  // under a new session id, then the session's own prompt.
  const id = "7fcdbdcd-c55c-4463-b1d1-3a8d85864ad0";
  const copyId = "0b5e0000-1111-4222-8333-444455556666";
  const original = await readFile(join(FIXTURES, `M-Thisness__M-Claude/Archives/${id}.jsonl`), "utf8");
  const copied = original.split("\n").slice(0, 21);
  const last = copied.map((l) => JSON.parse(l).uuid).filter(Boolean).at(-1);
  const copy = [...copied.map((l) => l.replaceAll(id, copyId)), JSON.stringify({
    type: "user", uuid: "bg000000-0000-4000-8000-000000000001", parentUuid: last, sessionId: copyId, sessionKind: "bg",
    timestamp: "2026-01-12T09:00:00.000Z", message: { role: "user", content: "Carry on in the background" },
  })].join("\n");
  const { page, context, requests, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ name: `${copyId}.jsonl`, bytes: Buffer.from(copy) }, { name: `${id}.jsonl`, bytes: Buffer.from(original) }]);
  await waitForTitle(page, "Carry on in the background");
  const sessions = page.locator(".cctv-sessions");
  await sessions.selectOption({ label: await sessions.locator("option", { hasText: "Carry on" }).textContent() });

  const marker = page.locator(".cctv-copied");
  await marker.waitFor();
  assert.match(await marker.textContent(), /continues “Greeting and Chrome Command Attempt”: it begins with 17 lines copied from it \(\d+ rows, folded here\)/);
  assert.equal(await page.locator(".cctv-item").count(), 2, "the copy as one row, then the session's own prompt");
  await marker.getByRole("button", { name: "Show them here" }).click();
  await page.waitForFunction(() => document.querySelectorAll(".cctv-item").length > 2);
  assert.equal(await marker.count(), 0);

  // The first prompt is in both files; its link opens the session it was written in.
  await page.evaluate(() => (location.hash = "#3cf92bd2-d87e-[REDACTED_CARD]8286"));
  await page.locator(".cctv-item--target").waitFor();
  assert.match(await sessions.evaluate((s) => s.selectedOptions[0].textContent), /Greeting and Chrome/);
  assert.deepEqual(foreign(requests, web.server.url), []);
  assert.deepEqual(errors, []);
  await context.close();
});
