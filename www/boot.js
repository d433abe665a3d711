// Starts the viewer. Trunk would inline this as a <script type="module">, which the page's
// Content-Security-Policy (script-src 'self') forbids, so Trunk.toml's pattern_script loads this
// file instead and passes the hashed names of the wasm-bindgen JS and the wasm as attributes.

// Offline and installable (www/sw.js): on the site only, never from a file:// copy. A new
// version found in the background is announced to the viewer, which offers a reload; the news
// can come before the viewer is there, so it is also kept in `cctvUpdated` for it to read.
if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data !== "cctv-updated") return;
    globalThis.cctvUpdated = true;
    dispatchEvent(new CustomEvent("cctv-updated"));
  });
  navigator.serviceWorker.register(new URL("sw.js", import.meta.url)).catch((e) => console.warn("cctv: no offline copy:", e));
}

const tag = document.querySelector("script[data-cctv-js]");
const { default: init } = await import(tag.dataset.cctvJs);
const wasm = await init({ module_or_path: tag.dataset.cctvWasm });
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));

