//! Run folders from their contents: every list layout, errors naming file and path, export.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::EvalTrajectoryReward;
use eval_compare_core::model::{OutcomeClass, RunSetBuilder};
use eval_compare_core::run_folder::{
    parse_list, parse_run_folder, run_set_from_folders, ListLayout, RunFolderError, RunFolderFiles,
    REWARDS_FILE, RUN_FILE, TASKS_FILE, TRAJECTORIES_FILE,
};

const RUN: &str = r#"{
  "eval_run_id": "er_1", "bench_id": "b1", "agent_id": null, "display_name": "one",
  "options": {"temperature": 1.0}, "status": "completed",
  "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"
}"#;

const TRAJECTORIES: &str = r#"[
  {"trajectory_id": "t1", "organization_id": "o", "source": "eval", "created_at": "x",
   "task_id": "a", "termination_reason": "ENV_DONE", "status": "completed", "reward": 1.0},
  {"trajectory_id": "t2", "organization_id": "o", "source": "eval", "created_at": "x",
   "task_id": "b", "termination_reason": "ERROR", "status": "completed"}
]"#;

fn rewards(bytes: &str) -> Result<Vec<EvalTrajectoryReward>, RunFolderError> {
    parse_list::<EvalTrajectoryReward>(REWARDS_FILE, bytes.as_bytes()).map(|list| list.items)
}

fn ids(items: &[EvalTrajectoryReward]) -> Vec<&str> {
    items
        .iter()
        .map(|item| item.trajectory_id.as_str())
        .collect()
}

#[test]
fn a_plain_array_of_items() {
    let list = parse_list::<EvalTrajectoryReward>(
        REWARDS_FILE,
        br#"[{"trajectory_id": "t1", "reward": 1.0, "task_id": "a"}, {"trajectory_id": "t2", "reward": 0}]"#,
    )
    .unwrap();
    assert_eq!(list.layout, ListLayout::Items);
    assert!(!list.truncated);
    assert_eq!(ids(&list.items), ["t1", "t2"]);
    assert_eq!(list.items[1].task_id, None);
    assert!(rewards("[]").unwrap().is_empty());
}

#[test]
fn an_array_of_pages_and_a_truncated_one() {
    let text = r#"[
      {"eval_run_id": "er_1", "items": [{"trajectory_id": "t1", "reward": 1.0}], "next_cursor": "c", "has_more": true},
      {"eval_run_id": "er_1", "items": [{"trajectory_id": "t2", "reward": 0.0}], "next_cursor": null, "has_more": false}
    ]"#;
    let list = parse_list::<EvalTrajectoryReward>(REWARDS_FILE, text.as_bytes()).unwrap();
    assert_eq!(list.layout, ListLayout::PageArray);
    assert_eq!(ids(&list.items), ["t1", "t2"]);
    assert!(!list.truncated);

    let cut = r#"[{"items": [{"trajectory_id": "t1", "reward": 1.0}], "has_more": true}]"#;
    let list = parse_list::<EvalTrajectoryReward>(REWARDS_FILE, cut.as_bytes()).unwrap();
    assert!(list.truncated);
}

#[test]
fn json_lines_of_pages_of_items_and_pretty_objects_back_to_back() {
    let lines = "{\"items\": [{\"trajectory_id\": \"t1\", \"reward\": 1.0}], \"has_more\": true}\n\
                 \n\
                 {\"items\": [{\"trajectory_id\": \"t2\", \"reward\": 0.5}, {\"trajectory_id\": \"t3\", \"reward\": 0.0}], \"has_more\": false}\n";
    let list = parse_list::<EvalTrajectoryReward>(REWARDS_FILE, lines.as_bytes()).unwrap();
    assert_eq!(list.layout, ListLayout::PageLines);
    assert_eq!(ids(&list.items), ["t1", "t2", "t3"]);
    assert!(!list.truncated);

    let item_lines = "{\"trajectory_id\": \"t1\", \"reward\": 1.0}\r\n{\"trajectory_id\": \"t2\", \"reward\": 0.0}";
    let list = parse_list::<EvalTrajectoryReward>(REWARDS_FILE, item_lines.as_bytes()).unwrap();
    assert_eq!(list.layout, ListLayout::ItemLines);
    assert_eq!(ids(&list.items), ["t1", "t2"]);

    let pretty = "{\n  \"items\": [\n    {\"trajectory_id\": \"t1\", \"reward\": 1.0}\n  ],\n  \"has_more\": true\n}\n{\n  \"items\": [],\n  \"has_more\": true\n}\n";
    let list = parse_list::<EvalTrajectoryReward>(REWARDS_FILE, pretty.as_bytes()).unwrap();
    assert_eq!(list.layout, ListLayout::PageLines);
    assert_eq!(ids(&list.items), ["t1"]);
    assert!(list.truncated);

    let bom = "\u{feff}[{\"trajectory_id\": \"t1\", \"reward\": 1.0}]";
    assert_eq!(ids(&rewards(bom).unwrap()), ["t1"]);
}

#[test]
fn errors_name_the_file_the_line_and_the_json_path() {
    let error = rewards(
        r#"[{"trajectory_id": "t1", "reward": 1.0}, {"trajectory_id": "t2", "reward": "high"}]"#,
    )
    .unwrap_err();
    let RunFolderError::Decode { file, line, source } = &error else {
        panic!("{error:?}")
    };
    assert_eq!((file.as_str(), *line), (REWARDS_FILE, None));
    assert_eq!(source.path, "[1].reward");
    assert!(
        error.to_string().starts_with("trajectory-rewards.json: "),
        "{error}"
    );

    let pages = r#"[{"items": [{"trajectory_id": "t1"}], "has_more": false}]"#;
    let RunFolderError::Decode { source, .. } = rewards(pages).unwrap_err() else {
        panic!()
    };
    assert_eq!(source.path, "[0].items[0]");
    assert!(source.message.contains("reward"), "{}", source.message);

    let lines = "{\"items\": [], \"has_more\": true}\n{\"items\": [], \"has_more\": true}\n{\"items\": [{\"trajectory_id\": \"t9\", \"reward\": null}], \"has_more\": false}\n";
    let error = rewards(lines).unwrap_err();
    let RunFolderError::Decode { line, source, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(*line, Some(3));
    assert_eq!(source.path, "items[0].reward");
    assert!(
        error.to_string().contains("(value starting on line 3)"),
        "{error}"
    );

    let broken = "{\"items\": [], \"has_more\": false}\n{\"items\": [\n";
    let RunFolderError::Decode { line, .. } = rewards(broken).unwrap_err() else {
        panic!()
    };
    assert_eq!(line, Some(2));

    assert_eq!(
        rewards("  \n ").unwrap_err(),
        RunFolderError::Empty {
            file: REWARDS_FILE.to_owned()
        }
    );
    assert!(matches!(
        rewards("[1, 2"),
        Err(RunFolderError::Decode { .. })
    ));
    assert!(matches!(
        rewards("nonsense"),
        Err(RunFolderError::Decode { .. })
    ));
}

#[test]
fn a_folder_parses_round_trips_and_builds() {
    let rewards_text = r#"[{"trajectory_id": "t1", "reward": 1.0, "task_id": "a"}]"#;
    let tasks_text =
        r#"{"items": [{"task_id": "a", "label": "A"}, {"task_id": "b"}], "has_more": false}"#;
    let folder = parse_run_folder(RunFolderFiles {
        run: RUN.as_bytes(),
        rewards: rewards_text.as_bytes(),
        trajectories: TRAJECTORIES.as_bytes(),
        tasks: Some(tasks_text.as_bytes()),
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap();
    assert_eq!(folder.run.eval_run_id, "er_1");
    assert_eq!((folder.rewards.len(), folder.trajectories.len()), (1, 2));
    assert_eq!(folder.tasks.as_ref().map(Vec::len), Some(2));
    assert!(folder.truncated_files.is_empty());

    let files = folder.to_files().unwrap();
    let names: Vec<&str> = files.iter().map(|file| file.name).collect();
    assert_eq!(
        names,
        [RUN_FILE, REWARDS_FILE, TRAJECTORIES_FILE, TASKS_FILE]
    );
    let again = parse_run_folder(RunFolderFiles {
        run: &files[0].bytes,
        rewards: &files[1].bytes,
        trajectories: &files[2].bytes,
        tasks: Some(&files[3].bytes),
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap();
    assert_eq!(again, folder);

    let set = run_set_from_folders(&[folder], eval_compare_core::model::SourceKind::Files).unwrap();
    let run = &set.runs()[0];
    assert_eq!(
        run.info().source,
        eval_compare_core::model::SourceKind::Files
    );
    assert_eq!(run.totals().by_class.graded, 1);
    assert_eq!(run.totals().by_class.failed, 1);
    assert_eq!(set.task(set.find_task("a").unwrap()).unwrap().name(), "A");
    assert!(run.join().unwrap().is_clean());
}

#[test]
fn a_truncated_file_marks_the_run_incomplete_and_a_bad_run_names_run_json() {
    let cut = r#"[{"items": [{"trajectory_id": "t1", "reward": 1.0, "task_id": "a"}], "has_more": true}]"#;
    let folder = parse_run_folder(RunFolderFiles {
        run: RUN.as_bytes(),
        rewards: cut.as_bytes(),
        trajectories: TRAJECTORIES.as_bytes(),
        tasks: None,
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap();
    assert_eq!(folder.truncated_files, [REWARDS_FILE]);
    let mut builder = RunSetBuilder::new();
    let index = folder
        .add_to(&mut builder, eval_compare_core::model::SourceKind::Files)
        .unwrap();
    let set = builder.build();
    let info = set.run(index).unwrap().info();
    assert!(info
        .incomplete_load
        .as_deref()
        .unwrap()
        .contains(REWARDS_FILE));
    assert_eq!(
        set.run(index)
            .unwrap()
            .trajectories()
            .find(|t| t.id == "t2")
            .unwrap()
            .class,
        OutcomeClass::Failed
    );

    let error = parse_run_folder(RunFolderFiles {
        run: br#"{"eval_run_id": 7}"#,
        rewards: b"[]",
        trajectories: b"[]",
        tasks: None,
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap_err();
    let RunFolderError::Decode { file, source, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(file, RUN_FILE);
    assert_eq!(source.path, "eval_run_id");

    let error = parse_run_folder(RunFolderFiles {
        run: RUN.as_bytes(),
        rewards: b"[]",
        trajectories: b"[{\"trajectory_id\": 5}]",
        tasks: None,
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap_err();
    assert!(
        error.to_string().starts_with("trajectories.json: "),
        "{error}"
    );
}

#[test]
fn every_file_may_start_with_a_byte_order_mark() {
    let bom = |text: &str| format!("\u{feff}{text}");
    let rewards_text = r#"[{"trajectory_id": "t1", "reward": 1.0, "task_id": "a"}]"#;
    let tasks_text = r#"[{"task_id": "a", "label": "A"}]"#;
    let (run, rewards, trajectories, tasks) = (
        bom(RUN),
        bom(rewards_text),
        bom(TRAJECTORIES),
        bom(tasks_text),
    );
    let folder = parse_run_folder(RunFolderFiles {
        run: run.as_bytes(),
        rewards: rewards.as_bytes(),
        trajectories: trajectories.as_bytes(),
        tasks: Some(tasks.as_bytes()),
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap();
    assert_eq!(folder.run.eval_run_id, "er_1");
    assert_eq!(folder.rewards.len(), 1);
    assert_eq!(folder.trajectories.len(), 2);
    assert_eq!(folder.tasks.as_ref().map(Vec::len), Some(1));
}

#[test]
fn a_task_listed_twice_keeps_its_first_listing_and_is_a_coverage_warning() {
    let rewards_text = r#"[{"trajectory_id": "t1", "reward": 1.0, "task_id": "a"}]"#;
    let tasks_text = r#"[
      {"task_id": "a", "label": "A", "task_categories": [{"task_category_id": "c1", "label": "One"}]},
      {"task_id": "b", "label": "B"},
      {"task_id": "a", "label": "A", "task_categories": [{"task_category_id": "c2", "label": "Two"}]},
      {"task_id": "b", "label": "B, relabelled"}
    ]"#;
    let folder = parse_run_folder(RunFolderFiles {
        run: RUN.as_bytes(),
        rewards: rewards_text.as_bytes(),
        trajectories: TRAJECTORIES.as_bytes(),
        tasks: Some(tasks_text.as_bytes()),
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap();
    let set = run_set_from_folders(&[folder], eval_compare_core::model::SourceKind::Files).unwrap();
    let a = set.task(set.find_task("a").unwrap()).unwrap();
    let first_category = set.categories()[a.categories[0] as usize].id.as_str();
    assert_eq!((a.categories.len(), first_category), (1, "c1"));
    // `b` is repeated with only another label: the first kept, not a conflict.
    let b = set.task(set.find_task("b").unwrap()).unwrap();
    assert_eq!(b.label.as_deref(), Some("B"));
    assert_eq!(set.task_list_conflicts().count, 1);
    assert_eq!(set.task_list_conflicts().examples, ["a"]);
    let warnings =
        eval_compare_core::coverage::coverage(&set, eval_compare_core::model::RunIdx(0), &[])
            .unwrap()
            .warnings;
    let warning = warnings
        .iter()
        .find(|warning| warning.code == "TASK_LIST_CONFLICTS")
        .unwrap_or_else(|| panic!("{warnings:?}"));
    assert_eq!(
        warning.message,
        "1 task listing repeats a task id with another split or categories (a); each task keeps \
         its first listing."
    );
}

#[test]
fn a_run_id_a_comparison_cannot_name_is_refused_with_the_reason() {
    let refused = |id: &str| {
        let run = RUN.replace("\"er_1\"", &serde_json::to_string(id).unwrap());
        parse_run_folder(RunFolderFiles {
            run: run.as_bytes(),
            rewards: b"[]",
            trajectories: b"[]",
            tasks: None,
            training_run: None,
            eval_options: None,
            platform_series: None,
        })
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        refused("er\u{1b}[31m"),
        "run.json: the run id `er\\u{1B}[31m` cannot be compared: contains control characters (the first is U+001B)"
    );
    assert_eq!(
        refused(" "),
        "run.json: the run id ` ` cannot be compared: only white space"
    );
    assert_eq!(
        refused(&"x".repeat(300)),
        format!(
            "run.json: the run id `{}…` cannot be compared: longer than 256 characters (300)",
            "x".repeat(64)
        )
    );
}

#[test]
fn a_folders_training_run_and_defaults_resolve_its_settings_like_the_api() {
    use eval_compare_core::model::{Lookup, Resolution, SettingKey, SettingSource, SettingValue};
    use eval_compare_core::run_folder::{Folder, EVAL_OPTIONS_FILE, TRAINING_RUN_FILE};
    use eval_compare_core::testing::bodies::{
        checkpoint_run_body, eval_options_body, training_run_body,
    };
    let run = checkpoint_run_body("ck_1", "tr_1", "{}");
    let training = training_run_body("tr_1", r#"{"evaluation_temperature": 0.6}"#);
    let defaults = eval_options_body("b_1", "org/model", &[("top_p", 0.9)]);
    let files = |name: &str| -> Option<&[u8]> {
        match name {
            RUN_FILE => Some(run.as_bytes()),
            REWARDS_FILE => Some(b"[]"),
            TRAJECTORIES_FILE => Some(b"[]"),
            TRAINING_RUN_FILE => Some(training.as_bytes()),
            EVAL_OPTIONS_FILE => Some(defaults.as_bytes()),
            _ => None,
        }
    };
    let folder = Folder::read(files).unwrap();
    let Folder::Trajectory(read) = &folder else {
        panic!("not a run folder")
    };
    assert!(read.training_run.is_some() && read.eval_options.is_some());
    // Written back, the two files are there and read again the same.
    let written = folder.to_files().unwrap();
    let names: Vec<&str> = written.iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        [
            RUN_FILE,
            REWARDS_FILE,
            TRAJECTORIES_FILE,
            TRAINING_RUN_FILE,
            EVAL_OPTIONS_FILE
        ]
    );
    let again = Folder::read(|name| {
        written
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.bytes.as_slice())
    })
    .unwrap();
    assert_eq!(again, folder);

    let set = eval_compare_core::run_folder::run_set_from_any_folders(
        &[folder],
        eval_compare_core::model::SourceKind::Files,
    )
    .unwrap();
    let info = set.runs()[0].info();
    assert!(matches!(info.settings_inputs.training_run, Lookup::Read(_)));
    let resolution = |key: SettingKey| {
        info.effective_settings()
            .into_iter()
            .find(|s| s.setting == key)
            .unwrap()
            .resolution
    };
    assert_eq!(
        resolution(SettingKey::Temperature),
        Resolution::Resolved {
            value: SettingValue::Number(0.6),
            source: SettingSource::TrainingRun,
            option: "evaluation_temperature".to_owned()
        }
    );
    assert_eq!(
        resolution(SettingKey::TopP),
        Resolution::Resolved {
            value: SettingValue::Number(0.9),
            source: SettingSource::EvaluationDefault,
            option: "top_p".to_owned()
        }
    );

    // Without the two files the settings are "not read", as before.
    let bare = Folder::read(|name| match name {
        TRAINING_RUN_FILE | EVAL_OPTIONS_FILE => None,
        other => files(other),
    })
    .unwrap();
    let set = eval_compare_core::run_folder::run_set_from_any_folders(
        &[bare],
        eval_compare_core::model::SourceKind::Files,
    )
    .unwrap();
    let inputs = &set.runs()[0].info().settings_inputs;
    assert_eq!(inputs.training_run, Lookup::NotRead);
    assert_eq!(inputs.defaults, Lookup::NotRead);
}
