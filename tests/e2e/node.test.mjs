// The npm package in Node: packed with `npm pack`, installed from the tarball into a scratch
// project, and the README's example (www/npm/census.mjs) run on a real session with `node`.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { FIXTURES, ROOT, assertInReadme, withPackage } from "./harness.mjs";

const SESSION = join(FIXTURES, "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl");
let project;

before(async () => {
  project = await withPackage("cctv-node-");
  await copyFile(join(ROOT, "www/npm/census.mjs"), join(project, "census.mjs"));
});

test("in Node the package parses, normalizes and exports a session, with no DOM and no fetch", () => {
  // No fetch at all: the wasm must come from the package's files.
  const out = execFileSync("node", ["--import", "data:text/javascript,delete globalThis.fetch", "census.mjs", SESSION], {
    cwd: project,
    encoding: "utf8",
  }).split("\n");
  assert.deepEqual(JSON.parse(out[0]), {
    assistant: 25,
    "file-history-snapshot": 10,
    "progress/bash_progress": 1,
    "queue-operation": 14,
    summary: 1,
    "system/api_error": 9,
    "system/turn_duration": 2,
    user: 24,
  });
  assert.match(out[1], /^Spawn curry poem agents, write sushi: \d+ items, 0 sub-agents$/);
  assert.equal(out[2], "# Spawn curry poem agents, write sushi");
});

test("the README's Node example is the script this test runs", async () => {
  await assertInReadme("www/npm/census.mjs");
});
