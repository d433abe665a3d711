import init, { mountViewer, normalizeSession } from "./node_modules/cctv/cctv.js";

await init(); // fetches cctv_bg.wasm from beside cctv.js

// The viewer fills #viewer (give it a height); it brings its own styles, scoped to it.
const viewer = mountViewer(document.querySelector("#viewer"), { theme: "light" });

document.querySelector("#files").addEventListener("change", async (event) => {
  // Files as the user picked them: a name (the path inside a folder) and the bytes.
  const files = await Promise.all(
    [...event.target.files].map(async (file) => ({
      name: file.webkitRelativePath || file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    })),
  );
  viewer.load(files);
  const { sessions } = normalizeSession(files);
  document.querySelector("#summary").textContent = sessions
    .map((s) => `${s.title ?? "untitled"}: ${s.items.length} items, ${s.agents.length} sub-agents`)
    .join("\n");
});

document.querySelector("#close").addEventListener("click", () => viewer.destroy());
