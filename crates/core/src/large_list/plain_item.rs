//! Items read without serde when they are in their plain form ([`PlainItem`]), and the one
//! entry that decodes a body so ([`decode_plain`]).

use serde::de::DeserializeOwned;

use super::cursor::{value_length, Cursor};
use super::shared_texts::SharedTexts;
use crate::api::{self, DecodeError};

/// An item a list feed may read without serde when it is in its plain form (see the module).
pub trait PlainItem: DeserializeOwned {
    /// The item at the start of `text`, and its length, when it is in its plain form; `None`
    /// leaves it to serde. The default reads nothing: every item goes to serde.
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let _ = text;
        None
    }

    /// [`Self::scan_plain`] for an item read beside others (a page's): its strings may be
    /// appended to `shared` rather than given an allocation of their own, and the item is
    /// then whole only once [`Self::share`] has given it that text. The default reads as
    /// `scan_plain`.
    fn scan_plain_sharing(text: &str, shared: &mut SharedTexts) -> Option<(Self, usize)> {
        let _ = shared;
        Self::scan_plain(text)
    }

    /// Gives `items` (read by [`Self::scan_plain_sharing`] with `shared`, or whole, by serde)
    /// the text gathered in `shared`. The default has nothing to give.
    fn share(items: &mut [Self], shared: SharedTexts) {
        let _ = (items, shared);
    }
}

/// Items and pages read by serde alone (their lists are short, or kept whole): [`PlainItem`]'s
/// defaults.
macro_rules! read_by_serde {
    ($($item:ty),* $(,)?) => {
        $(impl PlainItem for $item {})*
    };
}

read_by_serde!(
    serde_json::Value,
    api::BenchmarkListItem,
    api::ChronicleJob,
    api::ChronicleTrial,
    api::EvalRun,
    api::EvalTrajectoryReward,
    api::Step,
    api::SuiteEvalRun,
    api::TrainingCheckpoint,
    api::TrainingRun,
    api::TrajectoryMetadata,
    api::AgentListPage,
    api::AgentTrainingEvaluationSeriesPage,
    api::EvalRemainingWorkPage,
    api::HeldOutRewardsByStepPage,
);

impl<T: DeserializeOwned> PlainItem for api::ChroniclePage<T> {}

impl<'a> Cursor<'a> {
    /// A page's item: read by its plain scanner ([`PlainItem::scan_plain_sharing`], its
    /// strings appended to `shared`: whole once [`PlainItem::share`] gave it that text), or,
    /// when it is not plain (one trajectory in fifty has a harness diagnostic, an object), by
    /// serde_json alone, where it lies, so that its page's other items are still scanned. An
    /// item serde refuses, or nested deeper than `MAX_ITEM_DEPTH` (64), answers `None` (its page
    /// goes to serde whole).
    pub(crate) fn item_sharing<T: PlainItem>(&mut self, shared: &mut SharedTexts) -> Option<T> {
        self.peek()?;
        let rest = self.rest();
        let (item, length) = match T::scan_plain_sharing(rest, shared) {
            Some(scanned) => scanned,
            None => {
                let length = value_length(rest.as_bytes())?;
                (serde_json::from_str(&rest[..length]).ok()?, length)
            }
        };
        self.advance(length);
        Some(item)
    }
}

/// [`api::decode`] for a page or item with a plain scanner ([`PlainItem`]): a body in its plain
/// form is read by the scanner, any other by serde_json, with [`api::decode`]'s result and
/// errors.
pub fn decode_plain<T: PlainItem>(bytes: &[u8]) -> Result<T, DecodeError> {
    let text = api::decode_text(bytes)?;
    if let Some((value, length)) = T::scan_plain(text) {
        // What serde_json allows after the value: whitespace.
        let rest = &text.as_bytes()[length..];
        if rest
            .iter()
            .all(|byte| matches!(byte, b' ' | b'\n' | b'\r' | b'\t'))
        {
            return Ok(value);
        }
    }
    api::decode_str(bytes, text)
}
