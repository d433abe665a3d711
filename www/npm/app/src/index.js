import init, { mountViewer } from "cctv";

await init(); // the bundler gave cctv_bg.wasm an address of its own; init() finds it there

// The viewer fills #viewer (give it a height); it brings its own styles, scoped to it.
const viewer = mountViewer(document.querySelector("#viewer"), { theme: "light" });

// A project folder (~/.claude/projects/<project>): its sessions with their sub-agents.
document.querySelector("#folder").addEventListener("change", async (event) => {
  const files = await Promise.all(
    [...event.target.files].map(async (file) => ({
      name: file.webkitRelativePath,
      bytes: new Uint8Array(await file.arrayBuffer()),
    })),
  );
  viewer.load(files);
});
