//! The strings of a page's items gathered into a few shared texts (see [`SharedTexts`]).

use std::sync::Arc;

/// The strings of items read together (a page's), gathered to be kept in a few texts of
/// about [`SharedTexts::CHUNK`] bytes rather than one per item: 800,000 trajectories then take
/// about 8,000 allocations, not 800,000. Offsets count from the first item's strings, across
/// the texts.
#[derive(Debug, Default)]
pub struct SharedTexts {
    /// The texts filled, each with the offset it starts at.
    filled: Vec<(usize, Arc<str>)>,
    /// The text being filled, from `start`.
    text: String,
    start: usize,
    /// Room was given in the text being filled (perhaps none: an item's strings may be empty).
    given: bool,
}

impl SharedTexts {
    /// The length a text is filled to before the next is begun: within an allocator's small
    /// sizes (jemalloc's end at 14 KiB; a first version holding a page's texts in blocks of up
    /// to 64 KiB made the CLI's memory grow by a third), large enough that an allocation
    /// serves dozens of items.
    const CHUNK: usize = 8 << 10;

    /// The text to append the next item's strings to, `length` bytes in all, and the offset
    /// they start at: the text being filled, or a new one when it has no room left (an item
    /// is never split). `None` past 4 GiB of strings.
    pub(crate) fn room(&mut self, length: usize) -> Option<(&mut String, u32)> {
        if !self.text.is_empty() && self.text.len() + length > Self::CHUNK {
            self.filled
                .push((self.start, Arc::from(self.text.as_str())));
            self.start += self.text.len();
            self.text.clear();
            self.given = false;
        }
        let at = self.start + self.text.len();
        u32::try_from(at.checked_add(length)?).ok()?;
        self.given = true;
        Some((&mut self.text, at as u32))
    }

    /// The texts, each with the offset it starts at, in order: at least one, when any item
    /// was given room.
    pub(crate) fn into_texts(mut self) -> Vec<(usize, Arc<str>)> {
        if self.given {
            self.filled
                .push((self.start, Arc::from(self.text.as_str())));
        }
        self.filled
    }
}
