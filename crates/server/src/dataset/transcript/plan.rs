//! What the agent does at each turn: the task's shared exploration script, then the attempt's
//! own fix, and the ending its outcome dictates.

use serde_json::{json, Value};

use super::repo::{Fix, Repo};
use super::{Policy, TranscriptSource};
use crate::dataset::catalog::HIDDEN_TESTS;
use crate::dataset::outcome::{Ending, FailureNote};
use crate::dataset::rng::{label, SplitMix64};

/// Bytes of the very long tool output a few attempts produce.
pub const LONG_OUTPUT_BYTES: usize = 200_000;

/// One tool call and the output the tool returns at the next step.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// Function name.
    pub name: &'static str,
    /// Arguments (sent as JSON text).
    pub arguments: Value,
    /// What the tool prints.
    pub output: String,
}

/// The model's reply at one turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// Reasoning text.
    pub reasoning: Option<String>,
    /// Visible text.
    pub content: Option<String>,
    /// Tool calls, in order.
    pub calls: Vec<Call>,
    /// `tool_calls`, `stop` or `length`.
    pub finish_reason: &'static str,
}

/// A turn as planned: the reply (none when the model call failed) and whether it failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// The reply.
    pub reply: Option<Reply>,
    /// Whether the step records an error (once the attempt has finished).
    pub error: bool,
}

/// Exploration actions of the shared script, after the first look at the repository.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Explore {
    OpenSource,
    RunFailing,
    OpenTest,
    Search,
}

/// How many turns every attempt at the task shares (1 to 3): checkpoints start their own work
/// at this turn, base models one turn later.
pub fn shared_turns(script_seed: u64) -> u32 {
    1 + SplitMix64::stream(script_seed, &[label("shared-turns")]).between(0, 2)
}

/// The first turn that is the attempt's own.
pub fn own_turns_from(source: &TranscriptSource<'_>) -> u32 {
    shared_turns(source.script_seed) + u32::from(source.policy == Policy::Base)
}

/// Whether the attempt runs the whole suite verbosely at its second-to-last turn, printing
/// about [`LONG_OUTPUT_BYTES`] (a few attempts, long enough to have started their fix).
pub fn has_long_output(source: &TranscriptSource<'_>) -> bool {
    source.outcome.num_steps >= own_turns_from(source) + 3
        && SplitMix64::stream(source.seed, &[label("long-output")]).between(0, 127) == 0
}

/// The task's exploration order after turn 0.
fn script_order(script_seed: u64) -> [Explore; 4] {
    let mut order = [
        Explore::OpenSource,
        Explore::RunFailing,
        Explore::OpenTest,
        Explore::Search,
    ];
    SplitMix64::stream(script_seed, &[label("script-order")]).shuffle(&mut order);
    order
}

fn call(name: &'static str, arguments: Value, output: String) -> Call {
    Call {
        name,
        arguments,
        output,
    }
}

fn tools(reasoning: String, content: Option<String>, calls: Vec<Call>) -> Reply {
    Reply {
        reasoning: Some(reasoning),
        content,
        calls,
        finish_reason: "tool_calls",
    }
}

fn explore(repo: &Repo<'_>, action: Explore, rng: &mut SplitMix64) -> Call {
    match action {
        Explore::OpenSource => call(
            "open_file",
            json!({"path": repo.source_path()}),
            repo.source_listing(),
        ),
        Explore::OpenTest => call(
            "open_file",
            json!({"path": repo.test_path()}),
            repo.test_listing(),
        ),
        Explore::RunFailing => call(
            "run_tests",
            json!({"path": repo.failing_test()}),
            repo.failing_run(rng),
        ),
        Explore::Search => call(
            "search",
            json!({"pattern": repo.search_pattern(), "path": "src"}),
            repo.search_output(),
        ),
    }
}

fn explore_reasoning(repo: &Repo<'_>, action: Explore) -> String {
    let m = repo.module();
    match action {
        Explore::OpenSource => {
            format!("Read the implementation of `{m}` before guessing at the cause.")
        }
        Explore::OpenTest => "Check what the failing test expects exactly.".into(),
        Explore::RunFailing => "Reproduce the failure before changing anything.".into(),
        Explore::Search => format!("Find where the suspicious line is used in `{m}`."),
    }
}

/// Turn `index` of the task's shared script (the same in every attempt).
fn script_turn(source: &TranscriptSource<'_>, repo: &Repo<'_>, index: u32) -> Reply {
    let mut rng = SplitMix64::stream(source.script_seed, &[label("script"), u64::from(index)]);
    if index == 0 {
        return tools(
            "Start with the repository layout to find the module and its tests.".into(),
            Some(format!(
                "I'll look at the repository first, then reproduce `{}`.",
                repo.failing_test()
            )),
            vec![call("list_files", json!({"path": "."}), repo.listing())],
        );
    }
    let order = script_order(source.script_seed);
    let action = order[(index as usize - 1) % order.len()];
    tools(
        explore_reasoning(repo, action),
        None,
        vec![explore(repo, action, &mut rng)],
    )
}

/// The change the attempt writes, following its grade: the right one when every hidden test
/// passed, a weakened test from a checkpoint on a task that regresses with training, else a
/// wrong one; ungraded attempts draw one.
pub fn fix_of(source: &TranscriptSource<'_>) -> Fix {
    match source.outcome.grade {
        Some(grade) if grade.tests_passed == HIDDEN_TESTS => Fix::Right,
        Some(_) if source.policy == Policy::Checkpoint && source.task.trainability < 0.0 => {
            Fix::WeakenTest
        }
        Some(_) => Fix::Wrong,
        None if SplitMix64::stream(source.seed, &[label("fix")]).chance(0.5) => Fix::Right,
        None => Fix::Wrong,
    }
}

fn edit(repo: &Repo<'_>, fix: Fix, find: String, replace: String) -> Call {
    let path = repo.edited_path(fix);
    let lines = replace.lines().count();
    call(
        "edit_file",
        json!({"path": path, "find": find, "replace": replace}),
        format!(
            "Edited {path}: 1 hunk, -{} +{lines} lines.",
            find.lines().count()
        ),
    )
}

fn edit_reasoning(repo: &Repo<'_>, fix: Fix, policy: Policy, rng: &mut SplitMix64) -> String {
    let line = repo.buggy_line();
    let buggy = repo.buggy().trim();
    match (fix, policy) {
        (Fix::Right, Policy::Checkpoint) => format!("Line {line} is the bug: `{buggy}`. Fix it directly."),
        (Fix::Right, Policy::Base) => format!(
            "The failure comes from line {line}, `{buggy}`: {}. Replacing that line should fix the failing case without changing the API.",
            ["it mishandles the edge case the test uses", "it does not cover the input in the failing test"][rng.index(2)]
        ),
        (Fix::Wrong, _) => format!(
            "Line {line}, `{buggy}`, looks suspicious; {}",
            ["adjusting it should be enough.", "a small change there may cover the failing input.", "I'll try the smallest change first."][rng.index(3)]
        ),
        (Fix::WeakenTest, _) => format!(
            "`{}` fails on an edge case that looks environment-dependent; skipping it unblocks the suite.",
            repo.failing_test()
        ),
    }
}

/// Turn `k` of the attempt's own work (from 0), at transcript turn `index`.
fn own_turn(source: &TranscriptSource<'_>, repo: &Repo<'_>, k: u32, index: u32) -> Reply {
    let mut rng = SplitMix64::stream(source.seed, &[label("own"), u64::from(index)]);
    let fix = fix_of(source);
    let passes = fix != Fix::Wrong;
    match k {
        0 => tools(
            edit_reasoning(repo, fix, source.policy, &mut rng),
            None,
            vec![edit(repo, fix, repo.replaced(fix), repo.replacement(fix))],
        ),
        1 => tools(
            "Run the failing test again.".into(),
            None,
            vec![call(
                "run_tests",
                json!({"path": repo.failing_test()}),
                repo.run_after(fix, &mut rng),
            )],
        ),
        _ if passes => match (k - 2) % 3 {
            0 => tools(
                "The test passes; review the diff and lint the change.".into(),
                None,
                vec![
                    call("git_diff", json!({}), repo.diff(fix)),
                    call(
                        "run_lint",
                        json!({"path": repo.edited_path(fix)}),
                        repo.lint_output(fix),
                    ),
                ],
            ),
            1 => tools(
                "Run the whole suite to check nothing else broke.".into(),
                None,
                vec![call(
                    "run_tests",
                    json!({"path": "tests", "args": ["-q"]}),
                    repo.run_after(fix, &mut rng),
                )],
            ),
            _ => tools(
                "Re-read the patched function once more.".into(),
                None,
                vec![call(
                    "open_file",
                    json!({"path": repo.edited_path(fix), "start_line": repo.buggy_line().saturating_sub(2).max(1)}),
                    repo.source_listing(),
                )],
            ),
        },
        _ => match (k - 2) % 3 {
            0 => {
                let action =
                    [Explore::OpenSource, Explore::OpenTest, Explore::Search][rng.index(3)];
                tools(
                    format!("Still failing. {}", explore_reasoning(repo, action)),
                    None,
                    vec![explore(repo, action, &mut rng)],
                )
            }
            1 => {
                let variant = |v: u32| match v {
                    0 => repo.replacement(Fix::Wrong),
                    v => format!("{}  # retry {v}", repo.replacement(Fix::Wrong)),
                };
                let v = k / 3;
                tools(
                    "Try another variant of the change on the same line.".into(),
                    Some(format!("Adjusting line {} again.", repo.buggy_line())),
                    vec![edit(repo, Fix::Wrong, variant(v - 1), variant(v))],
                )
            }
            _ => tools(
                "Check whether the new variant fixes it.".into(),
                None,
                vec![call(
                    "run_tests",
                    json!({"path": repo.failing_test()}),
                    repo.run_after(Fix::Wrong, &mut rng),
                )],
            ),
        },
    }
}

/// A regular turn: shared or the attempt's own.
fn regular_turn(source: &TranscriptSource<'_>, repo: &Repo<'_>, index: u32) -> Reply {
    let own_from = own_turns_from(source);
    if index < own_from {
        script_turn(source, repo, index)
    } else {
        own_turn(source, repo, index - own_from, index)
    }
}

fn submit(repo: &Repo<'_>, fix: Fix) -> Reply {
    let reasoning = match fix {
        Fix::Wrong => "This should address the failing input; submitting the patch.",
        _ => "The tests pass; submitting the patch.",
    };
    tools(
        reasoning.into(),
        None,
        vec![call(
            "submit",
            json!({"patch": repo.diff(fix)}),
            "Patch received.".into(),
        )],
    )
}

fn text(content: String, finish_reason: &'static str) -> Reply {
    Reply {
        reasoning: None,
        content: Some(content),
        calls: Vec::new(),
        finish_reason,
    }
}

/// The final turn, as the attempt's ending dictates.
fn final_turn(source: &TranscriptSource<'_>, repo: &Repo<'_>, index: u32) -> Planned {
    let fix = fix_of(source);
    let ok = |reply| Planned {
        reply: Some(reply),
        error: false,
    };
    let failed = |reply| Planned { reply, error: true };
    match source.outcome.ending {
        Ending::EnvDone | Ending::BudgetExhausted => ok(submit(repo, fix)),
        Ending::MissingSubmit => ok(text(
            format!(
                "I could not make `{}` pass: every change to line {} leaves the failure in place. I am stopping here without a patch.",
                repo.failing_test(),
                repo.buggy_line()
            ),
            "stop",
        )),
        Ending::Truncation | Ending::LimitReached => ok(text(
            format!(
                "Summary of the investigation so far. The failing assertion in `{}` compares the result of `{}` with the expected value; the loop that builds the result starts at the line `{}`, and the edge case of the test is exactly the input where",
                repo.failing_test(),
                repo.module(),
                repo.buggy().trim()
            ),
            "length",
        )),
        Ending::Error => {
            let model_failed = source
                .outcome
                .failure
                .as_deref()
                .is_some_and(FailureNote::is_model_call);
            if model_failed {
                failed(None)
            } else {
                failed(Some(submit(repo, fix)))
            }
        }
        Ending::Stale | Ending::SandboxTimeout => failed(Some(tools(
            "Run the whole suite before submitting.".into(),
            None,
            vec![call(
                "run_tests",
                json!({"path": "tests"}),
                String::new(),
            )],
        ))),
        Ending::Timeout | Ending::MaxSteps | Ending::Cancelled => ok(regular_turn(source, repo, index)),
    }
}

/// Turn `index` of the attempt.
pub fn turn(source: &TranscriptSource<'_>, repo: &Repo<'_>, index: u32) -> Planned {
    let n = source.outcome.num_steps;
    if index + 1 == n {
        return final_turn(source, repo, index);
    }
    if index + 2 == n && has_long_output(source) {
        let mut rng = SplitMix64::stream(source.seed, &[label("long-output"), u64::from(index)]);
        return Planned {
            reply: Some(tools(
                "Run the whole suite verbosely with debug logging before submitting.".into(),
                None,
                vec![call(
                    "run_tests",
                    json!({"path": "tests", "args": ["-vv", "--log-level=DEBUG"]}),
                    repo.verbose_suite_run(fix_of(source), LONG_OUTPUT_BYTES, &mut rng),
                )],
            )),
            error: false,
        };
    }
    Planned {
        reply: Some(regular_turn(source, repo, index)),
        error: false,
    }
}
