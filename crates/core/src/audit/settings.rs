//! Benchmark version, task selection, and the effective sampling and limit settings (see
//! `model::RunInfo::effective_settings`): a difference names where each side's value came from.

use crate::model::{Resolution, RunInfo, SettingKey};
use crate::text::setting_shown;

use super::{Finding, Pair, Severity};

pub(super) fn check(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    benchmark(pair, findings);
    selection(pair, findings);
    effective(pair, findings);
}

fn benchmark(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    let (base, cand) = (pair.base.1.info(), pair.cand.1.info());
    pair.recorded_alike(
        findings,
        (base.bench_id.as_deref(), cand.bench_id.as_deref()),
        |b, c| {
            pair.differs(
                (Severity::Blocking, "BENCHMARK_VERSION_DIFFERS"),
                "Benchmark version differs",
                (format!("ran {b}"), format!("ran {c}")),
                "tasks and graders may differ, so scores are not comparable.",
            )
        },
        |runs| {
            Some(pair.finding(
                Severity::Caution,
                "BENCHMARK_VERSION_UNKNOWN",
                format!("Benchmark version is not recorded for {runs}: cannot confirm both ran the same tasks and grader."),
            ))
        },
    );
}

fn selection(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    let (base, cand) = (pair.base.1.info(), pair.cand.1.info());
    let (Some(b), Some(c)) = (&base.task_selection, &cand.task_selection) else {
        if base.task_selection.is_some() || cand.task_selection.is_some() {
            findings.push(pair.finding(
                Severity::Info,
                "TASK_SELECTION_UNKNOWN",
                format!(
                    "Task selection is not recorded for {}: only the tasks actually present can be compared.",
                    pair.unrecorded(base.task_selection.is_none(), cand.task_selection.is_none())
                ),
            ));
        }
        return;
    };
    if b.split != c.split {
        findings.push(pair.differs(
            (Severity::Blocking, "SPLIT_DIFFERS"),
            "Task split differs",
            (format!("ran `{}`", b.split), format!("`{}`", c.split)),
            "different task populations.",
        ));
    }
    if b.available != c.available {
        findings.push(pair.differs(
            (Severity::Caution, "AVAILABLE_TASKS_DIFFER"),
            "Tasks in scope at launch differ",
            (b.available.to_string(), c.available.to_string()),
            "the benchmark changed between launches.",
        ));
    }
    if b.max_samples != c.max_samples {
        findings.push(pair.differs(
            (Severity::Caution, "TASK_CAP_DIFFERS"),
            "Task cap differs",
            (or_all(b.max_samples), or_all(c.max_samples)),
            "a capped run scores a subset of tasks.",
        ));
    }
    if b.selected != c.selected {
        findings.push(pair.differs(
            (Severity::Caution, "SELECTED_TASKS_DIFFER"),
            "Tasks selected differ",
            (b.selected.to_string(), c.selected.to_string()),
            "only tasks both ran are paired.",
        ));
    }
}

/// Every sampling and limit setting, compared on its effective value (recorded, else inherited
/// from the training run, else the evaluation default), each side named with its provenance.
/// Settings that could not be resolved are listed in one finding per pair.
fn effective(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    let (base_info, cand_info) = (pair.base.1.info(), pair.cand.1.info());
    let (base, cand) = (
        base_info.effective_settings(),
        cand_info.effective_settings(),
    );
    let mut unresolved: Vec<(SettingKey, bool)> = Vec::new();
    for (b, c) in base.iter().zip(&cand) {
        match (b.resolution.value(), c.resolution.value()) {
            (Some(bv), Some(cv)) if bv != cv => {
                let (code, why) = differs_code(b.setting);
                findings.push(pair.differs(
                    (Severity::Caution, code),
                    &format!("{} differs", b.setting.label()),
                    (setting_shown(&b.resolution), setting_shown(&c.resolution)),
                    why,
                ));
            }
            (Some(_), Some(_)) => {}
            (None, None) if same_defaults(base_info, cand_info) => {}
            (bv, cv) => unresolved.push((b.setting, bv.is_some() || cv.is_some())),
        }
    }
    if unresolved.is_empty() {
        return;
    }
    // A value known on one side only cannot be matched: that weakens the comparison.
    let one_sided = unresolved.iter().any(|&(_, known)| known);
    let reasons = |settings: &[crate::model::EffectiveSetting]| -> Vec<String> {
        let mut reasons: Vec<String> = Vec::new();
        for setting in settings {
            if !unresolved.iter().any(|&(key, _)| key == setting.setting) {
                continue;
            }
            if let Resolution::Unresolved { reason } = &setting.resolution {
                if !reasons.contains(reason) {
                    reasons.push(reason.clone());
                }
            }
        }
        reasons
    };
    let mut sides = Vec::new();
    for (name, settings) in [(pair.base_name(), &base), (pair.cand_name(), &cand)] {
        let names: Vec<&str> = settings
            .iter()
            .filter(|s| {
                s.resolution.value().is_none()
                    && unresolved.iter().any(|&(key, _)| key == s.setting)
            })
            .map(|s| s.setting.label())
            .collect();
        if !names.is_empty() {
            sides.push(format!(
                "{name}: {} ({})",
                names.join(", "),
                reasons(settings).join("; ")
            ));
        }
    }
    findings.push(pair.finding(
        if one_sided {
            Severity::Caution
        } else {
            Severity::Info
        },
        "SETTINGS_UNRESOLVED",
        format!(
            "Settings that could not be resolved, so their effective values cannot be compared — {}.",
            sides.join("; ")
        ),
    ));
}

/// Whether two runs that resolved nothing for a setting got the same default anyway: both
/// base-model runs of one model on one benchmark version.
fn same_defaults(base: &RunInfo, cand: &RunInfo) -> bool {
    !base.checkpoint.is_checkpoint()
        && !cand.checkpoint.is_checkpoint()
        && base.base_model.is_some()
        && base.base_model == cand.base_model
        && base.bench_id.is_some()
        && base.bench_id == cand.bench_id
}

/// The stable code of a setting that differs, and why it matters.
fn differs_code(setting: SettingKey) -> (&'static str, &'static str) {
    const SAMPLING: &str = "sampling settings change scores independently of the model.";
    match setting {
        SettingKey::Temperature => ("TEMPERATURE_DIFFERS", SAMPLING),
        SettingKey::TopP => ("TOP_P_DIFFERS", SAMPLING),
        SettingKey::TopK => ("TOP_K_DIFFERS", SAMPLING),
        SettingKey::ReasoningEffort => (
            "REASONING_EFFORT_DIFFERS",
            "more or less thinking changes scores independently of the model.",
        ),
        SettingKey::SamplesPerTask => (
            "SAMPLES_PER_TASK_DIFFERS",
            "per-task means have different precision, and pass@k needs k samples.",
        ),
        SettingKey::MaxOutputTokensPerStep => (
            "MAX_OUTPUT_TOKENS_PER_STEP_DIFFERS",
            "a tighter budget cuts replies off.",
        ),
        SettingKey::MaxTotalTokensPerTrajectory => (
            "MAX_TOTAL_TOKENS_DIFFERS",
            "a tighter budget ends attempts early (LIMIT_REACHED, scored 0).",
        ),
        SettingKey::MaxTurnsPerTrajectory => (
            "MAX_TURNS_DIFFERS",
            "fewer turns leave long tasks unfinished.",
        ),
        SettingKey::ExecutionTimeoutSeconds => (
            "EXECUTION_TIMEOUT_DIFFERS",
            "a shorter limit stops slow attempts.",
        ),
        SettingKey::CollectionTimeoutSeconds => (
            "COLLECTION_TIMEOUT_DIFFERS",
            "a shorter wait leaves more attempts unfinished.",
        ),
    }
}

fn or_all(cap: Option<u64>) -> String {
    cap.map_or_else(|| "none (all tasks)".to_owned(), |cap| cap.to_string())
}
