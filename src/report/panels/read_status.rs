//! What a read made on request says (reward components, tokens, Chronicle trials' details):
//! its cost before it starts, its progress, what the tables cover after it, or why it gave up
//! (the core's words). One sentence shape for every such read; each read names its own parts.

use eval_compare_core::load::ComponentProgress;
use eval_compare_core::text::{count, noun};

/// The parts of a read's status sentences that differ between reads.
#[derive(Debug, Clone, Copy)]
pub struct ReadWords<'a> {
    /// What is read, after "Reading " ("components").
    pub reading: &'a str,
    /// What was read, at the start of a sentence ("Components").
    pub read: &'a str,
    /// What each request reads, singular and plural ("trajectory", "trajectories").
    pub unit: (&'a str, &'a str),
    /// What shows the result ("table" or "tables").
    pub shown_in: &'a str,
}

/// The status of a read described by `words`: `offer` (its cost, said before any request) until
/// something was read or failed, then its progress, or what the tables cover.
pub fn read_status(
    standing: &ComponentProgress,
    loading: bool,
    words: ReadWords<'_>,
    offer: impl FnOnce() -> String,
) -> String {
    let wanted = standing.wanted as u64;
    let units = noun(wanted, words.unit.0, words.unit.1);
    let shown_in = words.shown_in;
    let covers = if shown_in == "table" {
        "covers"
    } else {
        "cover"
    };
    if loading {
        return format!(
            "Reading {}: {} of {} {units} read…",
            words.reading,
            count(standing.read as u64),
            count(wanted)
        );
    }
    if standing.is_complete() {
        return format!(
            "{} read for all {} counted {units} of these runs.",
            words.read,
            count(wanted)
        );
    }
    if let Some(stop) = &standing.stopped {
        return format!("The read {stop}; Resume continues. The {shown_in} {covers} those read.");
    }
    if standing.read + standing.failed == 0 {
        return offer();
    }
    let failed = (standing.failed > 0).then(|| {
        format!(
            " {} {} failed.",
            count(standing.failed as u64),
            noun(standing.failed as u64, "read", "reads")
        )
    });
    format!(
        "{} read for {} of {} counted {units}; the {shown_in} {covers} those only.{}",
        words.read,
        count(standing.read as u64),
        count(wanted),
        failed.unwrap_or_default()
    )
}
