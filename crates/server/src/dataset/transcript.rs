//! Short transcripts: the steps of a trajectory, generated on demand from the attempt's seed.
//!
//! Each step draws from its own seeded stream, so any page of steps is the same whichever
//! page was asked for first.

use super::outcome::{Ending, Outcome};
use super::rng::{label, SplitMix64};
use super::tasks::Task;

/// One message of a step.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Message id, unique within the trajectory.
    pub id: i64,
    /// `system`, `user`, `assistant` or `tool`.
    pub role: &'static str,
    /// Text content.
    pub content: Option<String>,
    /// Whether the content is sent as a list of text parts rather than a string.
    pub as_parts: bool,
    /// Tool calls, as the JSON text the model produced.
    pub tool_calls: Option<String>,
    /// A tool's output.
    pub tool_response: Option<String>,
    /// Reasoning text.
    pub reasoning: Option<String>,
    /// Why generation stopped.
    pub finish_reason: Option<&'static str>,
    /// Prompt tokens of the model call.
    pub prompt_tokens: Option<i64>,
    /// Completion tokens of the model call.
    pub completion_tokens: Option<i64>,
}

/// One step of a transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Index from 0.
    pub index: u32,
    /// Reward logged at this step (the final step of a graded trajectory).
    pub reward: Option<f64>,
    /// Whether the step failed.
    pub has_error: bool,
    /// Its messages.
    pub messages: Vec<Message>,
}

/// What a transcript is generated from.
#[derive(Debug, Clone, Copy)]
pub struct TranscriptSource<'a> {
    /// The task.
    pub task: &'a Task,
    /// How the attempt ends.
    pub outcome: &'a Outcome,
    /// Seed of the transcript.
    pub seed: u64,
    /// Whether the attempt has finished (its final step shows the ending).
    pub finished: bool,
}

const SYSTEM_PROMPT: &str =
    "You are demo-coder, an autonomous software engineer. Inspect and edit the \
repository with the tools, run the tests, and call `submit` with your patch when they pass.";

const MESSAGES_PER_STEP: i64 = 3;

fn tool_call(id: u32, name: &str, arguments: &str) -> String {
    let arguments = serde_json::Value::String(arguments.to_owned());
    format!(
        r#"[{{"id":"call_{id}","type":"function","function":{{"name":"{name}","arguments":{arguments}}}}}]"#
    )
}

/// A tool call the agent makes, with the output the tool returns at the next step.
#[derive(Debug, Clone, PartialEq)]
struct ToolAction {
    name: &'static str,
    arguments: String,
    output: String,
}

/// The tool the agent calls at step `index`; drawn from its own stream, so the next step can
/// show the same call's output.
fn planned_action(source: &TranscriptSource<'_>, index: u32) -> ToolAction {
    let mut rng = SplitMix64::stream(source.seed, &[u64::from(index), label("action")]);
    let module = &source.task.module;
    match (index + rng.between(0, 2)) % 3 {
        0 => ToolAction {
            name: "run_tests",
            arguments: format!(r#"{{"path": "tests/test_{module}.py"}}"#),
            output: format!(
                "FAILED tests/test_{module}.py::test_case_{} - AssertionError: expected {}, got {}\n{} passed, {} failed",
                rng.between(1, 500),
                rng.between(2, 9),
                rng.between(0, 1),
                rng.between(3, 7),
                rng.between(1, 3)
            ),
        },
        1 => ToolAction {
            name: "open_file",
            arguments: format!(r#"{{"path": "src/{module}.py", "start_line": {}}}"#, rng.between(1, 120)),
            output: format!(
                "def {module}(items):\n    result = []\n    for i in range(1, len(items)):\n        result.append(items[i])\n    return result"
            ),
        },
        _ => ToolAction {
            name: "edit_file",
            arguments: format!(
                r#"{{"path": "src/{module}.py", "find": "range(1, len(items))", "replace": "range(len(items))"}}"#
            ),
            output: format!("Edited src/{module}.py (1 hunk)."),
        },
    }
}

fn assistant(id: i64, rng: &mut SplitMix64, step: u32) -> Message {
    Message {
        id,
        role: "assistant",
        content: None,
        as_parts: false,
        tool_calls: None,
        tool_response: None,
        reasoning: None,
        finish_reason: Some("tool_calls"),
        prompt_tokens: Some(i64::from(900 + 420 * step + rng.between(0, 200))),
        completion_tokens: Some(i64::from(rng.between(30, 380))),
    }
}

fn plain(id: i64, role: &'static str, content: String) -> Message {
    Message {
        id,
        role,
        content: Some(content),
        as_parts: false,
        tool_calls: None,
        tool_response: None,
        reasoning: None,
        finish_reason: None,
        prompt_tokens: None,
        completion_tokens: None,
    }
}

/// The step at `index` (which must be below the recorded step count).
pub fn step(source: &TranscriptSource<'_>, index: u32) -> Step {
    let mut rng = SplitMix64::stream(source.seed, &[u64::from(index)]);
    let first_id = 1 + i64::from(index) * MESSAGES_PER_STEP;
    let mut messages = Vec::with_capacity(3);
    if index == 0 {
        messages.push(plain(first_id, "system", SYSTEM_PROMPT.into()));
        messages.push(Message {
            as_parts: true,
            ..plain(first_id + 1, "user", source.task.input_message.clone())
        });
    } else {
        messages.push(Message {
            tool_response: Some(planned_action(source, index - 1).output),
            content: None,
            ..plain(first_id, "tool", String::new())
        });
    }
    let last = index + 1 == source.outcome.num_steps;
    let final_step = source.finished && last;
    let mut reply = assistant(first_id + messages.len() as i64, &mut rng, index);
    let mut has_error = false;
    let mut reward = None;
    if final_step {
        reward = source.outcome.reward;
        match source.outcome.ending {
            Ending::EnvDone | Ending::BudgetExhausted => {
                reply.reasoning = Some("The tests pass locally; submitting the patch.".into());
                reply.tool_calls = Some(tool_call(
                    index,
                    "submit",
                    r#"{"patch": "--- a/src\n+++ b/src\n@@ -3 +3 @@"}"#,
                ));
            }
            Ending::MissingSubmit => {
                reply.content = Some(
                    "I could not find the cause of the failure, so I am stopping here.".into(),
                );
                reply.finish_reason = Some("stop");
            }
            Ending::Truncation | Ending::LimitReached => {
                reply.content = Some("The failing assertion compares the parsed values with the expected ones; the loop starts at".into());
                reply.finish_reason = Some("length");
            }
            Ending::Error | Ending::Stale | Ending::SandboxTimeout => {
                has_error = true;
                reply.finish_reason = Some("error");
                reply.completion_tokens = None;
                reply.content = source.outcome.failure.as_ref().map(|f| f.message.clone());
            }
            Ending::Timeout | Ending::MaxSteps | Ending::Cancelled => {
                let action = planned_action(source, index);
                reply.tool_calls = Some(tool_call(index, action.name, &action.arguments));
            }
        }
    } else {
        let action = planned_action(source, index);
        if rng.chance(0.4) {
            reply.reasoning = Some(format!(
                "Next I will call `{}` to narrow down the failure.",
                action.name
            ));
        }
        reply.tool_calls = Some(tool_call(index, action.name, &action.arguments));
    }
    messages.push(reply);
    Step {
        index,
        reward,
        has_error,
        messages,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::outcome::Grade;

    fn task() -> Task {
        Task {
            task_id: "cf-0001".into(),
            label: "Fix off-by-one error in the LRU cache".into(),
            split: None,
            category: 0,
            input_message: "Repository `lru_cache`: fix it.".into(),
            module: "lru_cache".into(),
            difficulty: 0.0,
            trainability: 1.0,
        }
    }

    #[test]
    fn final_step_of_a_graded_trajectory_carries_the_reward() {
        let grade = Grade {
            tests_passed: 8,
            patch_applies: true,
            lint_score: 7.0,
        };
        let outcome = Outcome {
            ending: Ending::EnvDone,
            grade: Some(grade),
            reward: Some(1.0),
            num_steps: 4,
            failure: None,
        };
        let task = task();
        let source = TranscriptSource {
            task: &task,
            outcome: &outcome,
            seed: 9,
            finished: true,
        };
        let steps: Vec<Step> = (0..4).map(|i| step(&source, i)).collect();
        assert_eq!(steps[3].reward, Some(1.0));
        assert!(steps[..3].iter().all(|s| s.reward.is_none()));
        assert!(steps[3].messages.iter().any(|m| m
            .tool_calls
            .as_deref()
            .is_some_and(|c| c.contains("submit"))));
        assert_eq!(steps[0].messages[0].role, "system");
        // Message ids are unique and increasing across steps.
        let ids: Vec<i64> = steps
            .iter()
            .flat_map(|s| s.messages.iter().map(|m| m.id))
            .collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        // Tool calls are valid JSON.
        for call in steps
            .iter()
            .flat_map(|s| s.messages.iter().filter_map(|m| m.tool_calls.as_deref()))
        {
            assert!(
                serde_json::from_str::<serde_json::Value>(call).is_ok(),
                "{call}"
            );
        }
        assert_eq!(step(&source, 2), steps[2]);
    }

    #[test]
    fn each_tool_output_answers_the_previous_call() {
        let outcome = Outcome {
            ending: Ending::MaxSteps,
            grade: None,
            reward: Some(0.0),
            num_steps: 12,
            failure: None,
        };
        let task = task();
        let source = TranscriptSource {
            task: &task,
            outcome: &outcome,
            seed: 21,
            finished: true,
        };
        for index in 1..12 {
            let previous = step(&source, index - 1);
            let call = previous
                .messages
                .last()
                .and_then(|m| m.tool_calls.clone())
                .unwrap_or_default();
            let output = step(&source, index).messages[0]
                .tool_response
                .clone()
                .unwrap_or_default();
            let expected = if call.contains("run_tests") {
                "FAILED"
            } else if call.contains("open_file") {
                "def lru_cache"
            } else {
                "Edited src/lru_cache.py"
            };
            assert!(
                output.starts_with(expected),
                "step {index}: {call} -> {output}"
            );
        }
    }
}
