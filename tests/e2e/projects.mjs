// Generated projects folders, as ~/.claude/projects holds them, for the list of sessions' test
// and benchmark: `projects` folders of `perProject` sessions. Each session is a prompt, a Task call
// and the sub-agent it ran (its own file under `<session>/subagents/`), then `extraCalls` Bash
// calls with about 4 kB of output each (to make a folder of GBs). Exactly one sub-agent's command
// output, that of session `plant = [project, session]`, holds `PLANTED`.

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const PLANTED = "zebra-quartz-4471";

/** A uuid made from numbers, so every run writes the same folder. */
export function uuid(...n) {
  const hex = n.map((x) => x.toString(16).padStart(4, "0")).join("").padEnd(32, "0").slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

const OUTPUT = Array.from({ length: 64 }, (_, i) => `line ${i} of the build log: compiling module ${i} (ok)`).join("\n");
const DAY = 24 * 3600 * 1000;
const START = Date.parse("2026-01-01T00:00:00Z");

export async function writeProjects(root, { projects, perProject, plant, extraCalls = 0 }) {
  for (let p = 0; p < projects; p++) {
    const cwd = `/home/me/src/app-${p}`;
    const folder = join(root, cwd.replace(/[^A-Za-z0-9]/g, "-"));
    await mkdir(folder, { recursive: true });
    for (let s = 0; s < perProject; s++) {
      const id = uuid(1, p, s);
      const agent = `a${p}x${s}`;
      // Project p's sessions run on day p, session s from hour s, a minute a line.
      const at = (minute) => new Date(START + p * DAY + s * 3600 * 1000 + minute * 60 * 1000).toISOString();
      const base = { sessionId: id, cwd, version: "2.1.179", gitBranch: p % 2 ? "main" : "dev", userType: "external", isSidechain: false };
      const taskId = `toolu_${p}_${s}`;
      const session = [
        { ...base, type: "user", uuid: uuid(2, p, s), parentUuid: null, timestamp: at(0), message: { role: "user", content: `Task number ${s} of project ${p}` } },
        { ...base, type: "assistant", uuid: uuid(3, p, s), parentUuid: uuid(2, p, s), timestamp: at(1), message: { id: `msg_${p}_${s}`, role: "assistant", model: "claude-opus-4-5", content: [{ type: "tool_use", id: taskId, name: "Task", input: { description: "Look around", prompt: "List the files", subagent_type: "Explore" } }], usage: { input_tokens: 5, output_tokens: 5 } } },
        { ...base, type: "user", uuid: uuid(4, p, s), parentUuid: uuid(3, p, s), timestamp: at(5), message: { role: "user", content: [{ type: "tool_result", tool_use_id: taskId, content: "Done looking." }] }, toolUseResult: { agentId: agent, status: "completed" } },
      ];
      let parent = uuid(4, p, s);
      for (let c = 0; c < extraCalls; c++) {
        const call = { ...base, type: "assistant", uuid: uuid(8, p, s, c), parentUuid: parent, timestamp: at(6), message: { id: `msg_b_${p}_${s}_${c}`, role: "assistant", model: "claude-opus-4-5", content: [{ type: "tool_use", id: `toolu_b_${p}_${s}_${c}`, name: "Bash", input: { command: `make step-${c}` } }], usage: { input_tokens: 5, output_tokens: 5 } } };
        const result = { ...base, type: "user", uuid: uuid(9, p, s, c), parentUuid: call.uuid, timestamp: at(6), message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_b_${p}_${s}_${c}`, content: OUTPUT }] } };
        session.push(call, result);
        parent = result.uuid;
      }
      const sub = { ...base, isSidechain: true, agentId: agent };
      const output = p === plant[0] && s === plant[1] ? `src/main.rs\nsrc/${PLANTED}.rs\n` : "src/main.rs\n";
      const agentLines = [
        { ...sub, type: "user", uuid: uuid(5, p, s), parentUuid: null, timestamp: at(2), message: { role: "user", content: "List the files" } },
        { ...sub, type: "assistant", uuid: uuid(6, p, s), parentUuid: uuid(5, p, s), timestamp: at(3), message: { id: `msg_a_${p}_${s}`, role: "assistant", model: "claude-haiku-4-5", content: [{ type: "tool_use", id: `toolu_a_${p}_${s}`, name: "Bash", input: { command: "ls src" } }], usage: { input_tokens: 5, output_tokens: 5 } } },
        { ...sub, type: "user", uuid: uuid(7, p, s), parentUuid: uuid(6, p, s), timestamp: at(4), message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_a_${p}_${s}`, content: output }] } },
      ];
      await writeFile(join(folder, `${id}.jsonl`), session.map((l) => JSON.stringify(l)).join("\n") + "\n");
      await mkdir(join(folder, id, "subagents"), { recursive: true });
      await writeFile(join(folder, id, "subagents", `agent-${agent}.jsonl`), agentLines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    }
  }
}
