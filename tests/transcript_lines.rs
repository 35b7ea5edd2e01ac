//! What the transcript views say, as text. Pure logic: native tests.
#![cfg(not(target_arch = "wasm32"))]

mod transcript_fixture;

use eval_compare_core::transcript::{
    align, ContentBlock, DivergenceKind, Flip, OutcomeCounts, PairReason, StepSummaries,
    StepSummary, ToolCalls, Transcript,
};
use eval_compare_viewer::report::task_panel::transcript::lines::{
    answers_text, block_text, counts_text, divergence_text, flip_text, origin_text,
    pair_reason_text, row_after_key, sample_after_key, step_at_turn, step_heading, step_offer_text,
    step_requests, steps_summary_text, tool_call_heading, turn_footer, turn_heading, BlockText,
    KEYBOARD_HINT, LISTED_ERROR_STEPS,
};

#[test]
fn turns_read_with_role_finish_reason_and_tokens() {
    let transcript = transcript_fixture::baseline();
    let call = &transcript.turns[2];
    assert_eq!(turn_heading(call), "#3 assistant");
    assert_eq!(
        turn_footer(call).as_deref(),
        Some("finish: tool_calls · tokens: 1,200 prompt, 35 completion")
    );
    assert_eq!(turn_footer(&transcript.turns[0]), None);
    assert_eq!(
        turn_footer(&transcript.turns[6]).as_deref(),
        Some("finish: stop")
    );
    assert_eq!(
        tool_call_heading(&call.tool_calls.calls[0]),
        "call \u{2068}read_file\u{2069} (id \u{2068}c1\u{2069})"
    );
    assert_eq!(
        call.tool_calls.calls[0].arguments.display(),
        "{\n  \"path\": \"parser.rs\"\n}"
    );
}

#[test]
fn a_tool_result_names_the_call_it_answers() {
    let transcript = transcript_fixture::baseline();
    assert_eq!(
        answers_text(&transcript, &transcript.turns[3]).as_deref(),
        Some("result of #3's call \u{2068}read_file\u{2069} (id \u{2068}c1\u{2069})")
    );
    assert_eq!(
        answers_text(&transcript, &transcript.turns[5]).as_deref(),
        Some("result of #5's call \u{2068}apply_patch\u{2069} (id \u{2068}c2\u{2069})")
    );
    assert_eq!(answers_text(&transcript, &transcript.turns[1]), None);
}

/// A name that leaves a right-to-left override open ends it where it ends: the id after it
/// reads as written, not reversed ("call (7-llac di) fr_mr").
#[test]
fn a_tool_name_is_isolated_from_its_id() {
    let calls =
        ToolCalls::parse("[{\"id\":\"call-7\",\"name\":\"\u{202e}rm_rf\",\"arguments\":{}}]");
    assert_eq!(
        tool_call_heading(&calls.calls[0]),
        "call \u{2068}\u{202e}rm_rf\u{2069} (id \u{2068}call-7\u{2069})"
    );
}

#[test]
fn images_are_named_never_fetched_and_unknown_parts_kept_as_text() {
    let image = ContentBlock::Image {
        artifact_id: "art_7".into(),
    };
    assert_eq!(
        block_text(&image),
        BlockText::Note("[image artifact art_7, not fetched]".into())
    );
    let other = ContentBlock::Other {
        kind: Some("audio".into()),
        json: "{\"type\":\"audio\"}".into(),
    };
    assert_eq!(
        block_text(&other),
        BlockText::Note("[audio part: {\"type\":\"audio\"}]".into())
    );
    assert_eq!(
        block_text(&ContentBlock::Text("hi".into())),
        BlockText::Text("hi")
    );
    let unreadable = ContentBlock::Unreadable {
        problem: "a text part needs a string `text`".into(),
        json: "{\"type\":\"text\"}".into(),
    };
    assert_eq!(
        block_text(&unreadable),
        BlockText::Note(
            "[unreadable part (a text part needs a string `text`): {\"type\":\"text\"}]".into()
        )
    );
}

#[test]
fn the_origin_says_where_it_was_read_and_a_zero_step_trajectory_failed_early() {
    assert_eq!(
        origin_text(&Transcript::no_steps("t")),
        "No steps: it failed before its first model call."
    );
    assert_eq!(
        origin_text(&transcript_fixture::baseline()),
        "4 steps, 7 messages; read from step 3: reward 1.000"
    );
}

#[test]
fn the_divergence_of_the_fixture_pair_is_the_second_call() {
    let sbs = align(
        &transcript_fixture::baseline(),
        &transcript_fixture::candidate(),
    );
    let found = sbs.divergence.expect("they diverge");
    assert_eq!(found.kind, DivergenceKind::ToolCalls);
    assert_eq!(found.exchange, 1);
    assert_eq!(
        divergence_text(found.kind),
        "First divergence: tool calls differ (same text)"
    );
    assert!(sbs.divergence_row.is_some());
}

#[test]
fn verdicts_reasons_and_counts_read_plainly() {
    assert!(flip_text(Flip::ConsistentRegression).starts_with("Consistent regression"));
    assert!(flip_text(Flip::Mixed).starts_with("Mixed"));
    assert!(pair_reason_text(PairReason::PassedBesideFailed).contains("passed beside"));
    let counts = OutcomeCounts {
        passed: 2,
        failed: 1,
        not_scored: 1,
        ..OutcomeCounts::default()
    };
    assert_eq!(counts_text(&counts), "2 passed, 1 failed, 1 not scored");
    assert_eq!(counts_text(&OutcomeCounts::default()), "no samples");
}

#[test]
fn keys_move_between_rows_and_d_reaches_the_divergence() {
    assert_eq!(row_after_key("j", None, 5, Some(3)), Some(0));
    assert_eq!(row_after_key("ArrowDown", Some(1), 5, None), Some(2));
    assert_eq!(row_after_key("j", Some(4), 5, None), Some(4));
    assert_eq!(row_after_key("k", Some(0), 5, None), Some(0));
    assert_eq!(row_after_key("ArrowUp", Some(3), 5, None), Some(2));
    assert_eq!(row_after_key("d", Some(0), 5, Some(3)), Some(3));
    assert_eq!(row_after_key("d", Some(0), 5, None), None);
    assert_eq!(row_after_key("x", Some(0), 5, Some(3)), None);
    assert_eq!(row_after_key("j", None, 0, None), None);
    for key in ["j", "k", "↓", "↑", " d ", " n ", " p ", " N ", " P "] {
        assert!(KEYBOARD_HINT.contains(key), "{key}");
    }
}

#[test]
fn keys_move_between_samples_on_each_side() {
    assert_eq!(sample_after_key("n", (0, 0), (2, 3)), Some((0, 1)));
    assert_eq!(sample_after_key("n", (0, 2), (2, 3)), None);
    assert_eq!(sample_after_key("p", (1, 2), (2, 3)), Some((1, 1)));
    assert_eq!(sample_after_key("p", (1, 0), (2, 3)), None);
    assert_eq!(sample_after_key("N", (0, 2), (2, 3)), Some((1, 2)));
    assert_eq!(sample_after_key("N", (1, 2), (2, 3)), None);
    assert_eq!(sample_after_key("P", (1, 2), (2, 3)), Some((0, 2)));
    assert_eq!(sample_after_key("j", (1, 2), (2, 3)), None);
}

fn steps(facts: &[(usize, Option<f64>, bool)]) -> StepSummaries {
    StepSummaries {
        steps: facts
            .iter()
            .enumerate()
            .map(|(index, &(messages, reward, has_error))| StepSummary {
                step_index: index as i64,
                reward,
                has_error,
                messages,
            })
            .collect(),
        ..StepSummaries::default()
    }
}

#[test]
fn per_step_rewards_and_errors_read_as_text_and_sit_at_the_first_turn_of_their_step() {
    assert_eq!(step_requests(0), 0);
    assert_eq!(step_requests(25), 1);
    assert_eq!(step_requests(26), 2);
    assert_eq!(
        step_offer_text(26),
        "Per-step rewards and errors: reading all 26 steps takes 2 requests (25 steps a page, \
         each step holding the conversation so far)."
    );
    let read = steps(&[
        (3, None, false),
        (5, Some(0.25), true),
        (7, Some(-0.5), false),
    ]);
    assert_eq!(step_heading(&read.steps[0]), "Step 0 · no reward logged");
    assert_eq!(step_heading(&read.steps[1]), "Step 1 · reward 0.25 · error");
    assert_eq!(
        steps_summary_text(&read),
        "3 steps: a reward logged at 2 of them (the last \u{2212}0.5); an error at step 1."
    );
    // Turns 0–2 came with step 0, 3–4 with step 1, 5–6 with step 2: each named once.
    let named: Vec<Option<i64>> = (0..8)
        .map(|turn| step_at_turn(&read, turn).map(|step| step.step_index))
        .collect();
    assert_eq!(
        named,
        [Some(0), None, None, Some(1), None, Some(2), None, None]
    );
    let clean = steps(&[(2, None, false), (1, None, true), (4, None, true)]);
    assert_eq!(
        steps_summary_text(&clean),
        "3 steps: no reward logged at any step; errors at steps 1, 2; the steps do not each \
         hold the conversation so far, so they are not placed at the turns."
    );
    assert_eq!(step_at_turn(&clean, 0), None);
}

/// Many steps with an error are summed up (their count, the first few, the last), not listed:
/// up to [`LISTED_ERROR_STEPS`] are listed in full.
#[test]
fn many_error_steps_are_summed_up_not_listed() {
    let facts: Vec<(usize, Option<f64>, bool)> = (0..10_000)
        .map(|index| (1, None, index % 13 == 0))
        .collect();
    let text = steps_summary_text(&steps(&facts));
    assert!(
        text.contains("errors at 770 steps: 0, 13, 26, … 9997."),
        "{text}"
    );
    assert!(text.len() < 200, "{text}");
    let five = steps(&[(1, None, true); LISTED_ERROR_STEPS]);
    assert!(
        steps_summary_text(&five).contains("errors at steps 0, 1, 2, 3, 4"),
        "{}",
        steps_summary_text(&five)
    );
}
