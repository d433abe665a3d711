import type { TranscriptFile } from "./cctv.js";

/** `<cctv-viewer src="session.jsonl" theme="dark" open="<row id>">`: the viewer in a shadow root.
 * It fires `cctv-select` (`detail.id`) when the reader selects a row. */
export declare class CctvViewerElement extends HTMLElement {
  /** Shows these files. */
  set files(files: TranscriptFile[]);
}

declare global {
  interface HTMLElementTagNameMap {
    "cctv-viewer": CctvViewerElement;
  }
  interface HTMLElementEventMap {
    "cctv-select": CustomEvent<{ id: string }>;
  }
}
