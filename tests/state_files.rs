//! Run folders from disk, the browser half: the browser's `File`s of a file input's list and of
//! a drop with their paths, read into memory (only the run-folder files), and opened into
//! `FileRuns` with the issues met on the way. The grouping and parsing are tested natively
//! (`state_files_grouping.rs`).
#![cfg(target_arch = "wasm32")]

mod run_folder_fixture;

use eval_compare_viewer::state::files::grouping::{group_by_folder, group_paths, open_files};
use eval_compare_viewer::state::files::{
    drop_entries, files_of_list, read_folder, FileIssue, FileRuns, PickedFile,
};
use leptos::prelude::*;
use run_folder_fixture::{file, run_folder};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{DataTransfer, File};

wasm_bindgen_test_configure!(run_in_browser);

/// A browser file named as the last part of `path`; a `path` with folders is given as its
/// `webkitRelativePath`, as a folder picker gives it.
fn browser_file(path: &str, body: &[u8]) -> File {
    let name = path.rsplit('/').next().unwrap_or(path);
    let bits = js_sys::Array::of1(&js_sys::Uint8Array::from(body));
    let file = File::new_with_u8_array_sequence(&bits, name).expect("a File");
    if path.contains('/') {
        let descriptor = js_sys::Object::new();
        js_sys::Reflect::set(&descriptor, &"value".into(), &path.into()).expect("a descriptor");
        js_sys::Reflect::define_property(
            file.unchecked_ref::<js_sys::Object>(),
            &JsValue::from_str("webkitRelativePath"),
            &descriptor,
        )
        .expect("a relative path");
    }
    file
}

/// A data transfer holding the browser files of `picked`, as a drop or a file input holds them.
fn transfer_of(picked: &[PickedFile]) -> DataTransfer {
    let data = DataTransfer::new().expect("a DataTransfer");
    for file in picked {
        data.items()
            .add_with_file(&browser_file(&file.path, &file.bytes))
            .expect("a file item");
    }
    data
}

fn paths(files: &[(String, File)]) -> Vec<&str> {
    files.iter().map(|(path, _)| path.as_str()).collect()
}

#[wasm_bindgen_test]
fn a_file_list_gives_each_file_its_path_in_the_folder_or_its_name() {
    let mut picked = run_folder("runs/base", "er_base", &[0.5]);
    picked.push(file("notes.txt", "hello"));
    let list = transfer_of(&picked).files().expect("a file list");
    let files = files_of_list(&list);
    assert_eq!(
        paths(&files),
        [
            "runs/base/run.json",
            "runs/base/trajectory-rewards.json",
            "runs/base/trajectories.json",
            "notes.txt"
        ]
    );
    assert_eq!(files[0].1.name(), "run.json");
}

#[wasm_bindgen_test]
fn the_files_of_a_drop_come_with_their_paths() {
    let picked = run_folder("base", "er_base", &[0.5]);
    let (entries, files) = drop_entries(&transfer_of(&picked));
    // Files put in a data transfer by a script have no file-system entries: they come as files.
    assert!(entries.is_empty());
    assert_eq!(
        paths(&files),
        [
            "base/run.json",
            "base/trajectory-rewards.json",
            "base/trajectories.json"
        ]
    );
}

#[wasm_bindgen_test]
async fn only_run_folder_files_are_read_and_their_bytes_are_kept() {
    let mut picked = run_folder("base", "er_base", &[0.5, 1.0]);
    picked.push(file("base/notes.txt", "hello"));
    let files = files_of_list(&transfer_of(&picked).files().expect("a file list"));
    let groups = group_paths(files);
    assert_eq!(groups.len(), 1, "notes.txt makes no folder of its own");
    let (read, issues) = read_folder(&groups[0]).await;
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        read.expect("the folder is read").files,
        group_by_folder(picked[..3].to_vec())[0].files,
        "notes.txt is not read"
    );
}

#[wasm_bindgen_test]
async fn read_files_are_opened_after_the_issues_met_while_finding_them() {
    let mut picked = run_folder("base", "er_base", &[0.2]);
    picked.extend(run_folder("cand", "er_cand", &[0.4]));
    picked.push(file("partial/run.json", "{}"));
    let files = files_of_list(&transfer_of(&picked).files().expect("a file list"));
    let earlier = FileIssue {
        folder: "unreadable".to_owned(),
        message: "the folder could not be read (denied)".to_owned(),
    };

    let owner = Owner::new();
    let opened = owner.with(FileRuns::new);
    opened.read_and_add(files, vec![earlier.clone()]).await;
    owner.with(|| {
        assert!(opened.reading().is_none());
        let ids: Vec<String> = opened
            .runs()
            .iter()
            .flat_map(|run| run.run_ids.clone())
            .collect();
        assert_eq!(ids, ["er_base", "er_cand"]);
        let issues = opened.issues();
        assert_eq!(issues.len(), 2, "{issues:?}");
        assert_eq!(issues[0], earlier, "the issues met first come first");
        assert_eq!(issues[1].folder, "partial");
    });
}

/// Folders read from the browser's files (lists fed to the core as they arrive) open as the
/// same files parsed at once open: the same runs, item for item, and the same issues, for a
/// valid folder, one with its tasks and pages, one whose trajectories break mid-file, one
/// missing a file and a Chronicle job's folder.
#[wasm_bindgen_test]
async fn folders_read_from_browser_files_open_as_parsed_at_once() {
    let mut picked = run_folder("base", "er_base", &[0.2, 0.9, 0.4]);
    let paged = run_folder("paged", "er_paged", &[0.5, 1.0]);
    for picked_file in paged {
        let body = String::from_utf8(picked_file.bytes).expect("UTF-8");
        let body = if picked_file.path.ends_with("run.json") {
            body
        } else {
            format!("{{\"items\": {body}, \"has_more\": true}}\n")
        };
        picked.push(file(&picked_file.path, &body));
    }
    picked.push(file(
        "paged/tasks.json",
        r#"[{"task_id":"t0","label":"first"},{"task_id":"t1"}]"#,
    ));
    let mut broken = run_folder("broken", "er_broken", &[0.1, 0.3]);
    let trajectories = &mut broken[2].bytes;
    trajectories.truncate(trajectories.len() - 20);
    picked.extend(broken);
    picked.push(file("partial/run.json", "{}"));
    picked.push(file("partial/trajectories.json", "[]"));

    let mut at_once = Vec::new();
    let expected_issues = open_files(&mut at_once, picked.clone());

    let files = files_of_list(&transfer_of(&picked).files().expect("a file list"));
    let owner = Owner::new();
    let opened = owner.with(FileRuns::new);
    opened.read_and_add(files, Vec::new()).await;
    owner.with(|| {
        let runs = opened.runs();
        assert_eq!(runs.len(), at_once.len());
        for (read, parsed) in runs.iter().zip(&at_once) {
            assert_eq!(read.folder, parsed.folder);
            assert_eq!(read.run, parsed.run, "{}", read.folder);
        }
        assert_eq!(opened.issues(), expected_issues);
        assert_eq!(expected_issues.len(), 2, "{expected_issues:?}");
        assert_eq!(
            runs.iter()
                .map(|run| run.folder.as_str())
                .collect::<Vec<_>>(),
            ["base", "paged"],
            "the broken and the partial folder are issues"
        );
    });
}
