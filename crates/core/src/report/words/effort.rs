//! The effort section's words (turns and endings beside quality), shown by the page, the
//! markdown and the HTML report alike: the short line beside a verdict ("+18.0% turns"), a
//! candidate's sentences, and the cells of the effort tables.

use crate::stats::{Interval, PairedEstimate, Stat};
use crate::text::{count, minus_sign, signed_points, why, MISSING};

use super::super::{CandidateEffort, EndingDelta, Report, RunEffort, TaskEffortCell, TurnsDelta};

/// The heading of the effort section.
pub const EFFORT_HEADING: &str = "Effort: turns and endings";

/// What the effort section shows.
pub const EFFORT_INTRO: &str = "Per task the mean step count (num_steps) of its counted \
    trajectories in each run, paired over the tasks both runs have turns on (a trajectory \
    without a step count is left out and counted, never taken as 0); relative = Δ / the \
    baseline's mean, its interval by the delta method. Endings: the share of attempts ending \
    each way, and the paired change of the per-task shares.";

/// What the "?" beside the turns of a verdict says.
pub const TURNS_EXPLAINED: &str = "The change in turns (steps) per task, relative to the \
    baseline's mean: per task the mean num_steps of its counted trajectories, paired over the \
    tasks both runs have turns on, Δ / the baseline's mean with its delta-method interval. A \
    checkpoint that solves harder tasks may take more turns for a good reason: see the turns \
    on tasks both solved.";

/// Columns of the per-run effort table.
pub const RUN_EFFORT_COLUMNS: [&str; 9] = [
    "role",
    "run",
    "mean turns",
    "on solved tasks",
    "on failed tasks",
    "without a step count",
    "attempts",
    "turn limit",
    "timeout",
];

/// Columns of a candidate's endings table.
pub const ENDING_COLUMNS: [&str; 4] = [
    "ending",
    "baseline",
    "candidate",
    "paired Δ of the per-task shares, points (CI)",
];

/// A number of turns with one decimal: `42.3`; negative with the minus sign.
pub fn turn_count(value: f64) -> String {
    let text = format!("{value:.1}");
    if text == "-0.0" {
        return "0.0".to_owned();
    }
    minus_sign(text)
}

/// A change in turns with its sign: `+6.1`, `−2.0`, `0.0`.
pub fn signed_turns(value: f64) -> String {
    let text = turn_count(value);
    if text.starts_with('\u{2212}') || text == "0.0" {
        text
    } else {
        format!("+{text}")
    }
}

/// A share as a percentage with one decimal: `9.0%`.
pub fn percent(share: f64) -> String {
    format!("{}%", crate::text::points(share))
}

/// A relative change as a signed percentage: `+18.0%`.
pub fn signed_percent(ratio: f64) -> String {
    format!("{}%", signed_points(ratio))
}

pub(super) fn interval_of(interval: &Interval, format: fn(f64) -> String) -> String {
    format!("{} to {}", format(interval.lower), format(interval.upper))
}

/// The short line beside a candidate's verdict: "+18.0% turns"; `None` without a relative
/// change of turns (no step counts, or too few tasks).
pub fn turns_beside_verdict(effort: &CandidateEffort) -> Option<String> {
    let relative = effort.turns.relative.as_ref().ok()?;
    Some(format!("{} turns", signed_percent(relative.ratio)))
}

/// A candidate's effort sentences as every renderer lists them under its name: its turns, its
/// turns on solved and on failed tasks (when a task is paired), and its turn-limit and timeout
/// endings.
pub fn effort_lines(effort: &CandidateEffort) -> Vec<String> {
    let mut lines = vec![turns_sentence(&effort.turns)];
    if effort.turns.n > 0 {
        lines.push(solved_failed_sentence(&effort.turns));
    }
    lines.push(ending_sentence(&effort.turn_limit));
    lines.push(ending_sentence(&effort.timeout));
    lines
}

/// The effort of the candidate at `candidate` (its index in the report's candidates).
pub fn candidate_effort(report: &Report, candidate: usize) -> Option<&CandidateEffort> {
    report.effort.as_ref()?.candidates.get(candidate)
}

/// The turns sentence of a candidate, e.g. "Takes 18.0% more turns per task (95% CI +12.1% to
/// +24.0%): 42.3 against 35.8 on 700 paired tasks; 3 tasks without turns in a run left out."
pub fn turns_sentence(turns: &TurnsDelta) -> String {
    if turns.n == 0 {
        return format!(
            "Turns: none to compare: no paired task has a step count (num_steps) in both runs{}.",
            match turns.tasks_without_turns {
                0 => String::new(),
                without => format!(
                    " ({} scored {} without)",
                    count(without as u64),
                    crate::text::noun(without as u64, "task", "tasks")
                ),
            }
        );
    }
    let estimate = match &turns.estimate {
        Ok(estimate) => estimate,
        Err(reason) => return format!("Turns: no paired Δ ({}).", why(reason)),
    };
    let mut text = match &turns.relative {
        Ok(relative) => {
            let direction = if relative.ratio >= 0.0 {
                "more"
            } else {
                "fewer"
            };
            format!(
                "Takes {}% {direction} turns per task ({}% CI {})",
                crate::text::points(relative.ratio.abs()),
                level_percent(relative.interval.level),
                interval_of(&relative.interval, signed_percent)
            )
        }
        Err(reason) => format!("Turns per task: no relative change ({})", why(reason)),
    };
    text.push_str(&format!(
        ": {} against the baseline's {} on {} paired {} (Δ {}{})",
        turn_count(estimate.candidate_mean),
        turn_count(estimate.baseline_mean),
        count(estimate.n as u64),
        crate::text::noun(estimate.n as u64, "task", "tasks"),
        signed_turns(estimate.delta),
        t_interval_text(estimate)
    ));
    if turns.tasks_without_turns > 0 {
        text.push_str(&format!(
            "; {} scored {} without turns in a run left out",
            count(turns.tasks_without_turns as u64),
            crate::text::noun(turns.tasks_without_turns as u64, "task", "tasks"),
        ));
    }
    text.push('.');
    text
}

pub(super) fn level_percent(level: f64) -> String {
    let percent = level * 100.0;
    if (percent - percent.round()).abs() < 1e-9 {
        format!("{percent:.0}")
    } else {
        format!("{percent}")
    }
}

fn t_interval_text(estimate: &PairedEstimate) -> String {
    match &estimate.t_interval {
        Ok(interval) => format!(
            ", {}% CI {}",
            level_percent(interval.level),
            interval_of(interval, signed_turns)
        ),
        Err(_) => String::new(),
    }
}

/// Turns on the tasks both runs solved and on those both failed: "On tasks both solved: Δ +2.0
/// turns (95% CI …) on 193 tasks; on tasks both failed: Δ −13.8 on 313 tasks."
pub fn solved_failed_sentence(turns: &TurnsDelta) -> String {
    let part = |label: &str, tasks: usize, estimate: &Stat<PairedEstimate>| match estimate {
        Ok(estimate) => format!(
            "on tasks both {label}: Δ {} turns{} on {} {}",
            signed_turns(estimate.delta),
            t_interval_text(estimate),
            count(tasks as u64),
            crate::text::noun(tasks as u64, "task", "tasks")
        ),
        Err(reason) => format!("on tasks both {label}: no Δ ({})", why(reason)),
    };
    let text = format!(
        "{}; {}.",
        part("solved", turns.solved_tasks, &turns.solved),
        part("failed", turns.failed_tasks, &turns.failed)
    );
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// An ending singled out: "Hits the turn limit on 9.0% of attempts, was 3.0% (paired Δ of the
/// per-task shares +6.0 points, 95% CI +2.0 to +10.0)."
pub fn ending_sentence(delta: &EndingDelta) -> String {
    let verb = match delta.ending.as_str() {
        "turn limit" => "Hits the turn limit",
        "timeout" => "Times out",
        _ => "Ends so",
    };
    let share = |share: Option<f64>| share.map_or_else(|| MISSING.to_owned(), percent);
    let paired = match &delta.estimate {
        Ok(estimate) => format!(
            " (paired Δ of the per-task shares {} points{})",
            signed_points(estimate.delta),
            match &estimate.t_interval {
                Ok(interval) => format!(
                    ", {}% CI {}",
                    level_percent(interval.level),
                    crate::text::interval_points(interval)
                ),
                Err(_) => String::new(),
            }
        ),
        Err(_) => String::new(),
    };
    format!(
        "{verb} on {} of attempts, was {}{paired}.",
        share(delta.candidate_share),
        share(delta.baseline_share)
    )
}

/// A run's row of the per-run effort table ([`RUN_EFFORT_COLUMNS`]: its role, "baseline" for
/// the first run and "candidate" for the others, then its name).
pub fn run_effort_cells(index: usize, name: &str, run: &RunEffort) -> Vec<String> {
    let value = |value: Option<f64>| value.map_or_else(|| MISSING.to_owned(), turn_count);
    let share = |share: Option<f64>| share.map_or_else(|| MISSING.to_owned(), percent);
    let role = if index == 0 { "baseline" } else { "candidate" };
    vec![
        role.to_owned(),
        name.to_owned(),
        value(run.mean_turns),
        value(run.solved_mean_turns),
        value(run.failed_mean_turns),
        format!(
            "{} of {}",
            count(run.without_steps + run.invalid_steps),
            count(run.counted)
        ),
        count(run.attempts),
        share(run.turn_limit_share),
        share(run.timeout_share),
    ]
}

/// A row of a candidate's endings table ([`ENDING_COLUMNS`]).
pub fn ending_cells(delta: &EndingDelta) -> Vec<String> {
    let share = |share: Option<f64>| share.map_or_else(|| MISSING.to_owned(), percent);
    let paired = match &delta.estimate {
        Ok(estimate) => match &estimate.t_interval {
            Ok(interval) => format!(
                "{} ({})",
                signed_points(estimate.delta),
                crate::text::interval_points(interval)
            ),
            Err(_) => signed_points(estimate.delta),
        },
        Err(reason) => format!("{MISSING} ({})", why(reason)),
    };
    vec![
        delta.ending.clone(),
        share(delta.baseline_share),
        share(delta.candidate_share),
        paired,
    ]
}

/// A task's turns cell: "42.0", or "—" without turns.
pub fn task_turns_cell(cell: &TaskEffortCell) -> String {
    cell.turns.map_or_else(|| MISSING.to_owned(), turn_count)
}

/// A task's ending cell: its most frequent ending, with the turn-limit hits when any
/// ("ENV_DONE · turn limit 1 of 3").
pub fn task_ending_cell(cell: &TaskEffortCell) -> String {
    let ending = cell.ending.clone().unwrap_or_else(|| MISSING.to_owned());
    if cell.turn_limit > 0 {
        format!(
            "{ending} · turn limit {} of {}",
            cell.turn_limit, cell.attempts
        )
    } else {
        ending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_and_shares_are_written_with_their_signs() {
        assert_eq!(turn_count(42.26), "42.3");
        assert_eq!(turn_count(-0.04), "0.0");
        assert_eq!(signed_turns(6.06), "+6.1");
        assert_eq!(signed_turns(-2.0), "\u{2212}2.0");
        assert_eq!(signed_turns(0.0), "0.0");
        assert_eq!(percent(0.09), "9.0%");
        assert_eq!(signed_percent(0.18), "+18.0%");
        assert_eq!(signed_percent(-0.199), "\u{2212}19.9%");
    }
}
