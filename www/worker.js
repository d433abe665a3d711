// A worker of the session list (src/ui/pool.rs starts it; src/ui/worker.rs is what it runs). The
// page sends the address of its wasm-bindgen JS and the wasm module it compiled, so the worker
// runs the page's own code without fetching or compiling the wasm again.
addEventListener(
  "message",
  async ({ data }) => {
    const bindings = await import(data.glue);
    await bindings.default({ module_or_path: data.module });
    bindings.startListWorker();
  },
  { once: true },
);
