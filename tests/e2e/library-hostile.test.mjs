// A hostile projects folder on the list of every session (issue 37): project folders named with
// markup and bidi controls, a title of 10 kB of markup, a working directory of 10 kB, two folders that
// stand for the same path, sub-agent metadata holding markup; and a folder of 20,000 files, half
// of them no transcript. Written here at test time, not kept.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { site, open, foreign } from "./harness.mjs";
import { uuid } from "./projects.mjs";

const web = site();

const MARKUP = "<img src=x onerror=window.__pwned=1>";
const RLO = "\u202E";
/** 10 kB of markup and bidi controls: a title, a working directory. */
const LONG = `<b>bold</b>${RLO}gnp.exe <script>window.__pwned=2</script>`.repeat(180);

/** A session of one prompt and one answer, in `cwd` (when given), with these first words. */
function session(id, prompt, { cwd, title } = {}) {
  const base = { sessionId: id, version: "2.1.300", userType: "external", isSidechain: false, ...(cwd ? { cwd } : {}) };
  const lines = [
    { ...base, type: "user", uuid: `${id.slice(0, 24)}00000002`, parentUuid: null, timestamp: "2026-03-01T10:00:00Z", message: { role: "user", content: prompt } },
    { ...base, type: "assistant", uuid: `${id.slice(0, 24)}00000003`, parentUuid: `${id.slice(0, 24)}00000002`, timestamp: "2026-03-01T10:00:05Z", message: { id: "msg_1", role: "assistant", model: "claude-opus-4-5", content: [{ type: "text", text: "Done." }], usage: { input_tokens: 5, output_tokens: 5 } } },
  ];
  if (title) lines.push({ type: "custom-title", customTitle: title, sessionId: id });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/** Writes the hostile folder under `root`; returns what the list must show. */
async function writeHostile(root) {
  const write = async (path, text) => {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), text);
  };
  // Folder names with markup and a bidi override (only `/` and NUL cannot be in a name).
  await write(`-home-me-${MARKUP}/${uuid(10, 1)}.jsonl`, session(uuid(10, 1), "first project", { title: LONG }));
  await write(`-home-me-${RLO}evil/${uuid(10, 2)}.jsonl`, session(uuid(10, 2), `${RLO}a prompt reversed ${MARKUP}`, { cwd: `/home/me/${"a".repeat(10_000)}` }));
  // Two folders that stand for the same path: Claude Code's for /home/me/my.app (its sessions say
  // so), and one no Claude Code made, whose name decodes to that path.
  await write(`-home-me-my-app/${uuid(10, 3)}.jsonl`, session(uuid(10, 3), "the real one", { cwd: "/home/me/my.app" }));
  await write(`-home-me-my.app/${uuid(10, 4)}.jsonl`, session(uuid(10, 4), "the twin"));
  // A sub-agent whose metadata holds markup.
  const withAgent = uuid(10, 5);
  await write(`-home-me-agents/${withAgent}.jsonl`, session(withAgent, "has a sub-agent", { cwd: "/home/me/agents" }));
  await write(`-home-me-agents/${withAgent}/subagents/agent-a1.jsonl`, session(withAgent, "the sub-agent's prompt").replaceAll('"isSidechain":false', '"isSidechain":true,"agentId":"a1"'));
  await write(`-home-me-agents/${withAgent}/subagents/agent-a1.meta.json`, JSON.stringify({ agentType: MARKUP, description: `${RLO}${LONG}` }));
}

/** Everything on the list is text: no element, handler or script came from a name. */
async function assertInert(page) {
  const report = await page.evaluate(() => {
    const root = document.querySelector(".cctv");
    const all = [...root.querySelectorAll("*")];
    return {
      pwned: window.__pwned ?? null,
      live: root.querySelectorAll("script, iframe, object, embed, img, b").length,
      handlers: all.flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith("on")).map((a) => e.tagName)),
    };
  });
  assert.deepEqual(report, { pwned: null, live: 0, handlers: [] });
}

test("hostile folder names, titles, directories and metadata stay text on the list and in the viewer", async () => {
  const root = await mkdtemp(join(tmpdir(), "cctv-hostile-projects-"));
  try {
    await writeHostile(root);
    const { page, context, requests, errors } = await open(web.chrome, web.server.url);
    await page.locator('input[type="file"]').nth(1).setInputFiles(root);
    await page.waitForFunction(() => document.querySelectorAll(".cctv-library__project").length === 5);
    await page.waitForFunction(() => /Counting|^$/.test(document.querySelector(".cctv-library__status")?.textContent ?? ""));

    const paths = await page.locator(".cctv-library__project .cctv-library__path").allTextContents();
    // The folder names shown as they are, markup and all; each path in an isolate of its own.
    assert.ok(paths.includes(`/home/me/${MARKUP}`), JSON.stringify(paths));
    assert.ok(paths.includes(`/home/me/${RLO}evil`), JSON.stringify(paths));
    // The twins are two projects, each with its own session.
    assert.equal(paths.filter((p) => p === "/home/me/my.app").length, 2, JSON.stringify(paths));
    assert.equal(await page.locator("bdi.cctv-library__path").count(), 5, "every path isolated");
    await assertInert(page);

    // The project whose session has a 10 kB title: shown as text, isolated, and kept to its row.
    await page.locator(".cctv-library__project", { hasText: MARKUP }).click();
    const title = page.locator("bdi.cctv-library__title").first();
    await title.waitFor();
    assert.ok((await title.textContent()).startsWith("<b>bold</b>"), await title.textContent());
    const row = await page.locator(".cctv-library__session").first().boundingBox();
    assert.ok(row.height < 200, `a 10 kB title keeps its row short: ${row.height}px`);
    await assertInert(page);

    // Opened, the session with the sub-agent whose metadata is markup: still text.
    await page.locator(".cctv-library__project", { hasText: "/home/me/agents" }).click();
    await page.locator(".cctv-library__session .cctv-library__title").first().click();
    await page.locator(".cctv-prompt", { hasText: "has a sub-agent" }).waitFor();
    await assertInert(page);

    assert.deepEqual(errors, []);
    assert.deepEqual(foreign(requests, web.server.url), []);
    await context.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("a folder of 20,000 files, half no transcript, lists its sessions and says each file it left out once", { timeout: 300_000 }, async () => {
  const root = await mkdtemp(join(tmpdir(), "cctv-many-files-"));
  try {
    // 10,000 sessions in 10 projects; beside them 5,000 files that are no transcript (notes, an
    // image, editor files) and 5,000 named .jsonl that are not one (binary, a JSON array, text).
    const sessions = 10_000;
    for (let p = 0; p < 10; p++) {
      const folder = join(root, `-home-me-app-${p}`);
      await mkdir(folder, { recursive: true });
      const writes = [];
      for (let s = 0; s < sessions / 10; s++) {
        const id = uuid(20, p, s);
        writes.push(writeFile(join(folder, `${id}.jsonl`), session(id, `task ${s} of app ${p}`, { cwd: `/home/me/app-${p}` })));
        if (s % 2 === 0) {
          writes.push(writeFile(join(folder, `notes-${s}.${["md", "png", "DS_Store", "swp", "txt"][(s / 2) % 5]}`), `not a transcript ${s}`));
        } else {
          const bad = ["\u0000\u0001\u0002 binary", "[1, 2, 3]", "just some words\nand more"][s % 3];
          writes.push(writeFile(join(folder, `broken-${s}.jsonl`), bad));
        }
      }
      await Promise.all(writes);
    }
    const { page, context, requests, errors } = await open(web.chrome, web.server.url);
    // Long tasks are counted from when the page is handed the files: before that the browser
    // makes 20,000 File objects, in the task that then hands them over (seconds, which no page
    // can split). The page's own part of that task is timed from the input's change event to
    // the next task.
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
      }).observe({ type: "longtask" });
      document.querySelectorAll('input[type="file"]')[1].addEventListener(
        "change",
        () => {
          window.__change = performance.now();
          setTimeout(() => (window.__handed = performance.now() - window.__change));
        },
        { capture: true },
      );
    });
    await page.locator('input[type="file"]').nth(1).setInputFiles(root);
    await page.waitForFunction(() => document.querySelectorAll(".cctv-library__project").length === 10, null, { timeout: 120_000 });
    // Every session counted; those that are no transcript taken off the list as they are read.
    await page.waitForFunction(() => (document.querySelector(".cctv-library__status")?.textContent ?? "") === "", null, { timeout: 240_000, polling: 500 });
    assert.match(await page.locator(".cctv-library__totals").textContent(), /^10 projects · 10,000 sessions · /);
    // Each of the 5,000 said once: the first fifteen by name, how many more, then the last five.
    const said = page.locator(".cctv-errors");
    assert.equal(await said.locator("div", { hasText: "not a Claude Code transcript" }).count(), 20);
    const lines = await said.locator(":scope > div").allTextContents();
    assert.equal(lines[15], "and 4,980 more");
    assert.equal(lines.slice(16).filter((l) => l.includes("not a Claude Code transcript")).length, 5);
    assert.match(await said.textContent(), /broken-\d+\.jsonl: not a Claude Code transcript: none of its \d+ lines is a JSON object .*; left off the list/);
    assert.equal(await page.locator(".cctv-library__session", { hasText: "broken-" }).count(), 0);
    // A project of 1,000 sessions: only the rows in view are drawn, each saying where it is.
    const drawn = await page.locator(".cctv-library__session").count();
    assert.ok(drawn > 0 && drawn < 100, `rows drawn: ${drawn}`);
    assert.equal(await page.locator(".cctv-library__session").first().getAttribute("aria-setsize"), "1000");
    const { long, handed } = await page.evaluate(() => ({
      long: window.__long.filter(([start]) => start > window.__change).map(([, d]) => Math.round(d)),
      handed: Math.round(window.__handed),
    }));
    // Measured, not asserted (no timed assertions in tests): the closing note of issue 37
    // reports them.
    console.log(`the page's part of the hand-over: ${handed} ms; long tasks after it: ${JSON.stringify(long)}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign(requests, web.server.url), []);
    await context.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
