//! A scorecard from run folders ([`ScorecardFolders`], shared by `eval-compare scorecard
//! --folders` and the viewer's Files page): which training runs the folders offer, the plan
//! (the training run named or the only one), what is refused, and each pair's run set, equal
//! to the one the page builds a step at a time.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::sync::Arc;

use eval_compare_core::model::SourceKind;
use eval_compare_core::report::ReportSettings;
use eval_compare_core::run_folder::{Folder, FolderSetBuild, PackedFolder};
use eval_compare_core::scorecard::{
    build_scorecard, pair_report, plan_scorecard, FolderOffer, FoldersError, Rule, ScorecardFolders,
};
use eval_compare_core::testing::bodies::{chronicle_job_body, reward_item, trajectory_item};

const TASKS: usize = 24;

/// A run folder: `step` and `training` make it a checkpoint evaluation, else a base-model one.
fn folder(
    id: &str,
    bench: &str,
    step: Option<(&str, i64)>,
    status: &str,
    lift: f64,
) -> PackedFolder {
    let mut run = serde_json::json!({
        "eval_run_id": id, "bench_id": bench, "agent_id": "a_1",
        "base_model_slug": "org/model", "options": {"temperature": 0.7},
        "status": status, "created_at": "2026-10-01T00:00:00Z",
        "updated_at": "2026-10-01T00:00:00Z",
    });
    if let Some((training, step)) = step {
        run["training_run_id"] = training.into();
        run["step"] = step.into();
    }
    let rewards: Vec<String> = (0..TASKS)
        .map(|i| {
            let base = 0.2 + 0.6 * ((i * 7 % 11) as f64 / 11.0);
            let noise = 0.1 * (((i * 5 + id.len()) % 3) as f64 - 1.0);
            reward_item(
                &format!("{id}_t{i}"),
                &format!("task{i}"),
                (base + lift + noise).clamp(0.0, 1.0),
            )
        })
        .collect();
    let trajectories: Vec<String> = (0..TASKS)
        .map(|i| trajectory_item(&format!("{id}_t{i}"), &format!("task{i}")))
        .collect();
    let files: BTreeMap<&str, Vec<u8>> = [
        ("run.json", run.to_string().into_bytes()),
        (
            "trajectory-rewards.json",
            format!("[{}]", rewards.join(",")).into_bytes(),
        ),
        (
            "trajectories.json",
            format!("[{}]", trajectories.join(",")).into_bytes(),
        ),
    ]
    .into_iter()
    .collect();
    Folder::read_as(|name| files.get(name).map(Vec::as_slice)).unwrap()
}

/// Training run `t1` at steps 100 and 200 on `alpha` and `beta` (beta at 200 not evaluated),
/// `alpha`'s base-model evaluation (none of `beta`), and `t2` at step 50 on `alpha`.
fn folders() -> Vec<(String, Arc<PackedFolder>)> {
    [
        folder("a_base", "alpha", None, "completed", 0.0),
        folder("a_100", "alpha", Some(("t1", 100)), "completed", 0.05),
        folder("a_200", "alpha", Some(("t1", 200)), "completed", 0.15),
        folder("b_100", "beta", Some(("t1", 100)), "completed", 0.0),
        folder("t2_a_50", "alpha", Some(("t2", 50)), "completed", 0.0),
    ]
    .into_iter()
    .map(|folder| {
        let name = folder.run_ids()[0].clone();
        (format!("runs/{name}"), Arc::new(folder))
    })
    .collect()
}

#[test]
fn each_training_run_is_offered_with_what_it_would_compare() {
    let folders = ScorecardFolders::new(folders()).unwrap();
    assert_eq!(folders.training_runs(), ["t1", "t2"]);
    assert_eq!(
        folders.offers(),
        [
            FolderOffer {
                training_run_id: "t1".into(),
                benches: 2,
                steps: 2,
                comparisons: 2,
                without_baseline: vec!["beta".into()],
            },
            FolderOffer {
                training_run_id: "t2".into(),
                benches: 1,
                steps: 1,
                comparisons: 1,
                without_baseline: Vec::new(),
            },
        ]
    );
}

#[test]
fn the_plan_is_the_named_training_runs_or_the_only_one() {
    let all = ScorecardFolders::new(folders()).unwrap();
    let none = BTreeMap::new();
    assert_eq!(
        all.plan(None, &none),
        Err(FoldersError::SeveralTrainingRuns(vec![
            "t1".into(),
            "t2".into()
        ]))
    );
    let plan = all.plan(Some("t1"), &none).unwrap();
    assert_eq!(plan, plan_scorecard("t1", all.listed(), &none));
    assert_eq!(plan.steps, [100, 200]);
    assert_eq!(
        all.plan(Some("t9"), &none),
        Err(FoldersError::NoCheckpointOf("t9".into()))
    );
    let one = ScorecardFolders::new(folders().into_iter().take(4)).unwrap();
    assert_eq!(one.plan(None, &none).unwrap(), plan);
    let bases = ScorecardFolders::new(folders().into_iter().take(1)).unwrap();
    assert_eq!(bases.plan(None, &none), Err(FoldersError::NoCheckpoint));
    assert!(bases.offers().is_empty());
}

#[test]
fn a_job_folder_and_a_run_given_twice_are_refused_by_name() {
    let job = Folder::read_as(|name| match name {
        "job.json" => Some(Box::leak(
            chronicle_job_body("job_1", "completed", &["a@1"], 0, 0)
                .into_bytes()
                .into_boxed_slice(),
        ) as &[u8]),
        "trials.json" => Some(b"[]".as_slice()),
        _ => None,
    })
    .unwrap();
    let mut with_job = folders();
    with_job.push(("jobs/job_1".into(), Arc::new(job)));
    let refused = ScorecardFolders::new(with_job).unwrap_err();
    assert_eq!(
        refused,
        FoldersError::ChronicleFolder {
            folder: "jobs/job_1".into()
        }
    );
    assert!(refused.to_string().contains("Chronicle job's folder"));
    let mut twice = folders();
    twice.push(("copy/a_100".into(), Arc::clone(&twice[1].1)));
    assert_eq!(
        ScorecardFolders::new(twice).unwrap_err().to_string(),
        "run a_100 is in two folders (runs/a_100 and copy/a_100)"
    );
}

#[test]
fn a_baseline_chosen_by_hand_and_not_open_is_missing_and_its_cells_fail() {
    let folders = ScorecardFolders::new(folders()).unwrap();
    let by_hand: BTreeMap<String, String> = [("beta".into(), "b_base_elsewhere".into())].into();
    let plan = folders.plan(Some("t1"), &by_hand).unwrap();
    assert_eq!(folders.missing(&plan), ["b_base_elsewhere"]);
    assert_eq!(
        folders.pair_set("b_base_elsewhere", "b_100").unwrap_err(),
        "no run folder holds run b_base_elsewhere"
    );
    let automatic = folders.plan(Some("t1"), &BTreeMap::new()).unwrap();
    assert!(folders.missing(&automatic).is_empty());
}

#[test]
fn a_pairs_set_is_the_one_the_page_builds_a_step_at_a_time() {
    let folders = ScorecardFolders::new(folders()).unwrap();
    let settings = ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    };
    let plan = folders.plan(Some("t1"), &BTreeMap::new()).unwrap();
    for pair in plan.pairs() {
        let whole = folders.pair_set(&pair.baseline, &pair.candidate).unwrap();
        let [base, cand] = folders
            .pair_folders(&pair.baseline, &pair.candidate)
            .unwrap();
        let mut steps =
            FolderSetBuild::new(vec![Arc::clone(base), Arc::clone(cand)], SourceKind::Files);
        let stepped = loop {
            if let Some(built) = steps.advance(5) {
                break built.unwrap();
            }
        };
        assert_eq!(
            pair_report(&whole, &settings).unwrap().to_json(),
            pair_report(&stepped, &settings).unwrap().to_json()
        );
    }
    let card = build_scorecard(plan, &settings, &Rule::default(), |b, c| {
        folders.pair_set(b, c)
    });
    assert_eq!(card.training_run_id, "t1");
    assert!(card.to_json().contains("\"candidate_run_id\": \"a_200\""));
}

#[test]
fn a_run_is_in_the_same_folder_only_when_opened_once() {
    let opened = folders();
    let before = ScorecardFolders::new(opened.clone()).unwrap();
    let mut more = opened;
    more.push((
        "runs/b_base".into(),
        Arc::new(folder("b_base", "beta", None, "completed", 0.0)),
    ));
    // The same run opened again: an equal folder, but another opening.
    more[1].1 = Arc::new(folder(
        "a_100",
        "alpha",
        Some(("t1", 100)),
        "completed",
        0.05,
    ));
    let after = ScorecardFolders::new(more).unwrap();
    assert!(after.same_folder(&before, "a_base"));
    assert!(!after.same_folder(&before, "a_100"));
    assert!(!after.same_folder(&before, "b_base"));
    assert!(!after.same_folder(&before, "nowhere"));
}
