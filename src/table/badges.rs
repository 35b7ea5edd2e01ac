//! Outcome badges of one run on one task: how many trajectories ended in each class other than
//! graded, taken from the report's [`TaskCell`] (never recounted here).

use eval_compare_core::report::TaskCell;
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

/// The badges of a cell, in a fixed order: every outcome class but graded with a non-zero count,
/// then cut-offs scored 0 by the platform rule, then invalid rewards.
pub fn cell_badges(cell: &TaskCell) -> Vec<Badge> {
    let classes = &cell.classes;
    let counted: [(u32, &str, &'static str, &str); 7] = [
        (
            classes.failed,
            "failed",
            "pill-bad",
            "execution failure: left out of the primary analysis",
        ),
        (
            classes.unfinished,
            "unfinished",
            "pill-warn",
            "not ended yet: left out of the primary analysis",
        ),
        (
            classes.cut_off,
            "cut-off",
            "pill-warn",
            "stopped by a token, context or turn limit",
        ),
        (
            classes.model_ending,
            "model ending",
            "pill-neutral",
            "timed out or did not submit",
        ),
        (
            classes.ungraded,
            "ungraded",
            "pill-neutral",
            "finished without a reward: left out of the primary analysis",
        ),
        (
            classes.cancelled,
            "cancelled",
            "pill-neutral",
            "cancelled: left out of the primary analysis",
        ),
        (
            classes.other,
            "other",
            "pill-neutral",
            "another or unknown ending, kept by name on the trajectory",
        ),
    ];
    let mut badges: Vec<Badge> = counted
        .into_iter()
        .filter(|(count, ..)| *count > 0)
        .map(|(count, label, tone, meaning)| Badge {
            text: format!("{count} {label}"),
            tone,
            title: format!("{count} {}: {meaning}", trajectories(count)),
        })
        .collect();
    if cell.zero_by_platform_rule > 0 {
        let count = cell.zero_by_platform_rule;
        badges.push(Badge {
            text: format!("{count} 0 by rule"),
            tone: "pill-warn",
            title: format!(
                "{count} cut-off {} without a reward, scored 0 by the platform rule",
                trajectories(count)
            ),
        });
    }
    if cell.invalid_rewards > 0 {
        let count = cell.invalid_rewards;
        badges.push(Badge {
            text: format!("{count} invalid"),
            tone: "pill-bad",
            title: format!(
                "{count} {} with a reward that is NaN, infinite or outside [0, 1]: excluded",
                rewards(count)
            ),
        });
    }
    badges
}

fn trajectories(count: u32) -> &'static str {
    if count == 1 {
        "trajectory"
    } else {
        "trajectories"
    }
}

fn rewards(count: u32) -> &'static str {
    if count == 1 {
        "reward"
    } else {
        "rewards"
    }
}

/// The badges of a cell as small pills; nothing when every trajectory was graded.
#[component]
pub fn OutcomeBadges(
    /// The run's cell on the task, from the report.
    cell: TaskCell,
) -> impl IntoView {
    cell_badges(&cell)
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
