//! Fuzzing run-folder reading: list files in every layout (array of items, array of pages, JSON
//! Lines of pages or of items, mixed), with a BOM, CRLF, pretty or compact, then mutated
//! structurally and byte by byte, and arbitrary bytes in every file.
//! Properties: a valid list reads back the same items in any layout; nothing panics; a folder
//! that parses builds a run set, writes its files and reads them back to the same folder, and
//! compares with a copy of itself, added one folder at a time or both at once. `PROPTEST_CASES` sets the number of cases (README.md, "Fuzzing").
#![allow(clippy::unwrap_used)]

mod fuzz_common;

use eval_compare_core::api::{decode, BenchmarkSpecTask, EvalTrajectoryReward, TrajectoryMetadata};
use eval_compare_core::large_list::{PackedReward, PackedTrajectory, PlainItem};
use eval_compare_core::model::{RunIdx, SourceKind};
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_core::run_folder::{
    parse_list, parse_run_folder, run_set_from_folders, Folder, FolderSetBuild, FolderSetBuilder,
    ListLayout, RunFolder, RunFolderError, RunFolderFiles, REWARDS_FILE, RUN_FILE, TASKS_FILE,
    TRAJECTORIES_FILE,
};
use eval_compare_core::testing::feed::{
    feed_in_chunks, feed_in_chunks_opening_pages, feed_in_chunks_unsized,
};
use eval_compare_core::testing::json_close::json_close;
use fuzz_common::{apply_bytes, byte_ops, fixture_value, mutate, ops, ByteOp, Mutated, Op};
use proptest::prelude::*;
use serde_json::{json, Value};

/// How a generated list file is laid out.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Layout {
    Items,
    PageArray,
    PageLines,
    ItemLines,
    /// JSON Lines whose values are pages or items at random.
    MixedLines,
    /// An array whose elements are pages or items at random.
    MixedArray,
}

/// A list file to generate: which fixture items, how they are paged and written.
#[derive(Debug, Clone)]
struct ListCase {
    picks: Vec<usize>,
    layout: Layout,
    page_sizes: Vec<usize>,
    /// `has_more` of the last page: the export stopped early.
    stopped_early: bool,
    pretty: bool,
    crlf: bool,
    bom: bool,
    mixed: Vec<bool>,
}

fn list_case(layouts: &'static [Layout]) -> impl Strategy<Value = ListCase> {
    (
        proptest::collection::vec(0usize..16, 0..12),
        proptest::sample::select(layouts),
        // Empty pages, but not only empty ones: the items must run out.
        proptest::collection::vec(0usize..5, 1..6).prop_map(|mut sizes| {
            sizes.push(1);
            sizes
        }),
        any::<bool>(),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        proptest::collection::vec(any::<bool>(), 12),
    )
        .prop_map(
            |(picks, layout, page_sizes, stopped_early, (pretty, crlf, bom), mixed)| ListCase {
                picks,
                layout,
                page_sizes,
                stopped_early,
                pretty,
                crlf,
                bom,
                mixed,
            },
        )
}

const VALID_LAYOUTS: &[Layout] = &[
    Layout::Items,
    Layout::PageArray,
    Layout::PageLines,
    Layout::ItemLines,
];
const ALL_LAYOUTS: &[Layout] = &[
    Layout::Items,
    Layout::PageArray,
    Layout::PageLines,
    Layout::ItemLines,
    Layout::MixedLines,
    Layout::MixedArray,
];

/// The items of a fixture page.
fn fixture_items(name: &str) -> Vec<Value> {
    fixture_value(name)["items"].as_array().unwrap().clone()
}

impl ListCase {
    /// The picked items (indices wrap around the fixture's items).
    fn items(&self, pool: &[Value]) -> Vec<Value> {
        self.picks
            .iter()
            .map(|pick| pool[pick % pool.len()].clone())
            .collect()
    }

    /// The pages the items are split into (sizes cycle; a page may be empty).
    fn pages(&self, items: &[Value]) -> Vec<Value> {
        let mut pages = Vec::new();
        let mut rest = items;
        let mut size = self.page_sizes.iter().cycle();
        loop {
            let take = (*size.next().unwrap()).min(rest.len());
            let (page, after) = rest.split_at(take);
            rest = after;
            let last = rest.is_empty();
            let has_more = if last { self.stopped_early } else { true };
            pages.push(
                json!({"items": page, "next_cursor": has_more.then_some("c"),
                "has_more": has_more, "eval_run_id": "er_1"}),
            );
            if last {
                return pages;
            }
        }
    }

    /// The file's bytes, the (possibly mutated) items written through `mutated`'s raw texts.
    fn write(&self, mutated: &Mutated) -> Vec<u8> {
        let items: Vec<Value> = match &mutated.value {
            Value::Array(items) => items.clone(),
            other => return self.finish(mutated.write(other, self.pretty)),
        };
        let values: Vec<Value> = match self.layout {
            Layout::Items | Layout::ItemLines => items,
            Layout::PageArray | Layout::PageLines => self.pages(&items),
            Layout::MixedLines | Layout::MixedArray => items
                .into_iter()
                .zip(self.mixed.iter().cycle())
                .map(|(item, &as_page)| {
                    if as_page {
                        json!({"items": [item], "has_more": true})
                    } else {
                        item
                    }
                })
                .collect(),
        };
        let bytes = match self.layout {
            Layout::Items | Layout::PageArray | Layout::MixedArray => {
                mutated.write(&Value::Array(values), self.pretty)
            }
            Layout::PageLines | Layout::ItemLines | Layout::MixedLines => {
                let mut bytes = Vec::new();
                for value in &values {
                    bytes.extend(mutated.write(value, self.pretty));
                    bytes.push(b'\n');
                }
                bytes
            }
        };
        self.finish(bytes)
    }

    fn finish(&self, bytes: Vec<u8>) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len() + 8);
        if self.bom {
            out.extend_from_slice(b"\xEF\xBB\xBF");
        }
        for byte in bytes {
            if byte == b'\n' && self.crlf {
                out.push(b'\r');
            }
            out.push(byte);
        }
        out
    }

    /// What reading a valid file must give: its layout and whether it stopped early, or `None`
    /// when the file holds no JSON value (it is then refused as empty).
    fn expected(&self, item_count: usize) -> Option<(ListLayout, bool)> {
        match self.layout {
            Layout::Items => Some((ListLayout::Items, false)),
            // Pages are never empty: at least one, with no items in it.
            Layout::PageArray => Some((ListLayout::PageArray, self.stopped_early)),
            Layout::PageLines => Some((ListLayout::PageLines, self.stopped_early)),
            Layout::ItemLines => (item_count > 0).then_some((ListLayout::ItemLines, false)),
            Layout::MixedLines | Layout::MixedArray => None,
        }
    }
}

/// A valid list file in any layout reads back exactly its items, its layout and whether the
/// export stopped early.
fn check_valid_list<T>(
    file: &'static str,
    pool: &[Value],
    case: &ListCase,
    budget: usize,
) -> Result<(), TestCaseError>
where
    T: PlainItem + PartialEq + std::fmt::Debug,
{
    let items = case.items(pool);
    let bytes = case.write(&mutate(Value::Array(items.clone()), &[]));
    let expected: Vec<T> = decode(&serde_json::to_vec(&items).unwrap()).unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    check_fed_list::<T>(file, &bytes, budget % 97 + 1, budget)?;
    match (parse_list::<T>(file, &bytes), case.expected(items.len())) {
        (Ok(list), Some((layout, truncated))) => {
            prop_assert_eq!(list.items, expected, "{}", text);
            prop_assert_eq!(list.layout, layout, "{}", text);
            prop_assert_eq!(list.truncated, truncated, "{}", text);
        }
        (Err(RunFolderError::Empty { .. }), None) => {}
        (got, wanted) => prop_assert!(false, "{got:?}, expected {wanted:?}:\n{text}"),
    }
    Ok(())
}

/// Mutations of a list file: structural changes to its items, then byte-level ones.
type FileMutation = (ListCase, Vec<(usize, Op)>, Vec<ByteOp>);

/// Mostly clean files (so that whole folders parse and the later stages run), else mutated.
fn file_mutation() -> impl Strategy<Value = FileMutation> {
    prop_oneof![
        2 => (list_case(VALID_LAYOUTS), Just(Vec::new()), Just(Vec::new())),
        1 => (list_case(ALL_LAYOUTS), ops(4), byte_ops(2)),
    ]
}

/// `run.json`'s structural and byte changes and whether it starts with a BOM: mostly clean.
fn run_mutation() -> impl Strategy<Value = (Vec<(usize, Op)>, Vec<ByteOp>, bool)> {
    prop_oneof![
        2 => Just((Vec::new(), Vec::new(), false)),
        1 => (ops(4), byte_ops(1), any::<bool>()),
    ]
}

fn mutated_list(pool: &[Value], (case, structural, bytes): &FileMutation) -> Vec<u8> {
    let mutated = mutate(Value::Array(case.items(pool)), structural);
    apply_bytes(case.write(&mutated), bytes)
}

/// A folder that parsed: it builds a run set, its files read back to the same folder, and a
/// copy of it under another id is compared with it.
fn check_parsed_folder(folder: &RunFolder) -> Result<(), TestCaseError> {
    let _ = run_set_from_folders(std::slice::from_ref(folder), SourceKind::Files);
    let files = folder.to_files().unwrap();
    let file = |name: &str| {
        files
            .iter()
            .find(|file| file.name == name)
            .map(|file| file.bytes.as_slice())
    };
    let again = parse_run_folder(RunFolderFiles {
        run: file(RUN_FILE).unwrap(),
        rewards: file(REWARDS_FILE).unwrap(),
        trajectories: file(TRAJECTORIES_FILE).unwrap(),
        tasks: file(TASKS_FILE),
        training_run: None,
        eval_options: None,
        platform_series: None,
    });
    let again = match again {
        Ok(again) => again,
        Err(error) => {
            return Err(TestCaseError::fail(format!(
                "written files do not read back: {error}"
            )))
        }
    };
    // Numbers may differ in the last bit through a JSON round trip; nothing else may.
    let exported = |folder: &RunFolder| {
        json!([
            folder.run,
            folder.rewards,
            folder.trajectories,
            folder.tasks
        ])
    };
    if let Err(difference) = json_close(&exported(folder), &exported(&again), 1e-15) {
        prop_assert!(
            false,
            "written and read back, the folder changed: {}",
            difference
        );
    }
    let mut copy = folder.clone();
    copy.run.eval_run_id.push_str("-copy");
    check_folders_added_at_once(folder, &copy)?;
    if let Ok(set) = run_set_from_folders(&[folder.clone(), copy], SourceKind::Files) {
        let settings = ReportSettings {
            resamples: 0,
            ..ReportSettings::default()
        };
        let _ = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings);
    }
    Ok(())
}

/// Folders added at once (each run's join made apart, on its own thread) make the run set they
/// make added one by one, tasks in the same order: the first folder here without its task list,
/// so its trajectories' tasks come before those only the second folder lists, and the second's
/// lists reversed, so it meets the tasks both have in another order than the first. Built a
/// step at a time, with any budget, they make it too.
fn check_folders_added_at_once(folder: &RunFolder, copy: &RunFolder) -> Result<(), TestCaseError> {
    let mut first = folder.clone();
    first.tasks = None;
    let mut second = copy.clone();
    second.rewards.reverse();
    second.trajectories.reverse();
    let folders = [
        Folder::Trajectory(Box::new(first)),
        Folder::Trajectory(Box::new(second)),
    ];
    let one_by_one = {
        let mut builder = FolderSetBuilder::new();
        folders
            .iter()
            .try_for_each(|folder| builder.add(folder, SourceKind::Files).map(drop))
            .map(|()| builder.build())
    };
    let at_once = {
        let mut builder = FolderSetBuilder::new();
        builder
            .add_all(folders.to_vec(), SourceKind::Files)
            .map(|_| builder.build())
    };
    prop_assert_eq!(format!("{one_by_one:?}"), format!("{at_once:?}"));
    for budget in [1, 37, usize::MAX] {
        let mut build = FolderSetBuild::new(folders.iter().collect(), SourceKind::Files);
        let mut progress = build.progress();
        let in_steps = loop {
            if let Some(result) = build.advance(budget) {
                break result;
            }
            prop_assert!(build.progress() >= progress && build.progress() <= 1.0);
            progress = build.progress();
        };
        prop_assert_eq!(
            format!("{one_by_one:?}"),
            format!("{in_steps:?}"),
            "in steps of {}",
            budget
        );
    }
    Ok(())
}

/// A list fed in pushes of `chunk` bytes and read `budget` bytes a step reads what the whole
/// read reads, and ends unexpectedly only where the whole read fails (the caller then reads it
/// whole for its error).
fn check_fed_list<T>(
    file: &'static str,
    bytes: &[u8],
    chunk: usize,
    budget: usize,
) -> Result<(), TestCaseError>
where
    T: PlainItem + PartialEq + std::fmt::Debug,
{
    let fed = feed_in_chunks::<T>(bytes, chunk, budget);
    // Told the file's size (the CLI) or not (the Files page): the same list.
    prop_assert_eq!(
        &feed_in_chunks_unsized::<T>(bytes, chunk, budget),
        &fed,
        "chunks of {}, steps of {}, size not told",
        chunk,
        budget
    );
    // Every page not arrived whole read member by member (as a feed reads pages of a
    // megabyte or more): the same list, or the whole read's answer.
    let opened = feed_in_chunks_opening_pages::<T>(bytes, chunk, budget);
    let at_once = parse_list::<T>(file, bytes);
    match &opened {
        Some(list) => prop_assert_eq!(
            Ok(list),
            at_once.as_ref(),
            "pages opened, chunks of {}, steps of {}",
            chunk,
            budget
        ),
        // An item nested more than 64 deep is not read alone in an opened page (serde_json
        // counts the page around it when it reads the page whole): the whole read answers.
        None => prop_assert!(
            fed.is_none() || nesting(bytes) > 64,
            "pages opened, chunks of {chunk}, steps of {budget}: it ended unexpectedly where the feed did not: {}",
            String::from_utf8_lossy(bytes)
        ),
    }
    match fed {
        Some(list) => prop_assert_eq!(
            Ok(list),
            at_once,
            "chunks of {}, steps of {}",
            chunk,
            budget
        ),
        None => prop_assert!(
            at_once.is_err(),
            "fed in chunks of {chunk} it ended unexpectedly, but it reads whole: {}",
            String::from_utf8_lossy(bytes)
        ),
    }
    Ok(())
}

/// How deep JSON text nests: its brackets counted outside its strings.
fn nesting(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0);
    let (mut in_string, mut escaped) = (false, false);
    for &byte in bytes {
        match byte {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            b'[' | b'{' if !in_string => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' if !in_string => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// [`check_fed_list`] for each list of a folder, in the full and the packed form.
fn check_fed_lists(
    rewards: &[u8],
    trajectories: &[u8],
    tasks: Option<&[u8]>,
    chunk: usize,
    budget: usize,
) -> Result<(), TestCaseError> {
    check_fed_list::<EvalTrajectoryReward>(REWARDS_FILE, rewards, chunk, budget)?;
    check_fed_list::<PackedReward>(REWARDS_FILE, rewards, chunk, budget)?;
    check_fed_list::<TrajectoryMetadata>(TRAJECTORIES_FILE, trajectories, chunk, budget)?;
    check_fed_list::<PackedTrajectory>(TRAJECTORIES_FILE, trajectories, chunk, budget)?;
    if let Some(tasks) = tasks {
        check_fed_list::<BenchmarkSpecTask>(TASKS_FILE, tasks, chunk, budget)?;
    }
    Ok(())
}

/// Regression (`mutated_folders_never_panic`, one run in three at 10,000 cases): a page-array
/// `tasks.json` whose first item has an unknown member holding `1e400`, a number no Rust
/// number holds, was a page to the page-opened read and not to the whole read (a
/// `serde_json::Value` refuses the number), which read the pages as items and refused them
/// ("missing field `task_id`"). A typed page read skips the member: every read reads the
/// pages. (Seeds in `fuzz_run_folder.proptest-regressions`.)
#[test]
fn a_page_array_with_1e400_in_an_items_unknown_member_reads_as_pages() {
    let bytes = br#"[{"items":[{"future_field":[1,2,1e400],"split":"holdout","task_id":"t-003"},{"task_id":"t-002"}],"next_cursor":"c","has_more":true,"eval_run_id":"er_1"},{"items":[{"task_id":"t-001"}],"next_cursor":null,"has_more":false,"eval_run_id":"er_1"}]"#;
    let list = parse_list::<BenchmarkSpecTask>(TASKS_FILE, bytes).unwrap();
    assert_eq!(list.layout, ListLayout::PageArray);
    let ids: Vec<&str> = list
        .items
        .iter()
        .map(|task| task.task_id.as_str())
        .collect();
    assert_eq!(ids, ["t-003", "t-002", "t-001"]);
    for chunk in [1, 28, 48, 58, bytes.len()] {
        for budget in [1, 27, 179, 352] {
            check_fed_list::<BenchmarkSpecTask>(TASKS_FILE, bytes, chunk, budget).unwrap();
        }
    }
}

/// Regression (`mutated_folders_never_panic`): JSON Lines of tasks whose unknown member holds
/// `2.2250738585072014e-308`, fed in chunks of 52, one ending just after the `e`: serde_json,
/// skipping the member, called the cut number invalid rather than cut, and the feed ended
/// unexpectedly where the whole read reads the file. (Seed in
/// `fuzz_run_folder.proptest-regressions`.)
#[test]
fn a_number_cut_after_its_exponent_mark_waits_for_the_next_chunk() {
    let bytes = b"{\n  \"future_field\": [\n    1,\n    2,\n    3\n  ],\n  \"split\": \"holdout\",\n  \"task_id\": \"t-003\"\n}\n{\n  \"future_field\": [\n    1,\n    2.2250738585072014e-308,\n    -153482.07989462995\n  ],\n  \"split\": \"holdout\",\n  \"task_id\": \"t-003\"\n}\n";
    assert!(parse_list::<BenchmarkSpecTask>(TASKS_FILE, bytes).is_ok());
    for chunk in 1..=bytes.len() {
        for budget in [1, 52, 600] {
            check_fed_list::<BenchmarkSpecTask>(TASKS_FILE, bytes, chunk, budget).unwrap();
        }
    }
}

proptest! {
    /// Rewards, trajectory metadata and tasks, valid, in every layout: read back exactly.
    #[test]
    fn valid_lists_read_back_in_every_layout(
        rewards in list_case(VALID_LAYOUTS),
        trajectories in list_case(VALID_LAYOUTS),
        tasks in list_case(VALID_LAYOUTS),
        budget in 1usize..2000,
    ) {
        check_valid_list::<EvalTrajectoryReward>(
            REWARDS_FILE, &fixture_items("trajectory_rewards_page.json"), &rewards, budget)?;
        check_valid_list::<TrajectoryMetadata>(
            TRAJECTORIES_FILE, &fixture_items("trajectories_page.json"), &trajectories, budget)?;
        check_valid_list::<BenchmarkSpecTask>(
            TASKS_FILE, &fixture_items("tasks_page.json"), &tasks, budget)?;
    }

    /// Whole folders with every file mutated (layouts mixed, items changed, bytes cut): no
    /// panic, and what parses builds, writes back and compares.
    #[test]
    fn mutated_folders_never_panic(
        run in run_mutation(),
        rewards in file_mutation(),
        trajectories in file_mutation(),
        tasks in proptest::option::of(file_mutation()),
        budget in 1usize..600,
    ) {
        let (run_ops, run_bytes, run_bom) = run;
        let run_doc = mutate(fixture_value("eval_run.json"), &run_ops);
        let mut run_file = if run_bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
        run_file.extend(run_doc.write(&run_doc.value, false));
        let run_file = apply_bytes(run_file, &run_bytes);
        let rewards = mutated_list(&fixture_items("trajectory_rewards_page.json"), &rewards);
        let trajectories = mutated_list(&fixture_items("trajectories_page.json"), &trajectories);
        let tasks = tasks.map(|tasks| mutated_list(&fixture_items("tasks_page.json"), &tasks));
        let files = RunFolderFiles {
            run: &run_file,
            rewards: &rewards,
            trajectories: &trajectories,
            tasks: tasks.as_deref(),
            training_run: None,
            eval_options: None,
            platform_series: None,
        };
        check_fed_lists(&rewards, &trajectories, tasks.as_deref(), budget % 61 + 1, budget)?;
        match parse_run_folder(files) {
            Ok(folder) => check_parsed_folder(&folder)?,
            Err(error) => {
                let shown = error.to_string();
                prop_assert!(
                    [RUN_FILE, REWARDS_FILE, TRAJECTORIES_FILE, TASKS_FILE]
                        .iter()
                        .any(|file| shown.starts_with(file) || shown.contains(&format!(" {file}"))),
                    "the error does not name a file: {}", shown
                );
            }
        }
    }

    /// Arbitrary bytes in each file.
    #[test]
    fn arbitrary_files_never_panic(
        files in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..256), 4),
        has_tasks in any::<bool>(),
        budget in 1usize..100,
    ) {
        for file in &files {
            check_fed_lists(file, file, Some(file), budget % 13 + 1, budget)?;
        }
        if let Ok(folder) = parse_run_folder(RunFolderFiles {
            run: &files[0],
            rewards: &files[1],
            trajectories: &files[2],
            tasks: has_tasks.then_some(files[3].as_slice()),
            training_run: None,
            eval_options: None,
            platform_series: None,
        }) {
            check_parsed_folder(&folder)?;
        }
    }
}
