// The package's TypeScript types against what its functions really return: a consumer project
// with `strict` on installs the packed tarball, the functions are run in Node on real sessions,
// and what they returned is written out as object literals typed by cctv.d.ts. `tsc --noEmit`
// then fails on a field the types lack (excess property) or that the objects lack (missing
// property): a field renamed in Rust but not in the types fails here.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURES, withPackage } from "./harness.mjs";

const TSC = join(dirname(fileURLToPath(import.meta.url)), "node_modules/typescript/bin/tsc");
const MOREDIP = join(FIXTURES, "moredip__session-share/samples/claude-code-projects");
let project;

before(async () => {
  project = await withPackage("cctv-types-");
  await writeFile(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "es2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        // cctv.d.ts is checked too: wasm-bindgen's classes are disposable (Symbol.dispose).
        lib: ["esnext", "dom"],
        exactOptionalPropertyTypes: false,
        skipLibCheck: false,
      },
      include: ["*.ts"],
    }),
  );
});

/** Runs `script` (an ES module) in the consumer project and returns what it printed. */
function node(script) {
  return execFileSync("node", ["--input-type=module", "-e", script], { cwd: project, encoding: "utf8", maxBuffer: 1 << 28 });
}

function tsc(...options) {
  try {
    execFileSync("node", [TSC, "-p", project, ...options], { cwd: project, encoding: "utf8" });
    return "";
  } catch (e) {
    return e.stdout + e.stderr;
  }
}

test("the types describe exactly what the functions return on real sessions, under strict", async () => {
  // What the functions return, as JSON: a session with five sub-agents, and files with a secret
  // and an e-mail address in them so that findings are not empty.
  const real = JSON.parse(
    node(`
      import { readFile, readdir } from "node:fs/promises";
      import { parseTranscript, normalizeSession, findSecrets } from "cctv";
      const root = ${JSON.stringify(MOREDIP)};
      const session = "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68";
      const files = [{ name: session + ".jsonl", bytes: await readFile(root + "/" + session + ".jsonl") }];
      for (const name of await readdir(root + "/" + session + "/subagents")) {
        files.push({ name: session + "/subagents/" + name, bytes: await readFile(root + "/" + session + "/subagents/" + name) });
      }
      const leaky = [{ name: "leak.jsonl", bytes: JSON.stringify({ type: "user", uuid: "u1", sessionId: "s", timestamp: "2026-01-01T00:00:00Z",
        message: { role: "user", content: "deploy with ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 and mail ada@lovelace.dev" } }) + "\\n" }];
      console.log(JSON.stringify({
        parsed: parseTranscript(files[0].bytes),
        normalized: normalizeSession(files),
        findings: findSecrets(leaky),
      }));
    `),
  );
  assert.equal(real.normalized.sessions[0].agents.length, 5);
  assert.ok(real.findings.length >= 2, JSON.stringify(real.findings));
  const literal = (value) => JSON.stringify(value, null, 1);
  await writeFile(
    join(project, "real.ts"),
    `import type { ParsedTranscript, NormalizedSessions, Finding } from "cctv";\n` +
      `export const parsed: ParsedTranscript = ${literal(real.parsed)};\n` +
      `export const normalized: NormalizedSessions = ${literal(real.normalized)};\n` +
      `export const findings: Finding[] = ${literal(real.findings)};\n`,
  );
  // A consumer's code: every function, their options and the viewer's handle, used as documented.
  await writeFile(
    join(project, "consumer.ts"),
    `import init, { parseTranscript, normalizeSession, findSecrets, exportMarkdown, exportHtml, mountViewer } from "cctv";
import type { TranscriptFile, ViewerHandle } from "cctv";

export async function show(element: HTMLElement, files: TranscriptFile[]): Promise<string> {
  await init();
  const viewer: ViewerHandle = mountViewer(element, { theme: "dark", files });
  viewer.setTheme("system");
  const census: Record<string, number> = parseTranscript(new Uint8Array()).census;
  const titles: string[] = normalizeSession(files).sessions.map((s) => s.title ?? "untitled");
  const rules: string[] = findSecrets(files, ["internal-[a-z]+"]).map((f) => f.rule ?? f.kind);
  const markdown: string = exportMarkdown(files, { thinking: false, turns: [0, 2], keep: ["ada@lovelace.dev"] });
  const html: string = await exportHtml(files, { maskCandidates: true });
  viewer.destroy();
  return [Object.keys(census).join(), titles.join(), rules.join(), markdown, html].join("\\n");
}

// The custom element, typed through the tag name.
import "cctv/element";
export function element(files: TranscriptFile[]): void {
  const viewer = document.createElement("cctv-viewer");
  viewer.files = files;
  viewer.setAttribute("theme", "dark");
  viewer.addEventListener("cctv-select", (event) => console.log(event.detail.id.length));
  document.body.append(viewer);
}
`,
  );
  assert.equal(tsc(), "");
  // And as a Vite or webpack project resolves the package.
  assert.equal(tsc("--module", "esnext", "--moduleResolution", "bundler"), "");

  // The check can fail: a field the types do not have, and one the objects lack.
  await writeFile(join(project, "renamed.ts"), `import type { ParsedLine } from "cctv";\nexport const a: ParsedLine = { line: 1, start: 0, end: 2, status: "entry", lineNumber: 1 };\nexport const b: ParsedLine = { start: 0, end: 2, status: "entry" };\n`);
  const errors = tsc();
  assert.match(errors, /renamed\.ts.*'lineNumber' does not exist in type 'ParsedLine'/);
  assert.match(errors, /renamed\.ts.*Property 'line' is missing/);
  assert.doesNotMatch(errors, /(real|consumer)\.ts/);
});
