//! The gate's progress lines for stream events, summarised: at most one line every
//! [`EVENT_LINE_INTERVAL_MS`], the events in between counted into the next line, so a stream
//! that floods events cannot flood stderr. Time comes in as an argument.

use eval_compare_core::text::{count, noun};

/// Least time between two event lines.
pub const EVENT_LINE_INTERVAL_MS: u64 = 1_000;

/// Which event lines are shown, and how many were held back since the last one.
#[derive(Debug, Default)]
pub struct EventLines {
    last_shown_ms: Option<u64>,
    held: u64,
}

impl EventLines {
    /// The line to show for an event arriving at `now_ms` whose own line is `line`: `None`
    /// while the last line is younger than [`EVENT_LINE_INTERVAL_MS`] (unless `always`, for the
    /// event that ends the stream), otherwise the line with the events held back since.
    pub fn line(&mut self, now_ms: u64, line: String, always: bool) -> Option<String> {
        let recent = self
            .last_shown_ms
            .is_some_and(|last| now_ms < last.saturating_add(EVENT_LINE_INTERVAL_MS));
        if recent && !always {
            self.held = self.held.saturating_add(1);
            return None;
        }
        self.last_shown_ms = Some(now_ms);
        Some(match std::mem::take(&mut self.held) {
            0 => line,
            held => format!("{line} (and {})", more_events(held)),
        })
    }

    /// What was held back and never shown, as a line (`job j1: 12,345 more events`).
    pub fn finish(&mut self, job_id: &str) -> Option<String> {
        match std::mem::take(&mut self.held) {
            0 => None,
            held => Some(format!("{job_id}: {}", more_events(held))),
        }
    }
}

/// `1 more event`, `12,345 more events`.
fn more_events(held: u64) -> String {
    format!("{} more {}", count(held), noun(held, "event", "events"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_of_events_is_one_line_a_second_with_what_it_stands_for() {
        let mut lines = EventLines::default();
        let shown: Vec<String> = (0..100_000u64)
            .filter_map(|i| lines.line(i / 10, format!("event {i}"), false))
            .collect();
        // 100,000 events over 10 s: one line a second.
        assert_eq!(shown.len(), 10, "{shown:?}");
        assert_eq!(shown[0], "event 0");
        assert_eq!(shown[1], "event 10000 (and 9,999 more events)");
        assert_eq!(lines.finish("j1").as_deref(), Some("j1: 9,999 more events"));
        assert_eq!(lines.finish("j1"), None);
    }

    #[test]
    fn the_end_of_a_stream_is_always_shown() {
        let mut lines = EventLines::default();
        assert!(lines.line(0, "a".into(), false).is_some());
        assert!(lines.line(1, "b".into(), false).is_none());
        assert_eq!(
            lines.line(2, "run finished".into(), true).as_deref(),
            Some("run finished (and 1 more event)")
        );
    }
}
