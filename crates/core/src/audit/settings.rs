//! Benchmark version, task selection, sampling and limit settings.

use crate::model::{Effective, RunOptions};

use super::{Finding, Pair, Severity};

pub(super) fn check(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    benchmark(pair, findings);
    selection(pair, findings);
    sampling(pair, findings);
    limits(pair, findings);
}

fn benchmark(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    let (base, cand) = (pair.base.1.info(), pair.cand.1.info());
    match (base.bench_id.as_deref(), cand.bench_id.as_deref()) {
        (Some(b), Some(c)) if b != c => findings.push(pair.finding(
            Severity::Blocking,
            "BENCHMARK_VERSION_DIFFERS",
            format!(
                "Benchmark version differs: {} ran {b}, {} ran {c} — tasks and graders may differ, so scores are not comparable.",
                pair.base_name(),
                pair.cand_name()
            ),
        )),
        (Some(_), Some(_)) => {}
        _ => findings.push(pair.finding(
            Severity::Caution,
            "BENCHMARK_VERSION_UNKNOWN",
            format!(
                "Benchmark version is not recorded for {}: cannot confirm both ran the same tasks and grader.",
                unknown_side(pair, base.bench_id.is_none(), cand.bench_id.is_none())
            ),
        )),
    }
}

fn selection(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    let (base, cand) = (pair.base.1.info(), pair.cand.1.info());
    let (b_name, c_name) = (pair.base_name(), pair.cand_name());
    let (Some(b), Some(c)) = (&base.task_selection, &cand.task_selection) else {
        if base.task_selection.is_some() || cand.task_selection.is_some() {
            findings.push(pair.finding(
                Severity::Info,
                "TASK_SELECTION_UNKNOWN",
                format!(
                    "Task selection is not recorded for {}: only the tasks actually present can be compared.",
                    unknown_side(pair, base.task_selection.is_none(), cand.task_selection.is_none())
                ),
            ));
        }
        return;
    };
    if b.split != c.split {
        findings.push(pair.finding(
            Severity::Blocking,
            "SPLIT_DIFFERS",
            format!(
                "Task split differs: {b_name} ran `{}`, {c_name} `{}` — different task populations.",
                b.split, c.split
            ),
        ));
    }
    if b.available != c.available {
        findings.push(pair.finding(
            Severity::Caution,
            "AVAILABLE_TASKS_DIFFER",
            format!(
                "Tasks in scope at launch differ: {b_name} {}, {c_name} {} — the benchmark changed between launches.",
                b.available, c.available
            ),
        ));
    }
    if b.max_samples != c.max_samples {
        findings.push(pair.finding(
            Severity::Caution,
            "TASK_CAP_DIFFERS",
            format!(
                "Task cap differs: {b_name} {}, {c_name} {} — a capped run scores a subset of tasks.",
                or_all(b.max_samples),
                or_all(c.max_samples)
            ),
        ));
    }
    if b.selected != c.selected {
        findings.push(pair.finding(
            Severity::Caution,
            "SELECTED_TASKS_DIFFER",
            format!(
                "Tasks selected differ: {b_name} {}, {c_name} {} — only tasks both ran are paired.",
                b.selected, c.selected
            ),
        ));
    }
}

fn sampling(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    let base = pair.base.1.info().options.effective();
    let cand = pair.cand.1.info().options.effective();
    const WHY: &str = "sampling settings change scores independently of the model.";
    differs(
        pair,
        findings,
        "TEMPERATURE_DIFFERS",
        "Temperature",
        &base.temperature,
        &cand.temperature,
        WHY,
    );
    differs(
        pair,
        findings,
        "TOP_P_DIFFERS",
        "top_p",
        &base.top_p,
        &cand.top_p,
        WHY,
    );
    differs(
        pair,
        findings,
        "TOP_K_DIFFERS",
        "top_k",
        &base.top_k,
        &cand.top_k,
        WHY,
    );
    differs(
        pair,
        findings,
        "REASONING_EFFORT_DIFFERS",
        "Reasoning effort",
        &base.reasoning_effort,
        &cand.reasoning_effort,
        "more or less thinking changes scores independently of the model.",
    );
}

/// Recorded limits and evaluation settings that change what an attempt can achieve.
fn limits(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    let base = &pair.base.1.info().options;
    let cand = &pair.cand.1.info().options;
    let inherited = pair.base.1.info().checkpoint.is_checkpoint()
        || pair.cand.1.info().checkpoint.is_checkpoint();
    let limit = |value: Option<i64>| recorded(value, inherited);
    type Field = (
        &'static str,
        &'static str,
        fn(&RunOptions) -> Option<i64>,
        &'static str,
    );
    let fields: [Field; 5] = [
        (
            "SAMPLES_PER_TASK_DIFFERS",
            "Samples per task",
            |o| o.samples_per_task,
            "per-task means have different precision, and pass@k needs k samples.",
        ),
        (
            "MAX_OUTPUT_TOKENS_PER_STEP_DIFFERS",
            "Max output tokens per step",
            |o| o.max_output_tokens_per_step,
            "a tighter budget cuts replies off.",
        ),
        (
            "MAX_TOTAL_TOKENS_DIFFERS",
            "Max total tokens per trajectory",
            |o| o.max_total_tokens_per_trajectory,
            "a tighter budget ends attempts early (LIMIT_REACHED, scored 0).",
        ),
        (
            "MAX_TURNS_DIFFERS",
            "Max turns per trajectory",
            |o| o.max_turns_per_trajectory,
            "fewer turns leave long tasks unfinished.",
        ),
        (
            "EXECUTION_TIMEOUT_DIFFERS",
            "Execution timeout (s)",
            |o| o.execution_timeout_seconds,
            "a shorter limit stops slow attempts.",
        ),
    ];
    for (code, label, read, why) in fields {
        let (b, c) = (read(base), read(cand));
        if b != c {
            findings.push(pair.finding(
                Severity::Caution,
                code,
                format!(
                    "{label} differs: {} {}, {} {} — {why}",
                    pair.base_name(),
                    limit(b),
                    pair.cand_name(),
                    limit(c)
                ),
            ));
        }
    }
    if base.evaluation_collection_timeout_seconds != cand.evaluation_collection_timeout_seconds {
        findings.push(pair.finding(
            Severity::Caution,
            "COLLECTION_TIMEOUT_DIFFERS",
            format!(
                "Evaluation collection timeout (s) differs: {} {}, {} {} — a shorter wait leaves more attempts unfinished.",
                pair.base_name(),
                recorded(base.evaluation_collection_timeout_seconds, false),
                pair.cand_name(),
                recorded(cand.evaluation_collection_timeout_seconds, false)
            ),
        ));
    }
}

fn differs<T: PartialEq + Shown>(
    pair: &Pair<'_>,
    findings: &mut Vec<Finding>,
    code: &str,
    label: &str,
    base: &Effective<T>,
    cand: &Effective<T>,
    why: &str,
) {
    if base.value() == cand.value() {
        return;
    }
    findings.push(pair.finding(
        Severity::Caution,
        code,
        format!(
            "{label} differs: {} {}, {} {} — {why}",
            pair.base_name(),
            effective(base),
            pair.cand_name(),
            effective(cand)
        ),
    ));
}

/// A setting's effective value as shown.
fn effective<T: Shown>(value: &Effective<T>) -> String {
    match value {
        Effective::EvaluationOverride(value) | Effective::RunSetting(value) => value.shown(),
        Effective::Default => "not recorded (default)".to_owned(),
    }
}

fn recorded<T: Shown>(value: Option<T>, maybe_inherited: bool) -> String {
    match value {
        Some(value) => value.shown(),
        None if maybe_inherited => {
            "not recorded (default, or inherited from the training run)".to_owned()
        }
        None => "not recorded (default)".to_owned(),
    }
}

fn or_all(cap: Option<u64>) -> String {
    cap.map_or_else(|| "none (all tasks)".to_owned(), |cap| cap.to_string())
}

fn unknown_side(pair: &Pair<'_>, base_unknown: bool, cand_unknown: bool) -> String {
    match (base_unknown, cand_unknown) {
        (true, true) => format!("{} and {}", pair.base_name(), pair.cand_name()),
        (true, false) => pair.base_name().to_owned(),
        _ => pair.cand_name().to_owned(),
    }
}

/// A setting's value as shown in a message.
trait Shown {
    fn shown(&self) -> String;
}

impl Shown for f64 {
    /// Whole numbers keep one decimal (`1.0`, not `1`) so they read as the float they are.
    fn shown(&self) -> String {
        if !self.is_finite() {
            "not a finite number".to_owned()
        } else if self.fract() == 0.0 && self.abs() < 1e15 {
            format!("{self:.1}")
        } else {
            self.to_string()
        }
    }
}

impl Shown for i64 {
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl Shown for String {
    fn shown(&self) -> String {
        self.clone()
    }
}
