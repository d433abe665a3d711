//! Warming V8's optimizing compiler before the first screen.
//!
//! V8 first runs wasm as its baseline compiler (Liftoff) made it, and recompiles a function with
//! its optimizing compiler (TurboFan) in the background only after the function has run for a
//! while. A file of tens of MB was read before that happened, mostly in baseline code: parsing
//! 10 MB took 25 ms, against 10 ms once warm. So when the viewer starts, it reads the bundled
//! demo session a few times (about 2 MB of transcript; 16-37 ms in headless Chromium on the
//! 2-core bench machine) and throws the result away; V8 compiles the hot functions while the
//! reader picks a file.
//!
//! It runs before the first screen, not after: run after it, it overlapped a file handed over
//! at once and made that load slower (10 MB: parse 42 ms).

use crate::demo::demo_inputs;

/// How many times the demo is read.
const ROUNDS: u32 = 30;

/// Once per page: a host that mounts several viewers pays for it with the first, after which
/// the code is compiled.
pub(crate) fn run() {
    static WARMED: std::sync::Once = std::sync::Once::new();
    WARMED.call_once(|| {
        for _ in 0..ROUNDS {
            drop(crate::normalize::normalize(demo_inputs()));
        }
    });
}
