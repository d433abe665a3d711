// Starts the viewer. Trunk would inline this as a <script type="module">, which the page's
// Content-Security-Policy (script-src 'self') forbids, so Trunk.toml's pattern_script loads this
// file instead and passes the hashed names of the wasm-bindgen JS and the wasm as attributes.
const tag = document.querySelector("script[data-cctv-js]");
const { default: init } = await import(tag.dataset.cctvJs);
const wasm = await init({ module_or_path: tag.dataset.cctvWasm });
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));
