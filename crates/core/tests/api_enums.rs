//! Enum values: known ones map to variants, unknown ones are kept by name, all round-trip.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

fn round_trip<T>(wire: &str) -> T
where
    T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_string(wire).unwrap();
    let value: T = decode(json.as_bytes()).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), json);
    value
}

#[test]
fn termination_reasons_map_and_round_trip() {
    let known = [
        ("ENV_DONE", TerminationReason::EnvDone),
        ("ERROR", TerminationReason::Error),
        ("TIMEOUT", TerminationReason::Timeout),
        ("TRUNCATION", TerminationReason::Truncation),
        ("MISSING_SUBMIT", TerminationReason::MissingSubmit),
        ("MAX_STEPS", TerminationReason::MaxSteps),
        ("LIMIT_REACHED", TerminationReason::LimitReached),
        ("STALE", TerminationReason::Stale),
        ("CANCELLED", TerminationReason::Cancelled),
        ("GOLDEN_PATCH", TerminationReason::GoldenPatch),
    ];
    for (wire, expected) in known {
        let value: TerminationReason = round_trip(wire);
        assert_eq!(value, expected);
        assert_eq!(value.as_str(), wire);
        assert_eq!(value.to_string(), wire);
        assert!(value.is_known());
    }
    let sandbox: TerminationReason = round_trip("SANDBOX_TIMEOUT");
    assert_eq!(
        sandbox,
        TerminationReason::Sandbox("SANDBOX_TIMEOUT".into())
    );
    assert!(sandbox.is_known());
    let other: TerminationReason = round_trip("env_done");
    assert_eq!(other, TerminationReason::Other("env_done".into()));
    assert!(!other.is_known());
    let empty: TerminationReason = round_trip("");
    assert_eq!(empty, TerminationReason::Other(String::new()));
}

#[test]
fn open_enums_keep_every_known_value_and_any_unknown_one() {
    fn check<T>(unknown: &str, known: &[T])
    where
        T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug + std::fmt::Display,
    {
        for value in known {
            let wire = value.to_string();
            let again: T = round_trip(&wire);
            assert_eq!(&again, value);
        }
        let kept: T = round_trip(unknown);
        assert_eq!(kept.to_string(), unknown);
        assert!(!known.contains(&kept));
    }
    check("paused", EvalRunStatus::KNOWN);
    check("paused", TrainingRunStatus::KNOWN);
    check("paused", EvalAttemptStatus::KNOWN);
    check("paused", TrajectoryStatus::KNOWN);
    check("PAUSED", RolloutStatus::KNOWN);
    check("validation", TaskSplit::KNOWN);
    check("validation", TaskSplitFilter::KNOWN);
    check("train", EvalTaskSplit::KNOWN);
    check("ultra", ReasoningEffort::KNOWN);
    check("dpo", TrainingAlgorithm::KNOWN);
    check("cosmic_rays", HarnessCategory::KNOWN);
    check("teapot_error", ErrorType::KNOWN);
}

#[test]
fn known_lists_match_the_contract() {
    assert_eq!(EvalRunStatus::KNOWN.len(), 6);
    assert_eq!(TrainingRunStatus::KNOWN.len(), 7);
    assert_eq!(EvalAttemptStatus::KNOWN.len(), 6);
    assert_eq!(TrajectoryStatus::KNOWN.len(), 5);
    assert_eq!(ReasoningEffort::KNOWN.len(), 8);
    assert_eq!(ErrorType::KNOWN.len(), 8);
    assert_eq!(HarnessCategory::KNOWN.len(), 6);
    assert_eq!(HarnessCategory::from("other"), HarnessCategory::Other);
    assert_eq!(
        ErrorType::from("rate_limit_error".to_owned()),
        ErrorType::RateLimit
    );
}

#[test]
fn terminal_eval_statuses() {
    assert!(EvalRunStatus::Completed.is_terminal());
    assert!(EvalRunStatus::Failed.is_terminal());
    assert!(EvalRunStatus::Cancelled.is_terminal());
    assert!(!EvalRunStatus::Running.is_terminal());
    assert!(!EvalRunStatus::Other("paused".into()).is_terminal());
}

#[test]
fn a_non_string_enum_value_is_an_error() {
    let error =
        decode::<TrajectoryRolloutStatus>(br#"{"rollout_id": "r", "status": 3}"#).unwrap_err();
    assert_eq!(error.path, "status");
}
