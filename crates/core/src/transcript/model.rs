//! A trajectory's transcript: its messages as turns, read from the last step (which holds the
//! whole conversation), every field kept as text.

use crate::api::{ContentPart, Message, MessageContent, Step};

use super::tool_calls::{ToolCalls, ToolResponse};

/// Who wrote a message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Role {
    /// `system`.
    System,
    /// `user`.
    User,
    /// `assistant`: the model.
    Assistant,
    /// `tool`: a tool's result.
    Tool,
    /// Any other role, kept by name.
    Other(String),
    /// No role recorded.
    Unstated,
}

impl Role {
    /// The role of a recorded name (`None`: not recorded).
    pub fn of(name: Option<&str>) -> Self {
        match name {
            None => Self::Unstated,
            Some("system") => Self::System,
            Some("user") => Self::User,
            Some("assistant") => Self::Assistant,
            Some("tool") => Self::Tool,
            Some(other) => Self::Other(other.to_owned()),
        }
    }

    /// How the role is shown: its name, "no role" when none was recorded.
    pub fn label(&self) -> &str {
        match self {
            Self::System => "system",
            Self::User => "user",
            Self::Assistant => "assistant",
            Self::Tool => "tool",
            Self::Other(name) => name,
            Self::Unstated => "no role",
        }
    }
}

/// One piece of a message's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentBlock {
    /// Text.
    Text(String),
    /// An image artifact of the trajectory, by id (nothing is fetched).
    Image {
        /// The artifact's id.
        artifact_id: String,
    },
    /// A part type this build does not know, kept by name with its JSON as text.
    Other {
        /// Its `type`, when it has one.
        kind: Option<String>,
        /// The part's JSON, compact.
        json: String,
    },
    /// A part that is not what its kind needs (a text part with no text, a bare string or
    /// null), kept with why it cannot be read; the other parts are read.
    Unreadable {
        /// Why, e.g. "a text part needs a string `text`".
        problem: String,
        /// The part's JSON, compact.
        json: String,
    },
}

/// Which call a tool result answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallLink {
    /// The result names the call's id: call `call` of turn `turn`.
    ById {
        /// Index of the assistant turn.
        turn: usize,
        /// Index of the call in its tool calls.
        call: usize,
    },
    /// No id to go by (or no call with it): the first call of the latest assistant turn that
    /// no result answered yet.
    ByPosition {
        /// Index of the assistant turn.
        turn: usize,
        /// Index of the call in its tool calls.
        call: usize,
    },
    /// No call found (no id match and no call left at its position).
    Unlinked,
}

impl CallLink {
    /// The assistant turn and call, when linked.
    pub fn target(self) -> Option<(usize, usize)> {
        match self {
            Self::ById { turn, call } | Self::ByPosition { turn, call } => Some((turn, call)),
            Self::Unlinked => None,
        }
    }
}

/// One message of the transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Position in the transcript, from 0.
    pub index: usize,
    /// The message's id.
    pub message_id: i64,
    /// Who wrote it.
    pub role: Role,
    /// Its content, in order (empty when it has none).
    pub content: Vec<ContentBlock>,
    /// Tool calls the model made in it.
    pub tool_calls: ToolCalls,
    /// A tool's result it carries.
    pub tool_response: Option<ToolResponse>,
    /// For a tool result (a `tool` message or one carrying a response): the call it answers.
    pub answers: Option<CallLink>,
    /// The model's reasoning (shown collapsed).
    pub reasoning: Option<String>,
    /// Why generation stopped, e.g. `stop`, `length`, `tool_calls`.
    pub finish_reason: Option<String>,
    /// Prompt tokens of the model call.
    pub prompt_tokens: Option<i64>,
    /// Completion tokens of the model call.
    pub completion_tokens: Option<i64>,
}

impl Turn {
    /// The text blocks of the content, joined by newlines.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|block| match block {
                ContentBlock::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        texts.join("\n")
    }

    /// Whether this is the model's turn.
    pub fn is_assistant(&self) -> bool {
        self.role == Role::Assistant
    }

    /// Whether this is a tool's result.
    pub fn is_tool_result(&self) -> bool {
        self.answers.is_some()
    }
}

/// Where a transcript comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum TranscriptOrigin {
    /// The trajectory has no step: it failed before its first model call. Nothing was read.
    NoSteps,
    /// Read from this step, the last one.
    LastStep {
        /// The step's index.
        step_index: i64,
        /// The reward logged at the step.
        reward: Option<f64>,
        /// Whether the step recorded an error.
        has_error: bool,
        /// Whether the API listed steps after it: the trajectory grew since its `num_steps`
        /// was read (still running), so this is the conversation up to that step.
        more_steps_after: bool,
    },
}

/// Sums of the token counts recorded on a transcript's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenTotals {
    /// Prompt tokens, over the messages that record them.
    pub prompt: i64,
    /// Completion tokens, over the messages that record them.
    pub completion: i64,
    /// Messages with a recorded count.
    pub counted_messages: usize,
}

/// A trajectory's transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    /// The trajectory.
    pub trajectory_id: String,
    /// Its `num_steps` as given when reading.
    pub num_steps: u64,
    /// Where the turns come from.
    pub origin: TranscriptOrigin,
    /// Its messages, in order.
    pub turns: Vec<Turn>,
}

impl Transcript {
    /// The transcript of a trajectory with no step: it failed before its first model call.
    pub fn no_steps(trajectory_id: &str) -> Self {
        Self {
            trajectory_id: trajectory_id.to_owned(),
            num_steps: 0,
            origin: TranscriptOrigin::NoSteps,
            turns: Vec::new(),
        }
    }

    /// The transcript held by a trajectory's last step.
    pub fn from_last_step(
        trajectory_id: &str,
        num_steps: u64,
        step: &Step,
        more_steps_after: bool,
    ) -> Self {
        Self {
            trajectory_id: trajectory_id.to_owned(),
            num_steps,
            origin: TranscriptOrigin::LastStep {
                step_index: step.step_index,
                reward: step.reward,
                has_error: step.has_error,
                more_steps_after,
            },
            turns: turns_of(&step.messages),
        }
    }

    /// Whether the trajectory failed before its first model call (it has no step).
    pub fn failed_before_first_call(&self) -> bool {
        self.origin == TranscriptOrigin::NoSteps
    }

    /// The model's turns.
    pub fn assistant_turns(&self) -> impl Iterator<Item = &Turn> {
        self.turns.iter().filter(|turn| turn.is_assistant())
    }

    /// Token counts summed over the messages.
    pub fn token_totals(&self) -> TokenTotals {
        let mut totals = TokenTotals::default();
        for turn in &self.turns {
            if turn.prompt_tokens.is_some() || turn.completion_tokens.is_some() {
                totals.counted_messages += 1;
            }
            totals.prompt = totals
                .prompt
                .saturating_add(turn.prompt_tokens.unwrap_or(0));
            totals.completion = totals
                .completion
                .saturating_add(turn.completion_tokens.unwrap_or(0));
        }
        totals
    }
}

/// The turns of these messages, tool results linked to their calls (see [`CallLink`]).
pub fn turns_of(messages: &[Message]) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::with_capacity(messages.len());
    // The latest assistant turn, and which of its calls a result answered.
    let mut latest: Option<(usize, Vec<bool>)> = None;
    for (index, message) in messages.iter().enumerate() {
        let mut turn = turn_of(index, message);
        if turn.is_assistant() {
            latest = Some((index, vec![false; turn.tool_calls.calls.len()]));
        } else if turn.role == Role::Tool || turn.tool_response.is_some() {
            let call_id = turn
                .tool_response
                .as_ref()
                .and_then(|response| response.call_id.as_deref());
            let found = link(&turns, call_id, latest.as_mut());
            turn.answers = Some(found);
        }
        turns.push(turn);
    }
    turns
}

fn link(
    turns: &[Turn],
    call_id: Option<&str>,
    latest: Option<&mut (usize, Vec<bool>)>,
) -> CallLink {
    let by_id = call_id.and_then(|id| {
        turns.iter().rev().find_map(|turn| {
            let call = turn
                .tool_calls
                .calls
                .iter()
                .position(|call| call.id.as_deref() == Some(id))?;
            Some((turn.index, call))
        })
    });
    let Some((latest_turn, answered)) = latest else {
        return by_id.map_or(CallLink::Unlinked, |(turn, call)| CallLink::ById {
            turn,
            call,
        });
    };
    if let Some((turn, call)) = by_id {
        if turn == *latest_turn {
            if let Some(slot) = answered.get_mut(call) {
                *slot = true;
            }
        }
        return CallLink::ById { turn, call };
    }
    match answered.iter().position(|done| !done) {
        Some(call) => {
            answered[call] = true;
            CallLink::ByPosition {
                turn: *latest_turn,
                call,
            }
        }
        None => CallLink::Unlinked,
    }
}

fn turn_of(index: usize, message: &Message) -> Turn {
    Turn {
        index,
        message_id: message.message_id,
        role: Role::of(message.role.as_deref()),
        content: message.content.as_ref().map_or_else(Vec::new, blocks_of),
        tool_calls: message
            .tool_calls
            .as_deref()
            .map(ToolCalls::parse)
            .unwrap_or_default(),
        tool_response: message.tool_response.as_deref().map(ToolResponse::parse),
        answers: None,
        reasoning: message.reasoning.clone(),
        finish_reason: message.finish_reason.clone(),
        prompt_tokens: message.prompt_tokens,
        completion_tokens: message.completion_tokens,
    }
}

fn blocks_of(content: &MessageContent) -> Vec<ContentBlock> {
    match content {
        MessageContent::Text(text) => vec![ContentBlock::Text(text.clone())],
        MessageContent::Parts(parts) => parts
            .iter()
            .map(|part| match part {
                ContentPart::Text { text } => ContentBlock::Text(text.clone()),
                ContentPart::Image { artifact_id } => ContentBlock::Image {
                    artifact_id: artifact_id.clone(),
                },
                ContentPart::Other(value) => ContentBlock::Other {
                    kind: value
                        .get("type")
                        .and_then(serde_json::Value::as_str)
                        .map(str::to_owned),
                    json: value.to_string(),
                },
                ContentPart::Unreadable { problem, value } => ContentBlock::Unreadable {
                    problem: problem.clone(),
                    json: value.to_string(),
                },
            })
            .collect(),
    }
}
