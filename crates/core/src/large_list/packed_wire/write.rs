//! Writing a page's frame (see [`super`]): the line decoded as the reader of a JSON line
//! decodes it, then its strings gathered once each and its items written by index.

use std::collections::HashMap;

use super::{
    FRAME_HEAD, FRAME_MARK, KIND_REWARDS, KIND_TRAJECTORIES, MAX_FRAME_BODY, MAX_FRAME_ITEMS,
    MAX_FRAME_TEXTS, PAGE_CURSOR, PAGE_HAS_MORE, REWARD_F32, REWARD_F64, REWARD_NONE, STEPS_NONE,
    STEPS_SHIFT, STEPS_VARINT,
};
use crate::large_list::facts::{AsRewardFacts, AsTrajectoryFacts};
use crate::large_list::packed::{PackedRewardsPage, PackedTrajectoryPage};
use crate::large_list::plain_item::decode_plain;

/// The frame of a page line of trajectories; `None` when the line does not decode, or its
/// frame would be too large.
pub(super) fn trajectory_page(line: &[u8]) -> Option<Vec<u8>> {
    let page = decode_plain::<PackedTrajectoryPage>(line).ok()?;
    let mut body = Body::new(page.has_more, page.next_cursor.as_deref(), page.items.len());
    for item in &page.items {
        let facts = item.facts();
        body.texts(&facts.texts());
        body.numbers(facts.reward, facts.num_steps);
    }
    body.frame(KIND_TRAJECTORIES, None, page.items.len())
}

/// The frame of a page line of trajectory rewards (see [`trajectory_page`]).
pub(super) fn reward_page(line: &[u8]) -> Option<Vec<u8>> {
    let page = decode_plain::<PackedRewardsPage>(line).ok()?;
    let mut body = Body::new(page.has_more, page.next_cursor.as_deref(), page.items.len());
    let run = body.strings.index(&page.eval_run_id);
    for item in &page.items {
        body.texts(&[Some(item.trajectory_id()), item.task_id()]);
        body.numbers(Some(item.reward()), None);
    }
    body.frame(KIND_REWARDS, Some(run), page.items.len())
}

/// A page's strings, each once, by index.
struct Strings<'a> {
    list: Vec<&'a str>,
    index: HashMap<&'a str, u32>,
}

impl<'a> Strings<'a> {
    /// Room for `count` strings.
    fn with_capacity(count: usize) -> Self {
        Self {
            list: Vec::with_capacity(count),
            index: HashMap::with_capacity(count),
        }
    }

    /// The index of `text`, added if new.
    fn index(&mut self, text: &'a str) -> u32 {
        let next = self.list.len() as u32;
        *self.index.entry(text).or_insert_with(|| {
            self.list.push(text);
            next
        })
    }
}

/// A body being written: its page's flags and cursor, its strings, its items' bytes.
struct Body<'a> {
    flags: u8,
    cursor: Option<u32>,
    strings: Strings<'a>,
    items: Vec<u8>,
    /// The items' texts' bytes, each counted as often as items name it.
    texts: usize,
}

impl<'a> Body<'a> {
    /// A body for a page of `count` items (about two strings of their own each, and bytes
    /// for their indices and numbers).
    fn new(has_more: bool, next_cursor: Option<&'a str>, count: usize) -> Self {
        let mut strings = Strings::with_capacity(2 * count + 2);
        let cursor = next_cursor.map(|cursor| strings.index(cursor));
        let mut flags = 0;
        if has_more {
            flags |= PAGE_HAS_MORE;
        }
        if cursor.is_some() {
            flags |= PAGE_CURSOR;
        }
        Self {
            flags,
            cursor,
            strings,
            items: Vec::with_capacity(16 * count),
            texts: 0,
        }
    }

    /// An item's texts by slot: which are present, and their indices.
    fn texts(&mut self, texts: &[Option<&'a str>]) {
        let present = texts
            .iter()
            .enumerate()
            .filter(|(_, text)| text.is_some())
            .fold(0u8, |bits, (slot, _)| bits | 1 << slot);
        self.items.push(present);
        for text in texts.iter().flatten() {
            self.texts += text.len();
            let index = self.strings.index(text);
            varint(&mut self.items, u64::from(index));
        }
    }

    /// An item's reward (as an `f32` when that is it exactly) and step count.
    fn numbers(&mut self, reward: Option<f64>, steps: Option<i64>) {
        let narrow = reward.map(|reward| reward as f32);
        let reward_kind = match (reward, narrow) {
            (None, _) => REWARD_NONE,
            (Some(wide), Some(narrow)) if f64::from(narrow).to_bits() == wide.to_bits() => {
                REWARD_F32
            }
            (Some(_), _) => REWARD_F64,
        };
        let steps_kind = if steps.is_some() {
            STEPS_VARINT
        } else {
            STEPS_NONE
        };
        self.items.push(reward_kind | steps_kind << STEPS_SHIFT);
        match (reward_kind, reward, narrow) {
            (REWARD_F32, _, Some(narrow)) => self.items.extend(narrow.to_le_bytes()),
            (REWARD_F64, Some(wide), _) => self.items.extend(wide.to_le_bytes()),
            _ => {}
        }
        if let Some(steps) = steps {
            varint(&mut self.items, zigzag(steps));
        }
    }

    /// The frame: head, kind, page flags, strings, cursor, `run` (a rewards page's run id),
    /// `count` items. `None` past a frame's bounds ([`MAX_FRAME_BODY`], [`MAX_FRAME_ITEMS`],
    /// [`MAX_FRAME_TEXTS`]).
    fn frame(self, kind: u8, run: Option<u32>, count: usize) -> Option<Vec<u8>> {
        if count > MAX_FRAME_ITEMS || self.texts > MAX_FRAME_TEXTS {
            return None;
        }
        let text_length: usize = self.strings.list.iter().map(|text| text.len()).sum();
        let estimate = FRAME_HEAD + 32 + self.strings.list.len() * 2 + text_length;
        let mut frame = Vec::with_capacity(estimate + self.items.len());
        frame.push(FRAME_MARK);
        frame.extend([0; 4]);
        frame.push(kind);
        frame.push(self.flags);
        varint(&mut frame, self.strings.list.len() as u64);
        for text in &self.strings.list {
            varint(&mut frame, text.len() as u64);
        }
        for text in &self.strings.list {
            frame.extend_from_slice(text.as_bytes());
        }
        for index in self.cursor.into_iter().chain(run) {
            varint(&mut frame, u64::from(index));
        }
        varint(&mut frame, count as u64);
        frame.extend_from_slice(&self.items);
        let body = frame.len() - FRAME_HEAD;
        if body > MAX_FRAME_BODY {
            return None;
        }
        // Within u32: at most MAX_FRAME_BODY.
        frame[1..FRAME_HEAD].copy_from_slice(&(body as u32).to_le_bytes());
        Some(frame)
    }
}

/// `value` as unsigned LEB128.
fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// `value` zigzag-encoded: small magnitudes, either sign, are small.
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}
