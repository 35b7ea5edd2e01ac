//! Load progress on stderr: one live line per list on a terminal, one summary line per list
//! otherwise (CI logs), nothing with `--quiet`. Labels and messages may quote API data (run ids,
//! error bodies): their control and invisible characters are written as visible escapes
//! ([`visible`]), so nothing from the data reaches the terminal as a control sequence.

use std::io::{IsTerminal, Write};

use eval_compare_core::client::PageProgress;
use eval_compare_core::text::{noun, visible};

/// Where progress goes.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    enabled: bool,
    live: bool,
}

impl Progress {
    /// Progress on stderr, live when stderr is a terminal; silent when `quiet`.
    pub fn stderr(quiet: bool) -> Self {
        Self {
            enabled: !quiet,
            live: std::io::stderr().is_terminal(),
        }
    }

    /// No progress at all.
    #[cfg(test)]
    pub fn silent() -> Self {
        Self {
            enabled: false,
            live: false,
        }
    }

    /// `done` of `total` single reads of `label` ended (live on a terminal only).
    pub fn counted(&self, label: &str, done: usize, total: usize) {
        if self.enabled && self.live {
            self.write(&format!("\r\x1b[2K{}: {done} of {total}", visible(label)));
        }
    }

    /// A page of the list `label` was read.
    pub fn page(&self, label: &str, progress: PageProgress) {
        if self.enabled && self.live {
            let more = if progress.has_more {
                ", more follow"
            } else {
                ""
            };
            self.write(&format!(
                "\r\x1b[2K{}: page {}, {} items{more}",
                visible(label),
                progress.pages_read,
                progress.items_read
            ));
        }
    }

    /// The list `label` was read completely.
    pub fn finished(&self, label: &str, pages: u32, items: usize) {
        self.line(&format!(
            "{label}: {items} items in {pages} {}",
            noun(u64::from(pages), "page", "pages")
        ));
    }

    /// Reading the list `label` stopped at a failed page (the error is reported separately).
    pub fn failed(&self, label: &str, pages: u32, items: usize) {
        self.line(&format!(
            "{label}: FAILED after {items} items in {pages} {}",
            noun(u64::from(pages), "page", "pages")
        ));
    }

    /// A single object was read.
    pub fn fetched(&self, label: &str) {
        self.line(&format!("{label}: read"));
    }

    /// Any other note (where files went).
    pub fn note(&self, text: &str) {
        self.line(text);
    }

    /// A warning or gate result: shown even with `--quiet`.
    pub fn warn(&self, text: &str) {
        let clear = if self.enabled && self.live {
            "\r\x1b[2K"
        } else {
            ""
        };
        self.write(&format!("{clear}eval-compare: {}\n", visible(text)));
    }

    fn line(&self, text: &str) {
        if self.enabled {
            let clear = if self.live { "\r\x1b[2K" } else { "" };
            self.write(&format!("{clear}{}\n", visible(text)));
        }
    }

    fn write(&self, text: &str) {
        let mut stderr = std::io::stderr().lock();
        // Progress is best effort: a closed stderr must not stop the work.
        let _ = stderr.write_all(text.as_bytes());
        let _ = stderr.flush();
    }
}
