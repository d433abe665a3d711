//! Loading files into a viewer: read in slices (one copy into wasm memory), each slice parsed
//! while the next is read, in steps that let the page paint; a large first file shown early; the
//! whole linked into a workspace at the end. The viewer is whatever implements [`LoadTarget`]:
//! this layer reads and reports, the ui draws.

use std::collections::VecDeque;

use js_sys::Uint8Array;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use super::js_error::describe;
use super::read::{self, read_slice, Named};
use super::slices::Slices;
use super::timers::{mark, next_frame, now, task_began, PageTurns, TASK_BUDGET_MS};
use crate::model::GrowingTranscript;
use crate::normalize::beside::beside;
use crate::normalize::pace::{Pace, Pause};
use crate::normalize::{self, Generation, Input, Workspace};

/// Files being read and parsed.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Progress {
    pub(crate) label: String,
    pub(crate) done: f64,
    pub(crate) total: f64,
}

/// What a load reports to: a viewer the reader may hand other files meanwhile.
pub(crate) trait LoadTarget {
    /// Whether this load is still the one wanted (no other files were opened meanwhile, and the
    /// viewer is still there); checked after every wait.
    fn is_latest(&self) -> bool;
    /// The most bytes of files it may be given at once.
    fn max_bytes(&self) -> f64;
    fn progress(&self, progress: Option<Progress>);
    /// The files were not loaded: the one problem to show, (files, reason).
    fn refuse(&self, problem: (String, String));
    /// Shows `workspace`: `more` of files already shown (an early view came first), else anew.
    fn show(&self, workspace: Workspace, more: bool);
    /// The workspace of `generation` was read from `files`, in the order of its given files
    /// (`Workspace::given_files`): what works on it off the page can read them again itself.
    fn read_from(&self, generation: Generation, files: Vec<File>);
}

/// Bytes read from a file per slice, and parsed per step: a step is a few ms, so the page can
/// paint and answer between them while a file of hundreds of MB loads.
const READ_STEP: f64 = 16.0 * 1024.0 * 1024.0;
const PARSE_STEP: usize = 4 * 1024 * 1024;

/// A load this large shows its beginning while the rest is read (smaller ones are on screen
/// whole in about 0.2 s): the first file's lines parsed so far, first at [`EARLY_FIRST`] bytes,
/// then each time four times as many are parsed, up to [`EARLY_LAST`]. Each early view is a copy
/// of those lines normalized on their own, so they stay few and small; the whole is shown when
/// every file is read. A first file this large is read in a short first slice ([`FIRST_READ`]).
const EARLY_FROM: f64 = 32e6;
const EARLY_FIRST: usize = 1 << 20;
const EARLY_LAST: usize = 16 << 20;
/// The first slice of a first file that large: enough for the first early view.
const FIRST_READ: f64 = 2.0 * EARLY_FIRST as f64;
/// Files larger than this in all have their slices but the first read in a worker
/// ([`Slices`]); smaller ones are read in less time than a worker takes to start.
const READ_OFF_PAGE: f64 = 32e6;

/// Slices asked ahead of the one being parsed, in bytes and in reads: a worker reads them back
/// to back, so the page waits for none where it can. Asked one at a time, the 150 sub-agent files
/// of a 200 MB session were a round trip each, and the page sat idle 0.4 s of a 1.4 s load.
const AHEAD_BYTES: f64 = 2.0 * READ_STEP;
const AHEAD_READS: usize = 32;

/// A slice asked: bytes `from..end` of file `file`, being read.
struct Ahead {
    file: usize,
    from: f64,
    end: f64,
    read: JsFuture,
}

/// Other files were opened meanwhile (or the viewer is gone): the load ends and shows nothing.
struct Superseded;

fn still(target: &impl LoadTarget) -> Result<(), Superseded> {
    if target.is_latest() {
        Ok(())
    } else {
        Err(Superseded)
    }
}

/// Reads `files` and loads them into `target`, showing progress. Returns whether it showed them
/// (not when there were none, they were too large, or other files were opened meanwhile).
pub(crate) async fn load(target: impl LoadTarget, mut files: Vec<Named>) -> bool {
    if files.is_empty() {
        return false;
    }
    sessions_first(&mut files);
    matches!(load_sorted(&target, &files).await, Ok(true))
}

/// Sessions first, so the first file read is one whose beginning can be shown early; then
/// sub-agents; then the files beside them (the order of sessions is kept).
fn sessions_first(files: &mut [Named]) {
    files.sort_by_key(|f| match (beside(&f.name), normalize::agent_id_of_name(&f.name)) {
        (Some(_), _) => 2,
        (None, Some(_)) => 1,
        (None, None) => 0,
    });
}

async fn load_sorted(target: &impl LoadTarget, files: &[Named]) -> Result<bool, Superseded> {
    // The first file is being read while the others are asked their sizes, in a short slice,
    // so that its beginning can be parsed and shown at once.
    let first_size = files[0].file.size();
    let first_end = first_size.min(if first_size >= EARLY_FROM { FIRST_READ } else { READ_STEP });
    let first_read = read_slice(&files[0].file, 0.0, first_end, first_size);
    let sizes = sizes(target, files, first_size).await?;
    still(target)?;
    let size: f64 = sizes.iter().sum();
    if !fits(target, files, size) {
        return Ok(false);
    }
    mark("cctv:load");
    // A large load's other slices are read in a worker, while the page parses.
    let slices = if size > READ_OFF_PAGE { Slices::start() } else { Slices::on_page() };
    let mut reading = Reading::new(target, files, sizes, first_end, first_read, slices);
    for index in 0..files.len() {
        reading.file(index).await?;
    }
    let (read_ms, parse_ms, early_shown) = (reading.read_ms, reading.parse_ms, reading.early.shown);
    let sizes = std::mem::take(&mut reading.sizes);
    let (workspace, normalize_ms) = link(target, reading.read).await?;
    if let Some(sources) = sources(&workspace, files, &sizes) {
        target.read_from(workspace.generation, sources);
    }
    target.progress(None);
    target.show(workspace, early_shown);
    // For benchmarks and the curious: where the time went, as a mark in the Performance panel.
    mark(&format!(
        "cctv:phases read {read_ms:.0} ms, parse {parse_ms:.0} ms, normalize {normalize_ms:.0} ms"
    ));
    Ok(true)
}

/// The files `workspace` was read from, in the order of its given files: each named as it is,
/// with as many bytes as the page read of it. `None` where one is not (two files of one name).
/// A file changed since is found out when the engine reads it again: the read fails, or its
/// fingerprint differs.
fn sources(workspace: &Workspace, files: &[Named], sizes: &[f64]) -> Option<Vec<File>> {
    let mut by_name = std::collections::HashMap::with_capacity(files.len());
    for (file, size) in files.iter().zip(sizes) {
        if by_name.insert(file.name.as_str(), (&file.file, *size)).is_some() {
            return None;
        }
    }
    workspace
        .given_files()
        .map(|(name, bytes)| match by_name.get(name) {
            Some((file, size)) if *size == bytes.len() as f64 => Some((*file).clone()),
            _ => None,
        })
        .collect()
}

/// Every file's size, the first one's known; given up when another load begins.
async fn sizes(target: &impl LoadTarget, files: &[Named], first_size: f64) -> Result<Vec<f64>, Superseded> {
    // Listing the files was this task's work already.
    next_frame().await;
    let rest = read::sizes(&files[1..], || !target.is_latest()).await.ok_or(Superseded)?;
    Ok(std::iter::once(first_size).chain(rest).collect())
}

/// Whether `size` bytes can be loaded; if not, the target is told why. A tab that runs out of
/// memory dies without a word; what cannot fit is refused instead.
fn fits(target: &impl LoadTarget, files: &[Named], size: f64) -> bool {
    let limit = target.max_bytes();
    if size <= limit {
        return true;
    }
    // A load this one stopped leaves its progress to the latest.
    target.progress(None);
    let names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    target.refuse((
        names.join(", "),
        format!(
            "too large to open here: {:.0} MB; a browser tab can hold about {:.0} MB of transcripts with cctv. Open fewer files at once.",
            size / 1e6,
            limit / 1e6
        ),
    ));
    false
}

/// What the files held once read: transcripts, files beside them, and files that could not be
/// read, (name, why).
struct Read {
    transcripts: Vec<crate::model::Transcript>,
    side: Vec<Input>,
    problems: Vec<(String, String)>,
    /// Read and parsed, in bytes (each byte counts twice: read once, parsed once).
    done: f64,
    total: f64,
    /// The transcripts' bytes and lines so far, which their index must fit (`model::fits`).
    bytes: usize,
    lines: usize,
}

/// The files being read, one after another, with the next slices asked ahead (of this file and
/// the next ones), so that they are read while this one is parsed.
struct Reading<'a, T> {
    target: &'a T,
    files: &'a [Named],
    sizes: Vec<f64>,
    /// The slices asked and not yet parsed, in order.
    ahead: VecDeque<Ahead>,
    /// The next slice to ask: its file, and where in it it begins.
    next: (usize, f64),
    slices: Slices,
    read: Read,
    read_ms: f64,
    parse_ms: f64,
    /// Bytes parsed by the steps so far, which took `parse_ms`: a step is expected to go at
    /// their pace.
    parsed: f64,
    early: EarlyViews,
}

impl<'a, T: LoadTarget> Reading<'a, T> {
    fn new(
        target: &'a T,
        files: &'a [Named],
        sizes: Vec<f64>,
        first_end: f64,
        first_read: JsFuture,
        slices: Slices,
    ) -> Self {
        let size: f64 = sizes.iter().sum();
        let next = if first_end >= sizes[0] { (1, 0.0) } else { (0, first_end) };
        // Every byte is read once and parsed once.
        let total = size * 2.0;
        // Shown from the start: the beginning of the conversation may be on screen long before
        // the end is read, and the reader must see that more is coming.
        target.progress(Some(Progress { label: format!("Reading {}", files[0].name), done: 0.0, total }));
        Reading {
            target,
            files,
            sizes,
            ahead: VecDeque::from([Ahead { file: 0, from: 0.0, end: first_end, read: first_read }]),
            next,
            slices,
            read: Read {
                transcripts: Vec::with_capacity(files.len()),
                side: Vec::new(),
                problems: Vec::new(),
                done: 0.0,
                total,
                bytes: 0,
                lines: 0,
            },
            read_ms: 0.0,
            parse_ms: 0.0,
            parsed: 0.0,
            early: EarlyViews::new(size),
        }
    }

    /// Asks for the next slices, up to [`AHEAD_BYTES`] and [`AHEAD_READS`] ahead: every file's
    /// first slice (an empty file's too), then the rest of it.
    fn ask_ahead(&mut self) {
        while self.ahead.len() < AHEAD_READS
            && self.ahead.iter().map(|a| a.end - a.from).sum::<f64>() < AHEAD_BYTES
        {
            let (index, from) = self.next;
            let Some(Named { file, .. }) = self.files.get(index) else { return };
            let size = self.sizes[index];
            let end = (from + READ_STEP).min(size);
            self.ahead.push_back(Ahead {
                file: index,
                from,
                end,
                read: self.slices.read(file, from, end, size),
            });
            self.next = if end >= size { (index + 1, 0.0) } else { (index, end) };
        }
    }

    /// Reads no more of file `index`: what was asked of it is let go.
    fn skip(&mut self, index: usize) {
        self.ahead.retain(|a| a.file != index);
        if self.next.0 == index {
            self.next = (index + 1, 0.0);
        }
    }

    /// Reads and parses file `index` to its end, and keeps what it holds (or why it could not
    /// be read).
    async fn file(&mut self, index: usize) -> Result<(), Superseded> {
        let files = self.files;
        let name = &files[index].name;
        let size = self.sizes[index];
        let Some(mut arriving) = Arriving::new(name, size) else {
            let reason = format!("not enough memory to open its {:.0} MB", size / 1e6);
            self.read.problems.push((name.clone(), reason));
            self.read.done += 2.0 * size;
            self.skip(index);
            return Ok(());
        };
        let mut failed = None;
        // This file's bytes and lines so far.
        let mut counted = (0, 0);
        loop {
            self.ask_ahead();
            let Some(slice) = self.ahead.pop_front() else { break };
            debug_assert_eq!(slice.file, index, "slices are parsed in the order they were asked");
            let started = now();
            let chunk = slice.read.await;
            // A slice asked ahead may be here already: then this goes on in the task that parsed
            // the one before, and its copy into memory (10-20 ms for 16 MB) is not begun late in
            // it (loads of 1 GB made tasks of 54-65 ms so).
            if now() - task_began() > TASK_BUDGET_MS / 2.0 {
                next_frame().await;
            }
            // The task the slice came in begins here (when it was not already running).
            task_began();
            self.read_ms += now() - started;
            still(self.target)?;
            // The next is read while this one is parsed.
            self.ask_ahead();
            let received = slice.end;
            match chunk {
                Ok(buffer) => {
                    let array = Uint8Array::new(&buffer);
                    arriving.append(&array);
                    if let Arriving::Transcript(transcript) = &arriving {
                        let bytes = transcript.bytes();
                        let new = &bytes[bytes.len().saturating_sub(array.length() as usize)..];
                        counted = (counted.0 + new.len(), counted.1 + crate::model::lines_in(new));
                        let (size, lines) = (self.read.bytes + counted.0, self.read.lines + counted.1);
                        if let Err(too_many) = crate::model::fits(size, lines) {
                            // Its index would not fit: a page that runs out of memory dies.
                            failed = Some(too_many);
                            self.skip(index);
                            break;
                        }
                    }
                }
                Err(e) => {
                    failed = Some(describe(&e));
                    // The rest of this file is not worth reading.
                    self.skip(index);
                    break;
                }
            }
            if let Arriving::Transcript(transcript) = &mut arriving {
                self.parse(index, transcript, received >= size).await?;
            }
            if received >= size {
                break;
            }
        }
        self.read.done += 2.0 * size;
        if failed.is_none() {
            self.read.bytes += counted.0;
            self.read.lines += counted.1 + 1;
        }
        self.keep(name, arriving, failed);
        Ok(())
    }

    /// Parses what arrived of file `index`, pausing for the page before a step would take the
    /// task past [`TASK_BUDGET_MS`] (a whole step, at the pace of the steps so far; counted from
    /// when the task began, so the slice's copy into memory counts too); `read_whole` says the
    /// file is read to its end.
    async fn parse(
        &mut self,
        index: usize,
        transcript: &mut GrowingTranscript,
        read_whole: bool,
    ) -> Result<(), Superseded> {
        let files = self.files;
        let name = &files[index].name;
        loop {
            let step_ms = self.parse_ms / self.parsed.max(1.0) * PARSE_STEP as f64;
            if now() - task_began() + step_ms >= TASK_BUDGET_MS {
                let done = self.read.done + transcript.bytes_fed() as f64 + transcript.bytes_parsed() as f64;
                let label = format!("Reading and parsing {name}");
                self.target.progress(Some(Progress { label, done, total: self.read.total }));
                next_frame().await;
                still(self.target)?;
            }
            let (started, before) = (now(), transcript.bytes_parsed());
            let caught_up = transcript.step(PARSE_STEP);
            self.parse_ms += now() - started;
            self.parsed += (transcript.bytes_parsed() - before) as f64;
            let whole = read_whole && caught_up && self.files.len() > 1;
            if index == 0 && self.early.due(transcript.bytes_parsed(), whole) {
                self.early.shown |= show_early(self.target, transcript, self.early.shown).await;
            }
            if caught_up {
                return Ok(());
            }
        }
    }

    /// Keeps a file read to its end, or says why it could not be.
    fn keep(&mut self, name: &str, arriving: Arriving, failed: Option<String>) {
        if let Some(reason) = failed {
            self.read.problems.push((name.to_owned(), format!("could not be read: {reason}")));
            return;
        }
        match arriving {
            Arriving::Beside(bytes) => self.read.side.push(Input { name: name.to_owned(), bytes }),
            Arriving::Transcript(transcript) => {
                // Only a last line without a line break is left to parse.
                let started = now();
                self.read.transcripts.push(transcript.finish());
                self.parse_ms += now() - started;
            }
        }
    }
}

/// Links what was read into a workspace, pausing for the page; returns it with the time
/// normalize took.
async fn link(target: &impl LoadTarget, read: Read) -> Result<(Workspace, f64), Superseded> {
    let Read { transcripts, side, problems, done, total, .. } = read;
    target.progress(Some(Progress { label: "Linking sessions and sub-agents".into(), done, total }));
    next_frame().await;
    still(target)?;
    let started = now();
    let mut turns = PageTurns::new();
    let mut workspace = normalize::assemble_paced(transcripts, side, &mut Pace::with(&mut turns)).await;
    let normalize_ms = now() - started - turns.waited();
    workspace.rejected.extend(problems);
    // Linking and the first screen are separate tasks, so neither waits for the other.
    next_frame().await;
    still(target)?;
    Ok((workspace, normalize_ms))
}

/// When the next early view is due, if any.
struct EarlyViews {
    next_at: Option<usize>,
    shown: bool,
}

impl EarlyViews {
    fn new(total: f64) -> EarlyViews {
        EarlyViews { next_at: (total >= EARLY_FROM).then_some(EARLY_FIRST), shown: false }
    }

    /// Whether a view of `parsed` bytes is due; `whole` says the file is parsed to its end and
    /// other files follow (then it always is, once).
    fn due(&mut self, parsed: usize, whole: bool) -> bool {
        let Some(at) = self.next_at else { return false };
        if parsed < at && !whole {
            return false;
        }
        self.next_at = (!whole && parsed < EARLY_LAST).then(|| (parsed * 4).min(EARLY_LAST));
        true
    }
}

/// Shows what is parsed of the first file so far, in a task of its own, unless it holds no
/// session yet (a first line longer than the slice read, a file that is not a transcript) or
/// the load is no longer the latest. Returns whether it was shown.
async fn show_early(target: &impl LoadTarget, transcript: &GrowingTranscript, shown: bool) -> bool {
    next_frame().await;
    if !target.is_latest() {
        return false;
    }
    // Up to 16 MB copied and normalized: in steps, then shown in a task of its own.
    let mut turns = PageTurns::new();
    let so_far = normalize::live::parsed_so_far_paced(transcript, &mut Pace::with(&mut turns)).await;
    let workspace = normalize::assemble_paced(vec![so_far], Vec::new(), &mut Pace::with(&mut turns)).await;
    if workspace.sessions.is_empty() {
        return false;
    }
    turns.pause().await;
    if !target.is_latest() {
        return false;
    }
    target.show(workspace, shown);
    mark("cctv:early");
    next_frame().await;
    true
}

/// A file being read: a transcript parsed as it arrives, or a file beside one (a sub-agent's
/// `.meta.json`, a saved tool output, a workflow run), which is only collected.
enum Arriving {
    Transcript(GrowingTranscript),
    Beside(Vec<u8>),
}

impl Arriving {
    /// Reserves room for the whole file at once; `None` if it cannot be had.
    fn new(name: &str, size: f64) -> Option<Arriving> {
        if beside(name).is_some() {
            let mut bytes = Vec::new();
            bytes.try_reserve_exact(size as usize).ok()?;
            Some(Arriving::Beside(bytes))
        } else {
            GrowingTranscript::new(name, size as usize).ok().map(Arriving::Transcript)
        }
    }

    /// Appends a slice read from the file, copying straight into the space reserved for the
    /// whole file (no zero-filling first: that would be a second pass over hundreds of MB).
    fn append(&mut self, array: &Uint8Array) {
        let len = array.length() as usize;
        match self {
            Arriving::Transcript(transcript) => {
                transcript.feed_in_place(len, |spare| array.copy_to_uninit(spare))
            }
            // Metadata, or an output of a few hundred KB: zero-filling them costs little.
            Arriving::Beside(bytes) => {
                let from = bytes.len();
                bytes.resize(from + len, 0);
                array.copy_to(&mut bytes[from..]);
            }
        }
    }
}
