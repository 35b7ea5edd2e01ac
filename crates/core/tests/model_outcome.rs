//! The class table and the scoring table: every row, unknown reasons, null and invalid rewards.

#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    classify_termination, classify_unended, rollout_status_is_active, trajectory_status_is_active,
    Exclusion, OutcomeClass, PrimaryValue, RewardState,
};

#[test]
fn env_done_is_graded_with_a_reward_and_ungraded_without() {
    assert_eq!(classify_termination("ENV_DONE", true), OutcomeClass::Graded);
    assert_eq!(
        classify_termination("ENV_DONE", false),
        OutcomeClass::Ungraded
    );
}

#[test]
fn limits_are_cut_off_whatever_the_reward() {
    for reason in ["TRUNCATION", "MAX_STEPS", "LIMIT_REACHED"] {
        assert_eq!(
            classify_termination(reason, true),
            OutcomeClass::CutOff,
            "{reason}"
        );
        assert_eq!(
            classify_termination(reason, false),
            OutcomeClass::CutOff,
            "{reason}"
        );
    }
}

#[test]
fn timeout_and_missing_submit_are_model_endings() {
    for reason in ["TIMEOUT", "MISSING_SUBMIT"] {
        assert_eq!(
            classify_termination(reason, true),
            OutcomeClass::ModelEnding
        );
        assert_eq!(
            classify_termination(reason, false),
            OutcomeClass::ModelEnding
        );
    }
}

#[test]
fn errors_stale_and_every_sandbox_failure_are_failed() {
    for reason in [
        "ERROR",
        "STALE",
        "SANDBOX_TIMEOUT",
        "SANDBOX_OOM",
        "SANDBOX_SOMETHING_NEW",
    ] {
        assert_eq!(
            classify_termination(reason, false),
            OutcomeClass::Failed,
            "{reason}"
        );
        assert_eq!(
            classify_termination(reason, true),
            OutcomeClass::Failed,
            "{reason}"
        );
    }
}

#[test]
fn cancelled_is_cancelled() {
    assert_eq!(
        classify_termination("CANCELLED", false),
        OutcomeClass::Cancelled
    );
}

#[test]
fn unknown_and_reserved_reasons_are_other() {
    for reason in ["GOLDEN_PATCH", "WEIRD_NEW_REASON", "env_done", ""] {
        assert_eq!(
            classify_termination(reason, true),
            OutcomeClass::Other,
            "{reason:?}"
        );
    }
}

#[test]
fn trajectories_without_a_reason_are_unfinished_while_active() {
    assert_eq!(classify_unended(false), OutcomeClass::Unfinished);
    assert_eq!(classify_unended(true), OutcomeClass::Other);
    for status in ["in_progress", "cancelling", "finalizing"] {
        assert!(trajectory_status_is_active(status), "{status}");
    }
    for status in ["completed", "aborted", "something_else"] {
        assert!(!trajectory_status_is_active(status), "{status}");
    }
    assert!(rollout_status_is_active("IN_PROGRESS"));
    assert!(rollout_status_is_active("running"));
    assert!(!rollout_status_is_active("FAILED"));
    assert!(!rollout_status_is_active("COMPLETED"));
}

#[test]
fn rewards_are_validated_against_the_declared_bounds() {
    assert_eq!(RewardState::from_reward(None), RewardState::Missing);
    assert_eq!(RewardState::from_reward(Some(0.0)), RewardState::Valid(0.0));
    assert_eq!(RewardState::from_reward(Some(1.0)), RewardState::Valid(1.0));
    assert_eq!(
        RewardState::from_reward(Some(0.25)),
        RewardState::Valid(0.25)
    );
    // A few ulps outside is rounding: clamped.
    assert_eq!(
        RewardState::from_reward(Some(1.0 + 1e-12)),
        RewardState::Valid(1.0)
    );
    assert_eq!(
        RewardState::from_reward(Some(-1e-12)),
        RewardState::Valid(0.0)
    );
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.5, -0.1, 100.0] {
        assert_eq!(
            RewardState::from_reward(Some(bad)),
            RewardState::Invalid,
            "{bad}"
        );
    }
}

#[test]
fn scoring_table_every_row() {
    use OutcomeClass::*;
    let valid = RewardState::Valid(0.75);
    let missing = RewardState::Missing;
    let invalid = RewardState::Invalid;
    let rows: Vec<(OutcomeClass, RewardState, PrimaryValue, Option<f64>)> = vec![
        (Graded, valid, PrimaryValue::Reward(0.75), Some(0.75)),
        (
            Graded,
            invalid,
            PrimaryValue::Excluded(Exclusion::InvalidReward),
            None,
        ),
        (
            Graded,
            missing,
            PrimaryValue::Excluded(Exclusion::NoReward),
            Some(0.0),
        ),
        (
            Ungraded,
            missing,
            PrimaryValue::Excluded(Exclusion::NoReward),
            Some(0.0),
        ),
        (CutOff, valid, PrimaryValue::Reward(0.75), Some(0.75)),
        (CutOff, missing, PrimaryValue::ZeroByPlatformRule, Some(0.0)),
        (
            CutOff,
            invalid,
            PrimaryValue::Excluded(Exclusion::InvalidReward),
            None,
        ),
        (ModelEnding, valid, PrimaryValue::Reward(0.75), Some(0.75)),
        (
            ModelEnding,
            missing,
            PrimaryValue::ZeroWithoutGrade,
            Some(0.0),
        ),
        (
            ModelEnding,
            invalid,
            PrimaryValue::Excluded(Exclusion::InvalidReward),
            None,
        ),
        (
            Failed,
            valid,
            PrimaryValue::Excluded(Exclusion::Failed),
            Some(0.0),
        ),
        (
            Failed,
            missing,
            PrimaryValue::Excluded(Exclusion::Failed),
            Some(0.0),
        ),
        (
            Failed,
            invalid,
            PrimaryValue::Excluded(Exclusion::Failed),
            Some(0.0),
        ),
        (
            Cancelled,
            valid,
            PrimaryValue::Excluded(Exclusion::Cancelled),
            Some(0.0),
        ),
        (
            Cancelled,
            missing,
            PrimaryValue::Excluded(Exclusion::Cancelled),
            Some(0.0),
        ),
        (
            Unfinished,
            valid,
            PrimaryValue::Excluded(Exclusion::Unfinished),
            Some(0.0),
        ),
        (
            Unfinished,
            missing,
            PrimaryValue::Excluded(Exclusion::Unfinished),
            Some(0.0),
        ),
        (Other, valid, PrimaryValue::Reward(0.75), Some(0.75)),
        (
            Other,
            missing,
            PrimaryValue::Excluded(Exclusion::NoReward),
            None,
        ),
        (
            Other,
            invalid,
            PrimaryValue::Excluded(Exclusion::InvalidReward),
            None,
        ),
    ];
    for (class, reward, primary, sensitivity) in rows {
        let scoring = class.score(reward);
        assert_eq!(scoring.primary, primary, "{class:?} {reward:?}");
        assert_eq!(scoring.sensitivity, sensitivity, "{class:?} {reward:?}");
    }
}

#[test]
fn primary_values_are_numbers_only_when_included() {
    assert_eq!(PrimaryValue::Reward(0.5).value(), Some(0.5));
    assert_eq!(PrimaryValue::ZeroByPlatformRule.value(), Some(0.0));
    assert_eq!(PrimaryValue::ZeroWithoutGrade.value(), Some(0.0));
    assert_eq!(PrimaryValue::Excluded(Exclusion::Failed).value(), None);
}

#[test]
fn class_labels_and_indices_are_stable() {
    let labels: Vec<&str> = OutcomeClass::ALL
        .iter()
        .map(|class| class.label())
        .collect();
    assert_eq!(
        labels,
        [
            "graded",
            "ungraded",
            "cut-off",
            "model ending",
            "failed",
            "cancelled",
            "unfinished",
            "other"
        ]
    );
    for (position, class) in OutcomeClass::ALL.iter().enumerate() {
        assert_eq!(class.index(), position);
    }
    assert_eq!(
        serde_json::to_string(&OutcomeClass::CutOff).unwrap(),
        "\"cut_off\""
    );
}
