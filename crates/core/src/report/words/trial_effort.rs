//! The words of the Chronicle trials' steps and durations (shown by the page, the markdown and
//! the HTML report alike): the section's heading and intro, a candidate's sentences, the
//! per-run table's cells and the offer to read the trials' details.

use crate::stats::{Interval, PairedEstimate, Stat};
use crate::text::{count, noun, why, MISSING};

use super::super::{RunTrialEffort, TurnsDelta};
use super::beside_delta::BESIDE_DELTA;
use super::effort::{signed_percent, signed_turns, turn_count};

/// The heading of the trials' steps and durations.
pub const TRIAL_EFFORT_HEADING: &str = "Trials: steps and duration";

/// What the section shows.
pub const TRIAL_EFFORT_INTRO: &str = "Read from each counted trial's detail (its steps[]): \
    steps = its agent and tool_call steps, duration = the sum of its steps' duration_ms (setup \
    and scoring included; the API records no wall time). Per task the mean of its counted \
    trials in each run, paired over the tasks both runs have a value on (a trial not read, or \
    recording no steps or no duration, is left out and counted, never taken as 0); relative = \
    Δ / the baseline's mean, its interval by the delta method.";

/// What the "?" beside the steps of a verdict says.
pub const TRIAL_STEPS_EXPLAINED: &str = "The change in steps per Chronicle trial, relative to \
    the baseline's mean: a trial's steps are its agent and tool_call steps in its detail \
    (steps[]); per task the mean of its counted trials, paired over the tasks both runs have \
    steps on, Δ / the baseline's mean with its delta-method interval. A trial whose detail was \
    not read or records no steps is left out and counted, never taken as 0.";

/// What the "?" beside the duration of a verdict says.
pub const TRIAL_DURATION_EXPLAINED: &str = "The change in duration per Chronicle trial, \
    relative to the baseline's mean: a trial's duration is the sum of its steps' duration_ms \
    (setup and scoring included; the API records no wall time), unknown when any step lacks \
    one; per task the mean of its counted trials, paired over the tasks both runs have a \
    duration on, Δ / the baseline's mean with its delta-method interval.";

/// Columns of the per-run table.
pub const RUN_TRIAL_EFFORT_COLUMNS: [&str; 6] = [
    "role",
    "run",
    "mean steps",
    "mean duration",
    "trials read",
    "without steps / duration",
];

/// What a measure is called and how its values are written.
#[derive(Debug, Clone, Copy)]
pub struct Measure {
    /// Its name in a sentence ("steps").
    pub name: &'static str,
    /// A value ("12.3", "84.0 s").
    pub value: fn(f64) -> String,
    /// A change with its sign ("+1.9", "+3.5 s").
    pub change: fn(f64) -> String,
    /// Written after a change to name it (" steps"; nothing after seconds).
    pub unit: &'static str,
}

/// A duration in seconds with one decimal: "84.0 s".
pub fn seconds(value: f64) -> String {
    format!("{} s", turn_count(value))
}

/// A change of duration with its sign: "+3.5 s".
pub fn signed_seconds(value: f64) -> String {
    format!("{} s", signed_turns(value))
}

/// Steps per trial.
pub const STEPS: Measure = Measure {
    name: "steps",
    value: turn_count,
    change: signed_turns,
    unit: " steps",
};

/// Duration per trial.
pub const DURATION: Measure = Measure {
    name: "duration",
    value: seconds,
    change: signed_seconds,
    unit: "",
};

fn level_percent(level: f64) -> String {
    let percent = level * 100.0;
    if (percent - percent.round()).abs() < 1e-9 {
        format!("{percent:.0}")
    } else {
        format!("{percent}")
    }
}

fn interval_of(interval: &Interval, format: fn(f64) -> String) -> String {
    format!(
        "{}% CI {} to {}",
        level_percent(interval.level),
        format(interval.lower),
        format(interval.upper)
    )
}

fn t_interval_text(estimate: &PairedEstimate, measure: Measure) -> String {
    match &estimate.t_interval {
        Ok(interval) => format!(", {}", interval_of(interval, measure.change)),
        Err(_) => String::new(),
    }
}

fn tasks(n: usize) -> String {
    format!("{} {}", count(n as u64), noun(n as u64, "task", "tasks"))
}

/// A candidate's sentence of one measure, e.g. "Steps per trial: +18.0% per task (95% CI +12.1%
/// to +24.0%): 12.3 against the baseline's 10.4 on 40 paired tasks (Δ +1.9, 95% CI +1.1 to
/// +2.7)."
pub fn measure_sentence(delta: &TurnsDelta, measure: Measure) -> String {
    let name = measure.name;
    if delta.n == 0 {
        let without = match delta.tasks_without_turns {
            0 => String::new(),
            n => format!(" ({} scored without)", tasks(n)),
        };
        return format!(
            "{}: none to compare: no paired task has trials with {name} read in both runs{without}.",
            capitalised(name)
        );
    }
    let estimate = match &delta.estimate {
        Ok(estimate) => estimate,
        Err(reason) => return format!("{}: no paired Δ ({}).", capitalised(name), why(reason)),
    };
    let relative = match &delta.relative {
        Ok(relative) => format!(
            "{} per task ({})",
            signed_percent(relative.ratio),
            interval_of(&relative.interval, signed_percent)
        ),
        Err(reason) => format!("no relative change ({})", why(reason)),
    };
    let mut text = format!(
        "{} per trial: {relative}: {} against the baseline's {} on {} paired {} (Δ {}{})",
        capitalised(name),
        (measure.value)(estimate.candidate_mean),
        (measure.value)(estimate.baseline_mean),
        count(estimate.n as u64),
        noun(estimate.n as u64, "task", "tasks"),
        (measure.change)(estimate.delta),
        t_interval_text(estimate, measure)
    );
    if delta.tasks_without_turns > 0 {
        text.push_str(&format!(
            "; {} scored without {name} in a run left out",
            tasks(delta.tasks_without_turns)
        ));
    }
    text.push('.');
    text
}

/// The measure on tasks both runs solved and on those both failed: "On tasks both solved: Δ
/// +2.0 steps (95% CI …) on 19 tasks; on tasks both failed: no Δ (…)."
pub fn measure_solved_failed(delta: &TurnsDelta, measure: Measure) -> String {
    let part = |label: &str, n: usize, estimate: &Stat<PairedEstimate>| match estimate {
        Ok(estimate) => format!(
            "on tasks both {label}: Δ {}{}{} on {}",
            (measure.change)(estimate.delta),
            measure.unit,
            t_interval_text(estimate, measure),
            tasks(n)
        ),
        Err(reason) => format!("on tasks both {label}: no Δ ({})", why(reason)),
    };
    let text = format!(
        "{}; {}.",
        part("solved", delta.solved_tasks, &delta.solved),
        part("failed", delta.failed_tasks, &delta.failed)
    );
    capitalised(&text)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A run's row of the per-run table ([`RUN_TRIAL_EFFORT_COLUMNS`]).
pub fn run_trial_effort_cells(index: usize, name: &str, run: &RunTrialEffort) -> Vec<String> {
    let value = |value: Option<f64>, format: fn(f64) -> String| {
        value.map_or_else(|| MISSING.to_owned(), format)
    };
    vec![
        if index == 0 { "baseline" } else { "candidate" }.to_owned(),
        name.to_owned(),
        value(run.mean_steps, turn_count),
        value(run.mean_duration_s, seconds),
        format!("{} of {}", count(run.read), count(run.counted)),
        format!(
            "{} / {}",
            count(run.without_steps),
            count(run.without_duration)
        ),
    ]
}

/// A measure's short line beside a candidate's verdict: "+12.0% steps", "+30.1% duration";
/// `None` without a relative change.
pub fn measure_beside_verdict(delta: &TurnsDelta, measure: Measure) -> Option<String> {
    let relative = delta.relative.as_ref().ok()?;
    Some(format!(
        "{} {}",
        signed_percent(relative.ratio),
        measure.name
    ))
}

/// Both measures' short lines, joined as beside the Δ: "+12.0% steps · +30.1% duration";
/// `None` without a relative change of either.
pub fn trial_effort_beside_verdict(steps: &TurnsDelta, duration: &TurnsDelta) -> Option<String> {
    let parts: Vec<String> = [
        measure_beside_verdict(steps, STEPS),
        measure_beside_verdict(duration, DURATION),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join(BESIDE_DELTA))
}

/// The offer to read the trials' details, its cost first: "Steps and durations are in each
/// trial's detail: reading them takes 400 requests (one per counted trial)."
pub fn trial_details_offer(requests: usize) -> String {
    format!(
        "Steps and durations are in each trial's detail, not in the trials list: reading them \
         takes {} {} (one per counted trial).",
        count(requests as u64),
        noun(requests as u64, "request", "requests")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_offers_are_written_plainly() {
        assert_eq!(seconds(84.04), "84.0 s");
        assert_eq!(signed_seconds(3.5), "+3.5 s");
        assert_eq!(signed_seconds(-2.0), "\u{2212}2.0 s");
        assert!(trial_details_offer(1).contains("takes 1 request (one"));
        assert!(trial_details_offer(400).contains("takes 400 requests"));
    }
}
