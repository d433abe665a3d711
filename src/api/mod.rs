//! The JavaScript API: thin wrappers with camelCase names over [`types`] (what JavaScript
//! sees) and `ui::embed` (the mounted viewer); every error crosses as a `js_sys::Error` with a
//! message.

pub mod types;

use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One physical line of a transcript. */
export interface ParsedLine {
  /** 1-based line number. */
  line: number;
  /** Byte range of the line in the input. */
  start: number;
  end: number;
  /** `entry` (typed), `unknown` (type cctv does not know), `malformed` (known type, payload does
   * not fit), or `invalid` (not a JSON object). */
  status: "entry" | "unknown" | "malformed" | "invalid";
  type?: string;
  subtype?: string;
  uuid?: string;
  parentUuid?: string;
  /** Why the line is invalid or malformed. */
  reason?: string;
}

export interface ParsedTranscript {
  lines: ParsedLine[];
  /** Lines per kind: `user`, `system/turn_duration`, `invalid/comment`, ... */
  census: Record<string, number>;
}

/** Parses a transcript (the bytes of a `.jsonl` file, or its text). */
export function parseTranscript(input: Uint8Array | ArrayBuffer | string): ParsedTranscript;

/** A file as a drop or a picker gives it: its path (relative inside a folder) and its content. */
export interface TranscriptFile {
  name: string;
  bytes: Uint8Array | ArrayBuffer | string;
}

export interface Stats {
  inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheCreationTokens: number; cacheCreation1hTokens: number;
  models: Record<string, number>; toolCalls: Record<string, number>;
  /** Calls whose tool reported an error; rejected and interrupted calls are counted apart. */
  toolErrors: number; toolRejections: number; interruptions: number; apiErrors: number; userPrompts: number; assistantTurns: number;
  turnDurationMs: number;
  /** The first and last timestamps, as written and in ms since the epoch; null without any. */
  firstTimestamp: string | null; lastTimestamp: string | null; firstMs: number | null; lastMs: number | null;
  /** From the first timestamp to the last. */
  wallMs: number | null;
  subAgents: number;
}

export interface Accounting {
  lines: number;
  /** Lines shown as items. */
  rendered: number;
  /** Lines folded into an item shown elsewhere (a tool result into its call, ...). */
  merged: number;
  /** Lines not shown, by reason. */
  notShown: Record<string, number>;
}

export interface Item {
  /** Anchor id: the line's uuid, or one derived from it for a block of a multi-block message. */
  id: string;
  /** `command` and `shell`: a slash command or a bash-mode (`!`) command the person ran (its
   * `text` is `/name args` or `! command`); `injected`: a note Claude Code put in a user message
   * for the model. */
  kind: "prompt" | "command" | "shell" | "injected" | "text" | "thinking" | "redactedThinking"
    | "toolCall" | "orphanResult" | "event" | "compactBoundary" | "unknownBlock" | "unknown" | "malformed";
  file: string;
  line: number;
  block?: number;
  timestamp?: string;
  meta: boolean;
  synthetic: boolean;
  text?: string;
  event?: string;
  tool?: {
    name: string; toolUseId: string | null;
    /** The line of its result, or null when the result is missing. */
    resultLine: number | null; isError: boolean;
    preHooks: number; postHooks: number; progress: number;
    /** Index into the session's agents, or null when it spawned none. */
    agent: number | null;
  };
}

export interface Agent {
  agentId: string | null; file: string | null; description: string | null; agentType: string | null;
  /** The call that spawned the agent (or the line a fork or a side question was born at, with evidence
   * `ForkContextRef` or `SideQuestionTurn`), or null when none was found (an orphan). */
  spawnedBy: { file: string; line: number; evidence: string } | null;
  items: Item[];
  stats: Stats;
}

export interface Session {
  sessionId: string | null; file: string | null; title: string | null;
  items: Item[];
  branches: { forkPointLine: number | null; items: Item[] }[];
  agents: Agent[];
  stats: Stats;
  accounting: Accounting;
}

export interface NormalizedSessions {
  sessions: Session[];
  /** Files that are not transcripts, with the reason. */
  rejected: { file: string; reason: string }[];
}

/** Parses and normalizes files into sessions, with sub-agents linked to their calls. */
export function normalizeSession(files: TranscriptFile[]): NormalizedSessions;

/** A secret or personal detail found in files (see `findSecrets`). */
export interface Finding {
  kind: "secret" | "email" | "homeDirectory" | "hostName" | "pattern";
  /** What it is: the rule's description, "e-mail address", ... */
  label: string;
  /** The rule that found a secret: a gitleaks rule id, or `cctv-...`; null for a personal detail
   * or a pattern of the caller's. */
  rule: string | null;
  text: string;
  /** False for a candidate: a rule that also finds things that are not secrets. */
  certain: boolean;
  /** How many strings of the files hold it. */
  count: number;
  /** Where it is first (`line` 0: in the file's name), with the text around it. */
  file: string; line: number; before: string; after: string;
  /** What it becomes when masked. */
  mask: string;
  /** How it is written where it is disguised (percent-encoded, in base64, cut by a line break),
   * as the strings hold it. */
  forms: string[];
}

/** Finds secrets (gitleaks' rules and cctv's) and personal details (e-mail addresses, home
 * directories) in files, and matches of the caller's own `patterns` (regular expressions). */
export function findSecrets(files: TranscriptFile[], patterns?: string[]): Finding[];

export interface MarkdownOptions {
  /** Claude's thinking, folded. Default false. */
  thinking?: boolean;
  /** What tools returned, folded. Default true. */
  toolOutput?: boolean;
  /** Each sub-agent's conversation, folded under its call. Default false. */
  subAgents?: boolean;
  /** Compactions, API errors, hooks outside calls. Default false. */
  systemEvents?: boolean;
  /** Findings to keep unmasked, by text or rule id (`"*"`: all). Every other certain finding is
   * masked: the default is safe. */
  keep?: string[];
  /** Mask the candidates too. Default false. */
  maskCandidates?: boolean;
  /** More to mask: regular expressions. */
  patterns?: string[];
  /** Turns `[first, end)` of the first session, from 0. Default: all. */
  turns?: [number, number];
}

/** The files' sessions as Markdown (for a pull request, an issue, a chat), with every certain
 * secret and personal detail masked unless `options.keep` says otherwise. Sub-agents' files
 * given without their session's are each their conversation whole, under a heading (there are
 * no turns and no calls to fold them under). */
export function exportMarkdown(files: TranscriptFile[], options?: MarkdownOptions): string;

/** What `exportHtml` masks: as for `exportMarkdown` (`keep`, `maskCandidates`, `patterns`). */
export type HtmlOptions = Pick<MarkdownOptions, "keep" | "maskCandidates" | "patterns">;

/** The files' sessions as one self-contained HTML document: this viewer (its script inline, its
 * wasm compressed) and the files, masked like `exportMarkdown`'s and compressed, under a
 * Content-Security-Policy that allows no request. It opens from `file://` with no network.
 * Fetches the viewer's own files (its script, the wasm, the grammars) from beside this script,
 * or from where a bundler put the package's. */
export function exportHtml(files: TranscriptFile[], options?: HtmlOptions): Promise<string>;

export interface ViewerOptions {
  files?: TranscriptFile[];
  theme?: "light" | "dark" | "system";
  /** Called with an item's id when the reader goes to it (search, scrollTo, links). */
  onSelect?: (id: string) => void;
}

/** The viewer mounted in a host element. */
export class ViewerHandle {
  free(): void;
  /** Replaces what the viewer shows. */
  load(files: TranscriptFile[]): void;
  setTheme(theme: "light" | "dark" | "system"): void;
  /** Shows the item with this id; false when no loaded item has it. */
  scrollTo(id: string): boolean;
  /** Removes the viewer from its element. */
  destroy(): void;
}

/** Mounts the full viewer inside `element` (give the element a height). */
export function mountViewer(element: HTMLElement, options?: ViewerOptions): ViewerHandle;
"#;

/// Parses transcript bytes (or text) into its lines.
#[wasm_bindgen(js_name = parseTranscript, skip_typescript)]
pub fn parse_transcript(input: JsValue) -> Result<JsValue, js_sys::Error> {
    let bytes = bytes_of(&input)?;
    let lines = crate::model::check_fits([&bytes[..]]).map_err(|e| js_sys::Error::new(&e))?;
    if lines > MAX_PARSED_LINES {
        return Err(js_sys::Error::new(&format!(
            "too many lines for parseTranscript: {lines}; it gives an object per line, and more than {MAX_PARSED_LINES} would not fit in JavaScript's memory (normalizeSession reads them)"
        )));
    }
    to_js(&types::parsed(&bytes))
}

/// The most lines `parseTranscript` gives an object for: a million took 1.1 GB of Node's memory
/// (its objects and the module's), whose heap stops near 4 GB.
const MAX_PARSED_LINES: usize = 2_000_000;

/// Parses and normalizes files (`{name, bytes}[]`) into the view model.
#[wasm_bindgen(js_name = normalizeSession, skip_typescript)]
pub fn normalize_session(files: JsValue) -> Result<JsValue, js_sys::Error> {
    let workspace = crate::normalize::normalize(inputs_of(&files)?);
    to_js(&types::normalized(&workspace))
}

/// The secrets and personal details in files, and matches of the caller's own patterns.
#[wasm_bindgen(js_name = findSecrets, skip_typescript)]
pub fn find_secrets(files: JsValue, patterns: JsValue) -> Result<JsValue, js_sys::Error> {
    let patterns: Vec<String> = match patterns.is_undefined() || patterns.is_null() {
        true => Vec::new(),
        false if !js_sys::Array::is_array(&patterns) => {
            return Err(js_sys::Error::new("patterns: expected an array of strings (regular expressions)"))
        }
        false => serde_wasm_bindgen::from_value(patterns)
            .map_err(|e| js_sys::Error::new(&format!("patterns: {e}")))?,
    };
    let scanner = crate::redact::Scanner::new(&patterns).map_err(|e| js_sys::Error::new(&e))?;
    to_js(&scanner.find(&inputs_of(&files)?))
}

/// The files' sessions as Markdown, masked as `options` say (every certain finding by default).
#[wasm_bindgen(js_name = exportMarkdown, skip_typescript)]
pub fn export_markdown(files: JsValue, options: JsValue) -> Result<String, js_sys::Error> {
    let options = share_options(options)?;
    let shared =
        crate::export::share::markdown(inputs_of(&files)?, &options).map_err(|e| js_sys::Error::new(&e))?;
    Ok(shared.text)
}

/// An export's options from JavaScript: none is the default (every certain finding masked).
fn share_options(options: JsValue) -> Result<crate::export::share::ShareOptions, js_sys::Error> {
    match options.is_undefined() || options.is_null() {
        true => Ok(Default::default()),
        false if !options.is_object() || js_sys::Array::is_array(&options) => {
            Err(js_sys::Error::new("options: expected an object ({ keep, maskCandidates, patterns, … })"))
        }
        // Read as JSON, whose errors say which field is not of its type (serde_wasm_bindgen's
        // said "Reflect.get called on non-object").
        false => {
            let json = js_sys::JSON::stringify(&options)
                .map_err(|_| js_sys::Error::new("options: not plain data (JSON.stringify failed)"))?;
            serde_json::from_str(&String::from(json))
                .map_err(|e| js_sys::Error::new(&format!("options: {e}")))
        }
    }
}

/// `{name, bytes}[]` from JavaScript.
fn inputs_of(files: &JsValue) -> Result<Vec<crate::normalize::Input>, js_sys::Error> {
    if files.is_undefined() || files.is_null() {
        return Ok(Vec::new());
    }
    if !js_sys::Array::is_array(files) {
        return Err(js_sys::Error::new("expected an array of {name, bytes}"));
    }
    let files = js_sys::Array::from(files);
    // Refused before any is copied in: two files of 1.5 GB took 17 s and 7.5 GB of memory to
    // copy before their index was found not to fit.
    let bytes = |file: &JsValue| js_sys::Reflect::get(file, &"bytes".into()).unwrap_or(JsValue::UNDEFINED);
    // Added as u64: a usize is 32 bits in wasm, and three files of 1.5 GB are more.
    crate::model::check_size(files.iter().map(|f| length_of(&bytes(&f))).sum())
        .map_err(|e| js_sys::Error::new(&e))?;
    let inputs: Vec<crate::normalize::Input> = files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let name = js_sys::Reflect::get(&file, &"name".into())
                .ok()
                .and_then(|n| n.as_string())
                .ok_or_else(|| js_sys::Error::new(&format!("file {i} has no string `name`")))?;
            let bytes = bytes_of(&bytes(&file)).map_err(|e| {
                let why = String::from(e.message());
                let why = match why.strip_prefix("expected ") {
                    Some(types) => format!("`bytes` must be {types}"),
                    None => why,
                };
                js_sys::Error::new(&format!("file {name}: {why}"))
            })?;
            Ok(crate::normalize::Input { name, bytes })
        })
        .collect::<Result<_, js_sys::Error>>()?;
    crate::model::check_fits(inputs.iter().map(|i| &i.bytes[..])).map_err(|e| js_sys::Error::new(&e))?;
    Ok(inputs)
}

#[cfg(feature = "ui")]
pub use viewer::*;

#[cfg(feature = "ui")]
mod viewer {
    use leptos::prelude::Set;
    use wasm_bindgen::prelude::*;

    use super::inputs_of;
    use crate::ui::embed::{theme_named, Embedded};
    use crate::ui::state::Theme;

    /// Shows the session a shared page holds (the page's own script calls this).
    #[wasm_bindgen(js_name = openShared, skip_typescript)]
    pub fn open_shared() -> Result<(), js_sys::Error> {
        crate::ui::shared::open().map_err(|e| js_sys::Error::new(&e))
    }

    /// The files' sessions as one self-contained HTML file (this viewer and the session, masked
    /// as `options` say), for a reader with no network and no install.
    #[wasm_bindgen(js_name = exportHtml, skip_typescript)]
    pub async fn export_html(files: JsValue, options: JsValue) -> Result<String, js_sys::Error> {
        let options = super::share_options(options)?;
        let viewer = crate::browser::viewer_files::fetch().await.map_err(|e| js_sys::Error::new(&e))?;
        let shared = crate::export::share::html(inputs_of(&files)?, &options, &viewer)
            .map_err(|e| js_sys::Error::new(&e))?;
        Ok(shared.text)
    }

    /// The viewer mounted in a host element.
    #[wasm_bindgen(skip_typescript)]
    pub struct ViewerHandle {
        inner: Embedded,
    }

    /// Mounts the full viewer inside `element`.
    #[wasm_bindgen(js_name = mountViewer, skip_typescript)]
    pub fn mount_viewer(
        element: web_sys::HtmlElement,
        options: JsValue,
    ) -> Result<ViewerHandle, js_sys::Error> {
        let get = |key: &str| {
            if options.is_object() {
                js_sys::Reflect::get(&options, &key.into()).unwrap_or(JsValue::UNDEFINED)
            } else {
                JsValue::UNDEFINED
            }
        };
        let files = inputs_of(&get("files"))?;
        let theme = match get("theme").as_string() {
            Some(name) => {
                theme_named(&name).ok_or_else(|| js_sys::Error::new(&format!("unknown theme {name:?}")))?
            }
            None => Theme::System,
        };
        let on_select = get("onSelect").dyn_into::<js_sys::Function>().ok();
        Ok(ViewerHandle { inner: Embedded::mount(element, files, theme, on_select) })
    }

    #[wasm_bindgen]
    impl ViewerHandle {
        pub fn load(&self, files: JsValue) -> Result<(), js_sys::Error> {
            self.live()?;
            let workspace = crate::normalize::normalize(inputs_of(&files)?);
            let viewer = self.inner.viewer();
            // Files dropped on the viewer and still loading give way to these.
            viewer.start_load();
            viewer.progress.set(None);
            viewer.show(workspace);
            Ok(())
        }

        #[wasm_bindgen(js_name = setTheme)]
        pub fn set_theme(&self, theme: String) -> Result<(), js_sys::Error> {
            self.live()?;
            let theme =
                theme_named(&theme).ok_or_else(|| js_sys::Error::new(&format!("unknown theme {theme:?}")))?;
            self.inner.viewer().theme.set(theme);
            Ok(())
        }

        #[wasm_bindgen(js_name = scrollTo)]
        pub fn scroll_to(&self, id: String) -> Result<bool, js_sys::Error> {
            self.live()?;
            Ok(self.inner.scroll_to(&id))
        }

        pub fn destroy(&mut self) {
            self.inner.destroy();
        }

        fn live(&self) -> Result<(), js_sys::Error> {
            if self.inner.is_mounted() {
                Ok(())
            } else {
                Err(js_sys::Error::new("this viewer was destroyed"))
            }
        }
    }
}

/// The bytes `input` holds (a string's UTF-16 length, which its UTF-8 is at least), without
/// copying them; 0 for what holds none.
fn length_of(input: &JsValue) -> u64 {
    if let Some(text) = input.dyn_ref::<js_sys::JsString>() {
        return u64::from(text.length());
    }
    if let Some(array) = input.dyn_ref::<js_sys::Uint8Array>() {
        return u64::from(array.length());
    }
    input.dyn_ref::<js_sys::ArrayBuffer>().map_or(0, |buffer| u64::from(buffer.byte_length()))
}

fn bytes_of(input: &JsValue) -> Result<Vec<u8>, js_sys::Error> {
    if let Some(text) = input.as_string() {
        return Ok(text.into_bytes());
    }
    if input.is_instance_of::<js_sys::Uint8Array>() || input.is_instance_of::<js_sys::ArrayBuffer>() {
        // Copied in only if there is room: a failed allocation would end in a WebAssembly trap.
        // A view of an ArrayBuffer; a Uint8Array as it is (`new Uint8Array` of one copies it).
        let array = match input.dyn_ref::<js_sys::Uint8Array>() {
            Some(array) => array.clone(),
            None => js_sys::Uint8Array::new(input),
        };
        let size = array.length() as usize;
        if size > isize::MAX as usize {
            return Err(js_sys::Error::new(&format!(
                "{:.0} MB in one file is more than WebAssembly can hold in one piece (2 GB)",
                size as f64 / 1e6
            )));
        }
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(size).map_err(|_| {
            js_sys::Error::new(&format!(
                "not enough memory for {:.0} MB of input (WebAssembly has 4 GB in all)",
                size as f64 / 1e6
            ))
        })?;
        bytes.resize(size, 0);
        array.copy_to(&mut bytes);
        return Ok(bytes);
    }
    Err(js_sys::Error::new("expected a Uint8Array, an ArrayBuffer or a string"))
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, js_sys::Error> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::Error::new(&e.to_string()))
}
