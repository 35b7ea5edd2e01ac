//! A running comparison's share link records its headline numbers (`ViewState::snapshot`);
//! here they are taken from a report, and compared with a report of now so a later reader
//! sees how far the numbers moved since the link was taken.

use crate::model::rfc3339_utc;
use crate::text::noun;
use crate::view_state::{HeadlineThen, LinkSnapshot};

use super::Report;

/// Whether a link of this report should record a snapshot: a compared run still runs (a
/// candidate's verdict is provisional), so its numbers will move.
pub fn needs_snapshot(report: &Report) -> bool {
    report.candidates.iter().any(|c| c.verdict.provisional)
}

/// Each candidate's headline now, as a link records it: Δ in tenths of a point (rounded as
/// shown) and the tasks of the headline analysis.
pub fn headlines_now(report: &Report) -> Vec<HeadlineThen> {
    report
        .candidates
        .iter()
        .map(|candidate| {
            let analysis = report.headline(candidate);
            HeadlineThen {
                delta_tenths: analysis
                    .estimate
                    .as_ref()
                    .ok()
                    .map(|e| e.delta * 1000.0)
                    .filter(|t| t.is_finite())
                    .map(|t| t.round() as i32),
                tasks: u32::try_from(analysis.n).unwrap_or(u32::MAX),
            }
        })
        .collect()
}

/// The snapshot a link of `report` taken at `taken` records; `seen` is the newest creation
/// time among the compared runs' trajectories (`RunSet::newest_created`).
pub fn snapshot(report: &Report, taken: i64, seen: Option<i64>) -> LinkSnapshot {
    LinkSnapshot {
        taken,
        seen,
        then: headlines_now(report),
    }
}

/// How one candidate's headline moved since the link was taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Movement {
    /// The candidate's name.
    pub name: String,
    /// Its headline then.
    pub then: HeadlineThen,
    /// Its headline now.
    pub now: HeadlineThen,
}

impl Movement {
    /// Whether a number shown differs.
    pub fn moved(&self) -> bool {
        self.then != self.now
    }

    /// "Step 500: Δ +13.7 → +13.2 points, 361 → 367 paired tasks" (a number that did not move
    /// is said once).
    pub fn text(&self, task_words: (&str, &str)) -> String {
        let delta = |h: HeadlineThen| {
            h.delta_tenths
                .map_or_else(|| "none".to_owned(), signed_tenths)
        };
        let delta_text = if self.then.delta_tenths == self.now.delta_tenths {
            format!("Δ {} points", delta(self.now))
        } else {
            format!("Δ {} → {} points", delta(self.then), delta(self.now))
        };
        let words = noun(u64::from(self.now.tasks), task_words.0, task_words.1);
        let tasks_text = if self.then.tasks == self.now.tasks {
            format!("{} {words}", self.now.tasks)
        } else {
            format!("{} → {} {words}", self.then.tasks, self.now.tasks)
        };
        format!("{}: {delta_text}, {tasks_text}", self.name)
    }
}

/// What the reader of a link sees about its snapshot and the numbers now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkComparison {
    /// When the link was taken, `2026-12-01T17:40:05Z`.
    pub taken: String,
    /// Each candidate's movement, in order; empty when the link's candidates are not the
    /// report's (another count).
    pub movements: Vec<Movement>,
    /// The link recorded another number of candidates than the report has.
    pub mismatched: bool,
}

impl LinkComparison {
    /// Whether any number moved.
    pub fn moved(&self) -> bool {
        self.movements.iter().any(Movement::moved)
    }

    /// The sentence: "Numbers have moved since this link was taken at 2026-12-01T17:40:05Z:
    /// Step 500: Δ +13.7 → +13.2 points, 361 → 367 paired tasks", or that they have not.
    pub fn sentence(&self, task_words: (&str, &str)) -> String {
        if self.mismatched {
            return format!(
                "This link was taken at {}; it recorded the numbers of another set of candidates, so they cannot be compared with these.",
                self.taken
            );
        }
        if !self.moved() {
            return format!(
                "The numbers are those shown when this link was taken at {}.",
                self.taken
            );
        }
        let parts: Vec<String> = self
            .movements
            .iter()
            .filter(|m| m.moved())
            .map(|m| m.text(task_words))
            .collect();
        format!(
            "Numbers have moved since this link was taken at {}: {}.",
            self.taken,
            parts.join("; ")
        )
    }
}

/// The link's snapshot beside `report` (the report of now, or of "as of").
pub fn compare_with_link(report: &Report, snapshot: &LinkSnapshot) -> LinkComparison {
    let now = headlines_now(report);
    let taken = rfc3339_utc(snapshot.taken);
    if now.len() != snapshot.then.len() {
        return LinkComparison {
            taken,
            movements: Vec::new(),
            mismatched: true,
        };
    }
    let movements = report
        .candidates
        .iter()
        .zip(snapshot.then.iter().zip(now))
        .map(|(candidate, (&then, now))| Movement {
            name: report
                .run_of(candidate)
                .map_or_else(|| "candidate".to_owned(), |run| run.name.clone()),
            then,
            now,
        })
        .collect();
    LinkComparison {
        taken,
        movements,
        mismatched: false,
    }
}

/// The words of the tasks a report's headline counts: paired tasks, or tasks in the
/// sensitivity analysis.
pub fn task_words(report: &Report) -> (&'static str, &'static str) {
    match report.settings.headline {
        crate::model::Analysis::Primary => ("paired task", "paired tasks"),
        crate::model::Analysis::Sensitivity => ("task", "tasks"),
    }
}

/// Tenths of a point with a sign: 137 → "+13.7", -4 → "−0.4", 0 → "0.0".
fn signed_tenths(tenths: i32) -> String {
    let magnitude = tenths.unsigned_abs();
    let text = format!("{}.{}", magnitude / 10, magnitude % 10);
    match tenths {
        0 => text,
        t if t > 0 => format!("+{text}"),
        _ => format!("−{text}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(delta_tenths: Option<i32>, tasks: u32) -> HeadlineThen {
        HeadlineThen {
            delta_tenths,
            tasks,
        }
    }

    #[test]
    fn a_movement_says_what_moved() {
        let m = Movement {
            name: "Step 500".into(),
            then: h(Some(137), 361),
            now: h(Some(132), 367),
        };
        assert!(m.moved());
        assert_eq!(
            m.text(("paired task", "paired tasks")),
            "Step 500: Δ +13.7 → +13.2 points, 361 → 367 paired tasks"
        );
        let same_delta = Movement {
            now: h(Some(137), 367),
            ..m.clone()
        };
        assert_eq!(
            same_delta.text(("paired task", "paired tasks")),
            "Step 500: Δ +13.7 points, 361 → 367 paired tasks"
        );
        let gone = Movement {
            then: h(None, 0),
            now: h(Some(-4), 1),
            ..m
        };
        assert_eq!(
            gone.text(("paired task", "paired tasks")),
            "Step 500: Δ none → −0.4 points, 0 → 1 paired task"
        );
    }

    #[test]
    fn the_sentence_names_the_time_and_every_moved_candidate() {
        let comparison = LinkComparison {
            taken: rfc3339_utc(1_796_146_805),
            movements: vec![
                Movement {
                    name: "A".into(),
                    then: h(Some(137), 361),
                    now: h(Some(132), 367),
                },
                Movement {
                    name: "B".into(),
                    then: h(Some(10), 5),
                    now: h(Some(10), 5),
                },
            ],
            mismatched: false,
        };
        assert_eq!(
            comparison.sentence(("paired task", "paired tasks")),
            "Numbers have moved since this link was taken at 2026-12-01T17:40:05Z: \
             A: Δ +13.7 → +13.2 points, 361 → 367 paired tasks."
        );
        let still = LinkComparison {
            movements: comparison.movements[1..].to_vec(),
            ..comparison.clone()
        };
        assert!(!still.moved());
        assert!(still
            .sentence(("paired task", "paired tasks"))
            .starts_with("The numbers are those shown when"));
        let other = LinkComparison {
            movements: Vec::new(),
            mismatched: true,
            ..comparison
        };
        assert!(other
            .sentence(("paired task", "paired tasks"))
            .contains("another set of candidates"));
    }

    #[test]
    fn tenths_carry_their_sign() {
        assert_eq!(signed_tenths(137), "+13.7");
        assert_eq!(signed_tenths(-4), "−0.4");
        assert_eq!(signed_tenths(0), "0.0");
    }
}
