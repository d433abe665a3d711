// Adds files to the "files" of the package.json wasm-pack writes (which lists only what it made
// itself), so that `npm pack` carries them: node scripts/package-files.mjs pkg/package.json FILE...
import { readFileSync, writeFileSync } from "node:fs";

const [path, ...files] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(path, "utf8"));
manifest.files = [...new Set([...(manifest.files ?? []), ...files])];
writeFileSync(path, JSON.stringify(manifest, null, 2) + "\n");
