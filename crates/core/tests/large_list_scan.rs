//! The plain scanner of the two large lists (`large_list`) reads what serde reads: items,
//! numbers and pages, mutated, read by both and compared (to the reward's bits), and what serde
//! refuses left to serde.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::decode;
use eval_compare_core::large_list::{
    decode_plain, AsRewardFacts, AsTrajectoryFacts, PackedReward, PackedRewardsPage,
    PackedTrajectory, PackedTrajectoryPage, PlainItem,
};
use proptest::prelude::*;

/// What follows an item in a list: the scanner must stop at the item's end.
const TAIL: &str = " ,{\"next\":1}]";

/// A number in JSON's grammar: up to 20 digits before and after the point, an exponent.
fn number_text() -> impl Strategy<Value = String> {
    let exponent = (
        prop::sample::select(vec!["e", "E"]),
        prop::sample::select(vec!["", "+", "-"]),
        "[0-9]{1,3}",
    );
    (
        any::<bool>(),
        "(0|[1-9][0-9]{0,19})",
        prop::option::of("[0-9]{1,20}"),
        prop::option::of(exponent),
    )
        .prop_map(|(negative, integer, fraction, exponent)| {
            let mut text = if negative {
                "-".to_owned()
            } else {
                String::new()
            };
            text.push_str(&integer);
            if let Some(fraction) = fraction {
                text.push('.');
                text.push_str(&fraction);
            }
            if let Some((e, sign, digits)) = exponent {
                text.push_str(e);
                text.push_str(sign);
                text.push_str(&digits);
            }
            text
        })
}

/// Any value a field may hold, plain or not, valid JSON or not.
fn value_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-zA-Z0-9 _:.-]{0,12}".prop_map(|text| format!("\"{text}\"")),
        3 => number_text(),
        2 => prop::sample::select(vec!["null", "true", "false"]).prop_map(str::to_owned),
        2 => prop::sample::select(vec![
            "\"tâche é\"",
            "\"a\\\"b\"",
            "\"\\u0041\"",
            "\"a\\nb\"",
            "\"a\u{1}b\"",
            "\"tab\there\"",
            "\"\\\\\"",
            "{}",
            "{\"a\":1}",
            "[]",
            "[1,2]",
            "{\"rollout_id\":\"r\",\"status\":\"RUNNING\"}",
            "{\"rollout_id\":\"r\",\"status\":\"X\",\"termination_reason\":null,\"harness_diagnostic\":null,\"extra\":1.5}",
            "{\"rollout_id\":\"r\",\"status\":\"X\",\"harness_diagnostic\":{}}",
            "{\"rollout_id\":\"r\",\"status\":\"X\",\"status\":\"Y\"}",
            "{\"status\":\"X\"}",
            "{\"rollout_id\":\"r\",\"status\":null}",
            "nul",
            "nulll",
            "tru",
            "\"cut",
            "-",
            "-0",
            "01",
            "1.",
            ".5",
            "1e",
            "+1",
            "1e400",
            "9007199254740993",
            "9223372036854775808",
        ])
        .prop_map(str::to_owned),
    ]
}

/// Whitespace JSON allows between tokens, or none.
fn space() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", " ", "\n  ", "\t", "\r\n"])
}

/// An object of `keys` with any values, after (or not) the required fields in plain form.
fn object_text(
    required: &'static [(&'static str, &'static str)],
    keys: Vec<&'static str>,
) -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop::collection::vec(
            (prop::sample::select(keys), value_text(), space(), space()),
            0..8,
        ),
        space(),
    )
        .prop_map(move |(with_required, members, end)| {
            let mut parts: Vec<String> = Vec::new();
            if with_required {
                parts.extend(
                    required
                        .iter()
                        .map(|(key, value)| format!("\"{key}\":{value}")),
                );
            }
            parts.extend(members.into_iter().map(|(key, value, before, after)| {
                format!("{before}\"{key}\"{after}:{before}{value}{after}")
            }));
            format!("{{{}{end}}}", parts.join(","))
        })
}

const TRAJECTORY_REQUIRED: &[(&str, &str)] = &[
    ("trajectory_id", "\"tr-1\""),
    ("organization_id", "\"org\""),
    ("source", "\"eval\""),
    ("created_at", "\"2026-11-01T00:00:00Z\""),
];

const TRAJECTORY_KEYS: &[&str] = &[
    "trajectory_id",
    "organization_id",
    "source",
    "created_at",
    "status",
    "termination_reason",
    "reward",
    "task_id",
    "num_steps",
    "policy_step",
    "rollout",
    "model_association_metadata",
    "dataset_id",
    "training_run_id",
    "extra",
];

const REWARD_REQUIRED: &[(&str, &str)] = &[("trajectory_id", "\"tr-1\""), ("reward", "0.5")];

const REWARD_KEYS: &[&str] = &["trajectory_id", "reward", "task_id", "extra"];

/// A number's digit count (integer part and fraction) and the power of ten its digits are
/// scaled by, as written.
fn digits_and_exponent(number: &str) -> (usize, i64) {
    let (mantissa, written) = match number.find(['e', 'E']) {
        Some(at) => (&number[..at], number[at + 1..].parse::<i64>().unwrap()),
        None => (number, 0),
    };
    let fraction = mantissa
        .split_once('.')
        .map_or(0, |(_, fraction)| fraction.len());
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count();
    (digits, written - fraction as i64)
}

/// Bits of a reward, so that -0.0 and 0.0 differ.
fn bits(reward: Option<f64>) -> Option<u64> {
    reward.map(f64::to_bits)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Whatever the scanner reads of a trajectory, serde reads the same (to the reward's
    /// bits), and the scanner stops at the item's end.
    #[test]
    fn a_scanned_trajectory_is_what_serde_decodes(
        object in object_text(TRAJECTORY_REQUIRED, TRAJECTORY_KEYS.to_vec()),
    ) {
        let text = format!("{object}{TAIL}");
        if let Some((scanned, length)) = PackedTrajectory::scan_plain(&text) {
            prop_assert_eq!(length, object.len());
            let decoded = decode::<PackedTrajectory>(object.as_bytes());
            prop_assert!(decoded.is_ok(), "serde refuses what was scanned: {:?}", decoded);
            let decoded = decoded.unwrap();
            prop_assert_eq!(scanned.facts(), decoded.facts());
            prop_assert_eq!(bits(scanned.listed_reward()), bits(decoded.listed_reward()));
        }
    }

    /// The same for a trajectory reward.
    #[test]
    fn a_scanned_reward_is_what_serde_decodes(
        object in object_text(REWARD_REQUIRED, REWARD_KEYS.to_vec()),
    ) {
        let text = format!("{object}{TAIL}");
        if let Some((scanned, length)) = PackedReward::scan_plain(&text) {
            prop_assert_eq!(length, object.len());
            let decoded = decode::<PackedReward>(object.as_bytes());
            prop_assert!(decoded.is_ok(), "serde refuses what was scanned: {:?}", decoded);
            let decoded = decoded.unwrap();
            prop_assert_eq!(
                (scanned.trajectory_id(), scanned.task_id()),
                (decoded.trajectory_id(), decoded.task_id())
            );
            prop_assert_eq!(scanned.reward().to_bits(), decoded.reward().to_bits());
        }
    }

    /// A number the scanner converts has serde_json's value to the bit; one of at most 15
    /// digits and an exponent of at most 7 either way is always converted.
    #[test]
    fn a_scanned_number_has_serde_jsons_value(number in number_text()) {
        let object = format!("{{\"trajectory_id\":\"t\",\"reward\":{number}}}");
        let decoded = decode::<PackedReward>(object.as_bytes()).map(|reward| reward.reward().to_bits());
        match PackedReward::scan_plain(&object) {
            Some((scanned, _)) => prop_assert_eq!(Ok(scanned.reward().to_bits()), decoded),
            None => {
                let (digit_count, exponent) = digits_and_exponent(&number);
                let short = digit_count <= 15 && exponent.abs() <= 7;
                prop_assert!(!short, "{} was left to serde", number);
            }
        }
    }
}

/// A page: items (plain or not) and the page's own fields, any of them twice or missing.
fn page_text(
    item: impl Strategy<Value = String>,
    keys: Vec<&'static str>,
) -> impl Strategy<Value = String> {
    (
        prop::collection::vec(item, 0..4),
        prop::collection::vec((prop::sample::select(keys), value_text()), 0..4),
        any::<bool>(),
        any::<bool>(),
        space(),
    )
        .prop_map(|(items, members, with_required, items_first, end)| {
            let mut parts: Vec<String> = Vec::new();
            if with_required {
                parts.push(r#""eval_run_id":"er","has_more":false"#.to_owned());
            }
            parts.extend(
                members
                    .into_iter()
                    .map(|(key, value)| format!("\"{key}\":{value}")),
            );
            let items = format!("\"items\":[{}]", items.join(", "));
            if items_first {
                parts.insert(0, items);
            } else {
                parts.push(items);
            }
            format!("{{{}}}{end}", parts.join(","))
        })
}

const PAGE_KEYS: &[&str] = &["next_cursor", "has_more", "eval_run_id", "items", "extra"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// An API page decodes the same through the scanner as through serde alone: the same
    /// page, or the same error.
    #[test]
    fn a_page_decodes_as_serde_decodes_it(
        rewards in page_text(
            prop_oneof![
                2 => Just(r#"{"trajectory_id":"t","reward":1.0,"task_id":"a"}"#.to_owned()),
                1 => object_text(REWARD_REQUIRED, REWARD_KEYS.to_vec()),
            ],
            PAGE_KEYS.to_vec(),
        ),
        trajectories in page_text(
            prop_oneof![
                2 => Just(r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c"}"#.to_owned()),
                1 => object_text(TRAJECTORY_REQUIRED, TRAJECTORY_KEYS.to_vec()),
            ],
            PAGE_KEYS.to_vec(),
        ),
    ) {
        prop_assert_eq!(
            decode_plain::<PackedRewardsPage>(rewards.as_bytes()),
            decode::<PackedRewardsPage>(rewards.as_bytes())
        );
        prop_assert_eq!(
            decode_plain::<PackedTrajectoryPage>(trajectories.as_bytes()),
            decode::<PackedTrajectoryPage>(trajectories.as_bytes())
        );
    }
}

/// Pages as the API sends them are read by the scanner.
#[test]
fn plain_pages_are_scanned() {
    let item = r#"{"trajectory_id":"t","reward":1.0,"task_id":"a"}"#;
    let page = format!(
        r#"{{"eval_run_id":"er","items":[{item},{item}],"next_cursor":"c2","has_more":true}}"#
    );
    let (scanned, length) = PackedRewardsPage::scan_plain(&page).expect("plain");
    assert_eq!(length, page.len());
    assert_eq!(
        scanned,
        decode::<PackedRewardsPage>(page.as_bytes()).unwrap()
    );
    assert_eq!(scanned.next_cursor.as_deref(), Some("c2"));
    // No run id, or has_more null: serde's (which refuses both).
    let without_run = page.replace(r#""eval_run_id":"er","#, "");
    assert!(PackedRewardsPage::scan_plain(&without_run).is_none());
    let null_more = page.replace("true", "null");
    assert!(PackedRewardsPage::scan_plain(&null_more).is_none());
    let trajectories = r#"{"items":[],"next_cursor":null,"has_more":false}"#;
    let (scanned, _) = PackedTrajectoryPage::scan_plain(trajectories).expect("plain");
    assert_eq!(
        scanned,
        decode::<PackedTrajectoryPage>(trajectories.as_bytes()).unwrap()
    );
}

/// Items as exporters write them are read by the scanner, not left to serde.
#[test]
fn plain_items_are_scanned() {
    let trajectories = [
        r#"{"trajectory_id": "tr-a-000001-0", "organization_id": "org", "source": "eval", "status": "completed", "termination_reason": "ENV_DONE", "reward": 1.0, "num_steps": 12, "created_at": "2026-11-01T00:00:00Z", "task_id": "task-000001"}"#,
        r#"{"trajectory_id":"t","organization_id":"o","dataset_id":null,"model_association_metadata":null,"source":"eval","status":"paused_new","termination_reason":null,"reward":null,"num_steps":-3,"created_at":"c","task_id":"tâche","policy_step":400,"rollout":{"rollout_id":"r","status":"QUEUED_NEW","termination_reason":"X","harness_diagnostic":null},"extra":[]}"#,
        r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","rollout":null,"reward":-0.25e1}"#,
    ];
    for (index, text) in trajectories.iter().enumerate() {
        let scanned = PackedTrajectory::scan_plain(text);
        // The second has an array in a field not read: serde's.
        if index == 1 {
            assert!(scanned.is_none());
            let plain = text.replace(r#","extra":[]"#, "");
            let (scanned, length) = PackedTrajectory::scan_plain(&plain).expect("plain");
            assert_eq!(length, plain.len());
            let decoded: PackedTrajectory = decode(plain.as_bytes()).unwrap();
            assert_eq!(scanned, decoded);
            assert_eq!(scanned.facts().rollout_termination_reason, Some("X"));
            continue;
        }
        let (scanned, length) = PackedTrajectory::scan_plain(text).expect("plain");
        assert_eq!(length, text.len());
        assert_eq!(
            scanned,
            decode::<PackedTrajectory>(text.as_bytes()).unwrap()
        );
    }
    let reward = r#"{"trajectory_id":"t","reward":0.1,"task_id":null}"#;
    let (scanned, _) = PackedReward::scan_plain(reward).expect("plain");
    assert_eq!(scanned, decode::<PackedReward>(reward.as_bytes()).unwrap());
}

/// What serde refuses, or reads otherwise than the scanner would, is left to serde.
#[test]
fn what_serde_refuses_is_not_scanned() {
    let cases = [
        // A field twice, a required field missing, a wrong type.
        r#"{"trajectory_id":"t","trajectory_id":"u","reward":1}"#,
        r#"{"trajectory_id":"t","reward":1,"reward":1}"#,
        r#"{"trajectory_id":"t"}"#,
        r#"{"reward":1}"#,
        r#"{"trajectory_id":"t","reward":null}"#,
        r#"{"trajectory_id":1,"reward":1}"#,
        // An escape, a control character, a number out of range or not exact.
        r#"{"trajectory_id":"t\"","reward":1}"#,
        "{\"trajectory_id\":\"t\u{7}\",\"reward\":1}",
        r#"{"trajectory_id":"t","reward":1e400}"#,
        r#"{"trajectory_id":"t","reward":9007199254740993}"#,
        r#"{"trajectory_id":"t","reward":1e23}"#,
        // Not JSON, or cut.
        r#"{"trajectory_id":"t","reward":01}"#,
        r#"{"trajectory_id":"t","reward":1,}"#,
        r#"{"trajectory_id":"t","reward":1"#,
        r#"{"trajectory_id":"t","reward":1 "task_id":null}"#,
    ];
    for case in cases {
        assert!(PackedReward::scan_plain(case).is_none(), "{case}");
    }
    let trajectory_cases = [
        r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","num_steps":-0}"#,
        r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","num_steps":1.0}"#,
        r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","num_steps":9223372036854775808}"#,
        r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","dataset_id":1}"#,
        r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","dataset_id":null,"dataset_id":null}"#,
        r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","rollout":{"status":"X"}}"#,
        r#"{"trajectory_id":"t","organization_id":"o","source":"eval"}"#,
    ];
    for case in trajectory_cases {
        assert!(PackedTrajectory::scan_plain(case).is_none(), "{case}");
    }
}

/// A trajectory's step count (`num_steps`) is kept as serde reads it: a value, null or absent
/// as `None` (null is not zero); digits past 2^53 are left to serde, which keeps them exactly.
#[test]
fn a_trajectorys_step_count_is_kept() {
    let item = |steps: &str| {
        format!(
            r#"{{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c"{steps}}}"#
        )
    };
    for (steps, kept, scanned) in [
        (r#","num_steps":12"#, Some(12), true),
        (r#","num_steps":0"#, Some(0), true),
        (r#","num_steps":-3"#, Some(-3), true),
        (r#","num_steps":null"#, None, true),
        ("", None, true),
        (
            r#","num_steps":9007199254740993"#,
            Some(9_007_199_254_740_993),
            false,
        ),
        (
            r#","num_steps":-999999999999999999"#,
            Some(-999_999_999_999_999_999),
            false,
        ),
    ] {
        let text = item(steps);
        let decoded: PackedTrajectory = decode(text.as_bytes()).unwrap();
        assert_eq!(decoded.facts().num_steps, kept, "{text}");
        match PackedTrajectory::scan_plain(&text) {
            Some((plain, _)) => {
                assert!(scanned, "{text} is left to serde");
                assert_eq!(plain.facts().num_steps, kept, "{text}");
            }
            None => assert!(!scanned, "{text} is scanned"),
        }
        let page = format!(r#"{{"items":[{text}],"has_more":false}}"#);
        let read = decode_plain::<PackedTrajectoryPage>(page.as_bytes()).unwrap();
        assert_eq!(read.items[0].facts().num_steps, kept, "{page}");
    }
}
