// Claude Code 2.1.332 as a reader meets it (issue 35), on the folders in tests/format/, written
// from the documented shapes (no public transcript holds them): every kind of sub-agent nested
// under its origin, Expand all opening the conversation and never a raw line, and a bar that
// fits whatever badges a session brings, at 1280 and at 390 px.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { site, open, drop, waitForTitle, ROOT } from "./harness.mjs";

const web = site();

const PROJECT = join(ROOT, "tests/format/agents/-home-me-shop");
const SESSION = "5c0d2b7e-8f1a-4e3b-9c6d-2a4b6c8d0e1f";
const BADGES = join(ROOT, "tests/format/ba5c41e5-2133-4c2d-9a1e-000000001280.jsonl");

/** The session and its sub-agents, named as dropping the project folder names them. */
async function agentsFolder() {
  const agents = await readdir(join(PROJECT, SESSION, "subagents"));
  return [
    { path: join(PROJECT, `${SESSION}.jsonl`), name: `${SESSION}.jsonl` },
    ...agents.map((a) => ({ path: join(PROJECT, SESSION, "subagents", a), name: `${SESSION}/subagents/${a}` })),
  ];
}

test("a fork, a side question, a team member and an agent of an agent each open under their origin, and Expand all shows no raw line", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, await agentsFolder());
  // The demo has an agent too: wait for the dropped session's fork.
  await page.waitForFunction(() => [...document.querySelectorAll(".cctv-agent-toggle")].some((t) => t.textContent.includes("fork")));
  // None is an orphan: an orphan's first row says its parent is not loaded.
  assert.equal(await page.locator(".cctv-agent-origin").count(), 0, "no agent left an orphan");
  // Names are isolated (FSI … PDI) where the page says them.
  const toggles = (await page.locator(".cctv-agent-toggle").allTextContents()).map((t) => t.replace(/[\u2066-\u2069]/g, ""));
  for (const kind of ["fork of the conversation", "side question", "team member alice"]) {
    assert.ok(toggles.some((t) => t.includes(kind)), `a button opens the ${kind}: ${toggles.join(" | ")}`);
  }
  await page.keyboard.press("e");
  // Every agent opens: the agent of an agent is two levels deep, inside the Explore agent.
  await page.waitForFunction(() => document.querySelectorAll('.cctv-item[style*="--depth: 2"]').length > 0);
  const depths = await page.$$eval(".cctv-item", (rows) => rows.map((r) => r.getAttribute("style") ?? ""));
  assert.ok(depths.filter((d) => d.includes("--depth: 1")).length >= 8, "the agents' rows, one level deeper");
  // The conversation is open, and no raw JSON line is: those stay behind their own toggles.
  assert.ok((await page.locator(".cctv-panel--open").count()) > 0, "panels open");
  assert.equal(await page.locator(".cctv-item .cctv-raw").count(), 0, "no raw line after Expand all");
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [size, viewport] of [["1280 px", { width: 1280, height: 800 }], ["390 px", { width: 390, height: 844 }]]) {
  test(`the bar fits at ${size} whatever badges a session brings, and a long line wraps inside its row`, async () => {
    const { page, context, errors } = await open(web.chrome, web.server.url, { viewport });
    await drop(page, [{ path: BADGES }]);
    await waitForTitle(page, "Refactor the billing");
    const sizes = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      bar: document.querySelector(".cctv-top").scrollWidth,
      barBox: document.querySelector(".cctv-top").clientWidth,
      // Names are isolated (FSI … PDI) where the page says them.
      badges: [...document.querySelectorAll(".cctv-top__badges .cctv-badge")].map((b) => b.textContent.replace(/[\u2066-\u2069]/g, "")),
      // Every button of the bar's first row, Theme among them, ends inside the window.
      outside: [...document.querySelectorAll(".cctv-top__row:first-child button")]
        .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((b) => b.textContent),
    }));
    assert.equal(sizes.page, viewport.width, "the page does not scroll sideways");
    assert.ok(sizes.bar <= sizes.barBox, `the bar holds its content (${sizes.bar} > ${sizes.barBox})`);
    assert.deepEqual(sizes.outside, [], "no button of the bar off screen");
    for (const badge of ["ledger-refactorer", "#billing-q4", "worktree ledger-refactor", "ended by the model", "coordinator mode"]) {
      assert.ok(sizes.badges.some((b) => b.includes(badge)), `the ${badge} badge: ${sizes.badges.join(" | ")}`);
    }
    // The prompt's long reminder line wraps inside its row.
    const overflowing = await page.$$eval(".cctv-item", (rows) => rows.filter((r) => r.scrollWidth > r.clientWidth + 1).length);
    assert.equal(overflowing, 0, "no row wider than itself");
    await page.screenshot({ path: join(ROOT, `target/format-bar-${viewport.width}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("the title's badges say what the session was as of the row being read: its mode, tag and worktree then", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url, { viewport: { width: 1280, height: 700 } });
  await drop(page, [{ path: join(ROOT, "tests/format/57a7e000-0000-4000-8000-000000000001.jsonl") }]);
  await waitForTitle(page, "First, read the ledger code");
  const badges = () => page.$$eval(".cctv-top__badges bdi", (b) => b.map((e) => e.textContent.replace(/[\u2066-\u2069]/g, "")));
  const expect = async (want, where) => {
    await page.waitForFunction(
      (w) => JSON.stringify([...document.querySelectorAll(".cctv-top__badges bdi")].map((e) => e.textContent.replace(/[\u2066-\u2069]/g, ""))) === w,
      JSON.stringify(want),
      { timeout: 5000 },
    ).catch(async () => assert.deepEqual(await badges(), want, where));
  };
  await expect([], "the first turn: the default mode");
  // j steps from prompt to prompt (the first press goes to the first).
  for (const [want, where] of [
    [[], "the first prompt"],
    [["plan mode"], "the second prompt"],
    [["#release-prep", "worktree fix-ledger", "bypassing permissions"], "the third prompt, in the worktree"],
    [["#release-prep", "bypassing permissions"], "the fourth prompt, out of it"],
  ]) {
    await page.keyboard.press("j");
    await expect(want, where);
  }
  // At the end, all of it read: how the session ended.
  await page.evaluate(() => {
    const list = document.querySelector(".cctv-list");
    list.scrollTop = list.scrollHeight;
  });
  await expect(["#release-prep", "ended by the model", "bypassing permissions"], "the end");
  assert.deepEqual(errors, []);
  await context.close();
});
