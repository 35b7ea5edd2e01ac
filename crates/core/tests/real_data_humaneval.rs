//! HumanEval, 10 samples per task (shared/real-data): counts and per-task passes against
//! `per_sample.csv`, read independently here.

#![allow(clippy::unwrap_used)]

mod real_data_common;

use std::collections::BTreeMap;

use eval_compare_core::audit::{audit, Severity};
use eval_compare_core::coverage::coverage;
use eval_compare_core::model::{Analysis, OutcomeClass, RunSet};
use eval_compare_core::run_folder::run_set_from_folders;
use real_data_common::{load_folder, Table};

const RUNS: [&str; 3] = ["codellama-34b-instruct", "gpt-3.5-turbo", "gpt-4"];

fn load() -> RunSet {
    let folders: Vec<_> = RUNS
        .iter()
        .map(|run| load_folder("humaneval-10x", run))
        .collect();
    run_set_from_folders(&folders, eval_compare_core::model::SourceKind::Files).unwrap()
}

/// (system, task) → (samples, passes) from per_sample.csv.
fn passes() -> BTreeMap<(String, String), (u32, u32)> {
    let table = Table::read("humaneval-10x/per_sample.csv");
    let (system, task, result) = (
        table.column("system"),
        table.column("task_id"),
        table.column("result"),
    );
    let mut counts: BTreeMap<(String, String), (u32, u32)> = BTreeMap::new();
    for row in &table.rows {
        let entry = counts
            .entry((row[system].clone(), row[task].clone()))
            .or_default();
        entry.0 += 1;
        if row[result] == "Pass" {
            entry.1 += 1;
        }
    }
    counts
}

#[test]
fn every_run_has_ten_graded_binary_samples_per_task() {
    let set = load();
    assert_eq!(set.tasks().len(), 164);
    for name in RUNS {
        let run = set
            .run(set.find_run(&format!("er_{name}")).unwrap())
            .unwrap();
        let totals = run.totals();
        assert_eq!(totals.trajectories, 1640, "{name}");
        assert_eq!(totals.by_class.graded, 1640, "{name}");
        assert_eq!(totals.included, 1640, "{name}");
        assert_eq!((totals.tasks_attempted, totals.tasks_scored), (164, 164));
        assert!(totals.binary, "{name}");
        assert!(run.task_stats().iter().all(|stats| stats.samples() == 10));
        assert!(run.trajectories().all(|t| t.class == OutcomeClass::Graded));
    }
}

#[test]
fn task_means_match_the_readme_and_the_platform() {
    let set = load();
    let readme = [
        ("codellama-34b-instruct", 0.451),
        ("gpt-3.5-turbo", 0.770),
        ("gpt-4", 0.848),
    ];
    for (name, pooled) in readme {
        let run = set
            .run(set.find_run(&format!("er_{name}")).unwrap())
            .unwrap();
        let mean = run.totals().task_mean.unwrap();
        assert!((mean - pooled).abs() < 5e-4, "{name}: {mean}");
        // Ten samples on every task: the task mean equals the platform's pooled mean.
        assert!(
            (mean - run.info().platform_reward_mean.unwrap()).abs() < 1e-12,
            "{name}"
        );
    }
}

#[test]
fn paired_passes_and_variances_match_per_sample_csv() {
    let set = load();
    let csv = passes();
    let base = set.find_run("er_gpt-3.5-turbo").unwrap();
    let cand = set.find_run("er_gpt-4").unwrap();
    let paired = set.paired(base, cand, Analysis::Primary).unwrap();
    assert_eq!(paired.len(), 164);
    assert!(paired.left_out.is_empty());
    assert!(paired.base_binary && paired.cand_binary);
    assert!(
        paired.cluster.iter().all(Option::is_none),
        "HumanEval tasks have no category"
    );
    for i in 0..paired.len() {
        let task = &set.task(paired.task_idx[i]).unwrap().id;
        for (system, k, passes, mean, variance) in [
            (
                "gpt-3.5-turbo",
                paired.base_k[i],
                paired.base_passes[i],
                paired.base[i],
                paired.base_var[i],
            ),
            (
                "gpt-4",
                paired.cand_k[i],
                paired.cand_passes[i],
                paired.cand[i],
                paired.cand_var[i],
            ),
        ] {
            let (n, c) = csv[&(system.to_owned(), task.clone())];
            assert_eq!((k, passes), (n, c), "{system} {task}");
            assert!((mean - f64::from(c) / f64::from(n)).abs() < 1e-12);
            // Sample variance of c ones and n − c zeros: c(n − c) / (n(n − 1)).
            let expected = f64::from(c * (n - c)) / f64::from(n * (n - 1));
            assert!(
                (variance.unwrap() - expected).abs() < 1e-12,
                "{system} {task}"
            );
        }
    }
    // Sensitivity equals primary when nothing failed.
    let sensitivity = set.paired(base, cand, Analysis::Sensitivity).unwrap();
    assert_eq!(sensitivity.base, paired.base);
    assert_eq!(sensitivity.cand, paired.cand);
}

#[test]
fn coverage_is_clean_and_the_audit_only_notes_the_models() {
    let set = load();
    let base = set.find_run("er_gpt-3.5-turbo").unwrap();
    let others: Vec<_> = ["er_gpt-4", "er_codellama-34b-instruct"]
        .iter()
        .map(|id| set.find_run(id).unwrap())
        .collect();
    let ledger = coverage(&set, base, &others).unwrap();
    assert!(ledger.warnings.is_empty(), "{:?}", ledger.warnings);
    assert!(ledger.partial_tasks.is_empty());
    assert!(ledger.comparisons.iter().all(|pair| pair.paired == 164));

    let report = audit(&set, base, &others).unwrap();
    assert_eq!(report.verdict, Severity::Caution);
    let codes: Vec<&str> = report.findings.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "SETTINGS_UNRESOLVED",
            "BASE_MODEL_DIFFERS",
            "SETTINGS_UNRESOLVED",
            "BASE_MODEL_DIFFERS"
        ]
    );
    // Temperature and samples per task are recorded alike; the rest is unknown on both sides
    // (run folders hold no evaluation defaults), which is worth knowing, no more.
    let unresolved = &report.findings[0];
    assert_eq!(unresolved.severity, Severity::Info);
    assert!(
        !unresolved.message.contains("Temperature") && unresolved.message.contains("top_p"),
        "{}",
        unresolved.message
    );
}
