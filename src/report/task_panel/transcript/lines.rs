//! What the transcript views say, as plain text: a turn's heading and footer, a content part,
//! a tool call and the call a result answers, where the transcript was read from, the
//! divergence, the flip verdict, the keyboard hint and the per-step rewards and errors. Pure:
//! native tests in
//! `tests/transcript_lines.rs`.

use eval_compare_core::text::{compact_value, count, noun, optional_value};
use eval_compare_core::transcript::{
    ContentBlock, DivergenceKind, Flip, OutcomeCounts, PairReason, StepSummaries, StepSummary,
    ToolCall, Transcript, TranscriptOrigin, Turn, STEP_PAGE_LIMIT,
};

/// Turns shown at first, and added by each "show more".
pub const TURN_PAGE: usize = 50;

/// The side-by-side view's keyboard hint.
pub const KEYBOARD_HINT: &str = "Keys (with the view focused): j or ↓ next row, k or ↑ previous row, \
     d the first divergence; n or p the candidate's next or previous sample, N or P the baseline's.";

/// A turn's heading: its position (from 1) and role, e.g. "#3 assistant".
pub fn turn_heading(turn: &Turn) -> String {
    format!("#{} {}", turn.index + 1, turn.role.label())
}

/// A turn's finish reason and token counts, when it recorded any.
pub fn turn_footer(turn: &Turn) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(reason) = turn.finish_reason.as_deref().filter(|r| !r.is_empty()) {
        parts.push(format!("finish: {reason}"));
    }
    match (turn.prompt_tokens, turn.completion_tokens) {
        (None, None) => {}
        (prompt, completion) => {
            let shown = |tokens: Option<i64>| {
                tokens.map_or_else(|| "?".to_owned(), |t| count(t.max(0) as u64))
            };
            parts.push(format!(
                "tokens: {} prompt, {} completion",
                shown(prompt),
                shown(completion)
            ));
        }
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// How a content part is shown: text as it is, anything else as a bracketed note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockText<'a> {
    /// Text content.
    Text(&'a str),
    /// An image (never fetched), a part this build does not know or one it cannot read.
    Note(String),
}

/// The text of one content part.
pub fn block_text(block: &ContentBlock) -> BlockText<'_> {
    match block {
        ContentBlock::Text(text) => BlockText::Text(text),
        ContentBlock::Image { artifact_id } => {
            BlockText::Note(format!("[image artifact {artifact_id}, not fetched]"))
        }
        ContentBlock::Other { kind, json } => BlockText::Note(format!(
            "[{} part: {json}]",
            kind.as_deref().unwrap_or("untyped")
        )),
        ContentBlock::Unreadable { problem, json } => {
            BlockText::Note(format!("[unreadable part ({problem}): {json}]"))
        }
    }
}

/// A tool call's heading, e.g. "call search (id call_1)", the name and the id each isolated
/// ([`isolated`]): a right-to-left override a name leaves open cannot reverse the id after it.
pub fn tool_call_heading(call: &ToolCall) -> String {
    let name = call
        .name
        .as_deref()
        .map_or_else(|| "(no name)".to_owned(), isolated);
    match call.id.as_deref() {
        Some(id) => format!("call {name} (id {})", isolated(id)),
        None => format!("call {name}"),
    }
}

/// Untrusted text between FIRST STRONG ISOLATE (U+2068) and POP DIRECTIONAL ISOLATE (U+2069):
/// shown in its own direction, and any embedding or override it opens ends with it, so it
/// cannot reorder the text around it.
fn isolated(text: &str) -> String {
    format!("\u{2068}{text}\u{2069}")
}

/// Which call a tool result answers, e.g. "result of #2's call search (id call_1)".
pub fn answers_text(transcript: &Transcript, turn: &Turn) -> Option<String> {
    let link = turn.answers?;
    Some(match link.target() {
        Some((at, call)) => {
            let heading = transcript
                .turns
                .get(at)
                .and_then(|t| t.tool_calls.calls.get(call))
                .map_or_else(|| "a call".to_owned(), tool_call_heading);
            format!("result of #{}'s {heading}", at + 1)
        }
        None => "result of no call found in the transcript".to_owned(),
    })
}

/// Where the transcript was read from, e.g. "3 steps; read from step 2: reward 1.000".
pub fn origin_text(transcript: &Transcript) -> String {
    match &transcript.origin {
        TranscriptOrigin::NoSteps => "No steps: it failed before its first model call.".to_owned(),
        TranscriptOrigin::LastStep {
            step_index,
            reward,
            has_error,
            more_steps_after,
        } => {
            let turns = transcript.turns.len() as u64;
            let mut text = format!(
                "{} {}, {} {}; read from step {step_index}: reward {}",
                count(transcript.num_steps),
                noun(transcript.num_steps, "step", "steps"),
                count(turns),
                noun(turns, "message", "messages"),
                optional_value(*reward)
            );
            if *has_error {
                text.push_str(", error recorded");
            }
            if *more_steps_after {
                text.push_str(" (more steps were listed after it: still running?)");
            }
            text
        }
    }
}

/// The divergence mark, e.g. "First divergence: tool calls differ".
pub fn divergence_text(kind: DivergenceKind) -> &'static str {
    match kind {
        DivergenceKind::ToolCalls => "First divergence: tool calls differ (same text)",
        DivergenceKind::Text => "First divergence: text differs (same tool calls)",
        DivergenceKind::TextAndToolCalls => "First divergence: text and tool calls differ",
        DivergenceKind::LeftEnded => "First divergence: the baseline's attempt ends here",
        DivergenceKind::RightEnded => "First divergence: the candidate's attempt ends here",
    }
}

/// Why the default pair was chosen.
pub fn pair_reason_text(reason: PairReason) -> &'static str {
    match reason {
        PairReason::PassedBesideFailed => {
            "Shown first: a baseline sample that passed beside a candidate sample that did not."
        }
        PairReason::FailedBesidePassed => {
            "Shown first: a baseline sample that did not pass beside a candidate sample that did."
        }
        PairReason::DifferentOutcomes => "Shown first: the first pair with different outcomes.",
        PairReason::FirstSamples => "Every sample came to the same: the first of each side.",
    }
}

/// The flip verdict over the scored samples.
pub fn flip_text(flip: Flip) -> &'static str {
    match flip {
        Flip::ConsistentRegression => {
            "Consistent regression: every baseline sample passed, no candidate sample did."
        }
        Flip::ConsistentImprovement => {
            "Consistent improvement: no baseline sample passed, every candidate sample did."
        }
        Flip::Unchanged => "Unchanged: both sides came to the same.",
        Flip::Mixed => "Mixed: some samples passed and some did not.",
        Flip::NotComparable => "Not comparable: a side has no scored sample.",
    }
}

/// A side's outcome counts, e.g. "2 passed, 1 failed"; only the non-zero ones.
pub fn counts_text(counts: &OutcomeCounts) -> String {
    let parts: Vec<String> = [
        (counts.passed, "passed"),
        (counts.partial, "partial"),
        (counts.failed, "failed"),
        (counts.errored, "errored"),
        (counts.not_scored, "not scored"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, label)| format!("{n} {label}"))
    .collect();
    if parts.is_empty() {
        "no samples".to_owned()
    } else {
        parts.join(", ")
    }
}

/// The row a key moves to among `rows` rows from `current` (`None`: the key is not ours).
pub fn row_after_key(
    key: &str,
    current: Option<usize>,
    rows: usize,
    divergence: Option<usize>,
) -> Option<usize> {
    let last = rows.checked_sub(1)?;
    match key {
        "j" | "ArrowDown" => Some(current.map_or(0, |row| (row + 1).min(last))),
        "k" | "ArrowUp" => Some(current.map_or(0, |row| row.saturating_sub(1))),
        "d" => divergence.filter(|&row| row <= last),
        _ => None,
    }
}

/// Which side's sample a key changes and to which position among `samples` samples, e.g. `n`
/// the candidate's next (`None`: the key is not ours, or there is nowhere to go).
pub fn sample_after_key(
    key: &str,
    (baseline, candidate): (usize, usize),
    (baseline_samples, candidate_samples): (usize, usize),
) -> Option<(usize, usize)> {
    let next = |at: usize, count: usize| (at + 1 < count).then_some(at + 1);
    let previous = |at: usize| at.checked_sub(1);
    match key {
        "n" => next(candidate, candidate_samples).map(|c| (baseline, c)),
        "p" => previous(candidate).map(|c| (baseline, c)),
        "N" => next(baseline, baseline_samples).map(|b| (b, candidate)),
        "P" => previous(baseline).map(|b| (b, candidate)),
        _ => None,
    }
}

/// Requests reading every step of a trajectory with `num_steps` steps takes (pages of
/// [`STEP_PAGE_LIMIT`]).
pub fn step_requests(num_steps: u64) -> u64 {
    num_steps.div_ceil(u64::from(STEP_PAGE_LIMIT))
}

/// The offer to read every step, with its cost.
pub fn step_offer_text(num_steps: u64) -> String {
    let requests = step_requests(num_steps);
    format!(
        "Per-step rewards and errors: reading all {} {} takes {} {} ({} steps a page, each step \
         holding the conversation so far).",
        count(num_steps),
        noun(num_steps, "step", "steps"),
        count(requests),
        noun(requests, "request", "requests"),
        STEP_PAGE_LIMIT
    )
}

/// One step's facts: its index, reward and error, e.g. "Step 3 · reward 0.5 · error".
pub fn step_heading(step: &StepSummary) -> String {
    let reward = step.reward.map_or_else(
        || "no reward logged".to_owned(),
        |r| format!("reward {}", compact_value(r)),
    );
    let error = if step.has_error { " · error" } else { "" };
    format!("Step {} · {reward}{error}", step.step_index)
}

/// Steps with an error listed in full up to this many; more are summed up as their count, the
/// first few and the last.
pub const LISTED_ERROR_STEPS: usize = 5;

/// What the steps read say as a whole: how many, where rewards were logged, which recorded an
/// error, and whether their rewards can be placed at the turns.
pub fn steps_summary_text(read: &StepSummaries) -> String {
    let total = read.steps.len() as u64;
    let rewarded: Vec<&StepSummary> = read.steps.iter().filter(|s| s.reward.is_some()).collect();
    let rewards = match rewarded.last().and_then(|step| step.reward) {
        None => "no reward logged at any step".to_owned(),
        Some(last) => format!(
            "a reward logged at {} of them (the last {})",
            count(rewarded.len() as u64),
            compact_value(last)
        ),
    };
    let errors: Vec<String> = read
        .error_steps()
        .map(|step| step.step_index.to_string())
        .collect();
    let errors = match errors.as_slice() {
        [] => "no step recorded an error".to_owned(),
        [one] => format!("an error at step {one}"),
        few if few.len() <= LISTED_ERROR_STEPS => format!("errors at steps {}", few.join(", ")),
        [first @ .., last] => format!(
            "errors at {} steps: {}, … {last}",
            count(errors.len() as u64),
            first[..LISTED_ERROR_STEPS - 2].join(", ")
        ),
    };
    let placed = if read.hold_conversation_so_far() {
        ""
    } else {
        "; the steps do not each hold the conversation so far, so they are not placed at the turns"
    };
    format!(
        "{} {}: {rewards}; {errors}{placed}.",
        count(total),
        noun(total, "step", "steps")
    )
}

/// The step to name at turn `index`: the step that added it, when it is the first turn that
/// step added (so each step is named once, at its first turn).
pub fn step_at_turn(read: &StepSummaries, index: usize) -> Option<&StepSummary> {
    let step = read.step_of_turn(index)?;
    let previous = index
        .checked_sub(1)
        .and_then(|before| read.step_of_turn(before));
    (previous.map(|p| p.step_index) != Some(step.step_index)).then_some(step)
}
