//! The plain scanner of a benchmark's task ([`BenchmarkSpecTask`]): the task list, 100,000
//! items and more at scale, read from its plain form (see [`super`]) without serde, which
//! spent half a second of the viewer's main thread on it. The decoded type stays the
//! contract's: the store and the model read it whole.
//!
//! Hand-written, as the trajectories' scanner is, on the same [`Cursor`]: serde_json's own
//! reader is what costs. What the scanner does not read is left to serde (`None`): an escape,
//! a field twice, a task or category without its required strings, a field of another type
//! (null categories or environment among them), a category written as an array, a nested
//! value in a field not read, an environment value neither a string nor a secret reference
//! object, and any member of a secret reference but `secret_ref` (serde buffers that object to
//! try each of [`EnvVarValue`]'s forms, and checks every number in it).

use std::collections::BTreeMap;

use super::cursor::Cursor;
use super::page_scan::once;
use super::plain_item::PlainItem;
use crate::api::{BenchmarkSpecTask, BenchmarkTaskCategory, EnvVarValue, SecretRef, TaskSplit};

impl PlainItem for BenchmarkSpecTask {
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let mut cursor = Cursor::new(text);
        let task = scan_task(&mut cursor)?;
        Some((task, cursor.at()))
    }
}

/// A task's fields, by the order of its type (a field's place in `seen`).
mod field {
    pub const TASK_ID: usize = 0;
    pub const LABEL: usize = 1;
    pub const SPLIT: usize = 2;
    pub const INPUT_MESSAGE: usize = 3;
    pub const TASK_CATEGORIES: usize = 4;
    pub const RUNTIME_ID: usize = 5;
    pub const RUN_COMMAND: usize = 6;
    pub const BUILD_STATUS: usize = 7;
    pub const ENV_VARS: usize = 8;
    /// How many.
    pub const COUNT: usize = 9;
}

/// A task object in its plain form.
fn scan_task(cursor: &mut Cursor<'_>) -> Option<BenchmarkSpecTask> {
    let mut seen = [false; field::COUNT];
    let mut task_id = None;
    let mut task = BenchmarkSpecTask {
        task_id: String::new(),
        label: None,
        split: None,
        input_message: None,
        task_categories: Vec::new(),
        runtime_id: None,
        run_command: None,
        build_status: None,
        env_vars: BTreeMap::new(),
    };
    let mut members = cursor.members()?;
    while let Some(key) = members.next_key(cursor)? {
        let index = match key {
            "task_id" => field::TASK_ID,
            "label" => field::LABEL,
            "split" => field::SPLIT,
            "input_message" => field::INPUT_MESSAGE,
            "task_categories" => field::TASK_CATEGORIES,
            "runtime_id" => field::RUNTIME_ID,
            "run_command" => field::RUN_COMMAND,
            "build_status" => field::BUILD_STATUS,
            "env_vars" => field::ENV_VARS,
            _ => {
                cursor.skip_scalar()?;
                continue;
            }
        };
        once(&mut seen[index])?;
        match index {
            field::TASK_ID => task_id = Some(cursor.string()?.to_owned()),
            field::LABEL => task.label = optional_text(cursor)?,
            field::SPLIT => task.split = cursor.optional_string()?.map(TaskSplit::from),
            field::INPUT_MESSAGE => task.input_message = optional_text(cursor)?,
            field::TASK_CATEGORIES => task.task_categories = scan_categories(cursor)?,
            field::RUNTIME_ID => task.runtime_id = optional_text(cursor)?,
            field::RUN_COMMAND => task.run_command = optional_text(cursor)?,
            field::BUILD_STATUS => task.build_status = optional_text(cursor)?,
            _ => task.env_vars = scan_env_vars(cursor)?,
        }
    }
    task.task_id = task_id?;
    Some(task)
}

/// The task at the cursor in its kept form (`kept_task_page`): read as [`scan_task`] reads it
/// (`None` when it does not), its id, label, split and categories written to `out`.
pub(super) fn kept_task(cursor: &mut Cursor<'_>, out: &mut Vec<u8>) -> Option<()> {
    /// The fields of a task the model reads.
    #[derive(serde::Serialize)]
    struct KeptTask<'a> {
        task_id: &'a str,
        label: Option<&'a str>,
        split: Option<&'a str>,
        task_categories: &'a [BenchmarkTaskCategory],
    }
    let task = scan_task(cursor)?;
    let kept = KeptTask {
        task_id: &task.task_id,
        label: task.label.as_deref(),
        split: task.split.as_ref().map(TaskSplit::as_str),
        task_categories: &task.task_categories,
    };
    serde_json::to_writer(out, &kept).ok()
}

/// A string or null, owned, as an `Option<String>` field reads it.
fn optional_text(cursor: &mut Cursor<'_>) -> Option<Option<String>> {
    Some(cursor.optional_string()?.map(str::to_owned))
}

/// A task's categories: an array of category objects.
fn scan_categories(cursor: &mut Cursor<'_>) -> Option<Vec<BenchmarkTaskCategory>> {
    let mut categories = Vec::new();
    cursor.array(|cursor| {
        let category = scan_category(cursor)?;
        // Most tasks have one category: room for one, not the four a first push gives.
        if categories.is_empty() {
            categories.reserve_exact(1);
        }
        categories.push(category);
        Some(())
    })?;
    Some(categories)
}

/// A category object: both its strings required, other members scalars (not kept).
fn scan_category(cursor: &mut Cursor<'_>) -> Option<BenchmarkTaskCategory> {
    let mut id = None;
    let mut label = None;
    cursor.object(|key, cursor| {
        let kept = match key {
            "task_category_id" => &mut id,
            "label" => &mut label,
            _ => return cursor.skip_scalar(),
        };
        // A string field is set only when read, so a set one is a field twice.
        if kept.is_some() {
            return None;
        }
        *kept = Some(cursor.string()?);
        Some(())
    })?;
    Some(BenchmarkTaskCategory {
        task_category_id: id?.to_owned(),
        label: label?.to_owned(),
    })
}

/// A task's environment: an object of plain strings and secret references (a name given twice
/// keeps its last value, as serde's map does).
fn scan_env_vars(cursor: &mut Cursor<'_>) -> Option<BTreeMap<String, EnvVarValue>> {
    let mut vars = BTreeMap::new();
    cursor.object(|name, cursor| {
        let value = match cursor.peek()? {
            b'"' => EnvVarValue::Plain(cursor.string()?.to_owned()),
            b'{' => EnvVarValue::Secret(scan_secret_ref(cursor)?),
            _ => return None,
        };
        vars.insert(name.to_owned(), value);
        Some(())
    })?;
    Some(vars)
}

/// A secret reference object with its one member, `secret_ref`, only.
fn scan_secret_ref(cursor: &mut Cursor<'_>) -> Option<SecretRef> {
    let mut secret_ref = None;
    cursor.object(|key, cursor| {
        if key != "secret_ref" || secret_ref.is_some() {
            return None;
        }
        secret_ref = Some(cursor.string()?);
        Some(())
    })?;
    Some(SecretRef {
        secret_ref: secret_ref?.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{decode, BenchmarkTaskPage};
    use crate::large_list::decode_plain;

    /// A task as the demo lists it.
    const DEMO_TASK: &str = r#"{"task_id":"cf-0001","label":"Fix timezone handling","split":"test","input_message":"Repository `ini`: fix it. Make every test pass.","task_categories":[{"task_category_id":"cat_parsing","label":"Parsing"}],"runtime_id":"rt_codefix_py312","run_command":"python /app/harness.py","build_status":"ready","env_vars":{"CODEFIX_MODULE":"ini","GRADER_TOKEN":{"secret_ref":"codefix-grader-token"}}}"#;

    #[test]
    fn a_demo_task_is_scanned_as_serde_reads_it() {
        let (scanned, length) = BenchmarkSpecTask::scan_plain(DEMO_TASK).expect("plain");
        assert_eq!(length, DEMO_TASK.len());
        assert_eq!(
            scanned,
            decode::<BenchmarkSpecTask>(DEMO_TASK.as_bytes()).unwrap()
        );
        assert_eq!(scanned.split, Some(TaskSplit::Test));
        assert_eq!(
            scanned.env_vars["GRADER_TOKEN"],
            EnvVarValue::Secret(SecretRef {
                secret_ref: "codefix-grader-token".into()
            })
        );
    }

    #[test]
    fn a_task_in_its_kept_form_reads_as_the_model_reads_it() {
        let other = DEMO_TASK.replace("\"split\":\"test\"", "\"split\":null");
        let page =
            format!(r#"{{"items":[{DEMO_TASK},{other}],"has_more":true,"next_cursor":"c"}}"#);
        let kept = crate::large_list::kept_task_page(page.as_bytes()).expect("plain");
        let text = std::str::from_utf8(&kept).unwrap();
        for gone in [
            "input_message",
            "runtime_id",
            "run_command",
            "env_vars",
            "secret_ref",
        ] {
            assert!(!text.contains(gone), "{gone} left out: {text}");
        }
        let full: BenchmarkTaskPage = decode(page.as_bytes()).unwrap();
        let (scanned, _) = BenchmarkTaskPage::scan_plain(text).expect("the kept form is plain");
        assert_eq!(scanned, decode(&kept).unwrap());
        assert_eq!(
            (scanned.has_more, scanned.next_cursor.as_deref()),
            (true, Some("c"))
        );
        for (full, kept) in full.items.iter().zip(&scanned.items) {
            assert_eq!(
                (
                    &kept.task_id,
                    &kept.label,
                    &kept.split,
                    &kept.task_categories
                ),
                (
                    &full.task_id,
                    &full.label,
                    &full.split,
                    &full.task_categories
                )
            );
            assert_eq!((&kept.input_message, kept.env_vars.len()), (&None, 0));
        }
        // A task the scanner does not read (an escape) is passed on whole.
        let escaped = DEMO_TASK.replace("Fix timezone", "Fix \\u0074imezone");
        let page = format!(r#"{{"items":[{escaped}],"has_more":false}}"#);
        let kept = crate::large_list::kept_task_page(page.as_bytes()).expect("a page");
        assert!(std::str::from_utf8(&kept)
            .unwrap()
            .contains("input_message"));
    }

    #[test]
    fn a_page_of_tasks_is_scanned() {
        let page = format!(r#"{{"items":[{DEMO_TASK}, {DEMO_TASK}],"has_more":false}}"#);
        let (scanned, _) = BenchmarkTaskPage::scan_plain(&page).expect("plain");
        assert_eq!(scanned.items.len(), 2);
        assert_eq!(scanned, decode(page.as_bytes()).unwrap());
    }

    #[test]
    fn what_the_scanner_does_not_read_goes_to_serde() {
        for (from, to) in [
            (r#""task_id":"cf-0001","#, ""),
            (r#""label":"Fix"#, r#""label":null,"label":"Fix"#),
            (
                r#"[{"task_category_id""#,
                r#"[{"label":"x","task_category_id""#,
            ),
            (r#""CODEFIX_MODULE":"ini""#, r#""CODEFIX_MODULE":1"#),
            (r#"{"secret_ref""#, r#"{"extra":1,"secret_ref""#),
            (
                r#""build_status":"ready""#,
                r#""build_status":"re\u0061dy""#,
            ),
        ] {
            let text = DEMO_TASK.replacen(from, to, 1);
            assert_ne!(text, DEMO_TASK);
            assert!(BenchmarkSpecTask::scan_plain(&text).is_none(), "{text}");
            let page = format!(r#"{{"items":[{text}],"has_more":false}}"#);
            assert_eq!(
                decode_plain::<BenchmarkTaskPage>(page.as_bytes()),
                decode::<BenchmarkTaskPage>(page.as_bytes())
            );
        }
    }
}
