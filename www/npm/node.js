// The package in Node (20 or later, ES modules): the same functions as in a browser, ready on
// import. The wasm is read from the package's own files rather than fetched, and nothing here
// needs a DOM: parseTranscript, normalizeSession, findSecrets and exportMarkdown run as they do
// in a page (mountViewer and exportHtml need a browser). package.json sends Node here through the
// "node" condition of its "exports"; browsers and bundlers get cctv.js.
import { readFile } from "node:fs/promises";
import init from "./cctv.js";

await init({ module_or_path: await readFile(new URL("./cctv_bg.wasm", import.meta.url)) });

export * from "./cctv.js";
// Already done: calling it again returns at once.
export { default } from "./cctv.js";
