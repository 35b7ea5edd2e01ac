//! The progress signal's pace: at most one tick every [`PROGRESS_INTERVAL_MS`] while pages
//! arrive.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;

use crate::state::report::now_ms;

/// The loading panel re-renders at most this often while pages arrive (a comparison of six runs
/// reads ~100 pages in well under a second; re-rendering after each one slowed the load).
pub const PROGRESS_INTERVAL_MS: u64 = 100;

/// Ticks the progress signal at most every [`PROGRESS_INTERVAL_MS`]: at once when the last tick
/// is older than that (so Retry or Cancel shows immediately), else once at the end of the
/// interval for everything that arrived meanwhile.
#[derive(Clone, Default)]
pub(super) struct ProgressThrottle {
    last_tick_ms: Rc<Cell<f64>>,
    scheduled: Rc<Cell<bool>>,
}

impl ProgressThrottle {
    /// Ticks `tick` now, or once at the end of the interval.
    pub(super) fn notify(&self, tick: RwSignal<u64>) {
        if self.scheduled.get() {
            return;
        }
        let interval = PROGRESS_INTERVAL_MS as f64;
        let wait = self.last_tick_ms.get() + interval - now_ms();
        if wait <= 0.0 {
            self.last_tick_ms.set(now_ms());
            tick.try_update(|tick| *tick += 1);
            return;
        }
        self.scheduled.set(true);
        let this = self.clone();
        set_timeout(
            move || {
                this.scheduled.set(false);
                this.last_tick_ms.set(now_ms());
                tick.try_update(|tick| *tick += 1);
            },
            std::time::Duration::from_millis(wait.ceil() as u64),
        );
    }
}
