//! Packed forms of the two large lists, as the load engine keeps them: each item decoded lean
//! ([`LeanTrajectory`], [`LeanReward`]: the same items accepted and refused as the full types)
//! and its strings kept together.
//!
//! A listed trajectory in its full form ([`TrajectoryMetadata`](crate::api::TrajectoryMetadata)) is a dozen separate
//! strings; the comparison reads seven of them. A [`PackedTrajectory`] holds those seven one
//! after another with their ends, so 800,000 of them take a quarter of the memory and are read
//! by the join from one place. Items read with their page in its plain form share the page's
//! texts of about 8 KiB each ([`SharedTexts`]): 800,000 items then take about 8,000
//! allocations instead of 800,000 (with glibc's allocator a run folder's lists are read about
//! a tenth faster and dropped in 20 ms instead of 90; the Files page reads 2 × 100k × 8
//! folders about a fifth faster). An item read alone has a text of its own.

use std::sync::Arc;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::cursor::Cursor;
use super::facts::{reward_slot, slot, AsRewardFacts, AsTrajectoryFacts, TrajectoryFacts};
use super::item_scan::{scan_reward, scan_trajectory};
use super::lean::{LeanReward, LeanTrajectory};
use super::plain_item::PlainItem;
use super::shared_texts::SharedTexts;
use crate::api::{EvalTrajectoryRewardsPage, Page};

/// A page of trajectories, packed.
pub type PackedTrajectoryPage = Page<PackedTrajectory>;

/// A page of trajectory rewards, packed.
pub type PackedRewardsPage = EvalTrajectoryRewardsPage<PackedReward>;

/// The texts of one item, appended one after another, with where each ends: in a text of
/// its own, or in its page's, which the page's items share ([`SharedTexts`]).
#[derive(Clone)]
struct PackedText<const N: usize> {
    /// The text holding this item's texts, from `start`: its own, or its page's; `None` only
    /// while the item, read with its page, waits for the page's text ([`PackedText::share`]).
    text: Option<Arc<str>>,
    start: u32,
    /// End of each text, from `start`; an absent text is empty and flagged in `present`.
    ends: [u32; N],
    /// Bit `i` set: text `i` is present (a string, not null or missing).
    present: u8,
}

impl<const N: usize> PackedText<N> {
    /// Packs `parts` (each present or not) into a text of its own.
    fn pack<E: de::Error>(parts: [Option<&str>; N]) -> Result<Self, E> {
        let length = Self::length(&parts);
        u32::try_from(length).map_err(|_| E::custom("an item's strings exceed 4 GiB"))?;
        let mut text = String::with_capacity(length);
        let mut packed = Self::append(parts, &mut text, 0);
        packed.text = Some(Arc::from(text));
        Ok(packed)
    }

    /// Packs `parts` into `shared`, the texts of the items read beside it: whole once
    /// [`Self::share`] gave it its text. `None` past 4 GiB of strings.
    fn pack_shared(parts: [Option<&str>; N], shared: &mut SharedTexts) -> Option<Self> {
        let (text, start) = shared.room(Self::length(&parts))?;
        Some(Self::append(parts, text, start))
    }

    /// The parts' length in all.
    fn length(parts: &[Option<&str>; N]) -> usize {
        parts.iter().flatten().map(|part| part.len()).sum()
    }

    /// `parts` appended to `text`, at `start`, without the text itself; the caller has
    /// checked that they end within 4 GiB of `start`'s text.
    fn append(parts: [Option<&str>; N], text: &mut String, start: u32) -> Self {
        let mut ends = [0u32; N];
        let mut present = 0u8;
        let mut end = 0;
        for (index, part) in parts.iter().enumerate() {
            if let Some(part) = part {
                text.push_str(part);
                end += part.len();
                present |= 1 << index;
            }
            // Cannot truncate: the parts' length fits in u32 (checked by the caller).
            ends[index] = end as u32;
        }
        Self {
            text: None,
            start,
            ends,
            present,
        }
    }

    /// Gives the items of `texts` waiting for it the text they were packed into (in the
    /// order they were packed), their offset made its.
    fn share<'a>(texts: impl Iterator<Item = &'a mut Self>, shared: SharedTexts) {
        let filled = shared.into_texts();
        let mut at = 0;
        for waiting in texts.filter(|texts| texts.text.is_none()) {
            while filled
                .get(at + 1)
                .is_some_and(|&(start, _)| waiting.start as usize >= start)
            {
                at += 1;
            }
            let Some((start, text)) = filled.get(at) else {
                // Never: there is a text whenever an item waits for one.
                break;
            };
            // Within the texts' 4 GiB (checked as they were packed).
            waiting.start -= *start as u32;
            waiting.text = Some(Arc::clone(text));
        }
    }

    /// Text `index`, when present.
    fn get(&self, index: usize) -> Option<&str> {
        if self.present & (1 << index) == 0 {
            return None;
        }
        debug_assert!(
            self.text.is_some(),
            "an item read with its page has its text"
        );
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1] as usize,
        };
        let base = self.start as usize;
        self.text
            .as_deref()?
            .get(base + start..base + self.ends[index] as usize)
    }

    /// Text `index` of a required field (empty if it were ever absent).
    fn required(&self, index: usize) -> &str {
        self.get(index).unwrap_or_default()
    }

    /// Its texts, each present or not.
    fn parts(&self) -> [Option<&str>; N] {
        std::array::from_fn(|index| self.get(index))
    }
}

#[cfg(test)]
impl<const N: usize> PackedText<N> {
    /// Whether its strings are kept in the same text as `other`'s (for the tests).
    pub(crate) fn kept_with(&self, other: &Self) -> bool {
        match (&self.text, &other.text) {
            (Some(text), Some(other)) => Arc::ptr_eq(text, other),
            _ => false,
        }
    }
}

/// Two items' texts are equal when each of their texts is, wherever they are kept.
impl<const N: usize> PartialEq for PackedText<N> {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl<const N: usize> std::fmt::Debug for PackedText<N> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_list().entries(self.parts()).finish()
    }
}

/// A listed trajectory as the load engine keeps it: what the comparison reads
/// ([`TrajectoryFacts`]), its strings kept together. Decodes exactly the items
/// [`TrajectoryMetadata`](crate::api::TrajectoryMetadata) decodes (through [`LeanTrajectory`]); serializes as its facts.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedTrajectory {
    texts: PackedText<{ slot::COUNT }>,
    reward: Option<f64>,
    steps: Option<i64>,
}

impl PackedTrajectory {
    /// Packs a trajectory's facts.
    fn from_facts<E: de::Error>(facts: &TrajectoryFacts<'_>) -> Result<Self, E> {
        Ok(Self {
            texts: PackedText::pack(facts.texts())?,
            reward: facts.reward,
            steps: facts.num_steps,
        })
    }
}

impl PackedTrajectory {
    /// A trajectory from its texts by [`slot`], reward and step count, read with its page
    /// (the packed wire form's reader): its texts appended to `shared`, whole once
    /// [`PlainItem::share`] gave it that text. `None` past 4 GiB of texts.
    pub(crate) fn pack_sharing(
        texts: [Option<&str>; slot::COUNT],
        reward: Option<f64>,
        steps: Option<i64>,
        shared: &mut SharedTexts,
    ) -> Option<Self> {
        Some(Self {
            texts: PackedText::pack_shared(texts, shared)?,
            reward,
            steps,
        })
    }
}

impl<'de> Deserialize<'de> for PackedTrajectory {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let lean = LeanTrajectory::deserialize(deserializer)?;
        Self::from_facts(&lean.facts())
    }
}

impl PackedTrajectory {
    /// The plain item at the start of `text`, its texts packed by `pack`, and its length.
    fn scan(
        text: &str,
        pack: impl FnOnce([Option<&str>; slot::COUNT]) -> Option<PackedText<{ slot::COUNT }>>,
    ) -> Option<(Self, usize)> {
        let mut cursor = Cursor::new(text);
        let (texts, reward, steps) = scan_trajectory(&mut cursor)?;
        let packed = Self {
            texts: pack(texts)?,
            reward,
            steps,
        };
        Some((packed, cursor.at()))
    }
}

/// [`PlainItem`] for a packed item (a `texts` field, and a `scan(text, pack)` that reads the
/// plain item at the start of `text` and packs its texts with `pack`): its texts packed into a
/// text of its own, or into the texts shared with the items read beside it.
macro_rules! plain_packed_item {
    ($item:ty) => {
        impl PlainItem for $item {
            fn scan_plain(text: &str) -> Option<(Self, usize)> {
                Self::scan(text, |parts| {
                    PackedText::pack::<serde_json::Error>(parts).ok()
                })
            }

            fn scan_plain_sharing(text: &str, shared: &mut SharedTexts) -> Option<(Self, usize)> {
                Self::scan(text, |parts| PackedText::pack_shared(parts, shared))
            }

            fn share(items: &mut [Self], shared: SharedTexts) {
                PackedText::share(items.iter_mut().map(|item| &mut item.texts), shared);
            }
        }
    };
}

plain_packed_item!(PackedTrajectory);

impl Serialize for PackedTrajectory {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.facts().serialize(serializer)
    }
}

impl AsTrajectoryFacts for PackedTrajectory {
    fn trajectory_id(&self) -> &str {
        self.texts.required(slot::ID)
    }
    fn listed_reward(&self) -> Option<f64> {
        self.reward
    }
    fn facts(&self) -> TrajectoryFacts<'_> {
        TrajectoryFacts::from_texts(self.texts.parts(), self.reward, self.steps)
    }
}

/// A trajectory reward as the load engine keeps it: its id and task kept together.
/// Decodes exactly the items [`EvalTrajectoryReward`](crate::api::EvalTrajectoryReward) decodes; serializes as that.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedReward {
    texts: PackedText<{ reward_slot::COUNT }>,
    reward: f64,
}

impl PackedReward {
    /// Packs a reward's id, value and task.
    fn from_parts<E: de::Error>(id: &str, reward: f64, task: Option<&str>) -> Result<Self, E> {
        Ok(Self {
            texts: PackedText::pack(Self::texts(id, task))?,
            reward,
        })
    }

    /// Its texts by slot.
    fn texts<'a>(id: &'a str, task: Option<&'a str>) -> [Option<&'a str>; reward_slot::COUNT] {
        let mut texts = [None; reward_slot::COUNT];
        texts[reward_slot::ID] = Some(id);
        texts[reward_slot::TASK] = task;
        texts
    }
}

impl PackedReward {
    /// The plain item at the start of `text`, its texts packed by `pack`, and its length.
    fn scan(
        text: &str,
        pack: impl FnOnce(
            [Option<&str>; reward_slot::COUNT],
        ) -> Option<PackedText<{ reward_slot::COUNT }>>,
    ) -> Option<(Self, usize)> {
        let mut cursor = Cursor::new(text);
        let (texts, reward) = scan_reward(&mut cursor)?;
        let packed = Self {
            texts: pack(texts)?,
            reward,
        };
        Some((packed, cursor.at()))
    }
}

impl PackedReward {
    /// A reward from its id, value and task, read with its page (see
    /// [`PackedTrajectory::pack_sharing`]). `None` past 4 GiB of texts.
    pub(crate) fn pack_sharing(
        id: &str,
        reward: f64,
        task: Option<&str>,
        shared: &mut SharedTexts,
    ) -> Option<Self> {
        Some(Self {
            texts: PackedText::pack_shared(Self::texts(id, task), shared)?,
            reward,
        })
    }
}

#[cfg(test)]
impl PackedReward {
    /// Whether its strings are kept in the same text as `other`'s (for the tests).
    pub(crate) fn kept_with(&self, other: &Self) -> bool {
        self.texts.kept_with(&other.texts)
    }
}

plain_packed_item!(PackedReward);

impl<'de> Deserialize<'de> for PackedReward {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let lean = LeanReward::deserialize(deserializer)?;
        Self::from_parts(lean.trajectory_id(), lean.reward(), lean.task_id())
    }
}

impl Serialize for PackedReward {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Reward<'a> {
            trajectory_id: &'a str,
            reward: f64,
            task_id: Option<&'a str>,
        }
        Reward {
            trajectory_id: self.trajectory_id(),
            reward: self.reward,
            task_id: self.task_id(),
        }
        .serialize(serializer)
    }
}

impl AsRewardFacts for PackedReward {
    fn trajectory_id(&self) -> &str {
        self.texts.required(reward_slot::ID)
    }
    fn reward(&self) -> f64 {
        self.reward
    }
    fn task_id(&self) -> Option<&str> {
        self.texts.get(reward_slot::TASK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{decode, EvalTrajectoryReward, TrajectoryMetadata};

    const FULL: &str = r#"{"trajectory_id":"t\u00e9","organization_id":"org","source":"eval",
        "status":"paused_new","termination_reason":"SANDBOX_OOM","reward":0.5,"num_steps":3,
        "created_at":"2026-11-01T00:00:00Z","task_id":"","rollout":{"rollout_id":"r",
        "status":"QUEUED_NEW","termination_reason":null},"extra":1}"#;

    #[test]
    fn packed_full_and_lean_forms_give_the_same_facts() {
        let full: TrajectoryMetadata = decode(FULL.as_bytes()).unwrap();
        let packed: PackedTrajectory = decode(FULL.as_bytes()).unwrap();
        assert_eq!(packed.facts(), full.facts());
        assert_eq!(
            packed.facts().task,
            Some(""),
            "an empty task is kept, not absent"
        );
        assert_eq!(packed.facts().rollout_termination_reason, None);
        assert_eq!(packed.facts().num_steps, Some(3));
        assert_eq!(packed.trajectory_id(), "té");
        assert_eq!(packed.listed_reward(), Some(0.5));
    }

    /// The plain items of a page keep their strings in one text, the page's; an item serde
    /// reads among them keeps its own; each reads as serde reads it.
    #[test]
    fn a_pages_plain_items_share_one_text() {
        let plain = |id: &str| {
            format!(
                r#"{{"trajectory_id":"{id}","organization_id":"o","source":"eval","created_at":"c","task_id":"k"}}"#
            )
        };
        let escaped =
            r#"{"trajectory_id":"t\u0031","organization_id":"o","source":"eval","created_at":"c"}"#;
        let page = format!(
            r#"{{"items":[{},{},{escaped},{}],"has_more":false}}"#,
            plain("a"),
            plain("bb"),
            plain("ccc")
        );
        let (scanned, _) = PackedTrajectoryPage::scan_plain(&page).expect("plain");
        let decoded: Page<TrajectoryMetadata> = decode(page.as_bytes()).unwrap();
        let ids: Vec<&str> = scanned.items.iter().map(|t| t.trajectory_id()).collect();
        assert_eq!(ids, ["a", "bb", "t1", "ccc"]);
        for (packed, full) in scanned.items.iter().zip(&decoded.items) {
            assert_eq!(packed.facts(), full.facts());
        }
        let text = |index: usize| scanned.items[index].texts.text.clone().unwrap();
        assert!(Arc::ptr_eq(&text(0), &text(1)) && Arc::ptr_eq(&text(0), &text(3)));
        assert!(
            !Arc::ptr_eq(&text(0), &text(2)),
            "read by serde: its own text"
        );
        // Equal to the same item packed alone.
        let alone: PackedTrajectory = decode(plain("bb").as_bytes()).unwrap();
        assert_eq!(scanned.items[1], alone);
        assert_eq!(format!("{:?}", scanned.items[1]), format!("{alone:?}"));
        assert_ne!(scanned.items[0], alone);
    }

    /// A page's items fill texts of about 8 KiB one after another, each item whole in one;
    /// an item whose strings are all empty, among others or alone on its page, reads as such.
    #[test]
    fn a_large_pages_items_fill_several_texts() {
        let reward = |id: &str| format!(r#"{{"trajectory_id":"{id}","reward":1,"task_id":"k"}}"#);
        let page = |items: &[String]| {
            format!(
                r#"{{"items":[{}],"has_more":false,"eval_run_id":"er"}}"#,
                items.join(",")
            )
        };
        let long = "x".repeat(3000);
        let mut items: Vec<String> = (0..12).map(|n| reward(&format!("{long}{n}"))).collect();
        items.insert(
            3,
            r#"{"trajectory_id":"","reward":0,"task_id":""}"#.to_owned(),
        );
        let (scanned, _) = PackedRewardsPage::scan_plain(&page(&items)).expect("plain");
        let decoded: EvalTrajectoryRewardsPage = decode(page(&items).as_bytes()).unwrap();
        assert_eq!(scanned.items.len(), 13);
        for (packed, full) in scanned.items.iter().zip(&decoded.items) {
            assert_eq!(
                (packed.trajectory_id(), packed.task_id()),
                (full.trajectory_id.as_str(), full.task_id.as_deref())
            );
        }
        let texts: Vec<Arc<str>> = scanned
            .items
            .iter()
            .map(|r| r.texts.text.clone().unwrap())
            .collect();
        let distinct = texts
            .iter()
            .enumerate()
            .filter(|(i, t)| *i == 0 || !Arc::ptr_eq(t, &texts[i - 1]))
            .count();
        assert!(
            (4..=6).contains(&distinct),
            "{distinct} texts of about 8 KiB for 36 KB"
        );
        assert!(texts.iter().all(|text| text.len() <= 8 << 10));

        let empty = page(&[r#"{"trajectory_id":"","reward":0}"#.to_owned()]);
        let (scanned, _) = PackedRewardsPage::scan_plain(&empty).expect("plain");
        assert_eq!(
            (scanned.items[0].trajectory_id(), scanned.items[0].task_id()),
            ("", None)
        );
    }

    #[test]
    fn every_absent_text_stays_absent() {
        let bare =
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c"}"#;
        let packed: PackedTrajectory = decode(bare.as_bytes()).unwrap();
        let full: TrajectoryMetadata = decode(bare.as_bytes()).unwrap();
        assert_eq!(packed.facts(), full.facts());
        assert_eq!(packed.facts().status, None);
        assert_eq!(packed.listed_reward(), None);
    }

    #[test]
    fn packed_form_refuses_what_the_full_form_refuses() {
        let cases = [
            r#"{"trajectory_id":"t","source":"eval","created_at":"x"}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","num_steps":1.5}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","reward":"1"}"#,
        ];
        for case in cases {
            let full = decode::<TrajectoryMetadata>(case.as_bytes()).unwrap_err();
            let packed = decode::<PackedTrajectory>(case.as_bytes()).unwrap_err();
            assert_eq!((packed.kind, packed.path), (full.kind, full.path), "{case}");
        }
        assert!(decode::<PackedReward>(br#"{"trajectory_id":"t"}"#).is_err());
    }

    #[test]
    fn packed_reward_serializes_as_the_full_reward() {
        for text in [
            r#"{"trajectory_id":"t","reward":1.0,"task_id":null}"#,
            r#"{"trajectory_id":"a\"b","reward":-0.25,"task_id":"task-9"}"#,
        ] {
            let full: EvalTrajectoryReward = decode(text.as_bytes()).unwrap();
            let packed: PackedReward = decode(text.as_bytes()).unwrap();
            assert_eq!(
                serde_json::to_string(&packed).unwrap(),
                serde_json::to_string(&full).unwrap()
            );
            assert_eq!(
                (packed.trajectory_id(), packed.reward(), packed.task_id()),
                (
                    full.trajectory_id.as_str(),
                    full.reward,
                    full.task_id.as_deref()
                )
            );
        }
    }
}
