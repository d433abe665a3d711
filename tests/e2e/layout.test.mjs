// Every screen and every reader: the bar on one line on desktops, a phone that never scrolls
// sideways, and axe-core (the accessibility engine browsers' own tools use) finding no serious or
// critical problem in either theme.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { site, open, drop, waitForTitle, FIXTURES } from "./harness.mjs";

const web = site();
const AXE = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const GENERAL = join(FIXTURES, "moredip__session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl");
const PHONE = { width: 390, height: 844 };

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function axe(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ["violations"] });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.help}; first at ${v.nodes[0].target.join(" ")}`);
  });
}

/** The general-tool-calls session with every panel open. */
async function everythingOpen(page) {
  await drop(page, [{ path: GENERAL }]);
  await waitForTitle(page, "Session Share");
  await page.keyboard.press("e");
  // The list draws only the rows on screen: every panel among them is open.
  await page.waitForFunction(() => {
    const panels = [...document.querySelectorAll(".cctv-panel")];
    return panels.length > 2 && panels.every((p) => p.classList.contains("cctv-panel--open"));
  });
}

for (const colorScheme of ["light", "dark"]) {
  for (const [size, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", PHONE]]) {
    test(`axe-core finds no serious or critical problem: ${colorScheme}, ${size}, demo and a real session with every panel open`, async () => {
      const { page, context, errors } = await open(web.chrome, web.server.url, { colorScheme, viewport });
      assert.deepEqual(await axe(page), [], "the demo");
      await everythingOpen(page);
      assert.deepEqual(await axe(page), [], "general-tool-calls, every panel open");
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test("on a phone the page never scrolls sideways, the bar stays compact, and the side panel opens from a button", async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url, { viewport: PHONE });
  const width = () => page.evaluate(() => document.documentElement.scrollWidth);
  assert.equal(await width(), PHONE.width, "the demo");
  await everythingOpen(page);
  assert.equal(await width(), PHONE.width, "a real session, every panel open");
  const bar = await page.locator(".cctv-top").boundingBox();
  assert.ok(bar.height < PHONE.height * 0.15, `the bar is ${bar.height}px tall`);
  // The filters and the search options open from a button, and fit too.
  await page.click("button:has-text('Options')");
  await page.locator(".cctv-filters").waitFor();
  assert.ok(await page.locator("button[aria-label='match case']").isVisible());
  assert.equal(await width(), PHONE.width, "options open");
  await page.click("button:has-text('Options')");
  assert.equal(await page.locator(".cctv-side").isVisible(), false);
  await page.click("button.cctv-top__narrow");
  await page.locator(".cctv-side--open .cctv-contents").waitFor();
  // Picking a prompt from the contents closes the panel and goes to the prompt.
  await page.locator(".cctv-contents__entry").nth(1).click();
  await page.locator(".cctv-item--target.cctv-item--user").waitFor();
  assert.equal(await page.locator(".cctv-side").isVisible(), false);
  assert.equal(await width(), PHONE.width);
  // Several sessions: the selector takes the width there is, no more.
  await drop(page, [{ path: GENERAL }, { path: join(FIXTURES, "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl") }]);
  await page.locator(".cctv-sessions").waitFor();
  assert.equal(await width(), PHONE.width, "two sessions");
  const select = await page.locator(".cctv-sessions").boundingBox();
  assert.ok(select.x >= 0 && select.x + select.width <= PHONE.width, JSON.stringify(select));
  assert.deepEqual(errors, []);
  await context.close();
});

test("on 1280 and 1920 wide screens the bar's first row is one line, the title cut short with its whole text on hover", async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
    const { page, context } = await open(web.chrome, web.server.url, { viewport });
    await drop(page, [{ path: GENERAL }]);
    await waitForTitle(page, "Session Share");
    const row = await page.locator(".cctv-top__row").first().boundingBox();
    assert.ok(row.height < 40, `${viewport.width}: the first row is ${row.height}px tall`);
    const title = page.locator(".cctv-title");
    assert.match(await title.getAttribute("title"), /Session Share.* — /);
    await context.close();
  }
});
