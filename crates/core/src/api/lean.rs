//! Lean decoding of the two large lists (trajectories and trajectory rewards): only the fields
//! the comparison model reads, borrowed from the JSON text instead of copied.
//!
//! [`LeanTrajectory`] and [`LeanReward`] accept exactly the items [`TrajectoryMetadata`] and
//! [`EvalTrajectoryReward`] accept: every field the full types require is required here too,
//! and every typed field is checked for its type, but fields the model does not read are checked
//! without being kept. Strings without escapes borrow from the input (no allocation); enum
//! values stay the exact wire strings, so values unknown to this build are kept and shown as
//! the full types keep them.
//!
//! The model builder reads either form through [`AsTrajectoryFacts`] and [`AsRewardFacts`]:
//! one borrowed view ([`TrajectoryFacts`]) of what the analysis needs.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::rewards::EvalTrajectoryReward;
use super::trajectory::{HarnessDiagnostic, TrajectoryMetadata};

/// A JSON string borrowed from the input when it has no escapes, else owned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct JsonStr<'a>(pub Cow<'a, str>);

impl JsonStr<'_> {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for JsonStr<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for Text<'a> {
            type Value = JsonStr<'a>;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<JsonStr<'a>, E> {
                Ok(JsonStr(Cow::Borrowed(value)))
            }
            fn visit_str<E: de::Error>(self, value: &str) -> Result<JsonStr<'a>, E> {
                Ok(JsonStr(Cow::Owned(value.to_owned())))
            }
            fn visit_string<E: de::Error>(self, value: String) -> Result<JsonStr<'a>, E> {
                Ok(JsonStr(Cow::Owned(value)))
            }
        }
        deserializer.deserialize_str(Text(PhantomData))
    }
}

/// Checks that a value is a string, as a `String` field would, without keeping it.
fn check_str<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(), D::Error> {
    struct AnyStr;
    impl<'de> Visitor<'de> for AnyStr {
        type Value = ();
        fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
            formatter.write_str("a string")
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
    }
    deserializer.deserialize_str(AnyStr)
}

/// Checks that a value is null or a string, as an `Option<String>` field would.
fn check_optional_str<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(), D::Error> {
    #[derive(Deserialize)]
    struct Checked(#[serde(deserialize_with = "check_str")] ());
    Option::<Checked>::deserialize(deserializer).map(drop)
}

/// Checks that a value is null or an object, as an `Option<Map<String, Value>>` field would.
fn check_optional_object<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(), D::Error> {
    struct AnyObject;
    impl<'de> Visitor<'de> for AnyObject {
        type Value = ();
        fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
            formatter.write_str("a map")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while map.next_entry::<CheckedValue, CheckedValue>()?.is_some() {}
            Ok(())
        }
    }
    #[derive(Deserialize)]
    struct Checked(#[serde(deserialize_with = "check_object")] ());
    fn check_object<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(AnyObject)
    }
    Option::<Checked>::deserialize(deserializer).map(drop)
}

/// Any JSON value, checked as a `serde_json::Value` reads it (nested as deep at most, the same
/// numbers out of range refused), without keeping it: `IgnoredAny` reads nesting of any depth
/// and numbers of any size, which the full types refuse in an object they keep.
struct CheckedValue;

impl<'de> Deserialize<'de> for CheckedValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AnyValue;
        impl<'de> Visitor<'de> for AnyValue {
            type Value = CheckedValue;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("any valid JSON value")
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<CheckedValue, E> {
                Ok(CheckedValue)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<CheckedValue, E> {
                Ok(CheckedValue)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<CheckedValue, E> {
                Ok(CheckedValue)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<CheckedValue, E> {
                Ok(CheckedValue)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<CheckedValue, E> {
                Ok(CheckedValue)
            }
            fn visit_unit<E: de::Error>(self) -> Result<CheckedValue, E> {
                Ok(CheckedValue)
            }
            fn visit_none<E: de::Error>(self) -> Result<CheckedValue, E> {
                Ok(CheckedValue)
            }
            fn visit_some<D: Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<CheckedValue, D::Error> {
                CheckedValue::deserialize(deserializer)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<CheckedValue, A::Error> {
                while seq.next_element::<CheckedValue>()?.is_some() {}
                Ok(CheckedValue)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CheckedValue, A::Error> {
                while map.next_entry::<CheckedValue, CheckedValue>()?.is_some() {}
                Ok(CheckedValue)
            }
        }
        deserializer.deserialize_any(AnyValue)
    }
}

/// Checks a value as `T` would decode it, without keeping it.
fn check_as<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(), D::Error> {
    T::deserialize(deserializer).map(drop)
}

/// A trajectory as listed (`TrajectoryMetadata`), decoded to what the model reads.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LeanTrajectory<'a> {
    /// Trajectory id.
    #[serde(borrow)]
    pub trajectory_id: JsonStr<'a>,
    #[serde(rename = "organization_id", deserialize_with = "check_str")]
    _organization_id: (),
    #[serde(
        rename = "dataset_id",
        default,
        deserialize_with = "check_optional_str"
    )]
    _dataset_id: (),
    #[serde(
        rename = "dataset_name",
        default,
        deserialize_with = "check_optional_str"
    )]
    _dataset_name: (),
    #[serde(
        rename = "dataset_source",
        default,
        deserialize_with = "check_optional_str"
    )]
    _dataset_source: (),
    #[serde(
        rename = "dataset_gcs_prefix",
        default,
        deserialize_with = "check_optional_str"
    )]
    _dataset_gcs_prefix: (),
    #[serde(rename = "trace_id", default, deserialize_with = "check_optional_str")]
    _trace_id: (),
    #[serde(rename = "model_id", default, deserialize_with = "check_optional_str")]
    _model_id: (),
    #[serde(
        rename = "model_association_source",
        default,
        deserialize_with = "check_optional_str"
    )]
    _model_association_source: (),
    #[serde(
        rename = "model_association_metadata",
        default,
        deserialize_with = "check_optional_object"
    )]
    _model_association_metadata: (),
    #[serde(rename = "source", deserialize_with = "check_str")]
    _source: (),
    /// Recorded trajectory state (the wire string).
    #[serde(default, borrow)]
    pub status: Option<JsonStr<'a>>,
    /// Recorded termination reason (the wire string).
    #[serde(default, borrow)]
    pub termination_reason: Option<JsonStr<'a>>,
    /// Reward; null when none was recorded (not zero).
    #[serde(default)]
    pub reward: Option<f64>,
    #[serde(
        rename = "num_steps",
        default,
        deserialize_with = "check_as::<Option<i64>, _>"
    )]
    _num_steps: (),
    /// Creation time.
    #[serde(borrow)]
    pub created_at: JsonStr<'a>,
    #[serde(
        rename = "training_run_id",
        default,
        deserialize_with = "check_optional_str"
    )]
    _training_run_id: (),
    /// Benchmark task.
    #[serde(default, borrow)]
    pub task_id: Option<JsonStr<'a>>,
    #[serde(
        rename = "policy_step",
        default,
        deserialize_with = "check_as::<Option<i64>, _>"
    )]
    _policy_step: (),
    /// Rollout state.
    #[serde(default, borrow)]
    pub rollout: Option<LeanRollout<'a>>,
}

/// A trajectory's rollout state (`TrajectoryRolloutStatus`), decoded to what the model reads.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LeanRollout<'a> {
    #[serde(rename = "rollout_id", deserialize_with = "check_str")]
    _rollout_id: (),
    /// Rollout Service state (the wire string).
    #[serde(borrow)]
    pub status: JsonStr<'a>,
    /// Recorded rollout termination reason (the wire string).
    #[serde(default, borrow)]
    pub termination_reason: Option<JsonStr<'a>>,
    #[serde(
        rename = "harness_diagnostic",
        default,
        deserialize_with = "check_as::<Option<HarnessDiagnostic>, _>"
    )]
    _harness_diagnostic: (),
}

/// A trajectory reward (`EvalTrajectoryReward`), its strings borrowed.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LeanReward<'a> {
    /// Trajectory identifier.
    #[serde(borrow)]
    pub trajectory_id: JsonStr<'a>,
    /// Reward assigned to the trajectory.
    pub reward: f64,
    /// Benchmark task identifier, when one was recorded.
    #[serde(default, borrow)]
    pub task_id: Option<JsonStr<'a>>,
}

/// What the comparison model reads of a listed trajectory, borrowed from either form.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TrajectoryFacts<'a> {
    /// Trajectory id.
    pub id: &'a str,
    /// Benchmark task.
    pub task: Option<&'a str>,
    /// Reward recorded on the listing; `None` when null.
    pub reward: Option<f64>,
    /// Creation time as listed.
    pub created_at: &'a str,
    /// Recorded trajectory state (wire string).
    pub status: Option<&'a str>,
    /// Recorded termination reason (wire string).
    pub termination_reason: Option<&'a str>,
    /// The rollout's state (wire string), when the trajectory has a rollout.
    pub rollout_status: Option<&'a str>,
    /// The rollout's termination reason (wire string).
    pub rollout_termination_reason: Option<&'a str>,
}

/// A listed trajectory in either form (full or lean), as the model builder reads it.
pub trait AsTrajectoryFacts {
    /// Trajectory id.
    fn trajectory_id(&self) -> &str;
    /// Reward recorded on the listing.
    fn listed_reward(&self) -> Option<f64>;
    /// Everything the model reads.
    fn facts(&self) -> TrajectoryFacts<'_>;
}

/// A trajectory reward in either form, as the model builder reads it.
pub trait AsRewardFacts {
    /// Trajectory id.
    fn trajectory_id(&self) -> &str;
    /// The effective reward.
    fn reward(&self) -> f64;
    /// Benchmark task, when recorded.
    fn task_id(&self) -> Option<&str>;
}

impl AsTrajectoryFacts for TrajectoryMetadata {
    fn trajectory_id(&self) -> &str {
        &self.trajectory_id
    }
    fn listed_reward(&self) -> Option<f64> {
        self.reward
    }
    fn facts(&self) -> TrajectoryFacts<'_> {
        let rollout = self.rollout.as_ref();
        TrajectoryFacts {
            id: &self.trajectory_id,
            task: self.task_id.as_deref(),
            reward: self.reward,
            created_at: &self.created_at,
            status: self.status.as_ref().map(|status| status.as_str()),
            termination_reason: self
                .termination_reason
                .as_ref()
                .map(|reason| reason.as_str()),
            rollout_status: rollout.map(|rollout| rollout.status.as_str()),
            rollout_termination_reason: rollout
                .and_then(|rollout| rollout.termination_reason.as_ref())
                .map(|reason| reason.as_str()),
        }
    }
}

impl AsTrajectoryFacts for LeanTrajectory<'_> {
    fn trajectory_id(&self) -> &str {
        self.trajectory_id.as_str()
    }
    fn listed_reward(&self) -> Option<f64> {
        self.reward
    }
    fn facts(&self) -> TrajectoryFacts<'_> {
        let rollout = self.rollout.as_ref();
        TrajectoryFacts {
            id: self.trajectory_id.as_str(),
            task: self.task_id.as_ref().map(JsonStr::as_str),
            reward: self.reward,
            created_at: self.created_at.as_str(),
            status: self.status.as_ref().map(JsonStr::as_str),
            termination_reason: self.termination_reason.as_ref().map(JsonStr::as_str),
            rollout_status: rollout.map(|rollout| rollout.status.as_str()),
            rollout_termination_reason: rollout
                .and_then(|rollout| rollout.termination_reason.as_ref())
                .map(JsonStr::as_str),
        }
    }
}

impl AsRewardFacts for EvalTrajectoryReward {
    fn trajectory_id(&self) -> &str {
        &self.trajectory_id
    }
    fn reward(&self) -> f64 {
        self.reward
    }
    fn task_id(&self) -> Option<&str> {
        self.task_id.as_deref()
    }
}

impl AsRewardFacts for LeanReward<'_> {
    fn trajectory_id(&self) -> &str {
        self.trajectory_id.as_str()
    }
    fn reward(&self) -> f64 {
        self.reward
    }
    fn task_id(&self) -> Option<&str> {
        self.task_id.as_ref().map(JsonStr::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::decode;

    const FULL: &str = r#"{"trajectory_id":"t\u0031","organization_id":"org","source":"eval",
        "dataset_id":null,"model_association_metadata":{"a":[1,{"b":2}]},"status":"paused_new",
        "termination_reason":"SANDBOX_OOM","reward":0.5,"num_steps":3,"created_at":"2026-11-01T00:00:00Z",
        "task_id":"task-1","policy_step":null,"rollout":{"rollout_id":"r","status":"QUEUED_NEW",
        "termination_reason":null,"harness_diagnostic":{"category":"novel","exit_code":1}},"extra":1}"#;

    #[test]
    fn lean_and_full_forms_give_the_same_facts() {
        let full: TrajectoryMetadata = decode(FULL.as_bytes()).unwrap();
        let lean: LeanTrajectory<'_> = decode(FULL.as_bytes()).unwrap();
        assert_eq!(lean.facts(), full.facts());
        assert_eq!(lean.facts().status, Some("paused_new"));
        assert_eq!(lean.facts().rollout_status, Some("QUEUED_NEW"));
        assert_eq!(lean.facts().id, "t1");
        assert!(matches!(lean.created_at.0, Cow::Borrowed(_)));
        assert!(matches!(lean.trajectory_id.0, Cow::Owned(_)));
    }

    #[test]
    fn lean_form_refuses_what_the_full_form_refuses() {
        let cases = [
            r#"{"trajectory_id":"t","source":"eval","created_at":"x"}"#,
            r#"{"trajectory_id":"t","organization_id":1,"source":"eval","created_at":"x"}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","dataset_id":2}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","num_steps":1.5}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","model_association_metadata":[]}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","rollout":{"status":"X"}}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","rollout":{"rollout_id":"r","status":"X","harness_diagnostic":{}}}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","reward":"1"}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","reward":1"#,
        ];
        // Nested past serde_json's limit, or a number out of range, in an object not read.
        let deep = format!(
            r#"{{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","model_association_metadata":{}null{}}}"#,
            r#"{"x":"#.repeat(130),
            "}".repeat(130)
        );
        let huge = r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","model_association_metadata":{"x":[1e400]}}"#;
        for case in cases.iter().copied().chain([deep.as_str(), huge]) {
            let full = decode::<TrajectoryMetadata>(case.as_bytes()).unwrap_err();
            let lean = decode::<LeanTrajectory<'_>>(case.as_bytes()).unwrap_err();
            assert_eq!(lean.kind, full.kind, "{case}");
            assert_eq!(lean.path, full.path, "{case}");
        }
        let ok = r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","dataset_id":null,"rollout":null}"#;
        decode::<TrajectoryMetadata>(ok.as_bytes()).unwrap();
        decode::<LeanTrajectory<'_>>(ok.as_bytes()).unwrap();
    }

    #[test]
    fn lean_reward_equals_full_reward() {
        let text = r#"{"trajectory_id":"t","reward":1.0,"task_id":null}"#;
        let full: EvalTrajectoryReward = decode(text.as_bytes()).unwrap();
        let lean: LeanReward<'_> = decode(text.as_bytes()).unwrap();
        assert_eq!(
            (lean.trajectory_id.as_str(), lean.reward, lean.task_id),
            (full.trajectory_id.as_str(), full.reward, None)
        );
        assert!(decode::<LeanReward<'_>>(br#"{"trajectory_id":"t"}"#).is_err());
    }
}
