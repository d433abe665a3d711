// <cctv-viewer>: the viewer as a custom element, the simplest way to embed it.
//
//   import "cctv/element";   // or "./node_modules/cctv/element.js" in a page without a bundler
//   <cctv-viewer src="session.jsonl" theme="dark" style="height: 40rem"></cctv-viewer>
//
// Its styles live in its shadow root, so the host page's rules (`button {}`, `* {}`) cannot reach
// inside. Attributes: `src` (a transcript's address, fetched), `theme` (light, dark or system),
// `open` (the id of a row to show). Property: `files` ({name, bytes}[], as for mountViewer).
// Event: `cctv-select` when the reader selects a row (`detail.id`), bubbling out of the shadow
// root.
import init, { mountViewer } from "./cctv.js";

let ready;
const THEMES = ["light", "dark", "system", "auto"];

export class CctvViewerElement extends HTMLElement {
  static observedAttributes = ["src", "theme", "open"];
  #viewer = null;
  #mounting = null;
  #fetching = 0;
  /** What went wrong, by attribute: shown as text above the viewer. */
  #said = new Map();

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    // The element is a box of the page's; the viewer fills it (give it a height).
    const sheet = document.createElement("style");
    sheet.textContent = `
      :host { display: flex; flex-direction: column; height: 30rem; }
      .cctv-viewer-mount { flex: 1; min-height: 0; height: 100%; }
      .cctv-viewer-error { margin: 0; padding: 0.5rem 0.75rem; white-space: pre-line; font: 14px system-ui, sans-serif; color: #a40e26; background: #ffebe9; }
      .cctv-viewer-error[hidden] { display: none; }`;
    // What is wrong with an attribute (an address that cannot be fetched, an unknown theme, an
    // id no row has) is said here as text, not left a blank box.
    const error = document.createElement("p");
    error.className = "cctv-viewer-error";
    error.setAttribute("role", "alert");
    error.hidden = true;
    const mount = document.createElement("div");
    mount.className = "cctv-viewer-mount";
    root.append(sheet, error, mount);
  }

  connectedCallback() {
    this.#mounting ??= this.#mount();
  }

  disconnectedCallback() {
    // Moved elsewhere in the page, it is connected again at once; removed, it lets go.
    queueMicrotask(() => {
      if (this.isConnected || !this.#viewer) return;
      this.#viewer.destroy();
      this.#viewer = null;
      this.#mounting = null;
    });
  }

  async #mount() {
    ready ??= init();
    await ready;
    const mount = this.shadowRoot.querySelector(".cctv-viewer-mount");
    this.#viewer = mountViewer(mount, {
      theme: this.#theme(this.getAttribute("theme")),
      onSelect: (id) => this.dispatchEvent(new CustomEvent("cctv-select", { detail: { id }, bubbles: true, composed: true })),
    });
    if (this.hasAttribute("src")) await this.#fetch(this.getAttribute("src"));
  }

  async #fetch(src) {
    // Only the latest src is shown: a slower answer for an earlier one is dropped.
    const fetching = ++this.#fetching;
    this.#say("src", null);
    try {
      const response = await fetch(src);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const last = new URL(src, location.href).pathname.split("/").pop();
      if (fetching === this.#fetching) this.files = [{ name: safeDecode(last) || "session.jsonl", bytes }];
    } catch (e) {
      if (fetching === this.#fetching) this.#say("src", `${src} could not be fetched: ${e.message}`);
    }
  }

  /** A theme the viewer knows: another is said, and the system's used. */
  #theme(name) {
    this.#say("theme", null);
    if (name === null || THEMES.includes(name)) return name ?? "system";
    this.#say("theme", `theme ${JSON.stringify(name)} is none of ${THEMES.join(", ")}: the system's is used`);
    return "system";
  }

  /** Says (or, with null, takes back) what went wrong with one attribute. */
  #say(attribute, text) {
    if (text) this.#said.set(attribute, text);
    else this.#said.delete(attribute);
    const error = this.shadowRoot.querySelector(".cctv-viewer-error");
    error.textContent = [...this.#said.values()].join("\n");
    error.hidden = this.#said.size === 0;
  }

  /** Shows these files ({name, bytes}[]). */
  set files(files) {
    this.#whenMounted((viewer) => {
      viewer.load(files);
      this.#open(viewer, this.getAttribute("open"));
    });
  }

  attributeChangedCallback(name, before, value) {
    if (before === value) return;
    if (name === "src" && this.#viewer) {
      if (value) this.#fetch(value);
      else {
        this.#fetching++; // an answer still on its way is dropped
        this.#say("src", null);
      }
    }
    if (name === "theme") this.#whenMounted((viewer) => viewer.setTheme(this.#theme(value)));
    if (name === "open") this.#whenMounted((viewer) => this.#open(viewer, value));
  }

  /** Shows the row of id `open`, or says there is none. */
  #open(viewer, open) {
    this.#say("open", open && !viewer.scrollTo(open) ? `no row has the id ${JSON.stringify(open)}` : null);
  }

  #whenMounted(act) {
    if (this.#viewer) act(this.#viewer);
    else (this.#mounting ??= this.#mount()).then(() => this.#viewer && act(this.#viewer));
  }
}

/** A file name from a URL path, as it was before percent-encoding (as it is, if it is not valid). */
function safeDecode(name) {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

if (!customElements.get("cctv-viewer")) customElements.define("cctv-viewer", CctvViewerElement);
