//! What a link of a running comparison records ([`LinkSnapshot`]: `taken`, `seen`, `then`):
//! the headline numbers when it was taken, written and read.

use serde::{Deserialize, Serialize};

use super::checks::printable;

/// What a share link of a running comparison records: when it was taken and the headline
/// numbers then. Only links copied while a compared run runs carry it (a finished
/// comparison's numbers do not move).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkSnapshot {
    /// When the link was taken, seconds since the Unix epoch (`taken`).
    pub taken: i64,
    /// The newest creation time among the compared runs' trajectories loaded then, seconds
    /// since the epoch (`seen`): the time "as of" shows. `None` when no trajectory had one.
    pub seen: Option<i64>,
    /// Each candidate's headline then, in `cand` order (`then=13.7~361,-2.1~300`).
    pub then: Vec<HeadlineThen>,
}

/// One candidate's headline numbers when a link was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadlineThen {
    /// The headline Δ in tenths of a point, as shown (`None`: no Δ then).
    pub delta_tenths: Option<i32>,
    /// Tasks in the headline analysis (paired tasks in the primary one).
    pub tasks: u32,
}

/// Latest time a link may carry (9999-12-31T23:59:59Z), seconds since the epoch.
pub const MAX_LINK_TIME: i64 = 253_402_300_799;

impl HeadlineThen {
    pub(super) fn text(self) -> String {
        let delta = self.delta_tenths.map_or_else(String::new, |tenths| {
            let sign = if tenths < 0 { "-" } else { "" };
            let magnitude = tenths.unsigned_abs();
            format!("{sign}{}.{}", magnitude / 10, magnitude % 10)
        });
        format!("{delta}~{}", self.tasks)
    }

    pub(super) fn parse(text: &str) -> Option<HeadlineThen> {
        let (delta, tasks) = text.split_once('~')?;
        let tasks = whole_number(tasks)?.try_into().ok()?;
        let delta_tenths = if delta.is_empty() {
            None
        } else {
            let (negative, magnitude) = match delta.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, delta),
            };
            let (whole, tenth) = magnitude.split_once('.')?;
            if tenth.len() != 1 {
                return None;
            }
            let tenths = whole_number(whole)?
                .checked_mul(10)?
                .checked_add(whole_number(tenth)?)?;
            let tenths: i32 = tenths.try_into().ok()?;
            Some(if negative { -tenths } else { tenths })
        };
        Some(HeadlineThen {
            delta_tenths,
            tasks,
        })
    }
}

/// Digits only (no sign), as a number.
fn whole_number(text: &str) -> Option<u64> {
    (!text.is_empty() && text.len() <= 18 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

pub(super) fn link_time(value: &str) -> Result<i64, String> {
    whole_number(value)
        .and_then(|t| i64::try_from(t).ok())
        .filter(|t| *t <= MAX_LINK_TIME)
        .ok_or_else(|| {
            format!(
                "`{}` is not a time in seconds since 1970-01-01 UTC",
                printable(value)
            )
        })
}

/// A snapshot being read, before `taken` is known (marked by `taken` = -1).
pub(super) fn empty_snapshot() -> LinkSnapshot {
    LinkSnapshot {
        taken: -1,
        seen: None,
        then: Vec::new(),
    }
}
