//! The tokens' words (read from the transcripts, beside the turns), shown by the page, the
//! markdown and the HTML report alike: the short line beside a verdict ("+22.0% tokens"), a
//! candidate's sentence, and the cells of the per-run table.

use crate::stats::PairedEstimate;
use crate::text::{count, minus_sign, noun, why, MISSING};

use super::super::{CandidateTokens, RunTokens};
use super::effort::{interval_of, level_percent, signed_percent};

/// The heading of the tokens part of the effort section.
pub const TOKENS_HEADING: &str = "Effort: tokens";

/// What the tokens part shows.
pub const TOKENS_INTRO: &str = "Read from each counted trajectory's transcript (its last step \
    holds the whole conversation): per task the mean prompt, completion and total tokens of \
    its trajectories with a count, paired over the tasks both runs have tokens on; relative = \
    Δ / the baseline's mean, its interval by the delta method. A transcript without a count on \
    every model call is \"no count\", never 0; nothing is estimated.";

/// What the "?" beside the tokens of a verdict says.
pub const TOKENS_EXPLAINED: &str = "The change in tokens per task, relative to the baseline's \
    mean: per task the mean prompt + completion tokens of its counted trajectories, read from \
    their transcripts, paired over the tasks both runs have tokens on, Δ / the baseline's mean \
    with its delta-method interval.";

/// Columns of the per-run tokens table.
pub const RUN_TOKEN_COLUMNS: [&str; 8] = [
    "role",
    "run",
    "mean prompt tokens",
    "mean completion tokens",
    "mean total tokens",
    "tasks with tokens",
    "no count",
    "not read",
];

/// A number of tokens, whole, with thousands separators: `48,213`; negative with the minus sign.
pub fn token_amount(value: f64) -> String {
    let rounded = value.round();
    if rounded < 0.0 {
        minus_sign(format!("-{}", count(rounded.abs() as u64)))
    } else {
        count(rounded as u64)
    }
}

/// A change in tokens with its sign: `+11,034`, `−2,000`, `0`.
pub fn signed_tokens(value: f64) -> String {
    let text = token_amount(value);
    if text.starts_with('\u{2212}') || text == "0" {
        text
    } else {
        format!("+{text}")
    }
}

/// The short line beside a candidate's verdict: "+22.0% tokens"; `None` without a relative
/// change (no tokens read, or too few tasks).
pub fn tokens_beside_verdict(tokens: &CandidateTokens) -> Option<String> {
    let relative = tokens.relative.as_ref().ok()?;
    Some(format!("{} tokens", signed_percent(relative.ratio)))
}

fn t_interval_text(estimate: &PairedEstimate) -> String {
    match &estimate.t_interval {
        Ok(interval) => format!(
            ", {}% CI {}",
            level_percent(interval.level),
            interval_of(interval, signed_tokens)
        ),
        Err(_) => String::new(),
    }
}

/// A candidate's tokens sentence, e.g. "Uses 22.0% more tokens per task (95% CI +15.1% to
/// +29.0%): 61,204 against the baseline's 50,170 on 40 paired tasks (Δ +11,034, 95% CI …;
/// prompt +10,100, completion +934)."
pub fn tokens_sentence(tokens: &CandidateTokens) -> String {
    if tokens.n == 0 {
        return "Tokens: none to compare: no task has tokens read in both runs.".to_owned();
    }
    let estimate = match &tokens.total {
        Ok(estimate) => estimate,
        Err(reason) => return format!("Tokens: no paired Δ ({}).", why(reason)),
    };
    let mut text = match &tokens.relative {
        Ok(relative) => format!(
            "Uses {}% {} tokens per task ({}% CI {})",
            crate::text::points(relative.ratio.abs()),
            if relative.ratio >= 0.0 {
                "more"
            } else {
                "fewer"
            },
            level_percent(relative.interval.level),
            interval_of(&relative.interval, signed_percent)
        ),
        Err(reason) => format!("Tokens per task: no relative change ({})", why(reason)),
    };
    let part = |label: &str, estimate: &crate::stats::Stat<PairedEstimate>| match estimate {
        Ok(estimate) => format!("{label} {}", signed_tokens(estimate.delta)),
        Err(_) => format!("{label} {MISSING}"),
    };
    text.push_str(&format!(
        ": {} against the baseline's {} on {} paired {} (Δ {}{}; {}, {})",
        token_amount(estimate.candidate_mean),
        token_amount(estimate.baseline_mean),
        count(estimate.n as u64),
        noun(estimate.n as u64, "task", "tasks"),
        signed_tokens(estimate.delta),
        t_interval_text(estimate),
        part("prompt", &tokens.prompt),
        part("completion", &tokens.completion),
    ));
    if tokens.tasks_without_tokens > 0 {
        text.push_str(&format!(
            "; {} {} without tokens in a run left out",
            count(tokens.tasks_without_tokens as u64),
            noun(tokens.tasks_without_tokens as u64, "task", "tasks"),
        ));
    }
    text.push('.');
    text
}

/// A run's row of the per-run tokens table ([`RUN_TOKEN_COLUMNS`]).
pub fn run_token_cells(index: usize, name: &str, run: &RunTokens) -> Vec<String> {
    let value = |value: Option<f64>| value.map_or_else(|| MISSING.to_owned(), token_amount);
    let role = if index == 0 { "baseline" } else { "candidate" };
    vec![
        role.to_owned(),
        name.to_owned(),
        value(run.mean_prompt),
        value(run.mean_completion),
        value(run.mean_total),
        count(run.tasks_with_tokens),
        format!("{} of {}", count(run.no_count), count(run.counted)),
        format!("{} of {}", count(run.not_read), count(run.counted)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_whole_with_separators_and_signs() {
        assert_eq!(token_amount(48_212.6), "48,213");
        assert_eq!(token_amount(-0.4), "0");
        assert_eq!(signed_tokens(11_034.0), "+11,034");
        assert_eq!(signed_tokens(-2_000.2), "\u{2212}2,000");
        assert_eq!(signed_tokens(0.2), "0");
    }
}
