//! The packed wire form of the two large lists' pages (`large_list::packed_wire`): a frame
//! decodes to what its line decodes to by the JSON reader ([`decode_plain`]), for generated and
//! mutated pages in the full and the kept form; a line that reader refuses is not packed; and
//! whatever bytes a reader is given (random, cut, flipped, or each guard's case) it answers
//! with a page or an error, never a panic.

#![allow(clippy::unwrap_used)]

use eval_compare_core::large_list::{
    decode_plain, decode_reward_page, decode_trajectory_page, encode_reward_page,
    encode_trajectory_page, frame_length, is_frame_start, kept_reward_page, kept_trajectory_page,
    AsRewardFacts, AsTrajectoryFacts, PackedRewardsPage, PackedTrajectoryPage, FRAME_HEAD,
    FRAME_MARK, MAX_FRAME_BODY, MAX_FRAME_ITEMS, MAX_FRAME_TEXTS,
};
use proptest::prelude::*;

/// Compares a decoded frame with the line's page: members, and each item's facts with its
/// reward's bits (so that -0.0 and 0.0 differ).
fn same_trajectories(frame: &PackedTrajectoryPage, line: &PackedTrajectoryPage) -> bool {
    frame.has_more == line.has_more
        && frame.next_cursor == line.next_cursor
        && frame.items.len() == line.items.len()
        && frame.items.iter().zip(&line.items).all(|(a, b)| {
            a.facts() == b.facts()
                && a.listed_reward().map(f64::to_bits) == b.listed_reward().map(f64::to_bits)
                && a.facts().num_steps == b.facts().num_steps
        })
}

/// The same for rewards.
fn same_rewards(frame: &PackedRewardsPage, line: &PackedRewardsPage) -> bool {
    frame.eval_run_id == line.eval_run_id
        && frame.has_more == line.has_more
        && frame.next_cursor == line.next_cursor
        && frame.items.len() == line.items.len()
        && frame.items.iter().zip(&line.items).all(|(a, b)| {
            a.trajectory_id() == b.trajectory_id()
                && a.task_id() == b.task_id()
                && a.reward().to_bits() == b.reward().to_bits()
        })
}

/// Checks the invariant on a trajectories line: packed, it decodes to what the line decodes
/// to; refused by the JSON reader, it is not packed.
fn check_trajectories(line: &str) -> Result<(), TestCaseError> {
    let json = decode_plain::<PackedTrajectoryPage>(line.as_bytes());
    match (encode_trajectory_page(line.as_bytes()), &json) {
        (Some(frame), Ok(page)) => {
            let decoded = decode_trajectory_page(&frame);
            prop_assert!(decoded.is_ok(), "{:?} for {}", decoded, line);
            prop_assert!(same_trajectories(&decoded.unwrap(), page), "{}", line);
        }
        (Some(_), Err(error)) => prop_assert!(false, "packed what JSON refuses ({error}): {line}"),
        (None, Ok(_)) => prop_assert!(false, "a page JSON reads was not packed: {line}"),
        (None, Err(_)) => {}
    }
    Ok(())
}

/// The same for a rewards line.
fn check_rewards(line: &str) -> Result<(), TestCaseError> {
    let json = decode_plain::<PackedRewardsPage>(line.as_bytes());
    match (encode_reward_page(line.as_bytes()), &json) {
        (Some(frame), Ok(page)) => {
            let decoded = decode_reward_page(&frame);
            prop_assert!(decoded.is_ok(), "{:?} for {}", decoded, line);
            prop_assert!(same_rewards(&decoded.unwrap(), page), "{}", line);
        }
        (Some(_), Err(error)) => prop_assert!(false, "packed what JSON refuses ({error}): {line}"),
        (None, Ok(_)) => prop_assert!(false, "a page JSON reads was not packed: {line}"),
        (None, Err(_)) => {}
    }
    Ok(())
}

/// A value a field may hold: plain or not, of its type or not, valid JSON or not.
fn value_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-zA-Z0-9 _:.-]{0,10}".prop_map(|text| format!("\"{text}\"")),
        2 => prop::sample::select(vec!["COMPLETED", "ENV_DONE", "completed", "FAILED"])
            .prop_map(|text| format!("\"{text}\"")),
        3 => (any::<i32>(), 0u32..4).prop_map(|(n, scale)| match scale {
            0 => n.to_string(),
            1 => format!("{}.{}", n / 7, n.unsigned_abs() % 10_000),
            2 => format!("{n}e-3"),
            _ => format!("{}", f64::from(n) / 16.0),
        }),
        2 => prop::sample::select(vec!["null", "true", "false"]).prop_map(str::to_owned),
        2 => prop::sample::select(vec![
            "\"tâche é\"", "\"a\\\"b\"", "\"\\u00e9\"", "\"\u{1F600}\"", "\"a\u{1}b\"", "{}",
            "[1]", "-0.0", "-0", "1e400", "0.1", "9007199254740993", "9223372036854775808",
            "1.5", "-12", "\"cut", "nul",
            "{\"rollout_id\":\"r\",\"status\":\"RUNNING\"}",
            "{\"rollout_id\":\"r\",\"status\":\"COMPLETED\",\"termination_reason\":\"ENV_DONE\"}",
            "{\"rollout_id\":\"r\",\"status\":\"X\",\"harness_diagnostic\":{\"category\":\"other\",\"exception_chain\":[],\"locations\":[],\"preceding_tracebacks\":[],\"exit_code\":2,\"exception_messages\":[\"m\"]}}",
            "{\"rollout_id\":\"r\",\"status\":\"X\",\"harness_diagnostic\":{}}",
            "{\"status\":\"X\"}",
        ])
        .prop_map(str::to_owned),
    ]
}

/// An object: `required` members (or not), then any of `keys` with any values.
fn object_text(
    required: &'static [(&'static str, &'static str)],
    keys: &'static [&'static str],
) -> impl Strategy<Value = String> {
    (
        prop::bool::weighted(0.9),
        prop::collection::vec((prop::sample::select(keys), value_text()), 0..4),
    )
        .prop_map(move |(with_required, members)| {
            let mut parts: Vec<String> = Vec::new();
            if with_required {
                parts.extend(
                    required
                        .iter()
                        .map(|(key, value)| format!("\"{key}\":{value}")),
                );
            }
            parts.extend(
                members
                    .into_iter()
                    .map(|(key, value)| format!("\"{key}\":{value}")),
            );
            format!("{{{}}}", parts.join(","))
        })
}

const TRAJECTORY_REQUIRED: &[(&str, &str)] = &[
    ("trajectory_id", "\"trj_basev2_cf-000001_0\""),
    ("organization_id", "\"org_demo\""),
    ("source", "\"eval\""),
    ("created_at", "\"2026-09-22T12:52:48Z\""),
];

const TRAJECTORY_KEYS: &[&str] = &[
    "trajectory_id",
    "status",
    "termination_reason",
    "reward",
    "num_steps",
    "created_at",
    "task_id",
    "rollout",
    "dataset_id",
    "model_association_metadata",
    "policy_step",
    "extra",
];

const REWARD_REQUIRED: &[(&str, &str)] = &[
    ("trajectory_id", "\"trj_basev2_cf-000001_0\""),
    ("reward", "0.25"),
];

const REWARD_KEYS: &[&str] = &["trajectory_id", "reward", "task_id", "extra"];

/// A page: items, its own members (any of them twice, missing, or of another type), in
/// either order.
fn page_text(item: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    let member = (
        prop::sample::select(vec!["next_cursor", "has_more", "eval_run_id", "extra"]),
        prop_oneof![
            3 => Just("\"djEfNTE3\"".to_owned()),
            2 => value_text(),
        ],
    );
    (
        prop::collection::vec(item, 0..6),
        prop::bool::weighted(0.85),
        prop::collection::vec(member, 0..2),
        any::<bool>(),
    )
        .prop_map(|(items, with_required, members, items_first)| {
            let mut parts: Vec<String> = Vec::new();
            if with_required {
                parts.push(
                    r#""eval_run_id":"eval_base_v2","next_cursor":"c2","has_more":true"#.to_owned(),
                );
            }
            parts.extend(
                members
                    .into_iter()
                    .map(|(key, value)| format!("\"{key}\":{value}")),
            );
            let items = format!("\"items\":[{}]", items.join(","));
            if items_first {
                parts.insert(0, items);
            } else {
                parts.push(items);
            }
            format!("{{{}}}", parts.join(","))
        })
}

/// A trajectory: a demo-like one (kept or full form), or generated.
fn trajectory_text() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0u32..1000, 0u32..8, 0u32..17, 1u32..40).prop_map(|(task, run, reward, steps)| {
            demo_trajectory(task, run, f64::from(reward) / 16.0, steps)
        }),
        1 => object_text(TRAJECTORY_REQUIRED, TRAJECTORY_KEYS),
    ]
}

/// A reward: a demo-like one, or generated.
fn reward_text() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0u32..1000, 0u32..8, 0u32..17).prop_map(|(task, run, reward)| {
            demo_reward(task, run, f64::from(reward) / 16.0)
        }),
        1 => object_text(REWARD_REQUIRED, REWARD_KEYS),
    ]
}

/// A trajectory as the demo lists it (its kept form's fields).
fn demo_trajectory(task: u32, run: u32, reward: f64, steps: u32) -> String {
    format!(
        r#"{{"trajectory_id":"trj_basev2_cf-{task:06}_{run}","organization_id":"org_demo","source":"eval","status":"completed","termination_reason":"ENV_DONE","reward":{reward:?},"num_steps":{steps},"created_at":"2026-09-22T12:52:48Z","task_id":"cf-{task:06}","rollout":{{"rollout_id":"ro_basev2_cf-{task:06}_{run}","status":"COMPLETED","termination_reason":"ENV_DONE"}}}}"#
    )
}

/// A reward as the demo lists it.
fn demo_reward(task: u32, run: u32, reward: f64) -> String {
    format!(
        r#"{{"trajectory_id":"trj_basev2_cf-{task:06}_{run}","reward":{reward:?},"task_id":"cf-{task:06}"}}"#
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A frame decodes to what its line decodes to, in the full form and in the kept form; a
    /// line the JSON reader refuses is not packed.
    #[test]
    fn a_frame_decodes_as_its_line(
        trajectories in page_text(trajectory_text()),
        rewards in page_text(reward_text()),
    ) {
        check_trajectories(&trajectories)?;
        if let Some(kept) = kept_trajectory_page(trajectories.as_bytes()) {
            check_trajectories(std::str::from_utf8(&kept).unwrap())?;
        }
        check_rewards(&rewards)?;
        if let Some(kept) = kept_reward_page(rewards.as_bytes()) {
            check_rewards(std::str::from_utf8(&kept).unwrap())?;
        }
    }

    /// A frame cut anywhere, or with any of its bytes changed, decodes to a page or an error,
    /// never a panic; cut, it is always refused.
    #[test]
    fn a_damaged_frame_never_panics(
        trajectories in page_text(trajectory_text()),
        rewards in page_text(reward_text()),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        for (frame, trajectories) in [
            (encode_trajectory_page(trajectories.as_bytes()), true),
            (encode_reward_page(rewards.as_bytes()), false),
        ] {
            let Some(frame) = frame else { continue };
            let short = &frame[..cut.index(frame.len())];
            prop_assert!(decode_trajectory_page(short).is_err());
            prop_assert!(decode_reward_page(short).is_err());
            let mut flipped = frame.clone();
            for (at, byte) in &flips {
                let at = at.index(flipped.len());
                flipped[at] ^= byte;
            }
            if trajectories {
                let _ = decode_trajectory_page(&flipped);
            } else {
                let _ = decode_reward_page(&flipped);
            }
        }
    }

    /// Random bytes, behind a frame's head or not, decode to a page or an error.
    #[test]
    fn random_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..200), kind in 0u8..4) {
        let _ = decode_trajectory_page(&body);
        let _ = decode_reward_page(&body);
        let mut whole = vec![kind];
        whole.extend(&body);
        let framed = frame(&whole);
        let _ = decode_trajectory_page(&framed);
        let _ = decode_reward_page(&framed);
    }
}

/// `body` behind a frame's head.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut frame = vec![FRAME_MARK];
    frame.extend((body.len() as u32).to_le_bytes());
    frame.extend(body);
    frame
}

/// A rewards body: kind 2, page flags 0, `strings`, the run id's index 0, then `items` (their
/// count first).
fn reward_body(strings: &[&[u8]], items: &[u8]) -> Vec<u8> {
    let mut body = vec![2, 0, strings.len() as u8];
    body.extend(strings.iter().map(|text| text.len() as u8));
    for text in strings {
        body.extend(*text);
    }
    body.push(0);
    body.extend(items);
    body
}

/// A trajectories body: kind 1, page flags 0, `strings`, then `items` (their count first).
fn trajectory_body(strings: &[&[u8]], items: &[u8]) -> Vec<u8> {
    let mut body = reward_body(strings, items);
    body[0] = 1;
    // No run id: drop its index.
    body.remove(3 + strings.len() + strings.iter().map(|text| text.len()).sum::<usize>());
    body
}

/// The reason a frame of rewards was refused.
fn reward_error(body: &[u8]) -> &'static str {
    decode_reward_page(&frame(body)).unwrap_err().what
}

/// The reason a frame of trajectories was refused.
fn trajectory_error(body: &[u8]) -> &'static str {
    decode_trajectory_page(&frame(body)).unwrap_err().what
}

#[test]
fn the_hand_built_frames_decode() {
    // One reward: id "t" (string 1), task absent, an f32 of 0.5; the run "er" (string 0).
    let half = 0.5f32.to_le_bytes();
    let mut item = vec![1, 0b01, 1, 2];
    item.extend(half);
    let page = decode_reward_page(&frame(&reward_body(&[b"er", b"t"], &item))).unwrap();
    assert_eq!(page.eval_run_id, "er");
    assert_eq!(page.items[0].trajectory_id(), "t");
    assert_eq!(
        (page.items[0].reward(), page.items[0].task_id()),
        (0.5, None)
    );
    assert!(!page.has_more && page.next_cursor.is_none());
    // One trajectory: id and creation time the same string, no numbers; a step count of -3.
    let page =
        decode_trajectory_page(&frame(&trajectory_body(&[b"x"], &[1, 0b11, 0, 0, 0]))).unwrap();
    assert_eq!(
        (page.items[0].facts().id, page.items[0].facts().created_at),
        ("x", "x")
    );
    let page = decode_trajectory_page(&frame(&trajectory_body(
        &[b"x"],
        &[1, 0b11, 0, 0, 1 << 2, 5],
    )))
    .unwrap();
    assert_eq!(page.items[0].facts().num_steps, Some(-3));
}

#[test]
fn each_guard_refuses_its_case() {
    let f32_one = 1.0f32.to_le_bytes();
    let reward = |slots: u8, numbers: &[u8]| {
        let mut item = vec![1, slots, 1];
        if slots & 2 != 0 {
            item.push(1);
        }
        item.extend(numbers);
        item
    };
    let with_f32 = |kind: u8| {
        let mut numbers = vec![kind];
        numbers.extend(f32_one);
        numbers
    };
    let strings: &[&[u8]] = &[b"er", b"t"];
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (vec![2], "a frame cut short"),
        (vec![7, 0], "a frame of an unknown kind"),
        (vec![1, 0, 0, 0], "a frame of the other list"),
        (vec![2, 4, 0], "unknown page flags"),
        (vec![2, 0, 9, 1], "a count larger than the frame could hold"),
        (vec![2, 0, 1, 5, b'a'], "a string longer than the frame"),
        (
            vec![2, 0, 2, 2, 2, b'a', b'b', b'c'],
            "the strings run past the frame's end",
        ),
        (
            vec![2, 0, 1, 1, 0xC3, 0],
            "the page's strings are not UTF-8",
        ),
        (
            vec![2, 0, 2, 1, 1, 0xC3, 0xA9, 0],
            "a string that splits a character",
        ),
        (
            vec![2, 0, 1, 1, b'a', 3],
            "a string index past the page's strings",
        ),
        (
            reward_body(strings, &reward(0b100, &with_f32(2))),
            "an item's slots byte names an unknown slot",
        ),
        (
            reward_body(strings, &reward(0b10, &with_f32(2))),
            "a reward without its trajectory id",
        ),
        (
            reward_body(strings, &reward(0b01, &[0, 0, 0, 0, 0])),
            "a reward without its value, or with a step count",
        ),
        (
            reward_body(strings, &reward(0b01, &with_f32(3))),
            "an unknown reward kind",
        ),
        (
            reward_body(strings, &reward(0b01, &with_f32(2 | 2 << 2))),
            "an unknown step count kind",
        ),
        (
            reward_body(
                strings,
                &reward(0b01, &{
                    let mut numbers = vec![1];
                    numbers.extend(f64::NAN.to_le_bytes());
                    numbers
                }),
            ),
            "a reward that is not a finite number",
        ),
        (
            reward_body(strings, &reward(0b01, &with_f32(2)))
                .into_iter()
                .chain([0])
                .collect(),
            "bytes after the page's last item",
        ),
        (
            reward_body(
                strings,
                &[
                    1, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02,
                ],
            ),
            "a number past 64 bits",
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(reward_error(&body), expected, "{body:?}");
    }
    let trajectory_cases: Vec<(Vec<u8>, &str)> = vec![
        (
            trajectory_body(&[b"x"], &[1, 0b01, 0, 0, 0]),
            "a trajectory without its id or creation time",
        ),
        (
            trajectory_body(&[b"x"], &[1, 0b1000011, 0, 0, 0, 0]),
            "a rollout's termination reason without its status",
        ),
        (
            trajectory_body(&[b"x"], &[1, 0b11, 0, 0, 0, 0]),
            "bytes after the page's last item",
        ),
        (
            trajectory_body(&[b"x"], &[2, 0b11, 0, 0, 0]),
            "a count larger than the frame could hold",
        ),
    ];
    for (body, expected) in trajectory_cases {
        assert_eq!(trajectory_error(&body), expected, "{body:?}");
    }
    // The head: not a frame, cut in it, a length that is not the frame's, too large a body.
    let good = frame(&reward_body(strings, &reward(0b01, &with_f32(2))));
    assert!(decode_reward_page(&good).is_ok());
    let refused = |bytes: &[u8]| decode_reward_page(bytes).unwrap_err().what;
    assert_eq!(
        refused(b"{\"items\":[]}"),
        "not a frame: its first byte is not 0xFF"
    );
    assert_eq!(refused(&good[..3]), "a frame cut in its head");
    assert_eq!(
        refused(&good[..good.len() - 1]),
        "a frame whose length is not its head's"
    );
    let mut huge = good.clone();
    huge[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(refused(&huge), "a body larger than 64 MiB");
}

#[test]
fn a_frames_length_is_read_from_its_head() {
    let frame = encode_reward_page(
        br#"{"eval_run_id":"er","items":[{"trajectory_id":"t","reward":1}],"has_more":false}"#,
    )
    .unwrap();
    assert!(is_frame_start(frame[0]) && !is_frame_start(b'{') && !is_frame_start(b' '));
    assert_eq!(frame_length(&frame[..2]), Ok(None));
    assert_eq!(frame_length(&[]), Ok(None));
    assert_eq!(frame_length(&frame[..FRAME_HEAD]), Ok(Some(frame.len())));
    let mut stream = frame.clone();
    stream.extend(b"{\"stream_end\":{}}\n");
    assert_eq!(frame_length(&stream), Ok(Some(frame.len())));
    assert!(frame_length(b"{}").is_err());
    let mut huge = frame.clone();
    huge[1..5].copy_from_slice(&((MAX_FRAME_BODY + 1) as u32).to_le_bytes());
    assert!(frame_length(&huge).is_err());
}

/// Pages as the demo lists them (a trajectory in fifty with a harness diagnostic, which the
/// plain scanner leaves to serde) are packed to what the JSON reader reads, in a third of the
/// bytes or less; a page the JSON reader refuses is not.
#[test]
fn demo_pages_pack_to_what_json_reads() {
    let mut items: Vec<String> = (0..100)
        .map(|n| demo_trajectory(n / 8, n % 8, f64::from(n % 17) / 16.0, n % 30 + 1))
        .collect();
    items[7] = items[7].replace(
        r#""termination_reason":"ENV_DONE"}"#,
        r#""termination_reason":"ERROR","harness_diagnostic":{"category":"timeout","exception_chain":[],"locations":["rollout-service"],"preceding_tracebacks":[],"exit_code":null,"exception_messages":["no heartbeat"]}}"#,
    );
    let line = format!(
        r#"{{"items":[{}],"next_cursor":"djEfNTE3MDk2Y2YzM2FhMDI4Zh8","has_more":true}}"#,
        items.join(",")
    );
    check_trajectories(&line).unwrap();
    let frame = encode_trajectory_page(line.as_bytes()).unwrap();
    assert!(
        frame.len() * 3 < line.len(),
        "{} of {}",
        frame.len(),
        line.len()
    );
    let page = decode_trajectory_page(&frame).unwrap();
    assert_eq!(
        page.items[7].facts().rollout_termination_reason,
        Some("ERROR")
    );
    assert_eq!(
        page.next_cursor.as_deref(),
        Some("djEfNTE3MDk2Y2YzM2FhMDI4Zh8")
    );

    let rewards: Vec<String> = (0..100)
        .map(|n| demo_reward(n / 8, n % 8, f64::from(n % 17) / 16.0 + 0.1))
        .collect();
    let line = format!(
        r#"{{"eval_run_id":"eval_base_v2","items":[{}],"next_cursor":null,"has_more":false}}"#,
        rewards.join(",")
    );
    check_rewards(&line).unwrap();
    // A reward of JSON's null: the line is refused, and not packed.
    let refused = line.replacen(r#""reward":0.1"#, r#""reward":null"#, 1);
    assert!(decode_plain::<PackedRewardsPage>(refused.as_bytes()).is_err());
    assert_eq!(encode_reward_page(refused.as_bytes()), None);
    assert_eq!(encode_reward_page(b"{\"stream_end\":{}}"), None);
}

/// `value` as unsigned LEB128.
fn varint(out: &mut Vec<u8>, mut value: usize) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A frame never makes its reader allocate more than its bounds allow: too many items, or
/// one long string named by many items, are refused; a page of more items than a frame holds
/// is sent as its JSON line.
#[test]
fn a_frames_bounds_hold() {
    let items = MAX_FRAME_ITEMS + 1;
    let mut body = vec![2, 0, 1, 1, b'a', 0];
    varint(&mut body, items);
    body.extend(std::iter::repeat_n(0, items * 7));
    assert_eq!(
        reward_error(&body),
        "more items or strings than a frame may hold"
    );

    // A string of 1 MiB, the id of `named` rewards.
    let long = 1 << 20;
    let bomb = |named: usize| {
        let mut body = vec![2, 0, 2, 2];
        varint(&mut body, long);
        body.extend(b"er");
        body.extend(std::iter::repeat_n(b'x', long));
        body.push(0);
        varint(&mut body, named);
        for _ in 0..named {
            body.extend([0b01, 1, 2]);
            body.extend(1.0f32.to_le_bytes());
        }
        body
    };
    let named = MAX_FRAME_TEXTS / long;
    assert_eq!(
        reward_error(&bomb(named + 1)),
        "the items' texts exceed 64 MiB"
    );
    let page = decode_reward_page(&frame(&bomb(named))).unwrap();
    assert_eq!(page.items.len(), named);

    let item = r#"{"trajectory_id":"t","reward":1}"#;
    let line = format!(
        r#"{{"eval_run_id":"er","items":[{}],"has_more":false}}"#,
        vec![item; MAX_FRAME_ITEMS + 1].join(",")
    );
    assert!(decode_plain::<PackedRewardsPage>(line.as_bytes()).is_ok());
    assert_eq!(encode_reward_page(line.as_bytes()), None);
}
