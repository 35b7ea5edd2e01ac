//! The inner workings of [`ListFeed`]: texts shared by items read one at a time, a large page
//! read as it arrives within its budget, the room reserved for a sized file's items, and how
//! often a long value is decoded. (What a feed reads against the whole read:
//! `crates/core/tests/run_folder_list_feed.rs`, `run_folder_feed.rs`, `fuzz_run_folder.rs`.)

use super::super::parse_list;
use super::*;
use crate::testing::feed::feed_in_chunks;
use serde_json::Value;

/// Items read one at a time (a bare array's, JSON Lines', an open page's) keep their
/// strings in texts shared with the items beside them, given every [`SHARE_EVERY`] items
/// and at the end, however the bytes are cut; an item serde reads keeps a text of its own.
/// Each item reads as the whole read reads it.
#[test]
fn items_read_one_at_a_time_share_their_texts() {
    use crate::large_list::PackedReward;
    use crate::testing::feed::feed_in_chunks_opening_pages;
    let count = SHARE_EVERY + 100;
    let item = |i: usize| match i {
        // An escape: read by serde.
        7 => r#"{"trajectory_id":"t\u0037","reward":0.5,"task_id":"k"}"#.to_owned(),
        _ => format!(r#"{{"trajectory_id":"t{i}","reward":0.5,"task_id":"task {i}"}}"#),
    };
    let items: Vec<String> = (0..count).map(item).collect();
    let files = [
        (format!("[{}]", items.join(",")), "a bare array"),
        (items.join("\n"), "JSON Lines"),
        (format!(r#"{{"items": [{}]}}"#, items.join(",")), "one page"),
    ];
    for (file, layout) in &files {
        let whole = parse_list::<PackedReward>("r", file.as_bytes()).unwrap();
        for chunk in [4096, 1 << 16] {
            let read = match *layout {
                "one page" => feed_in_chunks_opening_pages(file.as_bytes(), chunk, 1 << 20),
                _ => feed_in_chunks(file.as_bytes(), chunk, 1 << 20),
            };
            let read: ParsedList<PackedReward> = read.expect("read by the feed");
            assert_eq!(read, whole, "{layout} in chunks of {chunk}");
            let kept_with = |a: usize, b: usize| read.items[a].kept_with(&read.items[b]);
            assert!(kept_with(0, 1) && kept_with(6, 8), "{layout}: shared");
            assert!(
                !kept_with(6, 7),
                "{layout}: read by serde, a text of its own"
            );
            let texts = (1..count).filter(|&i| !kept_with(i - 1, i)).count() + 1;
            // About 14 bytes an item (230 KB) in texts of about 8 KiB: 28, plus those
            // around the escaped item and the one begun at SHARE_EVERY.
            assert!((29..=36).contains(&texts), "{layout}: {texts} texts");
            let last = SHARE_EVERY - 1;
            assert!(
                !kept_with(last, last + 1),
                "{layout}: shared every SHARE_EVERY"
            );
        }
    }
}

/// A file that is one page of every item (as a page, or an array of one) is read member
/// by member as it arrives, a step at a time: the feed never holds more than about two
/// megabytes of it, nor reads much more than its budget in one step, and reads what the
/// whole read reads.
#[test]
fn a_large_page_is_read_as_it_arrives() {
    let items: Vec<String> = (0..50_000)
        .map(|i| format!(r#"{{"trajectory_id":"t{i}","reward":0.5,"task_id":"task {i}"}}"#))
        .collect();
    let items = items.join(",\n");
    let files = [
        format!(r#"{{"has_more": true, "items": [{items}], "next_cursor": "c"}}"#),
        format!(r#"[{{"items":[{items}]}}]"#),
    ];
    const CHUNK: usize = 64 << 10;
    const BUDGET: usize = 256 << 10;
    for file in files {
        assert!(file.len() > 2 * OPEN_PAGE_BYTES);
        let mut feed = ListFeed::<crate::large_list::PackedReward>::new();
        let (mut held, mut step) = (0, 0);
        let mut chunks = file.as_bytes().chunks(CHUNK);
        let read = loop {
            let before = feed.consumed();
            match feed.advance(BUDGET) {
                Feed::Working => {}
                Feed::NeedMore => match chunks.next() {
                    Some(chunk) => feed.push(chunk),
                    None => feed.end(),
                },
                Feed::Read(list) => break list,
                Feed::Unexpected => panic!("unexpected"),
            }
            held = held.max(feed.text.len());
            step = step.max(feed.consumed() - before);
        };
        assert_eq!(Ok(read), parse_list("t", file.as_bytes()));
        // Until a megabyte or two has come, the page waits to be decoded whole.
        assert!(held <= 2 * OPEN_PAGE_BYTES + CHUNK, "held {held} bytes");
        assert!(step < BUDGET + 1024, "a step read {step} bytes");
    }
}

/// A feed told its file's size reserves room for about the items the file holds, once,
/// instead of doubling its room as it fills: with a tenth of the file read, the room is
/// for the whole file's 10,000 items (doubling would give 1,024), and it is not grown
/// again. Each item's text is longer than it is in memory, as for the real lists.
#[test]
fn a_sized_feed_reserves_room_for_the_files_items() {
    let items: Vec<String> = (10_000..20_000)
        .map(|i| format!("{{\"label\":\"task {i} of the list\"}}"))
        .collect();
    let file = format!("[{}]", items.join(","));
    let tenth = file.len() / 10;
    let mut feed = ListFeed::<Value>::sized(file.len() as u64);
    feed.push(&file.as_bytes()[..tenth]);
    assert_eq!(feed.advance(usize::MAX), Feed::NeedMore);
    let room = feed.items.capacity();
    assert!(
        (10_000..=10_000 + 10_000 / 8).contains(&room),
        "room for {room}"
    );
    feed.push(&file.as_bytes()[tenth..]);
    feed.end();
    match feed.advance(usize::MAX) {
        Feed::Read(list) => {
            assert_eq!(list.items.len(), 10_000);
            assert_eq!(list.items.capacity(), room);
        }
        other => panic!("not read: {other:?}"),
    }
}

/// The room reserved ahead never takes more memory than the file's size, even when the
/// first items project far more of them than the file holds (tiny items, then one huge).
#[test]
fn the_room_reserved_ahead_never_outgrows_the_file() {
    let file = format!("[{}\"{}\"]", "0,".repeat(100), "x".repeat(1 << 20));
    let mut feed = ListFeed::<Value>::sized(file.len() as u64);
    feed.push(&file.as_bytes()[..1 << 10]);
    assert_eq!(feed.advance(usize::MAX), Feed::NeedMore);
    assert_eq!(feed.items.len(), 100);
    let room = feed.items.capacity() * std::mem::size_of::<Value>();
    assert!(
        room <= file.len(),
        "{room} bytes of room for a file of {}",
        file.len()
    );
}

/// A value of many chunks (one page of a thousand items, fed a byte at a time) is decoded
/// a few times as it arrives, not once per chunk.
#[test]
fn a_long_value_is_not_decoded_again_at_every_chunk() {
    let items: Vec<String> = (0..1000).map(|i| format!("{{\"n\":{i}}}")).collect();
    let bytes = format!("{{\"items\":[{}]}}\n", items.join(","));
    let mut feed = ListFeed::<Value>::new();
    let mut pushed = 0;
    let list = loop {
        match feed.advance(usize::MAX) {
            Feed::NeedMore if pushed < bytes.len() => {
                feed.push(&bytes.as_bytes()[pushed..=pushed]);
                pushed += 1;
            }
            Feed::NeedMore => feed.end(),
            Feed::Read(list) => break list,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(list.items.len(), 1000);
    assert!(feed.attempts < 40, "decoded {} times", feed.attempts);
}
