// A worker of the page: one of the session list's (src/browser/pool.rs starts them;
// src/browser/worker.rs is what they run), or the viewer's engine (role "engine":
// src/browser/engine.rs starts it, src/browser/engine_worker.rs is what it runs), or one the
// engine starts to look through a part of a large session for secrets (role "scan":
// src/browser/share_scan.rs), or one that warms that scan's code on the demo (role "warm":
// src/browser/warm_scan.rs), or one that reads a load's slices of files off the page's thread
// (role "read": src/browser/slices.rs, which needs no wasm). The page sends
// the address of its wasm-bindgen JS and the wasm module it compiled, so the worker runs the
// page's own code without fetching or compiling the wasm again. A start that fails says so: the
// page then does the work itself.
addEventListener(
  "message",
  async ({ data }) => {
    if (data.role === "read") return readSlices();
    try {
      const bindings = await import(data.glue);
      await bindings.default({ module_or_path: data.module });
      if (data.role === "engine") bindings.startEngineWorker();
      else if (data.role === "scan") bindings.startScanWorker(data.job);
      else if (data.role === "warm") bindings.startWarmWorker();
      else bindings.startListWorker();
    } catch (e) {
      postMessage({ failed: String(e?.message ?? e) });
    }
  },
  { once: true },
);

// Reads each slice asked ({ id, file, from, to }) and hands its bytes back, transferred
// ({ id, buffer }), or says why it could not ({ id, failed }). In a worker a read blocks only it,
// so the page parses one slice while the next is read.
function readSlices() {
  const reader = new FileReaderSync();
  addEventListener("message", ({ data: { id, file, from, to } }) => {
    try {
      const buffer = reader.readAsArrayBuffer(file.slice(from, to));
      postMessage({ id, buffer }, [buffer]);
    } catch (e) {
      postMessage({ id, failed: String(e?.message ?? e) });
    }
  });
}
