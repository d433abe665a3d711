//! The files a page shows, worked on off the page: they arrive ([`Arrival`]) as the page hands
//! over the bytes it normalized a piece at a time (so no step of the page copies a whole file at
//! once), or as the engine reads them from the `File`s the page read (checked to be the same by
//! their [`fingerprint`]); then the page asks
//! for what takes long to work out ([`Ask`]): the secrets and personal details in the files, the
//! Overview's figures, the files a turn changed, a file as it was after a turn, the Markdown and
//! HTML exports, one turn as Markdown. The engine makes
//! its own workspace of the same bytes the first time an answer needs one, so every place it
//! names (an [`ItemRef`](crate::normalize::ItemRef)) is the same place on the page.
//!
//! The page's engine worker runs this (`browser::engine`); where no worker starts, the page runs
//! it itself. It needs no browser, so it is tested natively.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::export::share::{files_of_session, html_masked, markdown_masked, turn_masked};
use crate::export::to_html::ViewerFiles;
use crate::export::to_markdown::MarkdownOptions;

use crate::insight::changes::FileChange;
use crate::insight::figures::{self, Figures, Part};
use crate::normalize::pace::Pace;
use crate::normalize::{normalize, Input, ThreadRef, Workspace};
use crate::redact::{Finding, Scanner};
use crate::text::format;

/// What the page asks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Ask {
    /// The secrets and personal details in every file, with the reader's own patterns.
    Findings { patterns: Vec<String> },
    /// All the Overview shows of a session.
    Figures { session: usize },
    /// The files a turn changed (the whole session's when `turn` is `None`).
    Changes { session: usize, turn: Option<usize> },
    /// A file as it was after a turn.
    FileAfter { session: usize, path: String, turn: usize },
    /// A session as Markdown (`turns` of it, if given), with `masked` masked in its files.
    Markdown { session: usize, masked: Vec<Finding>, options: MarkdownOptions, turns: Option<Range<usize>> },
    /// A session as one HTML file with the viewer in it, with `masked` masked in its files. The
    /// viewer's own files are not asked with it: the engine is given them apart
    /// ([`SessionEngine::viewer`]), once.
    Html { session: usize, masked: Vec<Finding> },
    /// The turn that begins at row `item` of `thread` of session `session`, as Markdown, with
    /// `masked` masked in its files.
    Turn { session: usize, thread: ThreadRef, item: u32, masked: Vec<Finding> },
}

/// What the engine answers, in the same order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// An error says which of the reader's patterns is not a regular expression.
    Findings(Result<Vec<Finding>, String>),
    /// `None`: no such session.
    Figures(Option<Box<Figures>>),
    Changes(Vec<FileChange>),
    FileAfter(Option<String>),
    /// An export: Markdown (a session's or a turn's), or an HTML file.
    Text(String),
}

/// How far a long ask has got, which the engine worker tells the page while it works (the Share
/// tab's findings of a large session take seconds: 10 s at 1 GB on two cores).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Progress {
    /// Reading the files from the `File`s the page read: `done` of `total` bytes.
    Reading { done: u64, total: u64 },
    /// Looking through them for findings: `done` of `total` bytes of the part the engine looks
    /// through itself (the parts its scan workers look through go at the same pace).
    Looking { done: u64, total: u64 },
}

impl Progress {
    /// In words, as the Share tab says it.
    pub fn said(&self) -> String {
        match *self {
            Progress::Reading { done, total } => format!(
                "Reading the files: {} of {}…",
                format::size(done as usize),
                format::size(total as usize)
            ),
            Progress::Looking { done, total } => {
                let percent = (done as f64 * 100.0 / total.max(1) as f64).min(99.0);
                format!("Looking for secrets and personal details… {percent:.0}%")
            }
        }
    }
}

/// About how many bytes of JSON each part of an answer's long lists is: a few ms for the page to
/// read.
pub const PART_BYTES: usize = 256 << 10;

impl Answer {
    /// Takes the long lists out of the answer (the Overview's figures: 16 MB of JSON at 1 GB,
    /// 77 ms for the page to read at once; the files changed, with their diffs) as JSON parts of
    /// about [`PART_BYTES`] each, sent beside it for the page to read one at a time
    /// ([`put_part`](Answer::put_part)).
    pub fn take_parts(&mut self) -> Vec<Vec<u8>> {
        let parts = match self {
            Answer::Figures(Some(figures)) => figures.take_parts(),
            Answer::Changes(files) => vec![Part::Changes(std::mem::take(files))],
            _ => Vec::new(),
        };
        parts.iter().flat_map(|part| part.to_json(PART_BYTES)).collect()
    }

    /// Puts back a part [`take_parts`](Answer::take_parts) took, in the order they were taken.
    pub fn put_part(&mut self, json: &[u8]) -> Result<(), String> {
        let part = serde_json::from_slice(json).map_err(|e| format!("a part of the answer: {e}"))?;
        match (self, part) {
            (Answer::Figures(Some(figures)), part) => figures.put(part),
            (Answer::Changes(files), Part::Changes(more)) => {
                files.extend(more);
                Ok(())
            }
            _ => Err("a part came for an answer that has none of its kind".into()),
        }
    }
}

/// The files of one workspace, and the workspace made of them when first needed.
pub struct SessionEngine {
    files: Files,
    /// The viewer's own files, for an HTML export.
    viewer: Option<ViewerFiles>,
}

/// The files as given until a workspace is made of them, then the workspace, which holds their
/// bytes (keeping both held every byte twice: 2.5 times the files in all, measured at 200 MB).
enum Files {
    Given(Vec<Input>),
    Made(Box<Workspace>),
}

impl SessionEngine {
    /// Works on `inputs`, the files as given ([`Workspace::inputs`] of the page's workspace).
    pub fn new(inputs: Vec<Input>) -> SessionEngine {
        SessionEngine { files: Files::Given(inputs), viewer: None }
    }

    /// Gives the engine the viewer's own files, which an HTML export holds.
    pub fn viewer(&mut self, files: ViewerFiles) {
        self.viewer = Some(files);
    }

    /// The files, as given: (name, bytes).
    pub fn files(&self) -> Vec<(&str, &[u8])> {
        match &self.files {
            Files::Given(inputs) => inputs.iter().map(|i| i.parts()).collect(),
            Files::Made(ws) => ws.given_files().collect(),
        }
    }

    /// Makes the workspace of the files now, if it is not made yet: what every ask but the
    /// findings and a turn's Markdown needs, made first by the first of them otherwise.
    pub fn prepare(&mut self) {
        workspace(&mut self.files);
    }

    /// The answer to `ask`, or why there is none.
    pub fn answer(&mut self, ask: &Ask) -> Result<Answer, String> {
        // These need only the files as they are: no workspace is made for them.
        match ask {
            Ask::Findings { patterns } => {
                let files = self.files().into_iter();
                return Ok(Answer::Findings(Scanner::new(patterns).map(|s| s.find_in(files))));
            }
            Ask::Turn { session, thread, item, masked } => {
                return turn(&self.files(), masked, (*session, *thread, *item));
            }
            _ => {}
        }
        let viewer = self.viewer.as_ref();
        answer_with(workspace(&mut self.files), ask, viewer)
    }
}

/// The workspace of `files`, made of them the first time it is needed.
fn workspace(files: &mut Files) -> &Workspace {
    if let Files::Given(inputs) = files {
        *files = Files::Made(Box::new(normalize(std::mem::take(inputs))));
    }
    match files {
        Files::Made(ws) => ws,
        Files::Given(_) => unreachable!("a workspace was just made"),
    }
}

/// The answer to `ask` worked out from a workspace at hand (the page's own, where no worker
/// starts), with the viewer's own files for an HTML export; or why there is none.
pub fn answer_with(ws: &Workspace, ask: &Ask, viewer: Option<&ViewerFiles>) -> Result<Answer, String> {
    Ok(match ask {
        Ask::Findings { patterns } => {
            Answer::Findings(Scanner::new(patterns).map(|s| s.find_in(ws.given_files())))
        }
        Ask::Figures { session } => Answer::Figures(figures::figures(ws, *session).map(Box::new)),
        Ask::Changes { session, turn } => Answer::Changes(figures::changes(ws, *session, *turn)),
        Ask::FileAfter { session, path, turn } => {
            Answer::FileAfter(figures::file_after(ws, *session, path, *turn))
        }
        Ask::Markdown { session, masked, options, turns } => {
            // Only this session's files, so that the export is of the session shown.
            let inputs = files_of_session(ws, *session, ws.given_files().collect());
            let masked: Vec<&Finding> = masked.iter().collect();
            Answer::Text(markdown_masked(&inputs, &masked, *options, turns.clone()))
        }
        Ask::Html { session, masked } => {
            let viewer = viewer.ok_or("the viewer's own files were not given")?;
            let inputs = files_of_session(ws, *session, ws.given_files().collect());
            let masked: Vec<&Finding> = masked.iter().collect();
            let title = ws.sessions.get(*session).and_then(|s| s.title.as_deref());
            Answer::Text(html_masked(&inputs, &masked, title, viewer)?)
        }
        Ask::Turn { session, thread, item, masked } => {
            return turn(&ws.given_files().collect::<Vec<_>>(), masked, (*session, *thread, *item));
        }
    })
}

/// [`Ask::Turn`] of the files as given (every file: the masked copy is normalized as the page's
/// workspace was, so the session and the row are where the page's are).
fn turn(files: &[(&str, &[u8])], masked: &[Finding], row: (usize, ThreadRef, u32)) -> Result<Answer, String> {
    let masked: Vec<&Finding> = masked.iter().collect();
    turn_masked(files, &masked, row).map(Answer::Text)
}

/// [`Ask::Findings`] worked out from a workspace at hand, pausing where `pace` says: a page
/// with no worker to ask looks through a large session without freezing (the scan takes about
/// 14 ms a MB in wasm). Before each pause it tells `go_on` how far it got, and stops (with
/// [`STOPPED`]) when told not to go on.
pub async fn findings_paced(
    ws: &Workspace,
    patterns: &[String],
    pace: &mut Pace<'_>,
    go_on: &mut dyn FnMut(Progress) -> bool,
) -> Result<Vec<Finding>, String> {
    let scanner = Scanner::new_paced(patterns, pace).await?;
    let mut finder = scanner.finder();
    let total = ws.given_files().map(|(_, bytes)| bytes.len() as u64).sum();
    let (mut done, mut since_pause) = (0, 0);
    for (name, bytes) in ws.given_files() {
        finder.file(name);
        for line in bytes.split(|&b| b == b'\n') {
            finder.line(line);
            since_pause += line.len() + 1;
            if since_pause >= SCAN_STEP {
                done += since_pause as u64;
                since_pause = 0;
                if !go_on(Progress::Looking { done, total }) {
                    return Err(STOPPED.into());
                }
                pace.long_step().await;
            }
        }
    }
    Ok(finder.finish())
}

/// Why an ask has no answer when the reader stopped it.
pub const STOPPED: &str = "stopped at the reader's word";

/// Bytes looked through between two questions to the pace: a few ms in wasm.
const SCAN_STEP: usize = 128 << 10;

/// Files arriving in pieces, in order: each file's bytes, then the next file's.
pub struct Arrival {
    /// Each file's size, in order.
    sizes: Vec<usize>,
    files: Vec<Input>,
}

impl Arrival {
    /// Files of these names and sizes are coming.
    pub fn new(expected: Vec<(String, usize)>) -> Arrival {
        let (files, sizes) =
            expected.into_iter().map(|(name, size)| (Input { name, bytes: Vec::new() }, size)).unzip();
        Arrival { sizes, files }
    }

    /// The next piece of bytes: the rest of the file being filled, then of those after it (a
    /// piece may end one file and begin the next).
    pub fn take(&mut self, mut piece: &[u8]) -> Result<(), String> {
        while !piece.is_empty() {
            let at = self.filling().ok_or("more bytes came than the files hold")?;
            let taken = (self.sizes[at] - self.files[at].bytes.len()).min(piece.len());
            self.take_with(taken, |into| into.copy_from_slice(&piece[..taken]))?;
            piece = &piece[taken..];
        }
        Ok(())
    }

    /// The next `len` bytes of the file being filled, written by `fill` straight into its
    /// memory (a piece read from a `File` in the worker, copied once); an error if the file has
    /// fewer bytes left.
    pub fn take_with(&mut self, len: usize, fill: impl FnOnce(&mut [u8])) -> Result<(), String> {
        let at = self.filling().ok_or("more bytes came than the files hold")?;
        let (file, size) = (&mut self.files[at], self.sizes[at]);
        if len > size - file.bytes.len() {
            return Err(format!("more bytes came than {} holds", file.name));
        }
        if file.bytes.capacity() < size {
            let more = size - file.bytes.len();
            file.bytes.try_reserve_exact(more).map_err(|_| format!("not enough memory for {}", file.name))?;
        }
        let from = file.bytes.len();
        file.bytes.resize(from + len, 0);
        fill(&mut file.bytes[from..]);
        Ok(())
    }

    /// The file being filled: the first not yet whole.
    fn filling(&self) -> Option<usize> {
        self.files.iter().zip(&self.sizes).position(|(f, &size)| f.bytes.len() < size)
    }

    /// The files, once every byte of them came.
    pub fn whole(self) -> Result<Vec<Input>, String> {
        match self.filling() {
            None => Ok(self.files),
            Some(at) => Err(format!("{} did not arrive whole", self.files[at].name)),
        }
    }
}

/// A fingerprint of a file's bytes, taken from its size, its ends and 256 places spread evenly
/// between: a few µs at any size. The engine worker, reading a file itself, checks by it that it
/// read what the page read: a file rewritten since with as many bytes reads otherwise.
pub fn fingerprint(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    const ENDS: usize = 4096;
    const PLACES: usize = 256;
    let mut hash = crate::normalize::fxhash::FxHasher::default();
    hash.write_usize(bytes.len());
    hash.write(&bytes[..ENDS.min(bytes.len())]);
    hash.write(&bytes[bytes.len().saturating_sub(ENDS)..]);
    for place in 0..PLACES {
        let at = place * (bytes.len() / PLACES);
        hash.write(&bytes[at..(at + 16).min(bytes.len())]);
    }
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use crate::insight::figures::figures;
    use crate::present::outline::outline;

    /// Every fixture folder and file, as the page would hold it.
    fn workspaces() -> Vec<Workspace> {
        let mut out = vec![normalize(fixtures::every_fixture())];
        out.push(normalize(fixtures::folder("moredip__session-share/samples/claude-code-projects")));
        out.push(fixtures::workspace("blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl"));
        out
    }

    #[test]
    fn progress_is_said_in_sizes_and_a_share_never_done_before_the_answer() {
        let reading = Progress::Reading { done: 340_000_000, total: 1_200_000_000 };
        assert_eq!(reading.said(), "Reading the files: 340.0 MB of 1.20 GB…");
        let looking = |done| Progress::Looking { done, total: 200 }.said();
        assert_eq!(looking(90), "Looking for secrets and personal details… 45%");
        // A part's count may pass its size by the line breaks its files lack: it says 99% at most
        // until the findings come.
        assert_eq!(looking(202), "Looking for secrets and personal details… 99%");
        assert_eq!(
            Progress::Looking { done: 0, total: 0 }.said(),
            "Looking for secrets and personal details… 0%"
        );
    }

    #[test]
    fn the_engines_workspace_of_the_pages_files_has_every_row_where_the_page_has_it() {
        for page in workspaces() {
            let mut engine = SessionEngine::new(page.inputs());
            let own = workspace(&mut engine.files);
            assert_eq!(own.sessions.len(), page.sessions.len());
            for (a, b) in own.sessions.iter().zip(&page.sessions) {
                assert_eq!(outline(own, a), outline(&page, b));
            }
        }
    }

    #[test]
    fn a_page_without_a_worker_finds_the_same_pausing_as_it_goes() {
        for ws in workspaces() {
            let mut pause = fixtures::EveryTime(0);
            let mut told = Vec::new();
            let mut go_on = |progress| {
                told.push(progress);
                true
            };
            let paced = crate::normalize::pace::finish(findings_paced(
                &ws,
                &[],
                &mut Pace::with(&mut pause),
                &mut go_on,
            ));
            let size: usize = ws.given_files().map(|(_, b)| b.len()).sum();
            // A pause after every step of SCAN_STEP bytes or more (one long line can be more),
            // each told how far the scan got.
            assert!(pause.0 as usize >= size / SCAN_STEP / 2, "{} pauses in {size} bytes", pause.0);
            assert!(told.len() >= size / SCAN_STEP / 2, "told {} times in {size} bytes", told.len());
            let done = |p: &Progress| match *p {
                Progress::Looking { done, total } if total == size as u64 && done <= total => done,
                other => panic!("{other:?}"),
            };
            assert!(told.windows(2).all(|w| done(&w[0]) < done(&w[1])));
            assert_eq!(paced, Ok(Scanner::new(&[]).unwrap().find_in(ws.given_files())));
        }
        let ws = &workspaces()[2];
        let (mut yes, mut no) = (|_| true, |_| false);
        let wrong =
            crate::normalize::pace::finish(findings_paced(ws, &["(".into()], &mut Pace::never(), &mut yes));
        assert!(matches!(wrong, Err(e) if e.starts_with("(:")));
        // Told not to go on, it stops before its first pause of the scan (one made the rules).
        let mut pause = fixtures::EveryTime(0);
        let stopped =
            crate::normalize::pace::finish(findings_paced(ws, &[], &mut Pace::with(&mut pause), &mut no));
        assert_eq!(stopped, Err(STOPPED.into()));
        assert!(pause.0 <= 1, "{} pauses", pause.0);
    }

    #[test]
    fn a_turn_copied_as_markdown_is_the_pages_masked_and_needs_no_workspace() {
        let page =
            fixtures::workspace("blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl");
        let findings = Scanner::new(&[]).unwrap().find_in(page.given_files());
        let s = &page.sessions[0];
        let item = s.thread.turn_starts()[1];
        let ask = Ask::Turn { session: 0, thread: ThreadRef::Main, item, masked: findings.clone() };
        let chosen: Vec<&Finding> = findings.iter().collect();
        let files: Vec<(&str, &[u8])> = page.given_files().collect();
        let expected = turn_masked(&files, &chosen, (0, ThreadRef::Main, item)).unwrap();
        assert!(expected.starts_with("**You:**"), "{}", &expected[..60.min(expected.len())]);
        assert!(findings.iter().all(|f| !expected.contains(&f.text)), "nothing masked is left");
        let mut engine = SessionEngine::new(page.inputs());
        assert_eq!(engine.answer(&ask), Ok(Answer::Text(expected.clone())));
        assert!(matches!(engine.files, Files::Given(_)), "no workspace made for a turn");
        engine.answer(&Ask::Figures { session: 0 }).unwrap();
        assert_eq!(engine.answer(&ask), Ok(Answer::Text(expected)));
        let nowhere = Ask::Turn { session: 3, thread: ThreadRef::Main, item, masked: Vec::new() };
        assert!(engine.answer(&nowhere).is_err());
    }

    #[test]
    fn its_answers_are_what_the_page_would_have_worked_out_itself() {
        let page =
            fixtures::workspace("blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl");
        let mut engine = SessionEngine::new(page.inputs());
        let scanner = Scanner::new(&[]).unwrap();
        let findings = scanner.find_in(page.given_files());
        assert_eq!(
            engine.answer(&Ask::Findings { patterns: Vec::new() }),
            Ok(Answer::Findings(Ok(findings.clone())))
        );
        assert!(
            matches!(engine.answer(&Ask::Findings { patterns: vec!["(".into()] }), Ok(Answer::Findings(Err(e))) if e.starts_with("(:"))
        );
        // Made ahead of the asks that need it (as the worker does once the findings went), the
        // workspace answers as one made by them.
        assert!(matches!(engine.files, Files::Given(_)), "no workspace made for the findings");
        engine.prepare();
        assert!(matches!(engine.files, Files::Made(_)));
        assert_eq!(
            engine.answer(&Ask::Figures { session: 0 }),
            Ok(Answer::Figures(figures(&page, 0).map(Box::new)))
        );
        // Once the workspace is made, the files given are its: the same findings.
        assert!(matches!(engine.files, Files::Made(_)));
        assert_eq!(
            engine.answer(&Ask::Findings { patterns: Vec::new() }),
            Ok(Answer::Findings(Ok(findings.clone())))
        );
        assert_eq!(engine.answer(&Ask::Figures { session: 9 }), Ok(Answer::Figures(None)));
        assert_eq!(
            engine.answer(&Ask::Changes { session: 0, turn: None }),
            Ok(Answer::Changes(figures::changes(&page, 0, None)))
        );
        // The exports mask what they are asked to: nothing of it is left in their text.
        let markdown = Ask::Markdown {
            session: 0,
            masked: findings.clone(),
            options: MarkdownOptions::default(),
            turns: Some(1..3),
        };
        let Ok(Answer::Text(text)) = engine.answer(&markdown) else { panic!("a Markdown answer") };
        assert!(text.starts_with("# ") && !findings.is_empty());
        assert!(findings.iter().all(|f| !text.contains(&f.text)), "nothing masked is left in the Markdown");
        let html = Ask::Html { session: 0, masked: findings.clone() };
        assert_eq!(engine.answer(&html), Err("the viewer's own files were not given".into()));
        engine.viewer(ViewerFiles {
            script: "async function __wbg_init(m) {}\nexport function openShared() {}\n".into(),
            wasm: b"\0asm\x01\0\0\0".repeat(100),
            grammars: None,
            snippets: Vec::new(),
        });
        let Ok(Answer::Text(file)) = engine.answer(&html) else { panic!("an HTML answer") };
        assert!(
            file.starts_with("<!doctype html>") || file.starts_with("<!DOCTYPE html>"),
            "{}",
            &file[..40]
        );
        for ask in [
            Ask::Findings { patterns: vec!["signal".into()] },
            Ask::Figures { session: 0 },
            Ask::Changes { session: 0, turn: Some(2) },
            markdown,
        ] {
            assert_eq!(
                engine.answer(&ask),
                answer_with(&page, &ask, None),
                "the page answers as the worker would"
            );
        }
        let ask = Ask::FileAfter { session: 0, path: "/nowhere".into(), turn: 3 };
        assert_eq!(engine.answer(&ask), Ok(Answer::FileAfter(None)));
        // An ask and its answer as they go between the page and the worker.
        let sent: Ask = serde_json::from_str(&serde_json::to_string(&ask).unwrap()).unwrap();
        assert_eq!(sent, ask);
    }

    #[test]
    fn the_figures_come_back_whole_from_their_parts() {
        let page = normalize(fixtures::folder("moredip__session-share/samples/claude-code-projects"));
        let mut engine = SessionEngine::new(page.inputs());
        for session in 0..page.sessions.len() {
            let whole = engine.answer(&Ask::Figures { session }).unwrap();
            let mut head = whole.clone();
            let parts = head.take_parts();
            assert!(!parts.is_empty(), "session {session} has turns");
            let mut received: Answer = serde_json::from_slice(&serde_json::to_vec(&head).unwrap()).unwrap();
            for part in &parts {
                received.put_part(part).unwrap();
            }
            let sent_whole: Answer = serde_json::from_slice(&serde_json::to_vec(&whole).unwrap()).unwrap();
            assert_eq!(received, sent_whole);
        }
        // The files changed, asked apart, come back whole from theirs too.
        let mut edits = SessionEngine::new(vec![fixtures::input(
            "blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl",
        )]);
        let whole = edits.answer(&Ask::Changes { session: 0, turn: None }).unwrap();
        assert!(matches!(&whole, Answer::Changes(files) if files.len() > 1), "{whole:?}");
        let mut head = whole.clone();
        let parts = head.take_parts();
        assert_eq!(head, Answer::Changes(Vec::new()), "the list goes in parts");
        for part in &parts {
            head.put_part(part).unwrap();
        }
        assert_eq!(head, whole);
        let mut figures = engine.answer(&Ask::Figures { session: 0 }).unwrap();
        assert!(figures.put_part(&parts[0]).is_err(), "the files changed are not one of the figures");
        let mut other = Answer::FileAfter(None);
        assert_eq!(other.take_parts(), Vec::<Vec<u8>>::new());
        assert!(other.put_part(br#"{"Turns":[]}"#).is_err());
        let mut figures = engine.answer(&Ask::Figures { session: 0 }).unwrap();
        assert!(figures.put_part(b"{").unwrap_err().starts_with("a part of the answer"));
    }

    #[test]
    fn files_arrive_whole_whatever_the_pieces() {
        let files = [
            ("a.jsonl", &b"{\"type\":\"user\"}\n"[..]),
            ("e.jsonl", b""),
            ("b/c.meta.json", b"{}"),
            ("d.jsonl", b"line\n"),
            ("f.jsonl", b""),
        ];
        let expected: Vec<(String, usize)> = files.iter().map(|(n, b)| (n.to_string(), b.len())).collect();
        let all: Vec<u8> = files.iter().flat_map(|(_, b)| b.iter().copied()).collect();
        for step in [1, 2, 5, 17, all.len()] {
            let mut arrival = Arrival::new(expected.clone());
            for piece in all.chunks(step) {
                arrival.take(piece).unwrap();
            }
            let whole = arrival.whole().unwrap();
            let got: Vec<(&str, &[u8])> = whole.iter().map(|i| i.parts()).collect();
            assert_eq!(got, files.to_vec(), "pieces of {step}");
        }
        let mut short = Arrival::new(expected.clone());
        short.take(&all[..4]).unwrap();
        assert_eq!(short.whole().unwrap_err(), "a.jsonl did not arrive whole");
        let mut long = Arrival::new(expected);
        assert_eq!(
            long.take(&[all.clone(), vec![b'x']].concat()).unwrap_err(),
            "more bytes came than the files hold"
        );
    }

    /// As the engine worker reads each file from its `File`: a slice at a time, within a file.
    #[test]
    fn files_read_a_slice_at_a_time_arrive_whole() {
        let files = [("a.jsonl", &b"{\"type\":\"user\"}\n"[..]), ("e.jsonl", b""), ("d.jsonl", b"line\n")];
        let expected: Vec<(String, usize)> = files.iter().map(|(n, b)| (n.to_string(), b.len())).collect();
        let mut arrival = Arrival::new(expected.clone());
        for (_, bytes) in files {
            for slice in bytes.chunks(3) {
                arrival.take_with(slice.len(), |into| into.copy_from_slice(slice)).unwrap();
            }
        }
        let whole = arrival.whole().unwrap();
        let got: Vec<(&str, &[u8])> = whole.iter().map(|i| i.parts()).collect();
        assert_eq!(got, files.to_vec());
        let mut over = Arrival::new(expected);
        assert_eq!(over.take_with(17, |_| ()).unwrap_err(), "more bytes came than a.jsonl holds");
    }

    #[test]
    fn a_fingerprint_tells_a_file_rewritten_with_as_many_bytes() {
        let bytes = fixtures::fixture("blackgirlbytes__planetfall-seed-signalkit/09/cb2aeecea3/2/full.jsonl");
        assert_eq!(fingerprint(&bytes), fingerprint(&bytes.clone()));
        // One byte changed at one of the places looked at, at an end, or the size: each tells.
        let mut middle = bytes.clone();
        middle[bytes.len() / 256 * 128] ^= 1;
        let mut end = bytes.clone();
        *end.last_mut().unwrap() ^= 1;
        for other in [middle, end, bytes[..bytes.len() - 1].to_vec(), Vec::new()] {
            assert_ne!(fingerprint(&bytes), fingerprint(&other));
        }
        assert_eq!(fingerprint(b""), fingerprint(b""));
    }
}
