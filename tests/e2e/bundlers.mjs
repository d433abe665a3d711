// The README's embedding examples, each in a scratch project with the package installed from its
// tarball, served as a developer would serve them: a plain page (www/embed), <cctv-viewer>
// (www/npm/element.html) and the app of www/npm/app under Vite's dev server, built by
// `vite build` and built by webpack, with no configuration. Used by bundlers.test.mjs and
// bench-embed.mjs.

import { copyFile, cp, readFile, writeFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { createServer } from "vite";
import { FIXTURES, ROOT, serve, withPackage } from "./harness.mjs";

const APP = join(ROOT, "www/npm/app");
const MODULES = join(ROOT, "tests/e2e/node_modules");
/** A real session, for the custom element's `src`. */
const SESSION = join(FIXTURES, "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl");

export const BUNDLERS = ["Vite's dev server", "vite build", "webpack"];
export const SETUPS = ["plain page", "custom element", ...BUNDLERS];

/** Makes `setup`'s example in a scratch project and serves it: `{ url, close }`. */
export async function app(setup) {
  const project = await withPackage("cctv-app-");
  if (setup === "plain page") {
    for (const file of ["index.html", "main.js"]) await copyFile(join(ROOT, "www/embed", file), join(project, file));
    return serve(project);
  }
  if (setup === "custom element") {
    const example = await readFile(join(ROOT, "www/npm/element.html"), "utf8");
    await writeFile(join(project, "index.html"), `<!doctype html><meta charset="utf-8">\n${example}`);
    await copyFile(SESSION, join(project, "session.jsonl"));
    return serve(project);
  }
  await cp(join(APP, "src"), join(project, "src"), { recursive: true });
  await cp(join(APP, setup === "webpack" ? "webpack" : "vite"), project, { recursive: true });
  if (setup === "Vite's dev server") {
    // `npx vite`
    const server = await createServer({ root: project, logLevel: "error", server: { host: "127.0.0.1", port: 0 } });
    await server.listen();
    return { url: server.resolvedUrls.local[0], close: () => server.close() };
  }
  const run = (...args) => execFileSync("node", args, { cwd: project, encoding: "utf8", stdio: "pipe" });
  if (setup === "vite build") run(join(MODULES, "vite/bin/vite.js"), "build", "--logLevel", "error"); // `npx vite build`
  else run(join(MODULES, "webpack-cli/bin/cli.js"), "--mode", "production"); // `npx webpack --mode production`
  return serve(join(project, "dist"));
}

/** In `page`, the time from navigation to the viewer being on the page (ms). */
export function mounted(page) {
  return page
    .waitForFunction(() => (document.querySelector("cctv-viewer")?.shadowRoot ?? document).querySelector(".cctv") && performance.now(), null, { polling: "raf", timeout: 60000 })
    .then((handle) => handle.jsonValue());
}
