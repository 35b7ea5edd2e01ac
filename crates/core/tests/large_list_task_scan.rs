//! The plain scanner of a benchmark's tasks (`BenchmarkSpecTask`, `large_list`) reads what
//! serde reads: tasks in their plain form are scanned, and tasks and pages generated field by
//! field or mutated byte by byte are read by both and compared, what serde refuses left to it.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use eval_compare_core::api::{
    decode, BenchmarkSpecTask, BenchmarkTaskCategory, BenchmarkTaskPage, EnvVarValue, SecretRef,
    TaskSplit,
};
use eval_compare_core::large_list::{decode_plain, PlainItem};
use proptest::prelude::*;

/// What follows an item in a list: the scanner must stop at the item's end.
const TAIL: &str = " ,{\"next\":1}]";

/// A string in its plain form: no escape, no control character (some not ASCII).
fn plain_string() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _:./`é語-]{0,16}"
}

/// A task serde writes in its plain form: every field, with plain strings.
fn plain_task() -> impl Strategy<Value = BenchmarkSpecTask> {
    let text = || prop::option::of(plain_string());
    let category = (plain_string(), plain_string()).prop_map(|(id, label)| BenchmarkTaskCategory {
        task_category_id: id,
        label,
    });
    let env_value = prop_oneof![
        plain_string().prop_map(EnvVarValue::Plain),
        plain_string().prop_map(|secret_ref| EnvVarValue::Secret(SecretRef { secret_ref })),
    ];
    (
        (plain_string(), text(), text(), text()),
        prop::collection::vec(category, 0..3),
        (text(), text(), text()),
        prop::collection::btree_map(plain_string(), env_value, 0..4),
    )
        .prop_map(
            |(
                (task_id, label, split, input_message),
                categories,
                (runtime, command, build),
                env,
            )| {
                BenchmarkSpecTask {
                    task_id,
                    label,
                    split: split.map(TaskSplit::from),
                    input_message,
                    task_categories: categories,
                    runtime_id: runtime,
                    run_command: command,
                    build_status: build,
                    env_vars: env,
                }
            },
        )
}

/// A scalar a field may hold, plain or not, valid JSON or not.
fn scalar_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => plain_string().prop_map(|text| format!("\"{text}\"")),
        1 => "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,3})?([eE][+-]?[0-9]{1,3})?",
        2 => prop::sample::select(vec![
            "null", "true", "false", "\"a\\\"b\"", "\"\\u0041\"", "\"a\\nb\"", "\"a\u{1}b\"",
            "\"tab\there\"", "nul", "tru", "\"cut", "-", "01", "1.", ".5", "1e", "+1", "1e400",
            "9223372036854775808", "",
        ])
        .prop_map(str::to_owned),
    ]
}

/// A string field's value: mostly a plain string, or null, or any scalar.
fn string_value() -> BoxedStrategy<String> {
    prop_oneof![
        6 => plain_string().prop_map(|text| format!("\"{text}\"")),
        1 => Just("null".to_owned()),
        2 => scalar_text(),
    ]
    .boxed()
}

/// An object with its `required` members (all, or now and then none), some of its `optional`
/// ones, now and then a member twice, in any order; each value drawn by `value` for its key.
fn object_of<S: Strategy<Value = String> + 'static>(
    required: &'static [&'static str],
    optional: &'static [&'static str],
    value: impl Fn(&'static str) -> S + Clone + 'static,
) -> BoxedStrategy<String> {
    let all: Vec<&'static str> = required.iter().chain(optional).copied().collect();
    (
        prop::sample::subsequence(optional, 0..=optional.len()),
        prop::bool::weighted(0.85),
        prop::option::weighted(0.15, prop::sample::select(all)),
    )
        .prop_map(move |(mut keys, with_required, twice)| {
            if with_required {
                keys.extend(required);
            }
            keys.extend(twice);
            keys
        })
        .prop_shuffle()
        .prop_flat_map(move |keys| {
            keys.into_iter()
                .map(|key| (Just(key), value(key), space()))
                .collect::<Vec<_>>()
        })
        .prop_map(|members| {
            let members: Vec<String> = members
                .into_iter()
                .map(|(key, value, space)| format!("{space}\"{key}\"{space}:{space}{value}"))
                .collect();
            format!("{{{}}}", members.join(","))
        })
        .boxed()
}

/// Whitespace JSON allows between tokens, or none.
fn space() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", "", " ", "\n  ", "\t"])
}

/// A category: its two strings, others, twice or missing, or written as an array.
fn category_text() -> BoxedStrategy<String> {
    prop_oneof![
        6 => object_of(&["task_category_id", "label"], &["extra"], |_| string_value()),
        1 => Just(r#"["c","Label"]"#.to_owned()),
        1 => scalar_text(),
    ]
    .boxed()
}

/// An environment value: a string, a secret reference (as an object or an array), or other.
fn env_value_text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => string_value(),
        3 => object_of(&["secret_ref"], &[], |_| string_value()),
        1 => object_of(&["secret_ref"], &["extra"], |_| string_value()),
        1 => prop::sample::select(vec![r#"["s"]"#, "[]", r#"{"secret_ref":{}}"#])
            .prop_map(str::to_owned),
    ]
    .boxed()
}

/// A value of the task field `key`: mostly of its type, sometimes of another.
fn task_value_text(key: &'static str) -> BoxedStrategy<String> {
    let typed = match key {
        "task_categories" => prop::collection::vec(category_text(), 0..3)
            .prop_map(|items| format!("[{}]", items.join(",")))
            .boxed(),
        "env_vars" => object_of(&[], &["A", "B", "é"], |_| env_value_text()),
        _ => string_value(),
    };
    let other = prop_oneof![
        scalar_text(),
        Just("[]".to_owned()),
        Just("{}".to_owned()),
        Just(r#"{"a":1}"#.to_owned()),
    ];
    prop_oneof![6 => typed, 1 => other].boxed()
}

/// The task's fields besides its id, and a field it does not have.
const TASK_OPTIONAL_KEYS: &[&str] = &[
    "label",
    "split",
    "input_message",
    "task_categories",
    "runtime_id",
    "run_command",
    "build_status",
    "env_vars",
    "extra",
];

/// A task's text, field by field.
fn task_text() -> BoxedStrategy<String> {
    object_of(&["task_id"], TASK_OPTIONAL_KEYS, task_value_text)
}

/// A plain task's text with one byte-sized change: a character removed, or one of JSON's
/// tokens put in.
fn mutated_task_text() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "\"", "\\", "{", "}", "[", "]", ",", ":", " ", "0", "-", ".", "e", "n", "\u{7}",
    ]);
    (
        plain_task(),
        any::<prop::sample::Index>(),
        any::<bool>(),
        token,
    )
        .prop_map(|(task, at, remove, token)| {
            let mut text = serde_json::to_string(&task).unwrap();
            let boundaries: Vec<usize> = text.char_indices().map(|(at, _)| at).collect();
            let at = boundaries[at.index(boundaries.len())];
            if remove {
                text.remove(at);
            } else {
                text.insert_str(at, token);
            }
            text
        })
}

/// Whatever the scanner reads at the start of `object`, serde reads the same of that text
/// (all of it, unless a change closed the object early), and the page of it decodes the same
/// through the scanner as through serde alone.
fn check_against_serde(object: &str) -> Result<(), TestCaseError> {
    let text = format!("{object}{TAIL}");
    if let Some((scanned, length)) = BenchmarkSpecTask::scan_plain(&text) {
        prop_assert!(length <= object.len(), "read past {}", object);
        let decoded = decode::<BenchmarkSpecTask>(&object.as_bytes()[..length]);
        prop_assert_eq!(Ok(scanned), decoded, "{}", object);
    }
    let page = format!(r#"{{"items":[{object}, {object}],"has_more":false}}"#);
    prop_assert_eq!(
        decode_plain::<BenchmarkTaskPage>(page.as_bytes()),
        decode::<BenchmarkTaskPage>(page.as_bytes())
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// A task serde writes with plain strings is scanned, as serde reads it back.
    #[test]
    fn a_plain_task_is_scanned(task in plain_task()) {
        let text = serde_json::to_string(&task).unwrap();
        let (scanned, length) = BenchmarkSpecTask::scan_plain(&format!("{text}{TAIL}"))
            .expect("a plain task is scanned");
        prop_assert_eq!(length, text.len());
        prop_assert_eq!(&scanned, &decode::<BenchmarkSpecTask>(text.as_bytes()).unwrap());
        prop_assert_eq!(scanned, task);
    }

    /// A task written field by field (fields of any type, twice or missing) is read by the
    /// scanner only as serde reads it.
    #[test]
    fn a_scanned_task_is_what_serde_decodes(object in task_text()) {
        check_against_serde(&object)?;
    }

    /// The same for a plain task changed by a byte.
    #[test]
    fn a_mutated_task_is_read_as_serde_reads_it(object in mutated_task_text()) {
        check_against_serde(&object)?;
    }
}

/// Tasks as the demo lists them are scanned; what the scanner leaves to serde (a null list,
/// an array for an object, a secret reference with another member) is still read by serde.
#[test]
fn demo_tasks_are_scanned_and_the_rest_goes_to_serde() {
    let demo = r#"{"task_id":"cf-0001","label":"Fix timezone handling in the INI section reader","split":"test","input_message":"Repository `ini_section_reader`: fix it.","task_categories":[{"task_category_id":"cat_parsing","label":"Parsing"}],"runtime_id":"rt_codefix_py312","run_command":"python /app/harness.py","build_status":"ready","env_vars":{"CODEFIX_MODULE":"ini_section_reader","GRADER_TOKEN":{"secret_ref":"codefix-grader-token"}}}"#;
    let (scanned, _) = BenchmarkSpecTask::scan_plain(demo).expect("plain");
    assert_eq!(
        scanned,
        decode::<BenchmarkSpecTask>(demo.as_bytes()).unwrap()
    );
    let mut env = BTreeMap::new();
    env.insert("A".to_owned(), EnvVarValue::Plain("b".to_owned()));
    for (from, to, serde_reads) in [
        (r#""env_vars":{"#, r#""env_vars":null,"x":{"#, false),
        (
            r#""task_categories":[{"#,
            r#""task_categories":null,"x":[{"#,
            false,
        ),
        (
            r#"[{"task_category_id":"cat_parsing","label":"Parsing"}]"#,
            r#"[["cat_parsing","Parsing"]]"#,
            true,
        ),
        (r#"{"secret_ref":"#, r#"{"note":1e5,"secret_ref":"#, true),
        (r#"{"secret_ref":"#, r#"{"note":1e400,"secret_ref":"#, false),
        (r#"{"secret_ref":"codefix-grader-token"}"#, r#"["s"]"#, true),
        (r#"{"secret_ref":"codefix-grader-token"}"#, "null", false),
        (
            r#""split":"test""#,
            r#""split":"test","extra":{"a":[1]}"#,
            true,
        ),
    ] {
        let text = demo.replacen(from, to, 1);
        assert_ne!(text, demo);
        assert!(BenchmarkSpecTask::scan_plain(&text).is_none(), "{text}");
        let decoded = decode::<BenchmarkSpecTask>(text.as_bytes());
        assert_eq!(decoded.is_ok(), serde_reads, "{text}: {decoded:?}");
        let page = format!(r#"{{"items":[{demo},{text}],"has_more":false}}"#);
        assert_eq!(
            decode_plain::<BenchmarkTaskPage>(page.as_bytes()),
            decode::<BenchmarkTaskPage>(page.as_bytes())
        );
    }
    // A name given twice keeps its last value, as serde's map does.
    let twice = r#"{"task_id":"t","env_vars":{"A":"a","A":"b"}}"#;
    let (scanned, _) = BenchmarkSpecTask::scan_plain(twice).expect("plain");
    assert_eq!(scanned.env_vars, env);
    assert_eq!(
        scanned,
        decode::<BenchmarkSpecTask>(twice.as_bytes()).unwrap()
    );
}
