//! The cost section's words (money beside quality), shown by the page, the markdown and the
//! HTML report alike: the short line beside a verdict ("+0.40 ¢ per task"), a candidate's
//! sentences, the cells of the cost and quality–cost tables, and what the gate says.

use crate::text::{count, interval_points, minus_sign, signed_points, MISSING};

use super::super::{
    CandidateCost, CandidateResult, CostDelta, CostGap, QualityCostPoint, Report, RunCostSummary,
};
use super::effort::signed_percent;

/// The heading of the cost section.
pub const COST_HEADING: &str = "Cost: money per task";

/// What the cost section shows.
pub const COST_INTRO: &str = "Each run's cost as the platform's billing splits it (USD \
    cents), per attempted task (a task with at least one trajectory) and per solved task \
    (primary score at least 0.5). Billing is per run, not per task, so nothing is paired per \
    task and the Δ has no interval; the cost per solved task carries an interval from the \
    solved count's binomial uncertainty (the solve rate's Wilson interval). A cost billing \
    does not give is unavailable, never 0.";

/// What the "?" beside the cost of a verdict says.
pub const COST_EXPLAINED: &str = "The change in cost per attempted task, in USD cents: each \
    run's total from the platform's billing divided by the tasks it attempted, candidate − \
    baseline. Billing is per run, so the change is not paired per task and has no interval. \
    When the API key may not read billing, or billing lists no row for a run, the cost is \
    unavailable, never 0.";

/// Columns of the per-run cost table.
pub const RUN_COST_COLUMNS: [&str; 11] = [
    "role",
    "run",
    "total",
    "inference",
    "grading",
    "sandbox",
    "training",
    "attempted tasks",
    "per attempted task",
    "solved tasks",
    "per solved task (CI)",
];

/// The heading of the quality–cost view.
pub const QUALITY_COST_HEADING: &str = "Quality against cost";

/// What the quality–cost view shows.
pub const QUALITY_COST_INTRO: &str = "Δ reward (the headline analysis, with its interval) \
    against Δ cost per attempted task, the baseline at 0, 0. Unbeaten: no other run has at \
    least its reward for at most its cost (one of them strictly), on the point estimates.";

/// Columns of the quality–cost table.
pub const QUALITY_COST_COLUMNS: [&str; 4] = [
    "run",
    "Δ reward, points (CI)",
    "Δ cost per attempted task",
    "unbeaten",
];

/// An amount of cents with two decimals and thousands separators: `1,234.56 ¢`.
pub fn cents(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    let magnitude = rounded.abs();
    let whole = magnitude.trunc() as u64;
    let hundredths = ((magnitude - magnitude.trunc()) * 100.0).round() as u64;
    let (whole, hundredths) = if hundredths == 100 {
        (whole + 1, 0)
    } else {
        (whole, hundredths)
    };
    let sign = if rounded < 0.0 { "-" } else { "" };
    minus_sign(format!("{sign}{}.{hundredths:02} ¢", count(whole)))
}

/// A change of cents with its sign: `+0.40 ¢`, `−1.25 ¢`, `0.00 ¢`.
pub fn signed_cents(value: f64) -> String {
    let text = cents(value);
    if text.starts_with('\u{2212}') || text.starts_with("0.00 ") {
        text
    } else {
        format!("+{text}")
    }
}

/// Why a cost figure is missing, in words ("unavailable: the API key may not read billing
/// (baseline)").
pub fn gap_text(report: &Report, gap: &CostGap) -> String {
    let name = |run: usize| match report.runs.get(run) {
        Some(summary) if run == 0 => format!("the baseline, {}", summary.name),
        Some(summary) => summary.name.clone(),
        None => format!("run {run}"),
    };
    match gap {
        CostGap::Unavailable { run, why } => {
            format!("unavailable: {} ({})", why.reason(), name(*run))
        }
        CostGap::NoAttemptedTask { run } => format!("none: {} attempted no task", name(*run)),
        CostGap::NoSolvedTask { run } => format!("none: {} solved no task", name(*run)),
    }
}

/// A candidate's cost sentences as every renderer lists them under its name: its cost per task
/// against the baseline's and, where billing splits it, by kind.
pub fn cost_lines(report: &Report, cost: &CandidateCost) -> Vec<String> {
    let mut lines = vec![cost_sentence(report, cost)];
    lines.extend(kind_sentence(cost));
    lines
}

/// The cost of the candidate at `candidate` (its index in the report's candidates).
pub fn candidate_cost_of(report: &Report, candidate: usize) -> Option<&CandidateCost> {
    report.cost.as_ref()?.candidates.get(candidate)
}

/// The short line beside a candidate's verdict: "+0.40 ¢ per task", or "cost unavailable: the
/// API key may not read billing" (never 0).
pub fn cost_beside_verdict(cost: &CandidateCost) -> String {
    match &cost.per_attempted_task {
        Ok(delta) => format!("{} per task", signed_cents(delta.delta)),
        Err(CostGap::Unavailable { why, .. }) => format!("cost unavailable: {}", why.reason()),
        Err(CostGap::NoAttemptedTask { .. } | CostGap::NoSolvedTask { .. }) => {
            "cost per task: none (no attempted task)".to_owned()
        }
    }
}

/// The line beside `candidate`'s verdict (see [`cost_beside_verdict`]); `None` when the report
/// has no cost section or does not compare that candidate.
pub fn cost_line_of(report: &Report, candidate: &CandidateResult) -> Option<String> {
    let index = report
        .candidates
        .iter()
        .position(|c| c.run == candidate.run)?;
    candidate_cost_of(report, index).map(cost_beside_verdict)
}

fn delta_text(delta: &CostDelta) -> String {
    let relative = delta
        .relative
        .map_or_else(String::new, |r| format!(", {}", signed_percent(r)));
    format!(
        "{} against {} ({}{relative})",
        cents(delta.candidate),
        cents(delta.baseline),
        signed_cents(delta.delta)
    )
}

/// A candidate's cost sentence, e.g. "Cost per attempted task: 3.65 ¢ against 3.25 ¢ (+0.40
/// ¢, +12.3%); per solved task: 6.10 ¢ against 5.90 ¢ (+0.20 ¢, +3.4%)."
pub fn cost_sentence(report: &Report, cost: &CandidateCost) -> String {
    let attempted = match &cost.per_attempted_task {
        Ok(delta) => delta_text(delta),
        Err(gap) => gap_text(report, gap),
    };
    let solved = match &cost.per_solved_task {
        Ok(delta) => delta_text(delta),
        Err(gap) => gap_text(report, gap),
    };
    format!("Cost per attempted task: {attempted}; per solved task: {solved}.")
}

/// A candidate's Δ per attempted task by kind, e.g. "By kind, per attempted task: inference
/// +0.30 ¢, grading 0.00 ¢, sandbox +0.10 ¢, training 0.00 ¢."; `None` when unavailable.
pub fn kind_sentence(cost: &CandidateCost) -> Option<String> {
    let kinds = cost.per_attempted_by_kind.as_ref().ok()?;
    Some(format!(
        "By kind, per attempted task: inference {}, grading {}, sandbox {}, training {}.",
        signed_cents(kinds.inference),
        signed_cents(kinds.grading),
        signed_cents(kinds.sandbox),
        signed_cents(kinds.training)
    ))
}

/// A row of the per-run cost table ([`RUN_COST_COLUMNS`]) of the run at `index` in the
/// report's runs.
pub fn run_cost_cells(report: &Report, index: usize, run: &RunCostSummary) -> Vec<String> {
    let role = if index == 0 { "baseline" } else { "candidate" };
    let name = report
        .runs
        .get(index)
        .map_or_else(|| MISSING.to_owned(), |r| r.name.clone());
    let mut cells = vec![role.to_owned(), name];
    match run.cost.known() {
        Some(known) => cells.extend(
            [
                known.total,
                known.inference,
                known.grading,
                known.sandbox,
                known.training,
            ]
            .map(cents),
        ),
        None => {
            let why = match &run.per_attempted_task {
                Err(gap) => gap_text(report, gap),
                Ok(_) => MISSING.to_owned(),
            };
            cells.push(why);
            cells.extend(std::iter::repeat_n(MISSING.to_owned(), 4));
        }
    }
    cells.push(count(run.attempted_tasks));
    cells.push(match &run.per_attempted_task {
        Ok(per_task) => cents(per_task.total),
        Err(_) => MISSING.to_owned(),
    });
    cells.push(count(run.solved_tasks));
    cells.push(match (&run.per_solved_task, &run.per_solved_interval) {
        (Ok(value), Some(interval)) => format!(
            "{} ({} to {})",
            cents(*value),
            cents(interval.lower),
            cents(interval.upper)
        ),
        (Ok(value), None) => cents(*value),
        (Err(CostGap::NoSolvedTask { .. }), _) => "none solved".to_owned(),
        (Err(_), _) => MISSING.to_owned(),
    });
    cells
}

/// A row of the quality–cost table ([`QUALITY_COST_COLUMNS`]).
pub fn quality_cost_cells(report: &Report, point: &QualityCostPoint) -> Vec<String> {
    let name = report
        .runs
        .get(point.run)
        .map_or_else(|| MISSING.to_owned(), |r| r.name.clone());
    let name = if point.run == 0 {
        format!("{name} (baseline)")
    } else {
        name
    };
    let reward = match (point.reward_delta, &point.reward_interval) {
        (Some(delta), Some(interval)) => {
            format!("{} ({})", signed_points(delta), interval_points(interval))
        }
        (Some(delta), None) => signed_points(delta),
        (None, _) => MISSING.to_owned(),
    };
    let cost = match &point.cost_delta {
        Ok(delta) => signed_cents(*delta),
        Err(gap) => gap_text(report, gap),
    };
    let unbeaten = if point.unbeaten { "unbeaten" } else { "" };
    vec![name, reward, cost, unbeaten.to_owned()]
}

/// The quality–cost sentence: which runs no other beats on both ("Unbeaten on reward and cost:
/// Step 400, the baseline."); `None` when no point has both coordinates.
pub fn unbeaten_sentence(report: &Report) -> Option<String> {
    let points = &report.cost.as_ref()?.quality_cost;
    let names: Vec<String> = points
        .iter()
        .filter(|p| p.unbeaten)
        .filter_map(|p| {
            let name = &report.runs.get(p.run)?.name;
            Some(if p.run == 0 {
                format!("the baseline ({name})")
            } else {
                name.clone()
            })
        })
        .collect();
    (!names.is_empty()).then(|| format!("Unbeaten on reward and cost: {}.", names.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cents_have_two_decimals_separators_and_the_minus_sign() {
        assert_eq!(cents(1234.567), "1,234.57 ¢");
        assert_eq!(cents(0.004), "0.00 ¢");
        assert_eq!(cents(-0.004), "0.00 ¢");
        assert_eq!(cents(0.999), "1.00 ¢");
        assert_eq!(signed_cents(0.4), "+0.40 ¢");
        assert_eq!(signed_cents(-1.25), "\u{2212}1.25 ¢");
        assert_eq!(signed_cents(0.0), "0.00 ¢");
    }

    #[test]
    fn an_unavailable_cost_beside_the_verdict_says_why_never_zero() {
        use crate::model::CostUnavailable;
        let gap = CostGap::Unavailable {
            run: 0,
            why: CostUnavailable::Forbidden,
        };
        let cost = CandidateCost {
            run: 1,
            per_attempted_task: Err(gap.clone()),
            per_attempted_by_kind: Err(gap.clone()),
            per_solved_task: Err(gap),
        };
        let line = cost_beside_verdict(&cost);
        assert_eq!(line, "cost unavailable: the API key may not read billing");
        assert!(kind_sentence(&cost).is_none());
        let known = CandidateCost {
            per_attempted_task: Ok(CostDelta {
                baseline: 3.25,
                candidate: 3.65,
                delta: 0.4,
                relative: Some(0.123),
            }),
            ..cost
        };
        assert_eq!(cost_beside_verdict(&known), "+0.40 ¢ per task");
    }
}
