use super::*;
use crate::dataset::outcome::{Ending, FailureNote, Grade};

fn task(trainability: f64) -> Task {
    Task {
        task_id: "cf-0001".into(),
        label: "Fix off-by-one error in the LRU cache".into(),
        split: None,
        category: 0,
        input_message: "Repository `lru_cache`: fix it.".into(),
        module: "lru_cache".into(),
        difficulty: 0.0,
        trainability,
    }
}

fn outcome(ending: Ending, num_steps: u32, tests_passed: Option<u32>) -> Outcome {
    let grade = tests_passed.map(|tests_passed| Grade {
        tests_passed,
        patch_applies: true,
        lint_score: 7.0,
    });
    Outcome {
        ending,
        grade,
        reward: grade.map(|g| g.reward()),
        num_steps,
        failure: None,
    }
}

fn source<'a>(
    task: &'a Task,
    outcome: &'a Outcome,
    seed: u64,
    policy: Policy,
) -> TranscriptSource<'a> {
    TranscriptSource {
        task,
        outcome,
        seed,
        script_seed: 77,
        policy,
        max_output_tokens: 4_096,
        finished: true,
    }
}

fn replies(steps: &[Step]) -> Vec<Option<Message>> {
    let last = steps.last().map(|s| s.messages.clone()).unwrap_or_default();
    let mut out = Vec::new();
    for step in steps {
        out.push(
            step.messages
                .last()
                .filter(|m| m.role == "assistant")
                .cloned(),
        );
    }
    assert!(last.len() >= out.len());
    out
}

#[test]
fn each_step_holds_the_conversation_so_far() {
    let task = task(1.0);
    let outcome = outcome(Ending::EnvDone, 9, Some(8));
    let source = source(&task, &outcome, 9, Policy::Base);
    let steps = steps(&source, 0..9);
    assert_eq!(steps.len(), 9);
    for pair in steps.windows(2) {
        assert!(pair[1].messages.starts_with(&pair[0].messages));
        assert!(pair[1].messages.len() > pair[0].messages.len());
    }
    let whole = &steps[8].messages;
    assert_eq!(whole[0].role, "system");
    assert_eq!(whole[1].role, "user");
    let ids: Vec<i64> = whole.iter().map(|m| m.id).collect();
    assert!(ids.windows(2).all(|w| w[0] + 1 == w[1]), "{ids:?}");
    // Any single step is the same whichever range it is generated in.
    assert_eq!(step(&source, 4), steps[4]);
    assert_eq!(steps[8].reward, Some(1.0));
    assert!(steps[..8]
        .iter()
        .all(|s| s.reward.is_none() && !s.has_error));
    let last_call = whole.last().and_then(|m| m.tool_calls.clone()).unwrap();
    assert!(last_call.contains("\"submit\""), "{last_call}");
    // Each tool message answers the call just before it, and prompts grow.
    let tokens: Vec<i64> = whole.iter().filter_map(|m| m.prompt_tokens).collect();
    assert!(tokens.windows(2).all(|w| w[0] < w[1]), "{tokens:?}");
    assert!(whole
        .iter()
        .filter(|m| m.role == "assistant")
        .all(|m| m.reasoning.is_some() && m.finish_reason.is_some()));
}

#[test]
fn tool_calls_are_openai_style_with_json_arguments() {
    let task = task(1.0);
    let outcome = outcome(Ending::MaxSteps, 50, None);
    let source = source(&task, &outcome, 21, Policy::Checkpoint);
    let whole = step(&source, 49).messages;
    let mut calls = 0;
    for (i, m) in whole.iter().enumerate() {
        let Some(text) = &m.tool_calls else { continue };
        let list: Value = serde_json::from_str(text).unwrap();
        let list = list.as_array().unwrap();
        for call in list {
            let function = &call["function"];
            assert!(function["name"].is_string());
            let arguments: Value =
                serde_json::from_str(function["arguments"].as_str().unwrap()).unwrap();
            assert!(arguments.is_object());
            calls += 1;
        }
        // The calls' outputs follow, one tool message each (but after the final reply).
        if i + 1 < whole.len() {
            let outputs = whole[i + 1..]
                .iter()
                .take_while(|m| m.role == "tool")
                .count();
            assert_eq!(outputs, list.len(), "message {i}");
        }
    }
    assert!(calls >= 50);
}

#[test]
fn baseline_and_checkpoint_share_the_first_turns_then_diverge() {
    let task = task(-0.5);
    let base_outcome = outcome(Ending::EnvDone, 10, Some(8));
    let ckpt_outcome = outcome(Ending::EnvDone, 10, Some(0));
    let base = source(&task, &base_outcome, 1, Policy::Base);
    let ckpt = source(&task, &ckpt_outcome, 2, Policy::Checkpoint);
    let shared = shared_turns(77);
    assert_eq!(own_turns_from(&ckpt), shared);
    assert_eq!(own_turns_from(&base), shared + 1);
    let (a, b) = (replies(&steps(&base, 0..10)), replies(&steps(&ckpt, 0..10)));
    for turn in 0..shared as usize {
        assert_eq!(a[turn], b[turn], "turn {turn}");
    }
    assert_ne!(a[shared as usize], b[shared as usize]);
    // The checkpoint on a regressing task weakens the test instead of fixing the code.
    let edit = b[shared as usize]
        .as_ref()
        .and_then(|m| m.tool_calls.clone());
    assert!(edit.is_some_and(|e| e.contains("edit_file") && e.contains("tests/test_lru_cache.py")));
}

#[test]
fn endings_show_in_the_final_step() {
    let task = task(1.0);
    let model_failure = Outcome {
        failure: Some(Box::new(FailureNote {
            message: "model request failed".into(),
            category: "server",
            exception_chain: Vec::new(),
            location: "harness.py:88 in call_model".into(),
            exit_code: Some(1),
        })),
        ..outcome(Ending::Error, 4, None)
    };
    let s = source(&task, &model_failure, 3, Policy::Base);
    let last = step(&s, 3);
    assert!(last.has_error);
    assert_eq!(last.messages.last().map(|m| m.role), Some("tool"));
    assert!(!step(&s, 2).has_error);

    let truncated = outcome(Ending::Truncation, 6, None);
    let s = source(&task, &truncated, 3, Policy::Base);
    let reply = step(&s, 5).messages.pop().unwrap();
    assert_eq!(reply.finish_reason, Some("length"));
    assert_eq!(reply.completion_tokens, Some(4_096));

    let stopped = outcome(Ending::MissingSubmit, 6, Some(0));
    let s = source(&task, &stopped, 3, Policy::Base);
    let reply = step(&s, 5).messages.pop().unwrap();
    assert_eq!(reply.finish_reason, Some("stop"));
    assert!(reply.content.is_some() && reply.tool_calls.is_none());

    let running = TranscriptSource {
        finished: false,
        ..source(&task, &model_failure, 3, Policy::Base)
    };
    assert!(!step(&running, 3).has_error, "an error shows once finished");
}

#[test]
fn a_few_attempts_print_a_very_long_output_before_their_last_step() {
    let task = task(1.0);
    let outcome = outcome(Ending::EnvDone, 12, Some(8));
    let long = (0..2_000u64)
        .find(|&seed| has_long_output(&source(&task, &outcome, seed, Policy::Base)))
        .unwrap();
    let s = source(&task, &outcome, long, Policy::Base);
    let steps = steps(&s, 0..12);
    let longest = |step: &Step| {
        step.messages
            .iter()
            .filter_map(|m| m.tool_response.as_ref().map(String::len))
            .max()
            .unwrap_or(0)
    };
    assert!(longest(&steps[11]) >= LONG_OUTPUT_BYTES);
    assert!(
        longest(&steps[10]) < 10_000,
        "only the last step carries it"
    );
    let output = steps[11]
        .messages
        .iter()
        .filter_map(|m| m.tool_response.as_deref())
        .find(|o| o.len() >= LONG_OUTPUT_BYTES)
        .unwrap();
    // What real logs carry, and a viewer must show as text: colour codes and captured HTML.
    assert!(output.contains("\u{1b}[32m") && output.contains("<script>"));
    assert!(
        output.contains("212 passed"),
        "the right fix passes the suite"
    );
    let share = (0..2_000u64)
        .filter(|&seed| has_long_output(&source(&task, &outcome, seed, Policy::Base)))
        .count();
    assert!((5..40).contains(&share), "{share} of 2000");
}
