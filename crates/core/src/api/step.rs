//! Transcript steps and their messages.

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::page::Page;

/// One step of a trajectory (`Step`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Position of the step in the trajectory, from 0.
    pub step_index: i64,
    /// Reward logged at this step.
    #[serde(default)]
    pub reward: Option<f64>,
    /// Whether the step recorded an error.
    #[serde(default)]
    pub has_error: bool,
    /// Messages of the step.
    #[serde(default)]
    pub messages: Vec<Message>,
}

/// A page of steps (`/trajectories/{id}/steps`).
pub type StepPage = Page<Step>;

/// One message of a step (`Message`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Message id.
    pub message_id: i64,
    /// Role, e.g. `system`, `user`, `assistant`, `tool`.
    #[serde(default)]
    pub role: Option<String>,
    /// Text, or an ordered list of text and image parts.
    #[serde(default)]
    pub content: Option<MessageContent>,
    /// Tool calls, as recorded (serialized text).
    #[serde(default)]
    pub tool_calls: Option<String>,
    /// Tool response, as recorded.
    #[serde(default)]
    pub tool_response: Option<String>,
    /// Reasoning text.
    #[serde(default)]
    pub reasoning: Option<String>,
    /// Why generation stopped, e.g. `stop`, `length`.
    #[serde(default)]
    pub finish_reason: Option<String>,
    /// Prompt tokens.
    #[serde(default)]
    pub prompt_tokens: Option<i64>,
    /// Completion tokens.
    #[serde(default)]
    pub completion_tokens: Option<i64>,
}

/// Content of a message: plain text or a list of parts.
#[derive(Debug, Clone, PartialEq)]
pub enum MessageContent {
    /// Plain text.
    Text(String),
    /// Ordered text and image parts.
    Parts(Vec<ContentPart>),
}

impl MessageContent {
    /// The text of the content, with image parts and unknown parts left out.
    pub fn text(&self) -> String {
        match self {
            Self::Text(text) => text.clone(),
            Self::Parts(parts) => parts
                .iter()
                .filter_map(|part| match part {
                    ContentPart::Text { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

impl Serialize for MessageContent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Text(text) => serializer.serialize_str(text),
            Self::Parts(parts) => parts.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for MessageContent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MessageContentVisitor)
    }
}

struct MessageContentVisitor;

impl<'de> Visitor<'de> for MessageContentVisitor {
    type Value = MessageContent;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or a list of content parts")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<MessageContent, E> {
        Ok(MessageContent::Text(value.to_owned()))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<MessageContent, E> {
        Ok(MessageContent::Text(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MessageContent, A::Error> {
        let mut parts = Vec::new();
        while let Some(part) = seq.next_element::<ContentPart>()? {
            parts.push(part);
        }
        Ok(MessageContent::Parts(parts))
    }
}

/// One part of a message's content (`TextPart`, `ImagePart`, or a kind this build does not know).
#[derive(Debug, Clone, PartialEq)]
pub enum ContentPart {
    /// Text at this position.
    Text {
        /// The text.
        text: String,
    },
    /// An image artifact attached to the trajectory.
    Image {
        /// Artifact id; its read endpoint gives a download URL.
        artifact_id: String,
    },
    /// A part type this build does not know, kept as received.
    Other(serde_json::Value),
    /// A part that is not what its kind needs (not an object, a `type` that is not a string, a
    /// text part with no string `text`, an image part with no string `artifact_id`), kept as
    /// received beside why it cannot be read; the message's other parts are still read.
    Unreadable {
        /// Why it cannot be read, e.g. "a text part needs a string `text`".
        problem: String,
        /// The part as received.
        value: serde_json::Value,
    },
}

impl Serialize for ContentPart {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Text { text } => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", text)?;
                map.end()
            }
            Self::Image { artifact_id } => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "image")?;
                map.serialize_entry("artifact_id", artifact_id)?;
                map.end()
            }
            Self::Other(value) | Self::Unreadable { value, .. } => value.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ContentPart {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(match part_of(&value) {
            Ok(Some(part)) => part,
            Ok(None) => Self::Other(value),
            Err(problem) => Self::Unreadable { problem, value },
        })
    }
}

/// The text or image part a content part is (`None`: a kind this build does not know), or why
/// it cannot be read.
fn part_of(value: &serde_json::Value) -> Result<Option<ContentPart>, String> {
    let serde_json::Value::Object(object) = value else {
        return Err("a content part must be an object".to_owned());
    };
    let kind = match object.get("type") {
        None => None,
        Some(serde_json::Value::String(kind)) => Some(kind.as_str()),
        Some(_) => return Err("a content part's `type` must be a string".to_owned()),
    };
    let string_field = |name: &str| match object.get(name) {
        Some(serde_json::Value::String(text)) => Ok(text.clone()),
        _ => Err(match kind {
            Some("image") => format!("an image part needs a string `{name}`"),
            Some(kind) => format!("a {kind} part needs a string `{name}`"),
            None => format!("a content part needs a string `{name}`"),
        }),
    };
    let text = |text| ContentPart::Text { text };
    let image = |artifact_id| ContentPart::Image { artifact_id };
    match kind {
        Some("text") => string_field("text").map(text).map(Some),
        Some("image") => string_field("artifact_id").map(image).map(Some),
        None if object.contains_key("text") => string_field("text").map(text).map(Some),
        None if object.contains_key("artifact_id") => {
            string_field("artifact_id").map(image).map(Some)
        }
        _ => Ok(None),
    }
}
