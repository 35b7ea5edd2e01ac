//! What stands beside a candidate's Δ on its card, in the page's order: its turns ("+18.0%
//! turns"), its tokens once read ("+22.0% tokens"), a Chronicle candidate's steps and duration
//! per trial once its trials' details were read ("+5.2% steps", "−2.4% duration") and its cost
//! per task ("+0.40 ¢ per task", or why it is unavailable, never 0), each only where the report
//! has it, each after [`BESIDE_DELTA`]: "+11.2 points · +18.0% turns · +0.40 ¢ per task". This
//! is the one home of that line: the page sets each [`BesidePart`] with its "?" (its
//! [`Topic`]) and its sentence as the title, the HTML report writes the same words.

use super::super::{CandidateResult, Report, Topic};
use super::trial_effort::{measure_beside_verdict, measure_sentence, DURATION, STEPS};
use super::{
    candidate_cost_of, candidate_effort, cost_beside_verdict, cost_sentence, tokens_beside_verdict,
    tokens_sentence, turns_beside_verdict, turns_sentence,
};

/// What comes before each part beside the Δ.
pub const BESIDE_DELTA: &str = " · ";

/// What a part beside the Δ measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BesideKind {
    /// Turns per task.
    Turns,
    /// Tokens per task.
    Tokens,
    /// Steps per Chronicle trial.
    TrialSteps,
    /// Duration per Chronicle trial.
    TrialDuration,
    /// Cost per task.
    Cost,
}

impl BesideKind {
    /// The topic its "?" explains.
    pub fn topic(self) -> Topic {
        match self {
            BesideKind::Turns => Topic::Turns,
            BesideKind::Tokens => Topic::Tokens,
            BesideKind::TrialSteps => Topic::TrialSteps,
            BesideKind::TrialDuration => Topic::TrialDuration,
            BesideKind::Cost => Topic::Cost,
        }
    }
}

/// One part beside a candidate's Δ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BesidePart {
    /// What it measures.
    pub kind: BesideKind,
    /// Its short words: "+18.0% turns".
    pub text: String,
    /// Its whole sentence (the section's), for a title.
    pub sentence: String,
    /// True when it says why the number is unavailable rather than giving it (cost only).
    pub unavailable: bool,
}

/// The parts beside `candidate`'s Δ: turns, tokens, trial steps, trial duration, then cost;
/// empty when the report has none of them.
pub fn beside_delta_parts(report: &Report, candidate: &CandidateResult) -> Vec<BesidePart> {
    let Some(index) = report
        .candidates
        .iter()
        .position(|c| c.run == candidate.run)
    else {
        return Vec::new();
    };
    let part = |kind, text, sentence| BesidePart {
        kind,
        text,
        sentence,
        unavailable: false,
    };
    let mut parts = Vec::new();
    if let Some(effort) = candidate_effort(report, index) {
        if let Some(text) = turns_beside_verdict(effort) {
            parts.push(part(BesideKind::Turns, text, turns_sentence(&effort.turns)));
        }
    }
    let tokens = report
        .effort
        .as_ref()
        .and_then(|effort| effort.tokens.as_ref()?.candidates.get(index));
    if let Some(tokens) = tokens {
        if let Some(text) = tokens_beside_verdict(tokens) {
            parts.push(part(BesideKind::Tokens, text, tokens_sentence(tokens)));
        }
    }
    let trials = report
        .trial_effort
        .as_ref()
        .and_then(|section| section.candidates.iter().find(|e| e.run == candidate.run));
    if let Some(trials) = trials {
        let measures = [
            (BesideKind::TrialSteps, &trials.steps, STEPS),
            (BesideKind::TrialDuration, &trials.duration, DURATION),
        ];
        for (kind, delta, measure) in measures {
            if let Some(text) = measure_beside_verdict(delta, measure) {
                parts.push(part(kind, text, measure_sentence(delta, measure)));
            }
        }
    }
    if let Some(cost) = candidate_cost_of(report, index) {
        parts.push(BesidePart {
            kind: BesideKind::Cost,
            text: cost_beside_verdict(cost),
            sentence: cost_sentence(report, cost),
            unavailable: cost.per_attempted_task.is_err(),
        });
    }
    parts
}

/// The words of the parts beside `candidate`'s Δ ([`beside_delta_parts`]).
pub fn beside_delta(report: &Report, candidate: &CandidateResult) -> Vec<String> {
    beside_delta_parts(report, candidate)
        .into_iter()
        .map(|part| part.text)
        .collect()
}
