//! Transcripts for the transcript views' tests, built from steps as the API sends them.
#![allow(dead_code)]

use eval_compare_core::api::Step;
use eval_compare_core::transcript::Transcript;
use serde_json::{json, Value};

/// The transcript held by a last step (step `num_steps - 1`) with these messages.
pub fn transcript(id: &str, num_steps: u64, reward: f64, messages: Value) -> Transcript {
    let step: Step = serde_json::from_value(json!({
        "step_index": num_steps - 1,
        "reward": reward,
        "has_error": false,
        "messages": messages,
    }))
    .expect("a valid step");
    Transcript::from_last_step(id, num_steps, &step, false)
}

/// An assistant message calling `tool` with `args`, saying `text`.
pub fn call(message_id: i64, text: &str, call_id: &str, tool: &str, args: Value) -> Value {
    json!({
        "message_id": message_id,
        "role": "assistant",
        "content": text,
        "tool_calls": json!([{ "id": call_id, "type": "function",
            "function": { "name": tool, "arguments": args.to_string() } }]).to_string(),
        "finish_reason": "tool_calls",
        "prompt_tokens": 1200,
        "completion_tokens": 35,
    })
}

/// A tool's result answering `call_id`.
pub fn result(message_id: i64, call_id: &str, output: &str) -> Value {
    json!({
        "message_id": message_id,
        "role": "tool",
        "tool_response": json!({ "tool_call_id": call_id, "content": output }).to_string(),
    })
}

/// The baseline's attempt: reads the file, fixes it, answers.
pub fn baseline() -> Transcript {
    transcript(
        "trj_base_0",
        4,
        1.0,
        json!([
            { "message_id": 1, "role": "system", "content": "You are a careful coder." },
            { "message_id": 2, "role": "user", "content": "Fix the failing test in parser.rs." },
            call(3, "Let me read the file.", "c1", "read_file", json!({ "path": "parser.rs" })),
            result(4, "c1", "fn parse() {}"),
            call(5, "Now I patch it.", "c2", "apply_patch", json!({ "diff": "+ok" })),
            result(6, "c2", "patched"),
            { "message_id": 7, "role": "assistant", "content": "Done: the test passes.",
              "finish_reason": "stop", "reasoning": "The parser skipped the last token." },
        ]),
    )
}

/// The candidate's attempt: reads the same file, then runs the tests instead of patching.
pub fn candidate() -> Transcript {
    transcript(
        "trj_cand_1",
        3,
        0.0,
        json!([
            { "message_id": 1, "role": "system", "content": "You are a careful coder." },
            { "message_id": 2, "role": "user", "content": "Fix the failing test in parser.rs." },
            call(3, "Let me read the file.", "c1", "read_file", json!({ "path": "parser.rs" })),
            result(4, "c1", "fn parse() {}"),
            call(5, "Now I patch it.", "c2", "run_tests", json!({ "filter": "parser" })),
            result(6, "c2", "1 failed"),
            { "message_id": 7, "role": "assistant", "content": "I could not fix it.",
              "finish_reason": "stop" },
        ]),
    )
}

/// A transcript whose every field is hostile: markup, script, control characters, 1 MB.
pub fn hostile() -> Transcript {
    let huge = "<b>x</b>".repeat(131_072);
    transcript(
        "trj_hostile",
        1,
        0.0,
        json!([
            { "message_id": 1, "role": "user",
              "content": "<script>window.__pwned = 1</script><img src=x onerror=alert(1)>\u{0}\u{1b}[31m\u{202e}" },
            { "message_id": 2, "role": "assistant",
              "content": [
                  { "type": "text", "text": huge },
                  { "type": "image", "artifact_id": "<img src=https://evil.example/x.png>" }
              ],
              "reasoning": "<iframe src=javascript:alert(1)></iframe>",
              "tool_calls": json!([{ "id": "<i>c</i>", "function":
                  { "name": "<script>x</script>", "arguments": "{\"html\":\"<a href=javascript:1>y</a>\"}" } }]).to_string() },
        ]),
    )
}
