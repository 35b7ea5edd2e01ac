//! A list file fed in chunks reads as the whole read reads it where numbers in members no item
//! keeps are out of range or cut by a chunk's end.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::BenchmarkSpecTask;
use eval_compare_core::run_folder::{parse_list, ListLayout, TASKS_FILE};
use eval_compare_core::testing::feed::{feed_in_chunks, feed_in_chunks_opening_pages};

/// A page whose item holds a number no Rust number holds in a member no item keeps is a page
/// (a typed read skips the member) for the feed as for the whole read: its items are read,
/// however the bytes are cut and whether the page is read whole or opened.
#[test]
fn a_page_with_a_number_out_of_range_in_an_unknown_member_is_a_page() {
    let page =
        r#"{"items":[{"task_id":"a","future_field":1e400},{"task_id":"b"}],"has_more":false}"#;
    for (file, layout) in [
        (format!("[{page}]"), ListLayout::PageArray),
        (format!("{page}\n{page}\n"), ListLayout::PageLines),
    ] {
        let bytes = file.as_bytes();
        let whole = parse_list::<BenchmarkSpecTask>(TASKS_FILE, bytes).unwrap();
        assert_eq!(whole.layout, layout, "{file}");
        assert_eq!(whole.items[1].task_id, "b");
        for chunk in [1, 7, 40, bytes.len()] {
            let fed = feed_in_chunks::<BenchmarkSpecTask>(bytes, chunk, 16);
            assert_eq!(fed.as_ref(), Some(&whole), "{file} in chunks of {chunk}");
            let opened = feed_in_chunks_opening_pages::<BenchmarkSpecTask>(bytes, chunk, 16);
            assert_eq!(
                opened.as_ref(),
                Some(&whole),
                "{file} opened, chunks of {chunk}"
            );
        }
    }
}

/// A number in a member no item keeps, cut by a chunk's end after its `-`, `.`, `e` or `e-`
/// (serde_json, skipping the member, calls that an invalid number rather than an end), waits
/// for the rest: fed in any chunks, the file reads as it reads at once.
#[test]
fn a_number_cut_in_a_skipped_member_waits_for_the_rest() {
    for number in ["-1", "2.5", "2.2250738585072014e-308", "1E+5", "-0.5e3"] {
        let item = format!(r#"{{"task_id":"t","x":[1,{number}]}}"#);
        for file in [
            format!("{item}\n{item}\n"),
            format!("[{item},\n{item}]"),
            format!(r#"{{"items":[{item},{item}]}}"#),
        ] {
            let bytes = file.as_bytes();
            let whole = parse_list::<BenchmarkSpecTask>(TASKS_FILE, bytes).unwrap();
            for chunk in 1..=bytes.len() {
                for budget in [1, 1000] {
                    let fed = feed_in_chunks::<BenchmarkSpecTask>(bytes, chunk, budget);
                    assert_eq!(fed.as_ref(), Some(&whole), "{file} in chunks of {chunk}");
                }
            }
        }
    }
}

/// Regression (`mutated_folders_never_panic`, seed `84b91b54…`): a page read member by member
/// as it arrives (one of a megabyte or more) refused a page-level member with a JSON escape, a
/// key (`"next_curso\r"`, skipped as unknown; `"has_mor\u0065"`, read as `has_more`) or a
/// string value (`"c\u0041"`), which the whole read reads: the feed ended unexpectedly where
/// the whole read reads the file. Such members are read as the whole read reads them.
#[test]
fn a_large_page_with_escaped_members_reads_as_the_whole_read() {
    let items: Vec<String> = (0..80_000)
        .map(|i| format!(r#"{{"task_id":"task {i}","split":"holdout"}}"#))
        .collect();
    let page = format!(
        r#"{{"eval_run_id":"er_1","items":[{}],"next_curso\r":"x","next_cursor":"c\u0041","has_mor\u0065":true}}"#,
        items.join(",")
    );
    // Over two megabytes: read member by member at the latest once two have arrived.
    assert!(
        page.len() > 3 << 20,
        "large enough to be read member by member"
    );
    for (file, layout) in [
        (format!("[{page}]"), ListLayout::PageArray),
        (format!("{page}\n"), ListLayout::PageLines),
    ] {
        let bytes = file.as_bytes();
        let whole = parse_list::<BenchmarkSpecTask>(TASKS_FILE, bytes).unwrap();
        assert_eq!(whole.layout, layout);
        assert_eq!(whole.items.len(), 80_000);
        assert!(whole.truncated, "the escaped `has_more` is read");
        for chunk in [4096, 64 << 10] {
            let fed = feed_in_chunks::<BenchmarkSpecTask>(bytes, chunk, 256 << 10);
            assert_eq!(
                fed.as_ref(),
                Some(&whole),
                "{layout:?} in chunks of {chunk}"
            );
        }
    }
}

/// Small pages read member by member (as a feed reads one of a megabyte or more), each with a
/// page-level member holding an escape, valid or not, fed in chunks of every size: read as
/// the whole read reads them, or (where it fails) left to it.
#[test]
fn escaped_page_members_read_member_by_member_as_the_whole_read() {
    let items = r#"[{"task_id":"a"},{"task_id":"b\u0041"}]"#;
    let pages = [
        format!(r#"{{"items":{items},"next_curso\r":"x","next_cursor":"c\u0041"}}"#),
        format!(r#"{{"next_curso\r":1,"items":{items},"has_more":false}}"#),
        format!(r#"{{"has_mor\u0065":true,"items":{items}}}"#),
        format!(r#"{{"items":{items},"has_next_pag\u0065":true,"x":"\"\\\/\b\f\n\r\t"}}"#),
        format!(r#"{{"has_more":true,"\u0069tems":{items}}}"#),
        format!(r#"{{"x":"\ud83d\ude00","items":{items},"y":"\u00e9\u0000"}}"#),
        // Refused by the whole read.
        format!(r#"{{"items":{items},"\u0069tems":[]}}"#),
        format!(r#"{{"has_more":true,"items":{items},"has_mor\u0065":true}}"#),
        format!(r#"{{"items":{items},"has_more":"tru\u0065"}}"#),
        format!(r#"{{"items":{items},"next_cursor":"c\x"}}"#),
        format!(r#"{{"items":{items},"next_cursor\u":"c"}}"#),
        format!(r#"{{"items":{items},"next_cursor":"c\u00"}}"#),
        format!(r#"{{"items":{items},"next_cursor":"c\"}}"#),
        format!("{{\"items\":{items},\"next_cursor\":\"c\\n\t\"}}"),
    ];
    for (at, page) in pages.iter().enumerate() {
        for file in [format!("[{page},{page}]"), format!("{page}\n{page}\n")] {
            let bytes = file.as_bytes();
            let whole = parse_list::<BenchmarkSpecTask>(TASKS_FILE, bytes);
            assert_eq!(whole.is_ok(), at < 6, "{file}: {whole:?}");
            for chunk in 1..=bytes.len() {
                for budget in [1, 1000] {
                    let opened =
                        feed_in_chunks_opening_pages::<BenchmarkSpecTask>(bytes, chunk, budget);
                    assert_eq!(
                        opened.as_ref(),
                        whole.as_ref().ok(),
                        "{file} opened, chunks of {chunk}, steps of {budget}"
                    );
                    let fed = feed_in_chunks::<BenchmarkSpecTask>(bytes, chunk, budget);
                    assert_eq!(
                        fed.as_ref(),
                        whole.as_ref().ok(),
                        "{file} in chunks of {chunk}"
                    );
                }
            }
        }
    }
}
