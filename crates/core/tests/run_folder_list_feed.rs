//! A list file read as its bytes arrive (`ListFeed`) reads what the whole read
//! (`parse_list`) reads: the same items, layout and truncation, at every cut of its bytes and
//! every step's budget, and ends unexpectedly only where the whole read fails.

#![allow(clippy::unwrap_used)]

use eval_compare_core::large_list::PackedReward;
use eval_compare_core::run_folder::parse_list;
use eval_compare_core::testing::feed::{feed_in_chunks, feed_in_chunks_unsized};
use serde_json::Value;

/// A first value that a `Value` does not read (a number out of range in a field no item
/// keeps) is no page, as for the whole read: its items are read.
#[test]
fn a_first_value_a_value_refuses_is_read_as_items() {
    for file in [
        r#"[{"trajectory_id":"t","reward":1,"x":[1e400]}]"#,
        r#"{"trajectory_id":"t","reward":1,"x":[1e400]}"#,
    ] {
        let whole = parse_list::<PackedReward>("r", file.as_bytes()).unwrap();
        for chunk in [1, 7, file.len()] {
            let fed = feed_in_chunks(file.as_bytes(), chunk, 16);
            assert_eq!(fed.as_ref(), Some(&whole), "{file} in chunks of {chunk}");
        }
    }
}

/// Files at the edges of every layout, valid and not, pushed in chunks of every size and
/// read in steps of several budgets: a feed reads what the whole read reads, and ends
/// unexpectedly only where the whole read fails.
#[test]
fn edge_files_fed_in_chunks_read_as_at_once() {
    let long = "é".repeat(40);
    let valid: Vec<String> = [
        "[]",
        " [ ] \n",
        "[1,2,3]",
        "[1, 22 ,333]\n",
        "\u{feff}[1]",
        "1 2 3",
        "1\n22\n",
        "12",
        "[\"a\", \"b\\\"]\"]",
        "[1.5e3, -0, 1e300, true, null]",
        r#"[{"items":[1]},{"items":[2],"has_more":true}]"#,
        r#"[{"items":[1]},{"items":[2],"has_next_page":true,"x":{"y":[]}}]"#,
        r#"{"items":[1]} {"items":[2],"has_more":true}"#,
        r#"{"items":[1]}{"items":[2],"has_next_page":true}"#,
        r#"{"a":1}{"b":2}"#,
        r#"{"items":"x"} {"items":[2]}"#,
    ]
    .iter()
    .map(|case| case.to_string())
    .chain([
        format!(r#"{{"items":[1],"x":"{long}"}} {{"items":[2]}}"#),
        format!(r#"[{{"items":[1],"x":"{long}"}}]"#),
        format!("[\"{long}\", \"{long}\"]"),
    ])
    .collect();
    let invalid: Vec<Vec<u8>> = [
        "[1 2]",
        "[1 x 2]",
        "[1;2]",
        "[1,]",
        "[,1]",
        "[1]x",
        "[1] [2]",
        "[1,2",
        "[1,2,",
        "[",
        "",
        "  \n",
        "\u{feff}",
        "1,2",
        "[1]]",
        r#"[{"items":[1]} {"items":[2]}]"#,
        r#"[{"items":[1]},{"items":[2]}"#,
        r#"[{"items":[1]},3]"#,
        r#"{"items":[1]}x"#,
        r#"{"items":[1]} 3"#,
        r#"{"items":[1]} {"items":"x"}"#,
        "tru",
        "[tru]",
        "[1e400]",
    ]
    .iter()
    .map(|case| case.as_bytes().to_vec())
    .chain([
        b"[1,\"\xff\"]".to_vec(),
        b"[\"\xc3(\"]".to_vec(),
        b"[\"\xe2\x82\"]".to_vec(),
        format!("[\"{long}\"]").into_bytes()[..50].to_vec(),
    ])
    .collect();
    for case in &valid {
        let bytes = case.as_bytes();
        let at_once = parse_list::<Value>("f.json", bytes).expect("a valid case");
        for chunk in 1..=bytes.len() + 1 {
            for budget in [1, 3, 1000] {
                assert_eq!(
                    feed_in_chunks::<Value>(bytes, chunk, budget).as_ref(),
                    Some(&at_once),
                    "{case} in chunks of {chunk}, steps of {budget}"
                );
                assert_eq!(
                    feed_in_chunks_unsized::<Value>(bytes, chunk, budget).as_ref(),
                    Some(&at_once),
                    "{case} in chunks of {chunk}, steps of {budget}, size not told"
                );
            }
        }
    }
    for bytes in &invalid {
        assert!(
            parse_list::<Value>("f.json", bytes).is_err(),
            "{}",
            String::from_utf8_lossy(bytes)
        );
        for chunk in 1..=bytes.len() + 1 {
            for budget in [1, 1000] {
                assert_eq!(
                    feed_in_chunks::<Value>(bytes, chunk, budget),
                    None,
                    "{} in chunks of {chunk}",
                    String::from_utf8_lossy(bytes)
                );
                assert_eq!(
                    feed_in_chunks_unsized::<Value>(bytes, chunk, budget),
                    None,
                    "{} in chunks of {chunk}, size not told",
                    String::from_utf8_lossy(bytes)
                );
            }
        }
    }
}
