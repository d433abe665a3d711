// throwaway: profile long tasks of the 20,000-file folder
import { mkdir, writeFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { serve, browser } from "./harness.mjs";
import { uuid } from "./projects.mjs";
const root = "/tmp/many";
function session(id, prompt, cwd) {
  const base = { sessionId: id, version: "2.1.300", userType: "external", isSidechain: false, cwd };
  const lines = [
    { ...base, type: "user", uuid: `${id.slice(0, 24)}00000002`, parentUuid: null, timestamp: "2026-03-01T10:00:00Z", message: { role: "user", content: prompt } },
    { ...base, type: "assistant", uuid: `${id.slice(0, 24)}00000003`, parentUuid: `${id.slice(0, 24)}00000002`, timestamp: "2026-03-01T10:00:05Z", message: { id: "msg_1", role: "assistant", model: "claude-opus-4-5", content: [{ type: "text", text: "Done." }], usage: { input_tokens: 5, output_tokens: 5 } } },
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}
if (!(await stat(root).catch(() => null))) {
  for (let p = 0; p < 10; p++) {
    const folder = join(root, `-home-me-app-${p}`);
    await mkdir(folder, { recursive: true });
    const w = [];
    for (let s = 0; s < 1000; s++) {
      const id = uuid(20, p, s);
      w.push(writeFile(join(folder, `${id}.jsonl`), session(id, `task ${s} of app ${p}`, `/home/me/app-${p}`)));
      if (s % 2 === 0) w.push(writeFile(join(folder, `notes-${s}.${["md", "png", "DS_Store", "swp", "txt"][(s / 2) % 5]}`), `not ${s}`));
      else w.push(writeFile(join(folder, `broken-${s}.jsonl`), ["\u0000\u0001 binary", "[1, 2, 3]", "just words\nmore"][s % 3]));
    }
    await Promise.all(w);
  }
}
const dir = process.argv[2] ?? "/tmp/dist-prof";
const server = await serve(dir);
const b = await browser();
const page = await b.newPage({ viewport: { width: 1400, height: 1000 } });
await page.goto(server.url);
await page.waitForSelector(".cctv-item", { timeout: 60000 });
const cdp = await page.context().newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 1000 });
await page.evaluate(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: "longtask" });
  document.querySelectorAll('input[type="file"]')[1].addEventListener("change", () => { window.__change = performance.now(); }, { capture: true });
});
const t0 = await page.evaluate(() => performance.now());
await cdp.send("Profiler.start");
const t1 = await page.evaluate(() => performance.now());
await page.locator('input[type="file"]').nth(1).setInputFiles(root);
await page.waitForFunction(() => document.querySelectorAll(".cctv-library__project").length === 10, null, { timeout: 120000 });
await page.waitForFunction(() => (document.querySelector(".cctv-library__status")?.textContent ?? "") === "", null, { timeout: 240000, polling: 500 });
const { profile } = await cdp.send("Profiler.stop");
const { long, change } = await page.evaluate(() => ({ long: window.__long.filter(([s]) => s > window.__change), change: window.__change }));
console.log("long", JSON.stringify(long.map(([s, d]) => [Math.round(s - change), Math.round(d)])));
// samples -> times (µs since profile start); profile.startTime is in µs monotonic; align: t≈(t0+t1)/2 ms at profile start
const base = (t0 + t1) / 2;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = profile.startTime;
const times = profile.timeDeltas.map((d) => (t += d, base + (t - profile.startTime) / 1000));
for (const [s, d] of long) {
  const self = new Map(), incl = new Map();
  let count = 0;
  profile.samples.forEach((id, i) => {
    if (times[i] < s || times[i] > s + d) return;
    count++;
    const n = nodes.get(id);
    const name = (n) => `${n.callFrame.functionName || "(anon)"}`;
    self.set(name(n), (self.get(name(n)) ?? 0) + 1);
    const seen = new Set();
    for (let x = id; x; x = parent.get(x)) { const nm = name(nodes.get(x)); if (!seen.has(nm)) { seen.add(nm); incl.set(nm, (incl.get(nm) ?? 0) + 1); } }
  });
  console.log(`task at +${Math.round(s - change)} ms, ${Math.round(d)} ms, ${count} samples`);
  console.log("  self:", [...self].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${v} ${k.slice(0, 70)}`).join(" | "));
  console.log("  incl:", [...incl].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v} ${k.slice(0, 70)}`).join("\n        "));
}
await b.close(); server.close?.();
