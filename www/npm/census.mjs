// The README's Node example (tests/e2e/node.test.mjs runs it): a session's census of line types,
// the sessions it holds, and its first lines as Markdown.
//
//   node census.mjs ~/.claude/projects/<project>/<session>.jsonl
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { parseTranscript, normalizeSession, exportMarkdown } from "cctv";

const path = process.argv[2];
const bytes = await readFile(path);
const { census } = parseTranscript(bytes);
console.log(JSON.stringify(census));

const files = [{ name: basename(path), bytes }];
for (const session of normalizeSession(files).sessions) {
  console.log(`${session.title ?? "untitled"}: ${session.items.length} items, ${session.agents.length} sub-agents`);
}
console.log(exportMarkdown(files).split("\n")[0]);
