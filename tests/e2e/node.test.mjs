// The npm package in Node: packed with `npm pack`, installed from the tarball into a scratch
// project, and the README's example (www/npm/census.mjs) run on a real session with `node`.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFile, writeFile } from "node:fs/promises";
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

// Hostile input through the npm functions in Node (issue 37): each case is named for what it
// attacks; every one ends in a JavaScript Error with a message or in an answer, never in a
// WebAssembly trap (a RuntimeError, after which the module is broken), a hang or a crash, and the
// module still answers afterwards. A 2.1 GB input was tried by hand (parsed in 15 s, 8 GB of the
// machine's memory): too heavy for every run.
const HOSTILE = String.raw`
import { parseTranscript, normalizeSession, findSecrets, exportMarkdown } from "cctv";
const said = (f) => {
  try {
    const answer = f();
    return { answer: typeof answer };
  } catch (e) {
    return { error: e?.constructor?.name, message: String(e?.message ?? e) };
  }
};
const file = (bytes) => [{ name: "a.jsonl", bytes }];
const deep = "[".repeat(10000) + "]".repeat(10000);
const cases = {
  "parseTranscript of a number": () => parseTranscript(42),
  "normalizeSession of a string": () => normalizeSession("x"),
  "a file without a name": () => normalizeSession([{ bytes: "{}" }]),
  "a file whose bytes are an object": () => normalizeSession([{ name: "a", bytes: {} }]),
  "a null file": () => normalizeSession([null]),
  "patterns that are a number": () => findSecrets(file("{}"), 5),
  "a pattern that is no regular expression": () => findSecrets(file("{}"), ["("]),
  "options that are a string": () => exportMarkdown(file("{}"), "x"),
  "turns that are a string": () => exportMarkdown(file("{}"), { turns: "x" }),
  "keep that is a number": () => exportMarkdown(file("{}"), { keep: 3 }),
  "ten million one-byte lines, parsed": () => parseTranscript(Buffer.alloc(20_000_000, "a\n")),
  "ten million one-byte lines, normalized": () => normalizeSession(file(Buffer.alloc(20_000_000, "a\n"))),
  "three million lines, an object each": () => parseTranscript(Buffer.alloc(6_000_000, "a\n")),
  "JSON nested 10,000 deep": () => parseTranscript(deep).lines[0].reason,
  "a message nested 10,000 deep, exported": () =>
    exportMarkdown(file('{"type":"user","uuid":"u","message":{"role":"user","content":' + deep + "}}")),
  "one 500 MB line without a newline": () => normalizeSession(file(Buffer.alloc(500_000_000, "x"))).sessions.length,
  // Zeros, which the system hands over untouched until read: refused before they are copied.
  "a 2 GB file, parsed": () => parseTranscript(Buffer.alloc(2 ** 31)),
  "a 2 GB file, normalized": () => normalizeSession(file(Buffer.alloc(2 ** 31))),
  "two files of 1.6 GB": () => normalizeSession([file(Buffer.alloc(1.6e9))[0], { name: "b.jsonl", bytes: Buffer.alloc(1.6e9) }]),
  "three files of 1.5 GB, more than 32 bits count": () => normalizeSession(["a", "b", "c"].map((n) => ({ name: n + ".jsonl", bytes: Buffer.alloc(1.5e9) }))),
};
const out = {};
for (const [name, f] of Object.entries(cases)) out[name] = said(f);
out["afterwards"] = said(() => parseTranscript('{"type":"user"}').census);
console.log(JSON.stringify(out));
`;

test("hostile input to the npm functions in Node ends in an Error with a message, never a trap, and the module still answers", async () => {
  await writeFile(join(project, "hostile.mjs"), HOSTILE);
  const out = JSON.parse(execFileSync("node", ["hostile.mjs"], { cwd: project, encoding: "utf8", maxBuffer: 1 << 24 }));
  const error = (message) => ({ error: "Error", message });
  const like = (name, pattern) => {
    assert.equal(out[name].error, "Error", `${name}: ${JSON.stringify(out[name])}`);
    assert.match(out[name].message, pattern, name);
  };
  assert.deepEqual(out["parseTranscript of a number"], error("expected a Uint8Array, an ArrayBuffer or a string"));
  assert.deepEqual(out["normalizeSession of a string"], error("expected an array of {name, bytes}"));
  assert.deepEqual(out["a file without a name"], error("file 0 has no string `name`"));
  assert.deepEqual(out["a null file"], error("file 0 has no string `name`"));
  assert.deepEqual(out["a file whose bytes are an object"], error("file a: `bytes` must be a Uint8Array, an ArrayBuffer or a string"));
  assert.deepEqual(out["patterns that are a number"], error("patterns: expected an array of strings (regular expressions)"));
  like("a pattern that is no regular expression", /^\(: regex parse error/);
  like("options that are a string", /^options: expected an object/);
  like("turns that are a string", /^options: invalid type: string "x", expected a tuple of size 2/);
  like("keep that is a number", /^options: invalid type: integer `3`, expected a sequence/);
  like("ten million one-byte lines, parsed", /^too many lines to index: 10000001 lines in 20\.0 MB/);
  like("ten million one-byte lines, normalized", /^too many lines to index: 10000001 lines/);
  like("three million lines, an object each", /^too many lines for parseTranscript: 3000001/);
  assert.deepEqual(out["JSON nested 10,000 deep"], { answer: "string" });
  assert.deepEqual(out["a message nested 10,000 deep, exported"], { answer: "string" });
  assert.deepEqual(out["one 500 MB line without a newline"], { answer: "number" });
  assert.deepEqual(out["a 2 GB file, parsed"], error("2147 MB in one file is more than WebAssembly can hold in one piece (2 GB)"));
  assert.deepEqual(out["a 2 GB file, normalized"], error("file a.jsonl: 2147 MB in one file is more than WebAssembly can hold in one piece (2 GB)"));
  assert.deepEqual(out["two files of 1.6 GB"], error("3200.0 MB of files is more than the 3 GB cctv can use (WebAssembly has 4 GB in all)"));
  assert.deepEqual(out["three files of 1.5 GB, more than 32 bits count"], error("4500.0 MB of files is more than the 3 GB cctv can use (WebAssembly has 4 GB in all)"));
  assert.deepEqual(out["afterwards"], { answer: "object" });
});
