//! Transcripts: the steps of a trajectory, generated on demand from the attempt's seeds.
//!
//! Each step is one model call and holds the conversation so far (system prompt, task, every
//! assistant reply and tool result up to and including this step's reply), as the contract's
//! guide says: the last step is the whole transcript. A trajectory that failed before its first
//! model call records no step.
//!
//! Every attempt at a task starts with the same turns (the task's exploration script, drawn from
//! the task's seed alone); then it goes its own way, from its own seed: checkpoints start their
//! fix at turn [`shared_turns`], base models one turn later, so a baseline and a checkpoint on
//! the same task diverge at that turn. What an attempt writes follows how it is graded.

mod plan;
mod repo;

use std::ops::Range;

use serde_json::Value;

use super::outcome::Outcome;
use super::tasks::Task;
use plan::{Call, Planned};
use repo::Repo;

pub use plan::{has_long_output, own_turns_from, shared_turns, LONG_OUTPUT_BYTES};

/// One message of a step.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Message id, unique within the trajectory; the same message has the same id in every step.
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

/// What one step adds to the conversation: the previous call's tool results and the reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// Index from 0.
    pub index: u32,
    /// Reward logged at this step (the final step of a graded, finished trajectory).
    pub reward: Option<f64>,
    /// Whether the step failed.
    pub has_error: bool,
    /// The messages this step adds.
    pub messages: Vec<Message>,
}

impl Turn {
    /// The model's reply of this step; none when the model call failed.
    pub fn reply(&self) -> Option<&Message> {
        self.messages.last().filter(|m| m.role == "assistant")
    }
}

/// One step of a transcript: the conversation so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Index from 0.
    pub index: u32,
    /// Reward logged at this step.
    pub reward: Option<f64>,
    /// Whether the step failed.
    pub has_error: bool,
    /// Every message up to this step's reply.
    pub messages: Vec<Message>,
}

/// Who produced the attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The base model.
    Base,
    /// A training checkpoint.
    Checkpoint,
}

/// What a transcript is generated from.
#[derive(Debug, Clone, Copy)]
pub struct TranscriptSource<'a> {
    /// The task.
    pub task: &'a Task,
    /// How the attempt ends.
    pub outcome: &'a Outcome,
    /// Seed of the attempt's own turns.
    pub seed: u64,
    /// Seed of the task's shared first turns (the same for every attempt at the task).
    pub script_seed: u64,
    /// Who produced the attempt.
    pub policy: Policy,
    /// The run's `max_output_tokens_per_step` (what a truncated reply spends).
    pub max_output_tokens: u32,
    /// Whether the attempt has finished (its final step carries the reward and the error).
    pub finished: bool,
}

const SYSTEM_PROMPT: &str = "You are demo-coder, an autonomous software engineer working in a \
sandboxed Python repository. Tools: list_files(path), open_file(path, start_line?), \
search(pattern, path), edit_file(path, find, replace), run_tests(path, args?), git_diff(), \
run_lint(path), submit(patch). Reproduce the failure, fix the code (not the tests), run the tests, \
and call `submit` with your patch when they pass.";

/// Tokens of the tool schemas sent with every model call.
const TOOL_SCHEMA_TOKENS: i64 = 412;

/// Rough tokens of a text (four characters a token).
fn tokens(text: &str) -> i64 {
    (text.len() as i64 + 3) / 4
}

fn message(id: i64, role: &'static str) -> Message {
    Message {
        id,
        role,
        content: None,
        as_parts: false,
        tool_calls: None,
        tool_response: None,
        reasoning: None,
        finish_reason: None,
        prompt_tokens: None,
        completion_tokens: None,
    }
}

/// The OpenAI-style tool-calls text: a list of `{id, type, function: {name, arguments}}`,
/// `arguments` being JSON text.
fn tool_calls_text(turn: u32, calls: &[Call]) -> String {
    let list: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(j, call)| {
            serde_json::json!({
                "id": format!("call_{turn}_{j}"),
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments.to_string()},
            })
        })
        .collect();
    Value::Array(list).to_string()
}

/// Builds the turns one by one, keeping the ids and the prompt size.
struct Writer {
    next_id: i64,
    context_chars: usize,
    pending: Vec<Call>,
}

impl Writer {
    fn push(&mut self, messages: &mut Vec<Message>, mut m: Message) {
        m.id = self.next_id;
        self.next_id += 1;
        for text in [&m.content, &m.tool_calls, &m.tool_response, &m.reasoning]
            .into_iter()
            .flatten()
        {
            self.context_chars += text.len();
        }
        messages.push(m);
    }

    fn turn(&mut self, source: &TranscriptSource<'_>, repo: &Repo<'_>, index: u32) -> Turn {
        let mut messages = Vec::new();
        if index == 0 {
            self.push(
                &mut messages,
                Message {
                    content: Some(SYSTEM_PROMPT.into()),
                    ..message(0, "system")
                },
            );
            self.push(
                &mut messages,
                Message {
                    content: Some(source.task.input_message.clone()),
                    as_parts: true,
                    ..message(0, "user")
                },
            );
        }
        for call in std::mem::take(&mut self.pending) {
            self.push(
                &mut messages,
                Message {
                    tool_response: Some(call.output),
                    ..message(0, "tool")
                },
            );
        }
        let prompt_tokens = TOOL_SCHEMA_TOKENS + (self.context_chars as i64 + 3) / 4;
        let Planned { reply, error } = plan::turn(source, repo, index);
        if let Some(reply) = reply {
            let tool_calls =
                (!reply.calls.is_empty()).then(|| tool_calls_text(index, &reply.calls));
            let written: i64 = [&reply.reasoning, &reply.content, &tool_calls]
                .into_iter()
                .flatten()
                .map(|t| tokens(t))
                .sum();
            let completion_tokens = if reply.finish_reason == "length" {
                i64::from(source.max_output_tokens)
            } else {
                written + 6
            };
            self.push(
                &mut messages,
                Message {
                    content: reply.content,
                    tool_calls,
                    reasoning: reply.reasoning,
                    finish_reason: Some(reply.finish_reason),
                    prompt_tokens: Some(prompt_tokens),
                    completion_tokens: Some(completion_tokens),
                    ..message(0, "assistant")
                },
            );
            self.pending = reply.calls;
        }
        let last = index + 1 == source.outcome.num_steps;
        let final_step = source.finished && last;
        Turn {
            index,
            reward: if final_step {
                source.outcome.reward
            } else {
                None
            },
            has_error: final_step && error,
            messages,
        }
    }
}

/// The first `count` turns of a transcript (`count` at most the recorded step count).
pub fn turns(source: &TranscriptSource<'_>, count: u32) -> Vec<Turn> {
    let repo = Repo::of(source.task);
    let mut writer = Writer {
        next_id: 1,
        context_chars: 0,
        pending: Vec::new(),
    };
    (0..count)
        .map(|index| writer.turn(source, &repo, index))
        .collect()
}

/// The steps with indices in `range` (below the recorded step count), each holding the
/// conversation so far.
pub fn steps(source: &TranscriptSource<'_>, range: Range<u32>) -> Vec<Step> {
    let mut conversation: Vec<Message> = Vec::new();
    let mut steps = Vec::with_capacity(range.len());
    for turn in turns(source, range.end) {
        conversation.extend(turn.messages);
        if range.contains(&turn.index) {
            steps.push(Step {
                index: turn.index,
                reward: turn.reward,
                has_error: turn.has_error,
                messages: conversation.clone(),
            });
        }
    }
    steps
}

/// The step at `index` (below the recorded step count).
pub fn step(source: &TranscriptSource<'_>, index: u32) -> Step {
    steps(source, index..index + 1)
        .pop()
        .unwrap_or_else(|| Step {
            index,
            reward: None,
            has_error: false,
            messages: Vec::new(),
        })
}

#[cfg(test)]
mod tests;
