//! Outcome badges of one run on one task: how many trajectories ended in each class other than
//! graded, taken from the report's [`TaskCell`] (never recounted here).

use eval_compare_core::report::TaskCell;
use eval_compare_core::text::noun;
use leptos::prelude::*;

/// One badge: its text, its CSS modifier and a longer explanation for the tooltip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Badge {
    /// Short text, e.g. `2 failed`.
    pub text: String,
    /// CSS modifier: `pill-bad`, `pill-warn` or `pill-neutral`.
    pub tone: &'static str,
    /// What the badge means, for the `title` attribute.
    pub title: String,
}

/// The badges of a cell, most telling first: failed, invalid rewards, unfinished, cut-off, cut-offs
/// scored 0 by the platform rule, then the other outcome classes but graded (model ending,
/// ungraded, cancelled, other); only non-zero counts.
pub fn cell_badges(cell: &TaskCell) -> Vec<Badge> {
    let classes = &cell.classes;
    let class_badge = |count: u32, label: &str, tone: &'static str, meaning: &str| {
        (count > 0).then(|| Badge {
            text: format!("{count} {label}"),
            tone,
            title: format!("{count} {label}: {meaning}"),
        })
    };
    let invalid = (cell.invalid_rewards > 0).then(|| {
        let count = cell.invalid_rewards;
        Badge {
            text: format!("{count} invalid"),
            tone: "pill-bad",
            title: format!(
                "{count} {} NaN, infinite or outside [0, 1]: excluded",
                noun(u64::from(count), "reward is", "rewards are")
            ),
        }
    });
    let zero_by_rule = (cell.zero_by_platform_rule > 0).then(|| {
        let count = cell.zero_by_platform_rule;
        Badge {
            text: format!("{count} 0 by rule"),
            tone: "pill-warn",
            title: format!(
                "{count} cut-off {} without a reward, scored 0 by the platform rule",
                trajectories(count)
            ),
        }
    });
    [
        class_badge(
            classes.failed,
            "failed",
            "pill-bad",
            "execution failure, left out of the primary analysis",
        ),
        invalid,
        class_badge(
            classes.unfinished,
            "unfinished",
            "pill-warn",
            "not ended yet, left out of the primary analysis",
        ),
        class_badge(
            classes.cut_off,
            "cut-off",
            "pill-warn",
            "stopped by a token, context or turn limit",
        ),
        zero_by_rule,
        class_badge(
            classes.model_ending,
            "model ending",
            "pill-neutral",
            "timed out or did not submit",
        ),
        class_badge(
            classes.ungraded,
            "ungraded",
            "pill-neutral",
            "finished without a reward, left out of the primary analysis",
        ),
        class_badge(
            classes.cancelled,
            "cancelled",
            "pill-neutral",
            "cancelled, left out of the primary analysis",
        ),
        class_badge(
            classes.other,
            "other",
            "pill-neutral",
            "another or unknown ending, kept by name on the trajectory",
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn trajectories(count: u32) -> &'static str {
    noun(u64::from(count), "trajectory", "trajectories")
}

/// `badges` as small pills, each with its meaning as tooltip.
fn pills(badges: Vec<Badge>) -> impl IntoView {
    badges
        .into_iter()
        .map(|badge| {
            view! {
                <span class=format!("pill {}", badge.tone) title=badge.title>
                    {badge.text}
                </span>
            }
        })
        .collect_view()
}

/// The badges of a cell as small pills; nothing when every trajectory was graded.
#[component]
pub fn OutcomeBadges(
    /// The run's cell on the task, from the report.
    cell: TaskCell,
) -> impl IntoView {
    pills(cell_badges(&cell))
}

/// How many characters of badge text fit one table cell's line (with one space between badges).
pub const CELL_BADGE_CHARS: usize = 21;

/// The badges a table cell shows: all of them when their text fits [`CELL_BADGE_CHARS`], else
/// the most telling one and `+N more` (whose tooltip lists the rest).
pub fn compact_badges(cell: &TaskCell) -> Vec<Badge> {
    let mut badges = cell_badges(cell);
    let chars: usize = badges
        .iter()
        .map(|badge| badge.text.chars().count() + 1)
        .sum();
    if chars <= CELL_BADGE_CHARS + 1 {
        return badges;
    }
    let rest = badges.split_off(1);
    badges.push(Badge {
        text: format!("+{} more", rest.len()),
        tone: "pill-neutral",
        title: rest
            .into_iter()
            .map(|badge| badge.title)
            .collect::<Vec<_>>()
            .join("\n"),
    });
    badges
}

/// The badges of a table cell, summarized to fit (see [`compact_badges`]).
#[component]
pub fn CompactBadges(
    /// The run's cell on the task, from the report.
    cell: TaskCell,
) -> impl IntoView {
    pills(compact_badges(&cell))
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::model::ClassCounts;

    fn cell(classes: ClassCounts, zero_by_rule: u32, invalid: u32) -> TaskCell {
        TaskCell {
            mean: Some(0.5),
            included: 1,
            samples: classes.total() as u32,
            classes,
            zero_by_platform_rule: zero_by_rule,
            invalid_rewards: invalid,
            flaky: false,
        }
    }

    fn texts(badges: &[Badge]) -> Vec<&str> {
        badges.iter().map(|badge| badge.text.as_str()).collect()
    }

    #[test]
    fn graded_only_has_no_badge() {
        let graded = ClassCounts {
            graded: 4,
            ..ClassCounts::default()
        };
        assert!(cell_badges(&cell(graded, 0, 0)).is_empty());
    }

    #[test]
    fn badges_come_most_telling_first_with_counts() {
        let classes = ClassCounts {
            graded: 1,
            ungraded: 1,
            cut_off: 2,
            failed: 3,
            ..ClassCounts::default()
        };
        let badges = cell_badges(&cell(classes, 1, 1));
        assert_eq!(
            texts(&badges),
            [
                "3 failed",
                "1 invalid",
                "2 cut-off",
                "1 0 by rule",
                "1 ungraded"
            ]
        );
        assert_eq!(badges[0].tone, "pill-bad");
        assert_eq!(
            badges[3].title,
            "1 cut-off trajectory without a reward, scored 0 by the platform rule"
        );
    }

    #[test]
    fn a_table_cell_summarizes_badges_that_do_not_fit() {
        let two_short = ClassCounts {
            cut_off: 1,
            ungraded: 1,
            ..ClassCounts::default()
        };
        assert_eq!(
            texts(&compact_badges(&cell(two_short, 0, 0))),
            ["1 cut-off", "1 ungraded"]
        );
        let two_long = ClassCounts {
            cut_off: 2,
            model_ending: 1,
            ..ClassCounts::default()
        };
        assert_eq!(
            texts(&compact_badges(&cell(two_long, 0, 0))),
            ["2 cut-off", "+1 more"]
        );
        let three = ClassCounts {
            cut_off: 1,
            model_ending: 1,
            ungraded: 2,
            ..ClassCounts::default()
        };
        let compact = compact_badges(&cell(three, 0, 0));
        assert_eq!(texts(&compact), ["1 cut-off", "+2 more"]);
        assert_eq!(
            compact[1].title,
            "1 model ending: timed out or did not submit\n\
             2 ungraded: finished without a reward, left out of the primary analysis"
        );
    }
}
