//! The cost gate (`report --max-cost-increase PERCENT`), after every other gate: it compares
//! each candidate's cost per attempted task with the baseline's (billing's run total over the
//! tasks the run attempted), relative to the baseline's (Δ / the baseline's cost per attempted
//! task). Billing is per run, so there is no interval: the point estimate is judged. Exit 14
//! when a candidate's increase lies above the limit; exit 15 when a candidate's increase cannot
//! be judged (a compared run's cost is unavailable, or the baseline's is 0): the gate refuses
//! rather than passing in silence. Every candidate is named on stderr with what was compared.

use eval_compare_core::report::{
    cost_sentence, gap_text, signed_percent, CandidateCost, CostGap, Report,
};
use eval_compare_core::text::{shorten, SHOWN_NAME_CHARS};

use crate::exit_code::Exit;
use crate::gate::GateOutcome;

/// The outcome with the cost gate at `limit` percent applied, when asked for.
pub fn with_cost_gate(
    mut outcome: GateOutcome,
    report: &Report,
    limit: Option<f64>,
) -> GateOutcome {
    let Some(limit) = limit else {
        return outcome;
    };
    let limit_text = signed_percent(limit / 100.0);
    let (mut exceeded, mut refused) = (false, false);
    for (index, candidate) in report.candidates.iter().enumerate() {
        let name = report.run_of(candidate).map_or("candidate".into(), |run| {
            shorten(&run.name, SHOWN_NAME_CHARS)
        });
        let Some(cost) = report.cost.as_ref().and_then(|c| c.candidates.get(index)) else {
            refused = true;
            outcome.messages.push(format!(
                "cost of {name} not judged against --max-cost-increase: the report has no cost \
                 (no compared run carries billing: a Chronicle job, or run folders without \
                 billing.json)"
            ));
            continue;
        };
        match judge(report, cost, limit) {
            Judgement::Within(relative) => outcome.messages.push(format!(
                "cost within the limit of {limit_text} per attempted task: {name}: {} ({})",
                signed_percent(relative),
                cost_sentence(report, cost)
            )),
            Judgement::Above(relative) => {
                exceeded = true;
                outcome.messages.push(format!(
                    "cost above the limit of {limit_text} per attempted task: {name}: {} ({})",
                    signed_percent(relative),
                    cost_sentence(report, cost)
                ));
            }
            Judgement::Refused(why) => {
                refused = true;
                outcome.messages.push(format!(
                    "cost of {name} not judged against --max-cost-increase: {why}"
                ));
            }
        }
    }
    if outcome.exit == Exit::Ok {
        if exceeded {
            outcome.exit = Exit::CostIncrease;
        } else if refused {
            outcome.exit = Exit::CostUnavailable;
        }
    }
    outcome
}

/// What the gate makes of one candidate's cost.
#[derive(Debug, Clone, PartialEq)]
enum Judgement {
    /// The relative increase per attempted task, at most the limit.
    Within(f64),
    /// The relative increase per attempted task, above the limit.
    Above(f64),
    /// Why it cannot be judged.
    Refused(String),
}

fn judge(report: &Report, cost: &CandidateCost, limit: f64) -> Judgement {
    match &cost.per_attempted_task {
        Ok(delta) => match delta.relative {
            Some(relative) if relative * 100.0 > limit => Judgement::Above(relative),
            Some(relative) => Judgement::Within(relative),
            None => Judgement::Refused(
                "the baseline's cost per attempted task is 0, so no relative increase".to_owned(),
            ),
        },
        Err(gap @ CostGap::Unavailable { .. }) => {
            Judgement::Refused(format!("cost {}", gap_text(report, gap)))
        }
        Err(gap) => {
            Judgement::Refused(format!("cost per attempted task {}", gap_text(report, gap)))
        }
    }
}
