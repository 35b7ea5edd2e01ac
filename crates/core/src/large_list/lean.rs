//! Lean decoding of the two large lists (trajectories and trajectory rewards): only the fields
//! the comparison model reads, borrowed from the JSON text instead of copied.
//!
//! [`LeanTrajectory`] and [`LeanReward`] accept exactly the items
//! [`TrajectoryMetadata`] and [`EvalTrajectoryReward`] accept, read by their field tables
//! ([`super::facts`]): every field the full types require is required here too, every typed
//! field is checked for its type, a field twice is refused, and fields the model does not read
//! are checked without being kept; an item written as an array (serde reads a struct from one)
//! is read by the full type itself. Strings without escapes borrow from the input (no
//! allocation); enum values stay the exact wire strings, so values unknown to this build are
//! kept and shown as the full types keep them.
//!
//! The model builder reads either form through [`AsTrajectoryFacts`] and [`AsRewardFacts`]:
//! one borrowed view ([`TrajectoryFacts`]) of what the analysis needs.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::SeqAccessDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::facts::{
    reward_slot, slot, AsRewardFacts, AsTrajectoryFacts, Read, Table, TrajectoryFacts, REWARD,
    ROLLOUT, TRAJECTORY,
};
use crate::api::{
    EvalTrajectoryReward, HarnessDiagnostic, TrajectoryMetadata, TrajectoryRolloutStatus,
};

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

/// A string, checked as a `String` field checks it, not kept.
struct AnyText;

impl<'de> Deserialize<'de> for AnyText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'de> Visitor<'de> for Text {
            type Value = AnyText;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<AnyText, E> {
                Ok(AnyText)
            }
        }
        deserializer.deserialize_str(Text)
    }
}

/// An object, checked as a `Map<String, Value>` field checks it, not kept.
struct AnyObject;

impl<'de> Deserialize<'de> for AnyObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> Visitor<'de> for Object {
            type Value = AnyObject;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyObject, A::Error> {
                while map.next_entry::<CheckedValue, CheckedValue>()?.is_some() {}
                Ok(AnyObject)
            }
        }
        deserializer.deserialize_map(Object)
    }
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

/// What a lean item keeps: its texts by slot, its number (the reward) and its integer (a
/// trajectory's step count).
#[derive(Debug, Clone, PartialEq)]
struct Kept<'a, const N: usize> {
    texts: [Option<JsonStr<'a>>; N],
    number: Option<f64>,
    integer: Option<i64>,
}

impl<const N: usize> Default for Kept<'_, N> {
    fn default() -> Self {
        Self {
            texts: std::array::from_fn(|_| None),
            number: None,
            integer: None,
        }
    }
}

impl<const N: usize> Kept<'_, N> {
    /// Its texts, borrowed.
    fn texts(&self) -> [Option<&str>; N] {
        std::array::from_fn(|index| self.texts[index].as_ref().map(JsonStr::as_str))
    }
}

/// A full contract type whose kept fields a lean reader takes when the item is written as an
/// array: serde reads a struct from one, positionally, and the full type's own derive reads it.
trait FullForm<const N: usize>: de::DeserializeOwned {
    /// Its name, as serde's derive names it in errors.
    const NAME: &'static str;
    /// Its fields, in the contract's order.
    const FIELDS: &'static Table;
    /// Puts what the model keeps of it in `kept`.
    fn keep(&self, kept: &mut Kept<'_, N>);

    /// Reads the value of its [`Read::Rollout`] member into `kept` (only a trajectory has one).
    fn read_rollout<'de: 'a, 'a, A: MapAccess<'de>>(
        map: &mut A,
        kept: &mut Kept<'a, N>,
    ) -> Result<(), A::Error> {
        let _ = kept;
        map.next_value::<IgnoredAny>().map(drop)
    }
}

/// An owned text of a full item.
fn owned<'a>(text: Option<&str>) -> Option<JsonStr<'a>> {
    text.map(|text| JsonStr(Cow::Owned(text.to_owned())))
}

impl FullForm<{ slot::COUNT }> for TrajectoryMetadata {
    const NAME: &'static str = "TrajectoryMetadata";
    const FIELDS: &'static Table = &TRAJECTORY;
    fn keep(&self, kept: &mut Kept<'_, { slot::COUNT }>) {
        let facts = self.facts();
        kept.texts = facts.texts().map(owned);
        kept.number = facts.reward;
        kept.integer = facts.num_steps;
    }

    fn read_rollout<'de: 'a, 'a, A: MapAccess<'de>>(
        map: &mut A,
        kept: &mut Kept<'a, { slot::COUNT }>,
    ) -> Result<(), A::Error> {
        map.next_value_seed(OptionalRollout(kept))
    }
}

impl FullForm<{ slot::COUNT }> for TrajectoryRolloutStatus {
    const NAME: &'static str = "TrajectoryRolloutStatus";
    const FIELDS: &'static Table = &ROLLOUT;
    fn keep(&self, kept: &mut Kept<'_, { slot::COUNT }>) {
        kept.texts[slot::ROLLOUT_STATUS] = owned(Some(self.status.as_str()));
        kept.texts[slot::ROLLOUT_TERMINATION_REASON] = owned(
            self.termination_reason
                .as_ref()
                .map(|reason| reason.as_str()),
        );
    }
}

impl FullForm<{ reward_slot::COUNT }> for EvalTrajectoryReward {
    const NAME: &'static str = "EvalTrajectoryReward";
    const FIELDS: &'static Table = &REWARD;
    fn keep(&self, kept: &mut Kept<'_, { reward_slot::COUNT }>) {
        kept.texts[reward_slot::ID] = owned(Some(&self.trajectory_id));
        kept.texts[reward_slot::TASK] = owned(self.task_id.as_deref());
        kept.number = Some(self.reward);
    }
}

/// Reads an item of the full type `F` by `F`'s field table into `kept`, as `F`'s derive reads
/// it: each member by its field's type (a key twice refused, other keys skipped), then the
/// required fields checked in the contract's order.
struct TableVisitor<'k, 'a, const N: usize, F> {
    kept: &'k mut Kept<'a, N>,
    full: PhantomData<F>,
}

impl<'k, 'a, const N: usize, F: FullForm<N>> TableVisitor<'k, 'a, N, F> {
    fn new(kept: &'k mut Kept<'a, N>) -> Self {
        Self {
            kept,
            full: PhantomData,
        }
    }
}

impl<'de: 'a, 'a, const N: usize, F: FullForm<N>> Visitor<'de> for TableVisitor<'_, 'a, N, F> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "struct {}", F::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let table = F::FIELDS;
        let mut seen = 0u32;
        while let Some(key) = map.next_key::<JsonStr<'de>>()? {
            let Some(index) = table.index(key.as_str()) else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let (name, read) = table.fields[index];
            if seen & (1 << index) != 0 {
                return Err(de::Error::duplicate_field(name));
            }
            seen |= 1 << index;
            let kept = &mut *self.kept;
            match read {
                Read::Text(slot) => kept.texts[slot] = Some(map.next_value()?),
                Read::OptionalText(slot) => kept.texts[slot] = map.next_value()?,
                Read::Number => kept.number = Some(map.next_value()?),
                Read::OptionalNumber => kept.number = map.next_value()?,
                Read::OptionalInteger => kept.integer = map.next_value()?,
                Read::Rollout => F::read_rollout(&mut map, kept)?,
                Read::CheckText => check::<AnyText, _>(&mut map)?,
                Read::CheckOptionalText => check::<Option<AnyText>, _>(&mut map)?,
                Read::CheckOptionalInteger => check::<Option<i64>, _>(&mut map)?,
                Read::CheckOptionalObject => check::<Option<AnyObject>, _>(&mut map)?,
                Read::CheckOptionalDiagnostic => check::<Option<HarnessDiagnostic>, _>(&mut map)?,
            }
        }
        if table.has_required(seen) {
            return Ok(());
        }
        let missing = table
            .fields
            .iter()
            .enumerate()
            .find(|&(index, (_, read))| read.required() && seen & (1 << index) == 0);
        Err(de::Error::missing_field(
            missing.map_or("", |(_, (name, _))| name),
        ))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        F::deserialize(SeqAccessDeserializer::new(seq))?.keep(self.kept);
        Ok(())
    }
}

/// Reads the next value of `map` as `T` would, without keeping it.
fn check<'de, T: Deserialize<'de>, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<T>().map(|_| ())
}

/// Reads a rollout, or null, into the trajectory's kept texts.
struct OptionalRollout<'k, 'a>(&'k mut Kept<'a, { slot::COUNT }>);

impl<'de: 'a, 'a> DeserializeSeed<'de> for OptionalRollout<'_, 'a> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for OptionalRollout<'_, 'a> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("option")
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let visitor = TableVisitor::<{ slot::COUNT }, TrajectoryRolloutStatus>::new(self.0);
        deserializer.deserialize_struct(TrajectoryRolloutStatus::NAME, &[], visitor)
    }
}

/// Reads an item of the full type `F` into what a lean item keeps.
fn read_kept<'de, const N: usize, F: FullForm<N>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Kept<'de, N>, D::Error> {
    let mut kept = Kept::default();
    deserializer.deserialize_struct(F::NAME, &[], TableVisitor::<N, F>::new(&mut kept))?;
    Ok(kept)
}

/// A trajectory as listed (`TrajectoryMetadata`), decoded to what the model reads.
#[derive(Debug, Clone, PartialEq)]
pub struct LeanTrajectory<'a>(Kept<'a, { slot::COUNT }>);

impl<'de: 'a, 'a> Deserialize<'de> for LeanTrajectory<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_kept::<{ slot::COUNT }, TrajectoryMetadata, D>(deserializer).map(Self)
    }
}

/// A trajectory reward (`EvalTrajectoryReward`), its strings borrowed.
#[derive(Debug, Clone, PartialEq)]
pub struct LeanReward<'a>(Kept<'a, { reward_slot::COUNT }>);

impl<'de: 'a, 'a> Deserialize<'de> for LeanReward<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_kept::<{ reward_slot::COUNT }, EvalTrajectoryReward, D>(deserializer).map(Self)
    }
}

impl AsTrajectoryFacts for LeanTrajectory<'_> {
    fn trajectory_id(&self) -> &str {
        self.0.texts[slot::ID].as_ref().map_or("", JsonStr::as_str)
    }
    fn listed_reward(&self) -> Option<f64> {
        self.0.number
    }
    fn facts(&self) -> TrajectoryFacts<'_> {
        TrajectoryFacts::from_texts(self.0.texts(), self.0.number, self.0.integer)
    }
}

impl AsRewardFacts for LeanReward<'_> {
    fn trajectory_id(&self) -> &str {
        self.0.texts[reward_slot::ID]
            .as_ref()
            .map_or("", JsonStr::as_str)
    }
    fn reward(&self) -> f64 {
        self.0.number.unwrap_or_default()
    }
    fn task_id(&self) -> Option<&str> {
        self.0.texts[reward_slot::TASK]
            .as_ref()
            .map(JsonStr::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{decode, EvalTrajectoryReward, TrajectoryMetadata};

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
        assert_eq!(lean.facts().num_steps, Some(3));
        let text = |slot: usize| &lean.0.texts[slot].as_ref().unwrap().0;
        assert!(matches!(text(slot::CREATED_AT), Cow::Borrowed(_)));
        assert!(matches!(text(slot::ID), Cow::Owned(_)));
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

    /// Items in forms serde accepts besides a plain object (a key with an escape, an array
    /// read positionally, a rollout written as an array) read as the full type reads them.
    #[test]
    fn lean_form_reads_what_the_full_form_reads() {
        let cases = [
            r#"{"trajectory\u005fid":"t","organization_id":"o","source":"eval","created_at":"x"}"#,
            r#"["t","o",null,null,null,null,null,null,null,null,"eval","completed","ENV_DONE",0.5,3,"c",null,"task"]"#,
            r#"["t","o",null,null,null,null,null,null,null,null,"eval"]"#,
            r#"[]"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","rollout":["r","FAILED","ERROR",null]}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","rollout":["r"]}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","rollout":{"rollout_id":"r","status":"S","status":"T"}}"#,
        ];
        for case in cases {
            let full = decode::<TrajectoryMetadata>(case.as_bytes());
            let lean = decode::<LeanTrajectory<'_>>(case.as_bytes());
            match (&full, &lean) {
                (Ok(full), Ok(lean)) => assert_eq!(lean.facts(), full.facts(), "{case}"),
                (Err(full), Err(lean)) => {
                    assert_eq!((&lean.kind, &lean.path), (&full.kind, &full.path), "{case}")
                }
                _ => panic!("{case}: {full:?} but {lean:?}"),
            }
        }
        let reward = decode::<LeanReward<'_>>(br#"["t",0.5,"k"]"#).unwrap();
        assert_eq!(
            (reward.trajectory_id(), reward.reward(), reward.task_id()),
            ("t", 0.5, Some("k"))
        );
    }

    #[test]
    fn lean_reward_equals_full_reward() {
        let text = r#"{"trajectory_id":"t","reward":1.0,"task_id":null}"#;
        let full: EvalTrajectoryReward = decode(text.as_bytes()).unwrap();
        let lean: LeanReward<'_> = decode(text.as_bytes()).unwrap();
        assert_eq!(
            (lean.trajectory_id(), lean.reward(), lean.task_id()),
            (full.trajectory_id.as_str(), full.reward, None)
        );
        assert!(decode::<LeanReward<'_>>(br#"{"trajectory_id":"t"}"#).is_err());
    }
}
