//! Tool calls and tool results as recorded: the API keeps both as text (`Message.tool_calls`,
//! `Message.tool_response`), in whatever shape the harness wrote. This reads the shapes seen
//! in practice and keeps anything else as the text it is.
//!
//! Tool calls: a JSON array of calls or one call, each either OpenAI's
//! `{"id", "type": "function", "function": {"name", "arguments"}}`, the platform's `ToolCall`
//! `{"name", "arguments", "id"}` or `{"name", "input", "id"}` (Anthropic's `tool_use`); the
//! arguments a JSON string or a JSON value. Tool results: a JSON object with a call id (`id`,
//! `tool_call_id` or `tool_use_id`) and its output (`response`, `content`, `output` or
//! `result`) and/or `error`, else plain text.

use serde_json::Value;

/// The arguments of a tool call, kept as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolArguments {
    /// As recorded (a JSON value recorded as a value is written compactly).
    pub raw: String,
    /// Pretty-printed, when the text is valid JSON (object keys in their recorded order).
    pub pretty: Option<String>,
    /// The arguments compared between attempts: canonical JSON (keys sorted, no whitespace)
    /// when valid JSON, else the text trimmed.
    pub canonical: String,
}

impl ToolArguments {
    /// Arguments recorded as text (a JSON string holding JSON, or free text).
    pub fn from_text(raw: &str) -> Self {
        match serde_json::from_str::<Value>(raw) {
            Ok(value) => Self {
                raw: raw.to_owned(),
                pretty: serde_json::to_string_pretty(&value).ok(),
                canonical: canonical_json(&value),
            },
            Err(_) => Self {
                raw: raw.to_owned(),
                pretty: None,
                canonical: raw.trim().to_owned(),
            },
        }
    }

    /// Arguments recorded as a JSON value.
    pub fn from_value(value: &Value) -> Self {
        match value {
            Value::String(text) => Self::from_text(text),
            other => Self {
                raw: other.to_string(),
                pretty: serde_json::to_string_pretty(other).ok(),
                canonical: canonical_json(other),
            },
        }
    }

    /// What to show: the pretty-printed JSON, else the text as recorded.
    pub fn display(&self) -> &str {
        self.pretty.as_deref().unwrap_or(&self.raw)
    }
}

/// One tool call the model made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The call's id, when recorded (links its result).
    pub id: Option<String>,
    /// The tool's name, when recorded.
    pub name: Option<String>,
    /// Its arguments.
    pub arguments: ToolArguments,
}

/// The tool calls of a message, read from their text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolCalls {
    /// The calls read, in order.
    pub calls: Vec<ToolCall>,
    /// The whole text, when it is not in a shape read here (then `calls` is empty).
    pub unreadable: Option<String>,
}

impl ToolCalls {
    /// Reads the recorded text; blank text is no call.
    pub fn parse(text: &str) -> Self {
        if text.trim().is_empty() {
            return Self::default();
        }
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            return Self::unreadable(text);
        };
        let items = match value {
            Value::Array(items) => items,
            Value::Null => return Self::default(),
            object @ Value::Object(_) => vec![object],
            _ => return Self::unreadable(text),
        };
        let calls: Option<Vec<ToolCall>> = items.iter().map(call_of).collect();
        match calls {
            Some(calls) => Self {
                calls,
                unreadable: None,
            },
            None => Self::unreadable(text),
        }
    }

    fn unreadable(text: &str) -> Self {
        Self {
            calls: Vec::new(),
            unreadable: Some(text.to_owned()),
        }
    }

    /// Whether there is no call and nothing unreadable.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.unreadable.is_none()
    }
}

fn string_field<'a>(object: &'a serde_json::Map<String, Value>, names: &[&str]) -> Option<&'a str> {
    names
        .iter()
        .find_map(|name| object.get(*name).and_then(Value::as_str))
}

/// One call from its JSON; `None` when the item is not a call in a known shape.
fn call_of(item: &Value) -> Option<ToolCall> {
    let object = item.as_object()?;
    let id = string_field(object, &["id", "call_id", "tool_call_id"]).map(str::to_owned);
    let (name, arguments) = match object.get("function").and_then(Value::as_object) {
        Some(function) => (string_field(function, &["name"]), function.get("arguments")),
        None => (
            string_field(object, &["name"]),
            object.get("arguments").or_else(|| object.get("input")),
        ),
    };
    if name.is_none() && arguments.is_none() {
        return None;
    }
    Some(ToolCall {
        id,
        name: name.map(str::to_owned),
        arguments: arguments
            .map_or_else(|| ToolArguments::from_text(""), ToolArguments::from_value),
    })
}

/// A tool's result, read from `Message.tool_response`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResponse {
    /// The id of the call it answers, when recorded.
    pub call_id: Option<String>,
    /// The tool's name, when recorded.
    pub name: Option<String>,
    /// The output: a string as it is, any other JSON pretty-printed; the whole text when the
    /// response is not a structured one.
    pub output: Option<String>,
    /// The tool's error, when recorded.
    pub error: Option<String>,
}

impl ToolResponse {
    /// Reads the recorded text.
    pub fn parse(text: &str) -> Self {
        let plain = Self {
            call_id: None,
            name: None,
            output: Some(text.to_owned()),
            error: None,
        };
        let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) else {
            return plain;
        };
        let call_id = string_field(&object, &["id", "tool_call_id", "tool_use_id", "call_id"]);
        let output = ["response", "content", "output", "result"]
            .iter()
            .find_map(|name| object.get(*name));
        let error = object.get("error").filter(|error| !error.is_null());
        if call_id.is_none() || (output.is_none() && error.is_none()) {
            return plain;
        }
        Self {
            call_id: call_id.map(str::to_owned),
            name: string_field(&object, &["name"]).map(str::to_owned),
            output: output.filter(|value| !value.is_null()).map(value_text),
            error: error.map(value_text),
        }
    }
}

/// A JSON value as text: a string as it is, anything else pretty-printed.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_else(|_| other.to_string()),
    }
}

/// Compact JSON with every object's keys sorted, whatever order the map keeps them in.
pub(crate) fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(&mut out, value);
    out
}

fn write_canonical(out: &mut String, value: &Value) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        Value::Object(object) => {
            let mut entries: Vec<(&String, &Value)> = object.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(out, item);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_calls_are_read_with_their_string_arguments_pretty_printed() {
        let calls = ToolCalls::parse(
            r#"[{"id":"call_1","type":"function","function":{"name":"open_file","arguments":"{\"path\": \"a.py\", \"line\": 3}"}}]"#,
        );
        assert_eq!(calls.unreadable, None);
        let call = &calls.calls[0];
        assert_eq!(call.id.as_deref(), Some("call_1"));
        assert_eq!(call.name.as_deref(), Some("open_file"));
        assert_eq!(call.arguments.raw, r#"{"path": "a.py", "line": 3}"#);
        assert_eq!(call.arguments.canonical, r#"{"line":3,"path":"a.py"}"#);
        assert!(call.arguments.display().contains("\n  \"path\": \"a.py\""));
    }

    #[test]
    fn flat_and_anthropic_shapes_and_a_single_object_are_read() {
        let flat = ToolCalls::parse(r#"{"name":"run","arguments":{"b":1,"a":[true,null]}}"#);
        assert_eq!(flat.calls[0].name.as_deref(), Some("run"));
        assert_eq!(
            flat.calls[0].arguments.canonical,
            r#"{"a":[true,null],"b":1}"#
        );
        let tool_use =
            ToolCalls::parse(r#"[{"type":"tool_use","id":"tu_1","name":"ls","input":{}}]"#);
        assert_eq!(tool_use.calls[0].id.as_deref(), Some("tu_1"));
        assert_eq!(tool_use.calls[0].arguments.canonical, "{}");
    }

    #[test]
    fn text_in_no_known_shape_is_kept_whole() {
        for text in [
            "run_tests(path='x')",
            "[1, 2]",
            "\"just a string\"",
            "[{\"x\": 1}]",
        ] {
            let calls = ToolCalls::parse(text);
            assert!(calls.calls.is_empty(), "{text}");
            assert_eq!(calls.unreadable.as_deref(), Some(text));
        }
        assert!(ToolCalls::parse("  ").is_empty());
        assert!(ToolCalls::parse("null").is_empty());
        assert!(ToolCalls::parse("[]").is_empty());
    }

    #[test]
    fn arguments_that_are_not_json_are_compared_trimmed() {
        let arguments = ToolArguments::from_text("  ls -la \n");
        assert_eq!(arguments.pretty, None);
        assert_eq!(arguments.canonical, "ls -la");
        assert_eq!(arguments.display(), "  ls -la \n");
    }

    #[test]
    fn a_structured_response_names_its_call_and_plain_text_stays_text() {
        let response = ToolResponse::parse(
            r#"{"id":"call_1","name":"run","arguments":{},"response":{"passed":3},"error":null}"#,
        );
        assert_eq!(response.call_id.as_deref(), Some("call_1"));
        assert_eq!(response.name.as_deref(), Some("run"));
        assert_eq!(response.output.as_deref(), Some("{\n  \"passed\": 3\n}"));
        assert_eq!(response.error, None);
        let failed = ToolResponse::parse(r#"{"tool_call_id":"c2","error":"boom"}"#);
        assert_eq!(failed.error.as_deref(), Some("boom"));
        assert_eq!(failed.output, None);
        for text in ["3 passed", r#"{"passed": 3}"#, "[1]"] {
            let plain = ToolResponse::parse(text);
            assert_eq!(plain.call_id, None);
            assert_eq!(plain.output.as_deref(), Some(text));
        }
    }
}
