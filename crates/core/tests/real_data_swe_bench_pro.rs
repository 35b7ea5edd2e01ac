//! SWE-bench Pro run folders (shared/real-data): counts against the README and against
//! `per_instance.csv`, read independently here.

#![allow(clippy::unwrap_used)]

mod real_data_common;

use std::collections::{BTreeMap, BTreeSet};

use eval_compare_core::audit::{audit, Severity};
use eval_compare_core::coverage::coverage;
use eval_compare_core::model::{Analysis, OutcomeClass, RunIdx, RunSet};
use eval_compare_core::run_folder::run_set_from_folders;
use real_data_common::{load_folder, Table};

const RUNS: [&str; 4] = [
    "claude-45sonnet-10132025",
    "gpt-5-250-turns-10132025",
    "kimi-k2-instruct-10132025",
    "claude-4sonnet-10132025",
];

fn load() -> RunSet {
    let folders: Vec<_> = RUNS
        .iter()
        .map(|run| load_folder("swe-bench-pro", run))
        .collect();
    run_set_from_folders(&folders, eval_compare_core::model::SourceKind::Files).unwrap()
}

/// One row of per_instance.csv.
struct Instance {
    task: String,
    repo: String,
    reason: String,
    reward: Option<f64>,
}

/// per_instance.csv by system.
fn instances() -> BTreeMap<String, Vec<Instance>> {
    let table = Table::read("swe-bench-pro/per_instance.csv");
    let (system, task, repo, reason, reward) = (
        table.column("system"),
        table.column("task_id"),
        table.column("repo"),
        table.column("termination_reason"),
        table.column("reward"),
    );
    let mut by_system: BTreeMap<String, Vec<Instance>> = BTreeMap::new();
    for row in &table.rows {
        by_system
            .entry(row[system].clone())
            .or_default()
            .push(Instance {
                task: row[task].clone(),
                repo: row[repo].clone(),
                reason: row[reason].clone(),
                reward: (!row[reward].is_empty()).then(|| row[reward].parse().unwrap()),
            });
    }
    by_system
}

fn index(set: &RunSet, name: &str) -> RunIdx {
    set.find_run(&format!("er_{name}")).unwrap()
}

#[test]
fn trajectory_counts_match_the_readme() {
    let set = load();
    // README: trajectories and ENV_DONE / ERROR / MISSING_SUBMIT per run.
    let expected = [
        ("claude-45sonnet-10132025", 730, 718, 9, 3),
        ("gpt-5-250-turns-10132025", 730, 623, 53, 54),
        ("kimi-k2-instruct-10132025", 729, 729, 0, 0),
        ("claude-4sonnet-10132025", 562, 562, 0, 0),
    ];
    for (name, total, env_done, error, missing_submit) in expected {
        let run = set.run(index(&set, name)).unwrap();
        let totals = run.totals();
        assert_eq!(totals.trajectories, total, "{name}");
        let by_class = totals.by_class;
        assert_eq!(by_class.graded + by_class.ungraded, env_done, "{name}");
        assert_eq!(by_class.ungraded, 0, "{name}: every ENV_DONE is graded");
        assert_eq!(by_class.failed, error, "{name}");
        assert_eq!(by_class.model_ending, missing_submit, "{name}");
        assert_eq!(by_class.total(), total, "{name}: nothing else");
        let join = run.join().unwrap();
        assert!(join.is_clean(), "{name}: {join:?}");
        // ERROR trajectories have no reward item; everything else does.
        assert_eq!(join.metadata_without_reward, u64::from(error), "{name}");
        assert_eq!(join.matched, total - u64::from(error), "{name}");
        assert_eq!(totals.without_task, 0);
        assert!(totals.binary, "{name}: resolved or not");
    }
}

#[test]
fn rewards_and_endings_match_per_instance_csv() {
    let set = load();
    let csv = instances();
    for name in RUNS {
        let rows = &csv[name];
        let run = set.run(index(&set, name)).unwrap();
        assert_eq!(run.trajectory_count(), rows.len(), "{name}");
        for row in rows {
            let task = set.find_task(&row.task).unwrap();
            let trajectories: Vec<_> = run.trajectories_of_task(task).collect();
            assert_eq!(trajectories.len(), 1, "{name} {}", row.task);
            let trajectory = trajectories[0];
            assert_eq!(
                trajectory.ending,
                Some(row.reason.as_str()),
                "{name} {}",
                row.task
            );
            assert_eq!(trajectory.reward, row.reward, "{name} {}", row.task);
            let expected_class = match row.reason.as_str() {
                "ENV_DONE" => OutcomeClass::Graded,
                "ERROR" => OutcomeClass::Failed,
                "MISSING_SUBMIT" => OutcomeClass::ModelEnding,
                other => panic!("unexpected {other}"),
            };
            assert_eq!(trajectory.class, expected_class);
        }
    }
}

#[test]
fn task_means_match_the_platform_readme_and_csv() {
    let set = load();
    let csv = instances();
    // README pooled means (one sample per task: pooled = per-task mean).
    let readme = [
        ("claude-45sonnet-10132025", 0.4424),
        ("gpt-5-250-turns-10132025", 0.3914),
        ("kimi-k2-instruct-10132025", 0.2771),
        ("claude-4sonnet-10132025", 0.4270),
    ];
    for (name, pooled) in readme {
        let run = set.run(index(&set, name)).unwrap();
        let mean = run.totals().task_mean.unwrap();
        assert!(
            (mean - pooled).abs() < 5e-5,
            "{name}: {mean} vs README {pooled}"
        );
        let platform = run.info().platform_reward_mean.unwrap();
        assert!(
            (mean - platform).abs() < 1e-12,
            "{name}: {mean} vs reward_mean {platform}"
        );
        let rewards: Vec<f64> = csv[name].iter().filter_map(|row| row.reward).collect();
        let from_csv = rewards.iter().sum::<f64>() / rewards.len() as f64;
        assert!((mean - from_csv).abs() < 1e-12, "{name}");
    }
}

#[test]
fn pairing_claude_45_against_claude_4() {
    let set = load();
    let csv = instances();
    let base = index(&set, "claude-45sonnet-10132025");
    let cand = index(&set, "claude-4sonnet-10132025");
    let scored = |name: &str| -> BTreeMap<&str, f64> {
        csv[name]
            .iter()
            .filter_map(|row| row.reward.map(|reward| (row.task.as_str(), reward)))
            .collect()
    };
    let attempted =
        |name: &str| -> BTreeSet<&str> { csv[name].iter().map(|row| row.task.as_str()).collect() };
    let (base_scored, cand_scored) = (
        scored("claude-45sonnet-10132025"),
        scored("claude-4sonnet-10132025"),
    );
    let paired_tasks: BTreeSet<&str> = base_scored
        .keys()
        .filter(|task| cand_scored.contains_key(*task))
        .copied()
        .collect();
    let union: BTreeSet<&str> = attempted("claude-45sonnet-10132025")
        .union(&attempted("claude-4sonnet-10132025"))
        .copied()
        .collect();

    let paired = set.paired(base, cand, Analysis::Primary).unwrap();
    assert_eq!(paired.len(), paired_tasks.len());
    assert_eq!(set.paired_count(base, cand).unwrap(), paired_tasks.len());
    assert_eq!(paired.left_out.len(), union.len() - paired_tasks.len());
    let repo_of: BTreeMap<&str, &str> = csv["claude-45sonnet-10132025"]
        .iter()
        .map(|row| (row.task.as_str(), row.repo.as_str()))
        .collect();
    for i in 0..paired.len() {
        let task = set.task(paired.task_idx[i]).unwrap();
        let id = task.id.as_str();
        assert_eq!(paired.base[i], base_scored[id]);
        assert_eq!(paired.cand[i], cand_scored[id]);
        assert_eq!((paired.base_k[i], paired.cand_k[i]), (1, 1));
        assert_eq!((paired.base_var[i], paired.cand_var[i]), (None, None));
        let cluster = paired.cluster[i].unwrap();
        assert_eq!(
            set.categories()[cluster as usize].label,
            repo_of[id],
            "{id}"
        );
    }
    assert!(paired.base_binary && paired.cand_binary);

    let sensitivity = set.paired(base, cand, Analysis::Sensitivity).unwrap();
    assert_eq!(sensitivity.len(), union.len());
    let expected_base_sum: f64 = base_scored.values().sum();
    assert!((sensitivity.base.iter().sum::<f64>() - expected_base_sum).abs() < 1e-9);
    let absent = sensitivity.cand_k.iter().filter(|&&k| k == 0).count();
    assert_eq!(
        absent,
        union.len() - attempted("claude-4sonnet-10132025").len()
    );
}

#[test]
fn coverage_and_audit_of_the_four_runs() {
    let set = load();
    let base = index(&set, "claude-45sonnet-10132025");
    let gpt5 = index(&set, "gpt-5-250-turns-10132025");
    let kimi = index(&set, "kimi-k2-instruct-10132025");
    let claude4 = index(&set, "claude-4sonnet-10132025");
    let candidates = [gpt5, kimi, claude4];

    let ledger = coverage(&set, base, &candidates).unwrap();
    assert_eq!(ledger.listed_tasks, 730);
    assert_eq!(ledger.union_tasks, 730);
    let rows: Vec<(u64, u64, u64)> = ledger
        .runs
        .iter()
        .map(|run| (run.tasks_attempted, run.tasks_scored, run.tasks_absent))
        .collect();
    assert_eq!(
        rows,
        [(730, 721, 0), (730, 677, 0), (729, 729, 1), (562, 562, 168)]
    );
    assert!(ledger
        .runs
        .iter()
        .all(|run| run.tasks_selected == Some(731)));
    let claude4_pair = ledger
        .comparisons
        .iter()
        .find(|pair| pair.candidate == claude4)
        .unwrap();
    assert_eq!(claude4_pair.only_in_baseline.len(), 168);
    assert_eq!(claude4_pair.unscored_in_baseline, 9);
    let gpt5_pair = ledger
        .comparisons
        .iter()
        .find(|pair| pair.candidate == gpt5)
        .unwrap();
    // 9 of 730 unscored against 53 of 730.
    assert_eq!(
        (
            gpt5_pair.failure_rates.base_unscored,
            gpt5_pair.failure_rates.cand_unscored
        ),
        (9, 53)
    );
    assert!(gpt5_pair.failure_rates.flagged);
    let codes: Vec<&str> = ledger.warnings.iter().map(|w| w.code.as_str()).collect();
    assert!(codes.contains(&"FAILURE_RATES_DIFFER"));
    assert!(codes.contains(&"TASKS_NOT_ATTEMPTED"));
    // MISSING_SUBMIT carries a published 0 here: graded zeros, not zeros by rule.
    assert!(!codes.contains(&"SCORED_ZERO_WITHOUT_GRADE"), "{codes:?}");

    let report = audit(&set, base, &candidates).unwrap();
    assert_eq!(report.verdict, Severity::Caution, "{:?}", report.findings);
    let has = |code: &str, run: RunIdx| {
        report
            .findings
            .iter()
            .any(|finding| finding.code == code && finding.runs.contains(&run))
    };
    for candidate in candidates {
        assert!(has("BASE_MODEL_DIFFERS", candidate));
    }
    // Run folders hold no evaluation defaults: a setting recorded on one side only cannot be
    // resolved on the other, so it is named as unresolved (a caution), not as a difference.
    let unresolved = |run: RunIdx| {
        report
            .findings
            .iter()
            .find(|f| f.code == "SETTINGS_UNRESOLVED" && f.runs.contains(&run))
            .map(|f| (f.severity, f.message.clone()))
            .unwrap()
    };
    let (severity, message) = unresolved(gpt5);
    assert_eq!(severity, Severity::Caution);
    assert!(message.contains("Reasoning effort"), "{message}");
    assert!(!has("REASONING_EFFORT_DIFFERS", gpt5));
    assert!(has("MAX_TURNS_DIFFERS", kimi));
    let (_, message) = unresolved(claude4);
    assert!(
        message.contains(": Temperature"),
        "1.0 against not recorded: {message}"
    );
    assert!(!has("TEMPERATURE_DIFFERS", claude4));
    assert!(!has("TEMPERATURE_DIFFERS", kimi));
    assert!(!has("TEMPERATURE_DIFFERS", gpt5), "both 1.0");
    assert!(has("TASK_SETS_DIFFER", claude4));
    assert!(!report
        .findings
        .iter()
        .any(|f| f.code == "BENCHMARK_VERSION_DIFFERS"));
}

/// The repositories are the categories: Δ per repository of claude-4 against claude-4.5 equals
/// the per-repository mean of the paired deltas read from `per_instance.csv`, each with
/// Tango's interval (one binary sample per task, fewer than 500 tasks), and the contributions
/// add up to the headline Δ.
#[test]
fn delta_per_repository_of_claude_4_against_claude_45() {
    use eval_compare_core::report::{build_report, IntervalMethod, ReportSettings};
    let set = load();
    let csv = instances();
    let base = index(&set, "claude-45sonnet-10132025");
    let cand = index(&set, "claude-4sonnet-10132025");
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let report = build_report(&set, base, &[cand], &settings).unwrap();
    let breakdown = report.candidates[0].by_category.as_ref().unwrap();

    let reward_of = |name: &str| -> BTreeMap<&str, (f64, &str)> {
        csv[name]
            .iter()
            .filter_map(|row| {
                row.reward
                    .map(|r| (row.task.as_str(), (r, row.repo.as_str())))
            })
            .collect()
    };
    let (b, c) = (
        reward_of("claude-45sonnet-10132025"),
        reward_of("claude-4sonnet-10132025"),
    );
    let mut by_repo: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for (task, (base_reward, repo)) in &b {
        if let Some((cand_reward, _)) = c.get(task) {
            let entry = by_repo.entry(repo).or_default();
            entry.0 += 1;
            entry.1 += cand_reward - base_reward;
        }
    }
    assert_eq!(breakdown.groups.len(), 11);
    assert_eq!(by_repo.len(), 11);
    for group in &breakdown.groups {
        let (n, sum) = by_repo[group.label.as_str()];
        assert_eq!(group.n, n, "{}", group.label);
        assert!(
            (group.delta - sum / n as f64).abs() < 1e-12,
            "{}",
            group.label
        );
        assert_eq!(group.interval_method, IntervalMethod::TangoScore);
        assert!(group.interval.is_ok(), "{}", group.label);
    }
    let delta = report.candidates[0]
        .primary
        .estimate
        .as_ref()
        .unwrap()
        .delta;
    let total: f64 = breakdown.groups.iter().map(|g| g.contribution).sum();
    assert!((total - delta).abs() < 1e-12);
    assert!(!breakdown.sentence.is_empty());
}
