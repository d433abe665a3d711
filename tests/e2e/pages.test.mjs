// The site as GitHub Pages serves it: built with `--public-url /cctv/` and served from that
// sub-path. Assets, the demo, a drop and #uuid links must all work there.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { site, open, drop, foreign, waitForTitle, FIXTURES, ROOT } from "./harness.mjs";

const DIST = process.env.CCTV_DIST_PAGES ?? join(ROOT, "dist-pages");

const web = site(DIST, "/cctv/");

test("the site works from a sub-path, with every request under it", async () => {
  assert.match(web.server.url, /\/cctv\/$/);
  const { page, context, requests, errors } = await open(web.chrome, web.server.url);
  await waitForTitle(page, "greet CLI");
  await drop(page, [{ path: join(FIXTURES, "simonw__claude-code-transcripts/tests/sample_session.jsonl") }]);
  await waitForTitle(page, "Test session for JSONL parsing");
  await page.goto(web.server.url + "#d3m0003f-5e55-4a1d-9c0d-00000000003f");
  await page.reload();
  await page.locator(".cctv-item--target").waitFor();
  assert.deepEqual(foreign(requests, web.server.url), []);
  const outside = requests.filter((r) => r.startsWith(new URL(web.server.url).origin) && !r.startsWith(web.server.url));
  assert.deepEqual(outside, [], "nothing is fetched from outside /cctv/");
  assert.deepEqual(errors, []);
  await context.close();
});
