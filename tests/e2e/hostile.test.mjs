// Hostile and broken transcripts dropped on the built site: no script from the content runs, no
// element or attribute from it becomes live HTML, no request leaves the page, the page keeps
// answering, and the damaged or hostile parts are visible as text. The corpus is tests/hostile/,
// plus large files made here (a 10 MB line, a million tiny lines, ten million one-byte lines).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { site, open, drop, foreign, serve, ROOT } from "./harness.mjs";

const CORPUS = join(ROOT, "tests/hostile");
const web = site();

/** Everything the page must hold to after hostile input; `url` is the page's own origin. */
async function assertInert(page, requests, label, url = web.server.url) {
  const report = await page.evaluate(() => {
    const root = document.querySelector(".cctv");
    const all = [...root.querySelectorAll("*")];
    return {
      pwned: window.__pwned ?? null,
      live: root.querySelectorAll("script, iframe, object, embed, form, svg, style, base, meta, link").length,
      handlers: all.flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith("on")).map((a) => `${e.tagName} ${a.name}`)),
      hrefs: all.filter((e) => e.hasAttribute("href")).map((e) => e.getAttribute("href")).filter((h) => !/^(https?:|#)/i.test(h)),
      srcs: all.filter((e) => e.hasAttribute("src")).map((e) => e.getAttribute("src").slice(0, 40)).filter((s) => !/^data:image\/(png|jpeg|gif|webp|bmp|avif);base64,/.test(s)),
      answers: true,
    };
  });
  assert.equal(report.pwned, null, `${label}: content ran script (${report.pwned})`);
  assert.equal(report.live, 0, `${label}: live elements from content`);
  assert.deepEqual(report.handlers, [], `${label}: event handler attributes`);
  assert.deepEqual(report.hrefs, [], `${label}: links other than http(s)`);
  assert.deepEqual(report.srcs, [], `${label}: sources other than data: images`);
  assert.deepEqual(foreign(requests, url), [], `${label}: requests left the page`);
}

test("every file of the hostile corpus stays text, and the page stays inert", async () => {
  const files = (await readdir(CORPUS)).filter((f) => f.endsWith(".jsonl"));
  assert.ok(files.length >= 2);
  for (const file of files) {
    const { page, context, requests } = await open(web.chrome, web.server.url);
    await drop(page, [{ path: join(CORPUS, file) }]);
    await page.waitForFunction(() => !document.querySelector(".cctv-demo-note") && !document.querySelector(".cctv-progress"));
    await readAll(page);
    await assertInert(page, requests, file);
    const text = await page.locator(".cctv").textContent();
    if (file === "xss-everywhere.jsonl") {
      assert.ok(text.includes("<script>window.__pwned = 'script'</script>"), "the script tag is shown as text");
      assert.ok(text.includes("gnp.exe"), "the bidi-laden path is shown");
      assert.match(text, /unknown type: <img src=x onerror=/, "the hostile type name is shown as text");
      assert.ok(text.includes("image (text/html) not shown") && text.includes("image (image/svg+xml) not shown"));
    }
    if (file === "deep-nesting.jsonl") {
      assert.ok(text.includes("before the deep line") && text.includes("after the deep lines"));
      const side = await page.locator(".cctv-accounting").textContent();
      assert.match(side, /line 2: JSON nested too deep/);
    }
    await context.close();
  }
});

/** Opens every panel and every row of the page, as a curious reader would. */
async function readAll(page) {
  await page.keyboard.press("e");
  await page.evaluate(async () => {
    const list = document.querySelector(".cctv-list");
    for (let y = 0; y < list.scrollHeight; y += list.clientHeight) {
      list.scrollTop = y;
      await new Promise((r) => requestAnimationFrame(r));
    }
  });
}

test("the hostile corpus shared as one HTML file stays text opened from file:// and from a static host", { timeout: 120_000 }, async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ path: join(CORPUS, "xss-everywhere.jsonl") }]);
  await page.waitForFunction(() => !document.querySelector(".cctv-demo-note") && !document.querySelector(".cctv-progress"));
  await page.click(".cctv-side__tab >> text=Share");
  await page.locator(".cctv-side", { hasText: "Nothing found" }).waitFor({ timeout: 20000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("text=Download HTML")]);
  const dir = await mkdtemp(join(tmpdir(), "cctv-hostile-share-"));
  await download.saveAs(join(dir, "index.html"));
  assert.deepEqual(errors, []);
  await context.close();

  const host = await serve(dir);
  try {
    for (const url of [pathToFileURL(join(dir, "index.html")).href, host.url]) {
      const reader = await web.chrome.newContext({ offline: url.startsWith("file:"), viewport: { width: 1400, height: 1000 } });
      try {
        const shared = await reader.newPage();
        const requests = [];
        const problems = [];
        shared.on("request", (r) => r.url() !== url && requests.push(r.url()));
        shared.on("pageerror", (e) => problems.push(String(e)));
        await shared.goto(url);
        await shared.locator(".cctv-item").first().waitFor({ timeout: 20000 });
        await readAll(shared);
        await assertInert(shared, requests, `shared, from ${url.split(":")[0]}`, url);
        const text = await shared.locator(".cctv").textContent();
        assert.ok(text.includes("<script>window.__pwned = 'script'</script>"), "the script tag is shown as text");
        assert.deepEqual(problems, []);
      } finally {
        await reader.close();
      }
    }
  } finally {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  }
});

// The timeouts below only stop a hung page from hanging the run; nothing here measures speed.
test("a 10 MB line and a million tiny lines load, show, and leave the page responsive", { timeout: 600_000 }, async () => {
  const big = JSON.stringify({ type: "user", uuid: "big", parentUuid: null, sessionId: "big", message: { role: "user", content: "<script>window.__pwned='big'</script>" + "A".repeat(10_000_000) } });
  const tiny = "{}\n".repeat(1_000_000);
  for (const [name, content, shows] of [
    ["ten-mb-line.jsonl", big + "\n", "Show all 10.0 MB"],
    ["million-lines.jsonl", tiny, "unknown type"],
  ]) {
    const check = (t) => t.includes(shows);
    const { page, context, requests } = await open(web.chrome, web.server.url);
    await drop(page, [{ name, bytes: Buffer.from(content) }]);
    // Loaded: the demo gone, no progress, and the file's rows drawn (the demo's note can go before
    // the load shows its progress: a small file parsed in one step shows none until it is linked).
    await page.waitForFunction(
      (shows) => !document.querySelector(".cctv-demo-note") && !document.querySelector(".cctv-progress") && document.querySelector(".cctv-list")?.textContent.includes(shows),
      shows,
      { timeout: 120000 },
    );
    // The page answers: it runs script and paints the next frame (a page still busy with the
    // file would do neither, and the test would end at its timeout).
    assert.equal(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(1 + 1)))), 2, `${name}: the page answers`);
    assert.ok(check(await page.locator(".cctv-list").textContent()), `${name}: shown`);
    await assertInert(page, requests, name);
    await context.close();
  }
});

test("ten million one-byte lines (a 20 MB file whose index needs 4 GB) are refused in words, and the page answers", { timeout: 120_000 }, async () => {
  const { page, context, errors } = await open(web.chrome, web.server.url);
  await drop(page, [{ name: "ten-million-lines.jsonl", bytes: Buffer.alloc(20_000_000, "a\n") }]);
  await page.waitForFunction(() => document.querySelector(".cctv-errors")?.textContent.includes("too many lines to index"), null, { timeout: 60000 });
  // Said once the slices read so far hold too many: the rest is not read.
  const said = await page.locator(".cctv-errors").textContent();
  assert.match(said, /ten-million-lines\.jsonl.*too many lines to index: \d+ lines in [\d.]+ MB need about \d\.\d GB/s);
  assert.equal(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(1 + 1)))), 2, "the page answers");
  assert.deepEqual(errors, [], "no trap, no error in the page");
  await context.close();
});

test("the Content-Security-Policy is in force: no inline script, no connection elsewhere", { timeout: 60_000 }, async () => {
  const { page, context } = await open(web.chrome, web.server.url);
  const result = await page.evaluate(async () => {
    // The browser reports violations as events queued after the blocked act (the fetch can reject
    // before its report arrives), so wait for both reports; if one never comes, the test times out.
    const violations = [];
    const reported = new Promise((resolve) => {
      document.addEventListener("securitypolicyviolation", (e) => {
        violations.push(e.effectiveDirective);
        const script = violations.some((d) => d === "script-src-elem" || d === "script-src");
        if (script && violations.includes("connect-src")) resolve();
      });
    });
    const script = document.createElement("script");
    script.textContent = "window.__inline = 'ran'";
    document.head.append(script);
    const fetched = await fetch("http://127.0.0.1:9/").then(() => "connected", () => "refused");
    await reported;
    return { inline: window.__inline ?? null, fetched, violations };
  });
  assert.equal(result.inline, null, "an inline script was blocked");
  assert.equal(result.fetched, "refused");
  assert.ok(result.violations.includes("script-src-elem") || result.violations.includes("script-src"), result.violations.join());
  assert.ok(result.violations.includes("connect-src"), result.violations.join());
  await context.close();
});

test("a file larger than the tab can hold gets a message, and the page lives on", async () => {
  // The limit is lowered to 1 MB to stand for the browser's real one.
  const { page, context } = await open(web.chrome, web.server.url + "?max-mb=1");
  await drop(page, [{ name: "huge.jsonl", bytes: Buffer.from("{}\n".repeat(700_000)) }]);
  await page.locator(".cctv-errors").waitFor();
  assert.match(await page.locator(".cctv-errors").textContent(), /huge\.jsonl: too large to open here: 2 MB/);
  assert.ok(await page.locator(".cctv-demo-note").count(), "what was shown stays");
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  await context.close();
});
