import { join } from "node:path";
import { mkdir } from "node:fs/promises";
import { serve, FIXTURES, ROOT } from "./harness.mjs";
import { ENGINES, EXTRA, ERRORS_HEAD, launch } from "./engines.mjs";
const DIST = join(ROOT, "dist");
const NEWEST = join(FIXTURES, "palimondo__fortress/projects/-home-user-fortress/bdff267d-67dc-5bb9-b970-8c3dfaa634b6/subagents/agent-ad14da67757fdcf3c.jsonl");
const OTHER = join(FIXTURES, "FSM1__cipher-box/6a/be57e9ad35/3/full.jsonl");
const SHOTS = "/tmp/shots";
await mkdir(SHOTS, { recursive: true });
const site = await serve(DIST, "/", { extra: EXTRA, head: ERRORS_HEAD });
for (const name of (process.env.ENGINES ?? ENGINES.join(",")).split(",")) {
  const engine = await launch(name);
  for (const [size, dims] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
    for (const [label, file] of [["newest", NEWEST], ["other", OTHER]]) {
      const page = await engine.page(dims);
      await page.goto(site.url);
      await page.waitFor(() => document.querySelector(".cctv-item"), null, { what: "rows" });
      const demo = await page.evaluate(() => document.querySelector(".cctv-title")?.textContent);
      await page.setFiles("input[type=file]:not([webkitdirectory])", [file]);
      await page.waitFor((t) => document.querySelector(".cctv-title")?.textContent !== t && document.querySelector(".cctv-item"), demo, { what: "the file" });
      await page.waitFor(() => document.querySelector(".cctv-side__tab"), null, { what: "tabs" }).catch(() => {});
      const opened = await page.evaluate(() => { const t = [...document.querySelectorAll(".cctv-side__tab")].find((b) => b.textContent.trim() === "Share"); if (t) { t.click(); return true; } return false; });
      if (opened) await page.waitFor(() => document.querySelector(".cctv-share__counts, .cctv-share__error, .cctv-share p.cctv-muted + *"), null, { what: "share" }).catch((e) => console.log(name, size, label, String(e).slice(0, 120)));
      await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
      await page.screenshot(join(SHOTS, `${name}-${size}-${label}.png`));
      const said = await page.evaluate(() => document.querySelector(".cctv-share")?.innerText.slice(0, 160) ?? "(no share tab visible)");
      console.log(name, size, label, "share tab:", opened, JSON.stringify(said), "errors:", JSON.stringify(await page.errors()));
      await page.close();
    }
  }
  await engine.close();
}
await site.close();
process.exit(0);
