// A whole projects folder: it opens on the list of projects and sessions, a search across every
// session finds a line in one sub-agent's tool output, its result opens the viewer at that row,
// and Back returns to the list where it was.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { site, open } from "./harness.mjs";
import { writeProjects, uuid, PLANTED } from "./projects.mjs";

const web = site();

const PROJECTS = 10;

/** Runs `use` on a generated projects folder (`projects.mjs`, written with `options`), removed
 *  afterwards. */
async function withProjects(options, use) {
  const root = await mkdtemp(join(tmpdir(), "cctv-projects-"));
  try {
    await writeProjects(root, options);
    await use(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test("a projects folder opens on its projects and sessions; a search across them opens the row it found; Back returns to the list", () =>
  withProjects({ projects: PROJECTS, perProject: 20, plant: [7, 13] }, async (root) => {
    const { page, context, errors } = await open(web.chrome, web.server.url);
    await page.locator('input[type="file"]').nth(1).setInputFiles(root);

    // Projects, the one last active first, named by their sessions' own directory.
    const projects = page.locator(".cctv-library__project .cctv-library__path");
    await page.waitForFunction((n) => document.querySelectorAll(".cctv-library__project").length === n, PROJECTS);
    // Listed from the first and last lines of each session; then each is counted.
    await page.waitForFunction(() => /Counting|^$/.test(document.querySelector(".cctv-library__status")?.textContent ?? ""));
    const paths = await projects.allTextContents();
    assert.deepEqual(paths, [...Array(PROJECTS).keys()].reverse().map((p) => `/home/me/src/app-${p}`));
    assert.match(await page.locator(".cctv-library__totals").textContent(), /10 projects · 200 sessions/);

    // The first project's sessions, newest first, each with its counts once it has been read whole.
    const titles = page.locator(".cctv-library__session .cctv-library__title");
    await page.waitForFunction(() => document.querySelectorAll(".cctv-library__session").length === 20);
    assert.equal(await titles.first().textContent(), "Task number 19 of project 9");
    await page.locator(".cctv-library__session", { hasText: "1 prompt · 2 tool calls · 1 sub-agent" }).first().waitFor();
    // Another project, sorted by size.
    await page.locator(".cctv-library__project", { hasText: "app-7" }).click();
    await page.waitForFunction(() => document.querySelector(".cctv-library__session .cctv-library__title")?.textContent === "Task number 19 of project 7");

    // Search every session: the planted text is in one sub-agent's command output.
    const box = page.locator(".cctv-library__search");
    await box.fill(PLANTED);
    await box.press("Enter");
    const hit = page.locator(".cctv-library__hit", { hasText: PLANTED });
    await hit.waitFor({ timeout: 20000 });
    assert.equal(await hit.count(), 1);
    assert.match(await hit.textContent(), /sub-agent · Bash/);
    await page.waitForFunction(() => /1 match in 1 of 200 sessions/.test(document.querySelector(".cctv-library__results [role=status]")?.textContent ?? ""));
    assert.match(await page.locator(".cctv-library__results").textContent(), /\/home\/me\/src\/app-7[\s\S]*Task number 13 of project 7/);

    // Its result opens that session at that row, inside the sub-agent's conversation.
    await hit.click();
    const target = page.locator(".cctv-item--target");
    await target.waitFor({ timeout: 20000 });
    assert.match(await target.textContent(), new RegExp(PLANTED));
    assert.match(await target.getAttribute("style"), /--depth: 1/);
    assert.match(page.url(), new RegExp(`#s=${uuid(1, 7, 13)}&i=`));

    // Back returns to the list, with the search and its results.
    await page.goBack();
    await hit.waitFor();
    await page.locator(".cctv-library__results button", { hasText: "Back to the list" }).click();
    await page.locator(".cctv-library__project[aria-current=true]", { hasText: "app-7" }).waitFor();
    // A session opened from the list, and the viewer's own way back.
    await page.locator(".cctv-library__open", { hasText: "Task number 2 of project 7" }).click();
    await page.locator(".cctv-title", { hasText: "Task number 2 of project 7" }).waitFor();
    await page.locator("button", { hasText: "← Sessions" }).click();
    await page.locator(".cctv-library__session").first().waitFor();
    // Scrolled down, a session opened and closed: the list is where it was; another project
    // begins at its top.
    const sessions = page.locator(".cctv-library__sessions");
    await sessions.evaluate((el) => (el.scrollTop = 500));
    const scrolled = await sessions.evaluate((el) => new Promise((r) => requestAnimationFrame(() => r(el.scrollTop))));
    assert.ok(scrolled > 300, `scrolled to ${scrolled}`);
    const middle = await sessions.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const row = document.elementFromPoint(box.left + 40, box.top + box.height / 2).closest(".cctv-library__session");
      return row.querySelector(".cctv-library__title").textContent;
    });
    await page.locator(".cctv-library__open", { hasText: middle }).click();
    await page.locator(".cctv-title", { hasText: middle }).waitFor();
    await page.locator("button", { hasText: "← Sessions" }).click();
    await page.locator(".cctv-library__open", { hasText: middle }).waitFor();
    // The scroll comes back in a frame after the rows are drawn.
    await page.waitForFunction((scrolled) => document.querySelector(".cctv-library__sessions").scrollTop === scrolled, scrolled);
    await page.locator(".cctv-library__project", { hasText: "app-3" }).click();
    await page.locator(".cctv-library__session .cctv-library__title", { hasText: "of project 3" }).first().waitFor();
    assert.equal(await sessions.evaluate((el) => el.scrollTop), 0);
    assert.deepEqual(errors, []);
    await context.close();

    // A link into one session, opened in a fresh browser, leads there once the folder is opened.
    const link = `${web.server.url}#s=${uuid(1, 3, 5)}&i=${uuid(2, 3, 5)}`;
    const fresh = await open(web.chrome, link);
    await fresh.page.locator('input[type="file"]').nth(1).setInputFiles(root);
    await fresh.page.locator(".cctv-item--target", { hasText: "Task number 5 of project 3" }).waitFor({ timeout: 20000 });
    assert.match(fresh.page.url(), new RegExp(`#s=${uuid(1, 3, 5)}&i=${uuid(2, 3, 5)}$`));
    assert.deepEqual(fresh.errors, []);
    await fresh.context.close();
  }));

test("where no worker can start, the page counts and searches the sessions itself", () =>
  withProjects({ projects: 2, perProject: 5, plant: [1, 3] }, async (root) => {
    const { page, context, errors } = await open(web.chrome, web.server.url);
    // As on a host that does not serve the worker's script.
    const said = [];
    page.on("console", (m) => said.push(m.text()));
    await context.route("**/worker.js", (route) => route.fulfill({ status: 404, body: "" }));
    await page.locator('input[type="file"]').nth(1).setInputFiles(root);
    await page.locator(".cctv-library__session", { hasText: "1 prompt · 2 tool calls · 1 sub-agent" }).first().waitFor();
    const box = page.locator(".cctv-library__search");
    await box.fill(PLANTED);
    await box.press("Enter");
    await page.waitForFunction(() => /1 match in 1 of 10 sessions/.test(document.querySelector(".cctv-library__results [role=status]")?.textContent ?? ""));
    assert.match(await page.locator(".cctv-library__hit").textContent(), /sub-agent · Bash/);
    assert.ok(said.some((t) => /no worker .*the page reads the sessions itself/.test(t)), said.join("\n"));
    assert.deepEqual(errors.filter((e) => !/worker\.js|404/.test(e)), []);
    await context.close();
  }));

test("a folder opened with its handle is offered again on the next visit and reopens", () =>
  withProjects({ projects: 2, perProject: 3, plant: [1, 2] }, async (root) => {
    const files = readdirSync(root, { recursive: true })
      .filter((f) => statSync(join(root, f)).isFile())
      .map((f) => [f.split(sep).join("/"), readFileSync(join(root, f), "utf8")]);
    const { page, context, errors } = await open(web.chrome, web.server.url);
    // The folder, in the origin's private file system, whose handles are those the pickers give;
    // the picker (a dialog a test cannot answer) gives it.
    await page.evaluate(async (files) => {
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle("projects", { create: true });
      for (const [path, text] of files) {
        const parts = path.split("/");
        let dir = root;
        for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
        const writable = await (await dir.getFileHandle(parts.at(-1), { create: true })).createWritable();
        await writable.write(text);
        await writable.close();
      }
    }, files);
    await context.addInitScript(() => {
      window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle("projects");
    });
    await page.reload();
    await page.locator(".cctv-item").first().waitFor();
    assert.equal(await page.locator(".cctv-top__reopen").count(), 0, "nothing kept before a folder is opened");
    await page.locator("button", { hasText: "Open folder" }).first().click();
    await page.locator(".cctv-library__totals", { hasText: "2 projects · 6 sessions" }).waitFor();
    await page.locator(".cctv-library__session", { hasText: "1 prompt · 2 tool calls · 1 sub-agent" }).first().waitFor();

    // A later visit: the folder is offered again, and opens on its list.
    await page.reload();
    const reopen = page.locator(".cctv-top__reopen");
    await reopen.waitFor();
    assert.equal(await reopen.textContent(), "Reopen projects");
    await reopen.click();
    await page.locator(".cctv-library__totals", { hasText: "2 projects · 6 sessions" }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  }));
