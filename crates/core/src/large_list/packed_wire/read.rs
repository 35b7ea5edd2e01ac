//! Reading a page's frame (see [`super`]): every count, index and length checked against the
//! bytes there are, the page's strings checked as UTF-8 once, its items' texts gathered into
//! shared texts ([`SharedTexts`]) as a page line's are.

use super::{
    error, PackedPageError, FRAME_HEAD, FRAME_MARK, KIND_REWARDS, KIND_TRAJECTORIES,
    MAX_FRAME_ITEMS, MAX_FRAME_STRINGS, MAX_FRAME_TEXTS, PAGE_CURSOR, PAGE_HAS_MORE, REWARD_F32,
    REWARD_F64, REWARD_MASK, REWARD_NONE, STEPS_NONE, STEPS_SHIFT, STEPS_VARINT,
};
use crate::api::{EvalTrajectoryRewardsPage, Page};
use crate::large_list::facts::{reward_slot, slot};
use crate::large_list::packed::{
    PackedReward, PackedRewardsPage, PackedTrajectory, PackedTrajectoryPage,
};
use crate::large_list::plain_item::PlainItem;
use crate::large_list::shared_texts::SharedTexts;

/// The fewest bytes a trajectory takes: its slots byte, its id's and creation time's indices,
/// its numbers byte.
const MIN_TRAJECTORY: usize = 4;
/// The fewest bytes a reward takes: its slots byte, its id's index, its numbers byte, an `f32`.
const MIN_REWARD: usize = 7;

/// The page of trajectories in `frame`.
pub(super) fn trajectory_page(frame: &[u8]) -> Result<PackedTrajectoryPage, PackedPageError> {
    let mut reader = Reader::frame(frame, KIND_TRAJECTORIES)?;
    let head = reader.head(false)?;
    let count = reader.count(MIN_TRAJECTORY, MAX_FRAME_ITEMS)?;
    let mut items = Vec::with_capacity(count);
    let mut shared = SharedTexts::default();
    let mut budget = TextBudget::default();
    for _ in 0..count {
        let at = reader.at;
        let texts = reader.texts::<{ slot::COUNT }>(&head.strings)?;
        budget.spend(&texts, at)?;
        if texts[slot::ID].is_none() || texts[slot::CREATED_AT].is_none() {
            return Err(error("a trajectory without its id or creation time", at));
        }
        if texts[slot::ROLLOUT_STATUS].is_none()
            && texts[slot::ROLLOUT_TERMINATION_REASON].is_some()
        {
            return Err(error(
                "a rollout's termination reason without its status",
                at,
            ));
        }
        let (reward, steps) = reader.numbers()?;
        let item = PackedTrajectory::pack_sharing(texts, reward, steps, &mut shared)
            .ok_or_else(|| error("a page's texts past 4 GiB", at))?;
        items.push(item);
    }
    reader.end()?;
    PackedTrajectory::share(&mut items, shared);
    Ok(Page {
        items,
        next_cursor: head.cursor.map(str::to_owned),
        has_more: head.has_more,
    })
}

/// The page of trajectory rewards in `frame`.
pub(super) fn reward_page(frame: &[u8]) -> Result<PackedRewardsPage, PackedPageError> {
    let mut reader = Reader::frame(frame, KIND_REWARDS)?;
    let head = reader.head(true)?;
    let count = reader.count(MIN_REWARD, MAX_FRAME_ITEMS)?;
    let mut items = Vec::with_capacity(count);
    let mut shared = SharedTexts::default();
    let mut budget = TextBudget::default();
    for _ in 0..count {
        let at = reader.at;
        let texts = reader.texts::<{ reward_slot::COUNT }>(&head.strings)?;
        budget.spend(&texts, at)?;
        let Some(id) = texts[reward_slot::ID] else {
            return Err(error("a reward without its trajectory id", at));
        };
        let (Some(reward), None) = reader.numbers()? else {
            return Err(error(
                "a reward without its value, or with a step count",
                at,
            ));
        };
        let item = PackedReward::pack_sharing(id, reward, texts[reward_slot::TASK], &mut shared)
            .ok_or_else(|| error("a page's texts past 4 GiB", at))?;
        items.push(item);
    }
    reader.end()?;
    PackedReward::share(&mut items, shared);
    Ok(EvalTrajectoryRewardsPage {
        eval_run_id: head.run.unwrap_or_default().to_owned(),
        items,
        next_cursor: head.cursor.map(str::to_owned),
        has_more: head.has_more,
    })
}

/// The bytes of the items' texts so far, each text counted as often as items name it: at most
/// [`MAX_FRAME_TEXTS`].
#[derive(Default)]
struct TextBudget {
    spent: usize,
}

impl TextBudget {
    /// Counts an item's `texts` (read at `at`).
    #[inline]
    fn spend(&mut self, texts: &[Option<&str>], at: usize) -> Result<(), PackedPageError> {
        self.spent += texts.iter().flatten().map(|text| text.len()).sum::<usize>();
        if self.spent > MAX_FRAME_TEXTS {
            return Err(error("the items' texts exceed 64 MiB", at));
        }
        Ok(())
    }
}

/// What comes before a page's items: its strings and its own members.
struct Head<'a> {
    strings: Vec<&'a str>,
    has_more: bool,
    cursor: Option<&'a str>,
    /// The run id (a rewards page's).
    run: Option<&'a str>,
}

/// A frame read from its start, each read checked against its end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `frame`'s body, after checking its head and its kind.
    fn frame(frame: &'a [u8], kind: u8) -> Result<Self, PackedPageError> {
        if frame.first() != Some(&FRAME_MARK) {
            return Err(error("not a frame: its first byte is not 0xFF", 0));
        }
        let length =
            super::frame_length(frame)?.ok_or_else(|| error("a frame cut in its head", 0))?;
        if length != frame.len() {
            return Err(error("a frame whose length is not its head's", 1));
        }
        let mut reader = Self {
            bytes: frame,
            at: FRAME_HEAD,
        };
        match reader.byte()? {
            found if found == kind => Ok(reader),
            KIND_TRAJECTORIES | KIND_REWARDS => Err(error("a frame of the other list", FRAME_HEAD)),
            _ => Err(error("a frame of an unknown kind", FRAME_HEAD)),
        }
    }

    /// The page's flags, strings, cursor and (`with_run`) run id.
    fn head(&mut self, with_run: bool) -> Result<Head<'a>, PackedPageError> {
        let flags_at = self.at;
        let flags = self.byte()?;
        if flags & !(PAGE_HAS_MORE | PAGE_CURSOR) != 0 {
            return Err(error("unknown page flags", flags_at));
        }
        let strings = self.strings()?;
        let string = |reader: &mut Self| {
            let at = reader.at;
            let index = reader.varint()?;
            usize::try_from(index)
                .ok()
                .and_then(|index| strings.get(index).copied())
                .ok_or_else(|| error("a string index past the page's strings", at))
        };
        let cursor = if flags & PAGE_CURSOR != 0 {
            Some(string(self)?)
        } else {
            None
        };
        let run = if with_run { Some(string(self)?) } else { None };
        Ok(Head {
            strings,
            has_more: flags & PAGE_HAS_MORE != 0,
            cursor,
            run,
        })
    }

    /// The page's strings: their count, their lengths, their text (valid UTF-8, each string
    /// whole characters).
    fn strings(&mut self) -> Result<Vec<&'a str>, PackedPageError> {
        // Each length takes a byte at least.
        let count = self.count(1, MAX_FRAME_STRINGS)?;
        let mut lengths = Vec::with_capacity(count);
        let mut total = 0usize;
        for _ in 0..count {
            let at = self.at;
            let length = usize::try_from(self.varint()?)
                .ok()
                .filter(|&length| length <= self.left())
                .ok_or_else(|| error("a string longer than the frame", at))?;
            total = total
                .checked_add(length)
                .filter(|&total| total <= self.left())
                .ok_or_else(|| error("the strings run past the frame's end", at))?;
            lengths.push(length);
        }
        let text_at = self.at;
        let text = std::str::from_utf8(self.take(total)?).map_err(|invalid| {
            error(
                "the page's strings are not UTF-8",
                text_at + invalid.valid_up_to(),
            )
        })?;
        let mut start = 0;
        let mut strings = Vec::with_capacity(count);
        for length in lengths {
            let end = start + length;
            let string = text
                .get(start..end)
                .ok_or_else(|| error("a string that splits a character", text_at + start))?;
            strings.push(string);
            start = end;
        }
        Ok(strings)
    }

    /// An item's texts by slot: its slots byte (no slot past `N`), then each present text's
    /// index.
    #[inline]
    fn texts<const N: usize>(
        &mut self,
        strings: &[&'a str],
    ) -> Result<[Option<&'a str>; N], PackedPageError> {
        let at = self.at;
        let present = self.byte()?;
        if u32::from(present) >> N != 0 {
            return Err(error("an item's slots byte names an unknown slot", at));
        }
        let mut texts = [None; N];
        for (slot, text) in texts.iter_mut().enumerate() {
            if present & (1 << slot) != 0 {
                let at = self.at;
                let index = self.varint()?;
                *text = Some(
                    usize::try_from(index)
                        .ok()
                        .and_then(|index| strings.get(index).copied())
                        .ok_or_else(|| error("a string index past the page's strings", at))?,
                );
            }
        }
        Ok(texts)
    }

    /// An item's reward (finite, as JSON's numbers are) and step count.
    #[inline]
    fn numbers(&mut self) -> Result<(Option<f64>, Option<i64>), PackedPageError> {
        let at = self.at;
        let kinds = self.byte()?;
        let reward = match kinds & REWARD_MASK {
            REWARD_NONE => None,
            REWARD_F64 => Some(f64::from_le_bytes(self.array()?)),
            REWARD_F32 => Some(f64::from(f32::from_le_bytes(self.array()?))),
            _ => return Err(error("an unknown reward kind", at)),
        };
        if reward.is_some_and(|reward| !reward.is_finite()) {
            return Err(error("a reward that is not a finite number", at));
        }
        let steps = match kinds >> STEPS_SHIFT {
            STEPS_NONE => None,
            STEPS_VARINT => {
                let zigzag = self.varint()?;
                Some((zigzag >> 1) as i64 ^ -((zigzag & 1) as i64))
            }
            _ => return Err(error("an unknown step count kind", at)),
        };
        Ok((reward, steps))
    }

    /// A count of things that take `least` bytes each at least, checked against the bytes
    /// left and against `most`: what may be allocated for them is bounded.
    fn count(&mut self, least: usize, most: usize) -> Result<usize, PackedPageError> {
        let at = self.at;
        let count = self.varint()?;
        let count = usize::try_from(count)
            .ok()
            .filter(|&count| count <= self.left() / least)
            .ok_or_else(|| error("a count larger than the frame could hold", at))?;
        if count > most {
            return Err(error("more items or strings than a frame may hold", at));
        }
        Ok(count)
    }

    /// The bytes not read yet.
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// The next byte.
    #[inline]
    fn byte(&mut self) -> Result<u8, PackedPageError> {
        let byte = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| error("a frame cut short", self.at))?;
        self.at += 1;
        Ok(byte)
    }

    /// The next `length` bytes.
    fn take(&mut self, length: usize) -> Result<&'a [u8], PackedPageError> {
        let bytes = self
            .at
            .checked_add(length)
            .and_then(|end| self.bytes.get(self.at..end))
            .ok_or_else(|| error("a frame cut short", self.at))?;
        self.at += length;
        Ok(bytes)
    }

    /// The next `N` bytes, as an array.
    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N], PackedPageError> {
        let mut array = [0u8; N];
        array.copy_from_slice(self.take(N)?);
        Ok(array)
    }

    /// An unsigned LEB128 number of 64 bits at most.
    #[inline]
    fn varint(&mut self) -> Result<u64, PackedPageError> {
        let at = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            let bits = u64::from(byte & 0x7F);
            if shift == 63 && bits > 1 {
                break;
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(error("a number past 64 bits", at))
    }

    /// Checks that the body ended with its last item.
    fn end(&self) -> Result<(), PackedPageError> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(error("bytes after the page's last item", self.at))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{decode_reward_page, encode_reward_page};
    use crate::large_list::facts::AsRewardFacts;

    /// A frame's items keep their texts together, as a page line's do, in texts of their own
    /// (not the frame's).
    #[test]
    fn a_frames_items_share_their_texts() {
        let line = br#"{"eval_run_id":"er","items":[{"trajectory_id":"a","reward":1,"task_id":"k"},{"trajectory_id":"b","reward":0.1},{"trajectory_id":"c","reward":-0.0,"task_id":"k"}],"has_more":false}"#;
        let frame = encode_reward_page(line).unwrap();
        let page = decode_reward_page(&frame).unwrap();
        drop(frame);
        let ids: Vec<_> = page.items.iter().map(|item| item.trajectory_id()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert!(page.items[0].kept_with(&page.items[2]));
        assert_eq!(page.items[2].task_id(), Some("k"));
        assert_eq!(page.items[2].reward().to_bits(), (-0.0f64).to_bits());
        assert_eq!(page.items[1].reward(), 0.1);
    }
}
