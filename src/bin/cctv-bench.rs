//! Native throughput and memory of parse and normalize on generated sessions, next to serde_json
//! building a `Value` per line of the same bytes in the same process (the ratio is the figure to
//! compare: absolute numbers drift on a shared machine).
//!
//!   cargo run --release --no-default-features --bin cctv-bench -- [MB...] [--seed N] [--write DIR]
//!
//! With --write, the generated files are written under DIR/<MB>mb/ (for the browser benchmark)
//! instead of measured. With --baseline DIR, only the serde_json baseline runs, on the files under
//! DIR (the browser benchmark calls this to compare on the same files in the same run).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use cctv::model::Transcript;
use cctv::normalize::{self, Input};

/// The system allocator, counting live bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            let live = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    let mut sizes = Vec::new();
    let mut seed = 1u64;
    let mut write = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(seed),
            "--write" => write = args.next(),
            "--baseline" => {
                let dir = args.next().unwrap_or_default();
                println!("{:.1}", baseline_of_dir(std::path::Path::new(&dir)));
                return;
            }
            mb => match mb.parse::<f64>() {
                Ok(mb) => sizes.push(mb),
                Err(_) => {
                    eprintln!("usage: cctv-bench [MB...] [--seed N] [--write DIR]");
                    std::process::exit(2);
                }
            },
        }
    }
    if sizes.is_empty() {
        sizes = vec![10.0, 50.0, 200.0];
    }
    if let Some(dir) = write {
        for mb in sizes {
            let root = std::path::Path::new(&dir).join(format!("{mb}mb"));
            for file in cctv::generate::session(mb, seed) {
                let path = root.join(&file.name);
                std::fs::create_dir_all(path.parent().expect("files are in a folder"))
                    .expect("create folder");
                std::fs::write(&path, &file.bytes).expect("write file");
            }
            println!("wrote {}", root.display());
        }
        return;
    }
    println!("| size | files | baseline serde_json Value | parse | normalize | parse + normalize | vs baseline | peak heap / input | overview (vs parse + normalize) | Share's scan (vs parse + normalize) | followed: a line appended (vs parse + normalize) | Markdown export: time, heap beyond the engine's / input |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for mb in sizes {
        bench(mb, seed);
    }
}

/// serde_json-to-Value MB/s over every .jsonl under `dir` (best of 3).
fn baseline_of_dir(dir: &std::path::Path) -> f64 {
    fn walk(dir: &std::path::Path, out: &mut Vec<Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("a folder of generated files").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(std::fs::read(&path).expect("readable"));
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    let megabytes = files.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    let seconds = (0..3)
        .map(|_| {
            let start = Instant::now();
            for file in &files {
                for line in file.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                    std::hint::black_box(serde_json::from_slice::<serde_json::Value>(line).ok());
                }
            }
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    megabytes / seconds
}

fn bench(mb: f64, seed: u64) {
    let inputs = cctv::generate::session(mb, seed);
    let bytes: usize = inputs.iter().map(|i| i.bytes.len()).sum();
    let megabytes = bytes as f64 / 1e6;
    let runs = if mb <= 50.0 { 3 } else { 1 };
    let best = |f: &mut dyn FnMut() -> f64| (0..runs).map(|_| f()).fold(f64::INFINITY, f64::min);

    let baseline = best(&mut || {
        let start = Instant::now();
        for input in &inputs {
            for line in input.bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                std::hint::black_box(serde_json::from_slice::<serde_json::Value>(line).ok());
            }
        }
        start.elapsed().as_secs_f64()
    });

    let mut parse = f64::INFINITY;
    let mut normalize = f64::INFINITY;
    let mut peak_ratio = 0.0f64;
    let mut overview = f64::INFINITY;
    let mut share = f64::INFINITY;
    for _ in 0..runs {
        let copies: Vec<Input> = inputs.clone();
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        // What a page holds: the bytes of every file, then the index built over them.
        let start = Instant::now();
        let transcripts: Vec<Transcript> =
            copies.into_iter().map(|i| Transcript::parse(i.name, i.bytes)).collect();
        let parsed = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let workspace = normalize::assemble(transcripts, Vec::new());
        let normalized = start.elapsed().as_secs_f64();
        // The inputs' own copy was made before `before`; the peak counts from there.
        let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before) + bytes;
        assert!(workspace.rejected.is_empty());
        overview = overview.min(overview_seconds(&workspace));
        share = share.min(share_seconds(&workspace));
        std::hint::black_box(&workspace);
        drop(workspace);
        parse = parse.min(parsed);
        normalize = normalize.min(normalized);
        peak_ratio = peak_ratio.max(peak as f64 / bytes as f64);
    }
    let follow = follow_seconds(&inputs);
    let (export, export_heap) = export_markdown(&inputs);
    println!(
        "| {megabytes:.0} MB | {} | {:.0} MB/s | {:.0} MB/s | {:.0} MB/s | {:.0} MB/s | {:.2}x | {:.2}x | {:.0} ms ({:.2}x) | {:.0} ms ({:.2}x) | {:.0} ms ({:.2}x) | {:.0} ms, {:.2}x |",
        inputs.len(),
        megabytes / baseline,
        megabytes / parse,
        megabytes / normalize,
        megabytes / (parse + normalize),
        baseline / (parse + normalize),
        peak_ratio,
        overview * 1e3,
        overview / (parse + normalize),
        share * 1e3,
        share / (parse + normalize),
        follow * 1e3,
        follow / (parse + normalize),
        export * 1e3,
        export_heap as f64 / bytes as f64,
    );
}

/// What the engine worker takes to export the session as Markdown once it holds its workspace
/// (made by an earlier ask), with one finding masked: the time, and the most heap it takes
/// beyond what it already held (the masked copy of the files, the workspace made of it, the
/// Markdown).
fn export_markdown(inputs: &[Input]) -> (f64, usize) {
    use cctv::engine::session::{Ask, SessionEngine};
    let mut engine = SessionEngine::new(inputs.to_vec());
    engine.answer(&Ask::Figures { session: 0 }).expect("the figures");
    let masked = cctv::redact::Scanner::new(&[])
        .expect("no patterns of the reader's")
        .find(&inputs[..1])
        .into_iter()
        .take(1)
        .collect();
    let ask = Ask::Markdown { session: 0, masked, options: Default::default(), turns: None };
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let start = Instant::now();
    let answer = engine.answer(&ask).expect("the Markdown");
    let seconds = start.elapsed().as_secs_f64();
    let heap = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    std::hint::black_box(answer);
    (seconds, heap)
}

/// What a followed session costs when a line is appended to it: the line taken and parsed, and
/// the files normalized again as they are now (`normalize::live`), in seconds; best of 3.
fn follow_seconds(inputs: &[Input]) -> f64 {
    use cctv::normalize::live::Live;
    let mut live = Live::new();
    for input in inputs {
        live.add(&input.name, &input.bytes);
    }
    // The session's file: its last line written again, as one more line.
    let session = inputs.iter().find(|i| !i.name.contains('/')).expect("a session file");
    let last = session.bytes[..session.bytes.len() - 1].rsplit(|&b| b == b'\n').next().expect("a line");
    let mut grown = session.bytes.clone();
    (0..3)
        .map(|_| {
            let from = live.read_from(&session.name);
            grown.extend_from_slice(last);
            grown.push(b'\n');
            let start = Instant::now();
            live.take(&session.name, from, &grown[from..]);
            std::hint::black_box(live.workspace());
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// What opening the Share tab computes: every line of every file looked at for secrets and
/// personal details, in seconds.
fn share_seconds(ws: &normalize::Workspace) -> f64 {
    let scanner = cctv::redact::Scanner::new(&[]).expect("no patterns of the reader's");
    let start = Instant::now();
    std::hint::black_box(scanner.find_in(ws.given_files()));
    start.elapsed().as_secs_f64()
}

/// What opening the overview computes for every session of `ws` (its figures: cost, context,
/// tools, the time line and the files changed), in seconds.
fn overview_seconds(ws: &normalize::Workspace) -> f64 {
    let start = Instant::now();
    for session in 0..ws.sessions.len() {
        std::hint::black_box(cctv::insight::figures::figures(ws, session));
    }
    start.elapsed().as_secs_f64()
}
