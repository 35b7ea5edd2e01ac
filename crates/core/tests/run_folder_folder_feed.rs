//! The one reading of a folder ([`FolderFeed`]): the files it asks for and in which order (a
//! run's record, its lists, its small files; a job's record, trials and results), a file it
//! is told is absent, a list fed in small chunks and one it cannot read (asked for again,
//! whole, its error the whole read's), a list that says more followed, and its progress. Fed
//! a chunk at a time, it reads what [`Folder::read`] reads from the whole files.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use eval_compare_core::api::{EvalTrajectoryReward, TrajectoryMetadata};
use eval_compare_core::model::SourceKind;
use eval_compare_core::run_folder::{
    run_set_from_any_folders, Folder, FolderFeed, FolderKind, FolderStep, RunFolderError,
    EVAL_OPTIONS_FILE, JOB_FILE, PLATFORM_PROGRESSION_FILE, RESULTS_FILE, REWARDS_FILE, RUN_FILE,
    TASKS_FILE, TRAINING_RUN_FILE, TRAJECTORIES_FILE, TRIALS_FILE,
};
use eval_compare_core::testing::bodies::{
    checkpoint_run_body, chronicle_job_body, chronicle_results_page, chronicle_trial_item,
    eval_options_body, page, reward_item, task_item, training_run_body, trajectory_item,
};

type Files = BTreeMap<&'static str, Vec<u8>>;

/// What a feed asked for and what it ended with.
struct Fed {
    /// Each file asked for, and whether it was to be decoded as its chunks arrived.
    opened: Vec<(&'static str, bool)>,
    /// The progress seen after each step, in order.
    progress: Vec<f64>,
    read: Result<Folder, RunFolderError>,
}

/// `files` fed to a [`FolderFeed`] `chunk` bytes at a time, `budget` bytes a step; `absent`
/// are listed as held but said to be absent when asked for.
fn feed(files: &Files, absent: &[&str], chunk: usize, budget: usize) -> Fed {
    let mut feed = FolderFeed::<EvalTrajectoryReward, TrajectoryMetadata>::new(|name| match absent
        .contains(&name)
    {
        true => Some(1),
        false => files.get(name).map(|bytes| bytes.len() as u64),
    });
    let (mut opened, mut progress) = (Vec::new(), Vec::new());
    let mut open: Option<std::slice::Chunks<'_, u8>> = None;
    let read = loop {
        let step = feed.advance(budget);
        progress.push(feed.progress());
        match step {
            FolderStep::Open { name, streamed } => {
                opened.push((name, streamed));
                open = None;
                match files.get(name) {
                    Some(bytes) if !absent.contains(&name) => open = Some(bytes.chunks(chunk)),
                    _ => feed.absent(),
                }
            }
            FolderStep::NeedMore => match open.as_mut().and_then(Iterator::next) {
                Some(bytes) => feed.push(bytes),
                None => feed.end(),
            },
            FolderStep::Working => {}
            FolderStep::Done(read) => break read,
        }
    };
    Fed {
        opened,
        progress,
        read,
    }
}

/// The folder read whole, at once.
fn read_whole(files: &Files) -> Result<Folder, RunFolderError> {
    Folder::read(|name| files.get(name).map(Vec::as_slice))
}

fn items(count: usize, item: impl Fn(usize) -> String) -> Vec<String> {
    (0..count).map(item).collect()
}

/// A checkpoint evaluation's folder with every file a run folder may hold, its lists as
/// arrays of pages (the trajectories in two).
fn run_folder() -> Files {
    let rewards = items(40, |i| {
        reward_item(&format!("t{i}"), &format!("k{}", i % 8), 1.0)
    });
    let trajectories = items(40, |i| {
        trajectory_item(&format!("t{i}"), &format!("k{}", i % 8))
    });
    let tasks = items(8, |i| task_item(&format!("k{i}")));
    let series = r#"{"evaluation":[],"held_out":[]}"#;
    BTreeMap::from([
        (
            RUN_FILE,
            checkpoint_run_body("ck_1", "tr_1", "{}").into_bytes(),
        ),
        (
            REWARDS_FILE,
            format!("[{}]", page("ck_1", &rewards, None)).into_bytes(),
        ),
        (
            TRAJECTORIES_FILE,
            format!(
                "[{},{}]",
                page("ck_1", &trajectories[..25], Some("c1")),
                page("ck_1", &trajectories[25..], None)
            )
            .into_bytes(),
        ),
        (TASKS_FILE, format!("[{}]", tasks.join(",")).into_bytes()),
        (
            TRAINING_RUN_FILE,
            training_run_body("tr_1", r#"{"evaluation_temperature": 0.6}"#).into_bytes(),
        ),
        (
            EVAL_OPTIONS_FILE,
            eval_options_body("b_1", "org/model", &[("top_p", 0.9)]).into_bytes(),
        ),
        (PLATFORM_PROGRESSION_FILE, series.as_bytes().to_vec()),
    ])
}

#[test]
fn a_run_folder_is_asked_for_in_its_order_and_read_as_at_once() {
    let files = run_folder();
    let whole = read_whole(&files);
    let Ok(Folder::Trajectory(run)) = &whole else {
        panic!("not read: {whole:?}")
    };
    assert!(run.platform_series.is_some() && run.training_run.is_some());
    for (chunk, budget) in [(1, 1), (7, 64), (100, 1 << 20), (1 << 20, usize::MAX)] {
        let fed = feed(&files, &[], chunk, budget);
        assert_eq!(
            fed.opened,
            [
                (RUN_FILE, false),
                (REWARDS_FILE, true),
                (TRAJECTORIES_FILE, true),
                (TASKS_FILE, true),
                (TRAINING_RUN_FILE, false),
                (EVAL_OPTIONS_FILE, false),
                (PLATFORM_PROGRESSION_FILE, false),
            ],
            "chunks of {chunk}"
        );
        assert_eq!(fed.read, whole, "chunks of {chunk}");
        // Progress only grows, from the lists' first bytes to all of them.
        assert!(fed.progress.windows(2).all(|pair| pair[0] <= pair[1]));
        assert_eq!(fed.progress.last(), Some(&1.0));
    }
}

#[test]
fn an_optional_file_missing_is_not_asked_for_and_one_absent_is_skipped() {
    let mut files = run_folder();
    files.remove(TASKS_FILE);
    files.remove(TRAINING_RUN_FILE);
    let fed = feed(&files, &[], 64, 256);
    let names: Vec<&str> = fed.opened.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names,
        [
            RUN_FILE,
            REWARDS_FILE,
            TRAJECTORIES_FILE,
            EVAL_OPTIONS_FILE,
            PLATFORM_PROGRESSION_FILE
        ]
    );
    let Ok(Folder::Trajectory(run)) = &fed.read else {
        panic!("not read: {:?}", fed.read)
    };
    assert!(run.tasks.is_none() && run.training_run.is_none());
    assert_eq!(fed.read, read_whole(&files));

    // Listed, then absent when asked for: an optional file is read as missing, a required
    // one refuses the folder, naming it.
    let files = run_folder();
    let fed = feed(&files, &[EVAL_OPTIONS_FILE], 64, 256);
    let Ok(Folder::Trajectory(run)) = &fed.read else {
        panic!("not read: {:?}", fed.read)
    };
    assert!(run.eval_options.is_none() && run.platform_series.is_some());
    let fed = feed(&files, &[TRAJECTORIES_FILE], 64, 256);
    assert_eq!(
        fed.read,
        Err(RunFolderError::MissingFiles {
            kind: FolderKind::Trajectory,
            missing: vec![TRAJECTORIES_FILE],
        })
    );
    assert_eq!(fed.opened.last(), Some(&(TRAJECTORIES_FILE, true)));
}

#[test]
fn a_folder_of_no_kind_or_missing_a_file_is_refused_before_any_file_is_asked_for() {
    let mut files = run_folder();
    files.remove(REWARDS_FILE);
    let fed = feed(&files, &[], 64, 256);
    assert!(fed.opened.is_empty());
    assert_eq!(fed.read, read_whole(&files));
    assert!(fed.read.unwrap_err().to_string().contains(REWARDS_FILE));
    let fed = feed(&BTreeMap::new(), &[], 64, 256);
    assert!(fed.opened.is_empty());
    assert!(matches!(fed.read, Err(RunFolderError::UnknownKind(_))));
}

#[test]
fn a_list_that_says_more_followed_makes_the_run_incomplete() {
    let mut files = run_folder();
    let rewards = items(40, |i| {
        reward_item(&format!("t{i}"), &format!("k{}", i % 8), 1.0)
    });
    // JSON Lines of pages, the last one saying more followed: the export stopped early.
    let lines = format!(
        "{}\n{}\n",
        page("ck_1", &rewards[..20], Some("c1")),
        page("ck_1", &rewards[20..], Some("c2"))
    );
    files.insert(REWARDS_FILE, lines.into_bytes());
    let fed = feed(&files, &[], 50, 128);
    assert_eq!(fed.read, read_whole(&files));
    let folder = fed.read.unwrap();
    assert_eq!(folder.truncated_files(), [REWARDS_FILE]);
    let set = run_set_from_any_folders(&[folder], SourceKind::Files).unwrap();
    let incomplete = set.runs()[0].info().incomplete_load.clone();
    assert_eq!(
        incomplete.as_deref(),
        Some("trajectory-rewards.json ended with a page saying more followed")
    );
}

#[test]
fn a_list_the_feed_cannot_read_is_asked_for_again_whole_for_its_error() {
    let mut files = run_folder();
    let broken = br#"[{"trajectory_id":"t0","organization_id":"org","status":7}]"#;
    files.insert(TRAJECTORIES_FILE, broken.to_vec());
    let fed = feed(&files, &[], 16, 64);
    assert_eq!(
        fed.opened[..4],
        [
            (RUN_FILE, false),
            (REWARDS_FILE, true),
            (TRAJECTORIES_FILE, true),
            (TRAJECTORIES_FILE, false),
        ]
    );
    let whole = read_whole(&files);
    assert!(whole.is_err());
    assert_eq!(fed.read, whole);
    assert!(fed
        .read
        .unwrap_err()
        .to_string()
        .starts_with(TRAJECTORIES_FILE));
    // A broken run record ends the read before any list is asked for.
    let mut files = run_folder();
    files.insert(RUN_FILE, b"{\"eval_run_id\":".to_vec());
    let fed = feed(&files, &[], 16, 64);
    assert_eq!(fed.opened, [(RUN_FILE, false)]);
    assert_eq!(fed.read, read_whole(&files));
}

#[test]
fn a_job_folder_is_read_whole_in_its_order() {
    let agents = ["billing@1.0.0", "billing@1.1.0"];
    let trials = [
        chronicle_trial_item("t1", agents[0], "a", true),
        chronicle_trial_item("t2", agents[1], "a", false),
        chronicle_trial_item("t3", agents[0], "b", true),
        chronicle_trial_item("t4", agents[1], "b", true),
    ];
    let files: Files = BTreeMap::from([
        (
            JOB_FILE,
            chronicle_job_body("job_7", "succeeded", &agents, 4, 4).into_bytes(),
        ),
        (TRIALS_FILE, format!("[{}]", trials.join(",")).into_bytes()),
        (
            RESULTS_FILE,
            chronicle_results_page("job_7", &[("a", false), ("b", true)]).into_bytes(),
        ),
    ]);
    let whole = read_whole(&files);
    assert!(matches!(&whole, Ok(Folder::Chronicle(job)) if job.results.is_some()));
    for chunk in [1, 10, 1 << 20] {
        let fed = feed(&files, &[], chunk, 64);
        assert_eq!(
            fed.opened,
            [
                (JOB_FILE, false),
                (TRIALS_FILE, false),
                (RESULTS_FILE, false)
            ]
        );
        assert_eq!(fed.read, whole, "chunks of {chunk}");
    }
    // Without its results; with results of another job, refused naming the file.
    let mut without = files.clone();
    without.remove(RESULTS_FILE);
    let fed = feed(&without, &[], 10, 64);
    assert_eq!(fed.opened, [(JOB_FILE, false), (TRIALS_FILE, false)]);
    assert_eq!(fed.read, read_whole(&without));
    let mut other = files.clone();
    other.insert(
        RESULTS_FILE,
        chronicle_results_page("job_8", &[("a", true)]).into_bytes(),
    );
    let fed = feed(&other, &[], 10, 64);
    assert_eq!(fed.read, read_whole(&other));
    assert!(fed.read.unwrap_err().to_string().starts_with(RESULTS_FILE));
}
