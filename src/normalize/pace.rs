//! Pauses inside a long normalize, so that a page can paint in the middle of one.
//!
//! Normalizing a GB session takes about a second in wasm, in loops over hundreds of thousands of
//! lines. The loops that take longest are `async` and call [`Pace::step`] once per line: where a
//! page passes a [`Pause`], a step now and then asks it whether the task has run long enough, and
//! waits for the page (which paints meanwhile) when it has. Without one (natively, in tests, for
//! small loads) nothing ever waits, and [`finish`] runs the whole thing at once.

use std::future::Future;
use std::pin::{pin, Pin};
use std::task::{Context, Poll, Waker};

/// Steps between two questions to the [`Pause`]: asking reads a clock, which in a browser is a
/// call out of wasm (a fraction of a microsecond). A step can take tens of microseconds (a line
/// of a MB checked as UTF-8): at 1,024 steps a GB session's link overran its 40 ms by up to 20.
const ASK_EVERY: u32 = 256;

/// How a page lets normalize pause.
pub trait Pause {
    /// Whether the task has run long enough that the page should have its turn.
    fn due(&mut self) -> bool;
    /// Waits for the page's turn (a browser's next task, after a paint if one is due).
    fn pause(&mut self) -> Pin<Box<dyn Future<Output = ()>>>;
}

/// What a paced loop calls once per step.
pub struct Pace<'p> {
    pause: Option<&'p mut dyn Pause>,
    steps: u32,
    ask_every: u32,
}

impl Pace<'static> {
    /// A pace that never pauses.
    pub fn never() -> Pace<'static> {
        Pace { pause: None, steps: 0, ask_every: ASK_EVERY }
    }
}

impl<'p> Pace<'p> {
    pub fn with(pause: &'p mut dyn Pause) -> Pace<'p> {
        Pace { pause: Some(pause), steps: 0, ask_every: ASK_EVERY }
    }

    /// A step of work long enough (a millisecond or so) that the clock is worth asking after
    /// each: waits if a pause is due.
    pub async fn long_step(&mut self) {
        if let Some(pause) = self.pause.as_deref_mut() {
            if pause.due() {
                pause.pause().await;
            }
        }
    }

    /// One step of work done: now and then, waits if a pause is due.
    pub async fn step(&mut self) {
        self.steps = self.steps.wrapping_add(1);
        if !self.steps.is_multiple_of(self.ask_every) {
            return;
        }
        if let Some(pause) = self.pause.as_deref_mut() {
            if pause.due() {
                pause.pause().await;
            }
        }
    }
}

/// Runs `work` to its end, here and now: with [`Pace::never`] nothing in it ever waits, so the
/// first poll finishes it (polling again is only a guard).
pub fn finish<F: Future>(work: F) -> F::Output {
    let mut work = pin!(work);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = work.as_mut().poll(&mut context) {
            return output;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    /// Counts the pauses it is asked for; always due.
    struct Counting(Rc<Cell<u32>>);

    impl Pause for Counting {
        fn due(&mut self) -> bool {
            true
        }
        fn pause(&mut self) -> Pin<Box<dyn Future<Output = ()>>> {
            self.0.set(self.0.get() + 1);
            Box::pin(YieldOnce(false))
        }
    }

    /// Pending the first time it is polled, as a page's next task is: the paced work is really
    /// suspended there.
    struct YieldOnce(bool);

    impl Future for YieldOnce {
        type Output = ();
        fn poll(mut self: Pin<&mut Self>, _: &mut Context) -> Poll<()> {
            if self.0 {
                return Poll::Ready(());
            }
            self.0 = true;
            Poll::Pending
        }
    }

    /// A session normalized with a pause every few steps is the session normalized at once: real
    /// sessions with sub-agents in files, inline sidechains, branches and compactions.
    #[test]
    fn pausing_changes_nothing_in_what_is_made() {
        use crate::model::Transcript;
        use crate::normalize::{assemble, assemble_paced};
        let sets: [&[&str]; 3] = [
            &[
                "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl",
                "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-a9cad17.jsonl",
                "moredip__session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68/subagents/agent-ac27727.jsonl",
            ],
            &["marot__spotter/test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl"],
            &["blackgirlbytes__planetfall-seed-signalkit/18/e55e8a9e52/10/full.jsonl"],
        ];
        for set in sets {
            let transcripts = || -> Vec<Transcript> {
                set.iter().map(|path| Transcript::parse(*path, crate::fixtures::fixture(path))).collect()
            };
            let at_once = assemble(transcripts(), Vec::new());
            let pauses = Rc::new(Cell::new(0));
            let mut counting = Counting(pauses.clone());
            // A pause at every step.
            let mut pace = Pace { ask_every: 1, ..Pace::with(&mut counting) };
            let paced = finish(assemble_paced(transcripts(), Vec::new(), &mut pace));
            assert!(pauses.get() > 0, "{set:?}: never paused");
            assert_eq!(format!("{:?}", paced.sessions), format!("{:?}", at_once.sessions), "{set:?}");
        }
    }

    #[test]
    fn a_pause_is_asked_for_every_so_many_steps_and_never_without_one() {
        let pauses = Rc::new(Cell::new(0));
        let mut counting = Counting(pauses.clone());
        let mut pace = Pace::with(&mut counting);
        finish(async {
            for _ in 0..ASK_EVERY * 3 + 5 {
                pace.step().await;
            }
        });
        assert_eq!(pauses.get(), 3);
        let mut never = Pace::never();
        finish(async {
            for _ in 0..ASK_EVERY * 3 {
                never.step().await;
            }
        });
    }
}
