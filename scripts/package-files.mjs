// Adds files to the "files" of the package.json wasm-pack writes (which lists only what it made
// itself), so that `npm pack` carries them, and says which file Node and browsers each import:
// node scripts/package-files.mjs pkg/package.json FILE...
import { readFileSync, writeFileSync } from "node:fs";

const [path, ...files] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(path, "utf8"));
manifest.files = [...new Set([...(manifest.files ?? []), ...files])];
// Node gets node.js, which reads the wasm from the package instead of fetching it; browsers and
// bundlers get cctv.js. The files a page loads from beside cctv.js stay reachable by path.
manifest.exports = {
  ".": { types: "./cctv.d.ts", node: "./node.js", default: "./cctv.js" },
  "./cctv.js": { types: "./cctv.d.ts", default: "./cctv.js" },
  "./element": { types: "./element.d.ts", default: "./element.js" },
  "./element.js": { types: "./element.d.ts", default: "./element.js" },
  "./cctv_bg.wasm": "./cctv_bg.wasm",
  "./grammars.packdump": "./grammars.packdump",
  "./worker.js": "./worker.js",
  "./snippets/*": "./snippets/*",
  "./package.json": "./package.json",
};
manifest.engines = { node: ">=20" };
writeFileSync(path, JSON.stringify(manifest, null, 2) + "\n");
