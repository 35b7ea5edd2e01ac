//! A page read for a stream: what paging needs (the core's raw page: its cursor, count and
//! fingerprint, the items skipped) and the line the stream sends, made from the API's body in
//! the same read. In the kept form the page is read once, its line projected as it is passed
//! ([`read_kept_trajectory_page`]); in the API's form the line is the body as it came. Either
//! way the walk needs no copy of the API's answer kept aside, and the items are not passed
//! over twice.
//!
//! In the packed form the kept line so made is packed into its frame (the codec reads the kept
//! line, a third of the API's bytes), or sent as it is when the codec leaves it.
//!
//! A page that is not in its plain form is read as before: by serde as a raw page, its line
//! the body as it came, or its kept form ([`ItemForm::line`]) of it: the same bytes either way.

use eval_compare_core::api::CursorPage;
use eval_compare_core::client::list_stream::{page_line, StreamedList};
use eval_compare_core::large_list::{
    decode_plain, kept_task_page, read_kept_reward_page, read_kept_trajectory_page, PlainItem,
    RawChroniclePage, RawTrajectoryPage, Skipped,
};
use serde::{Deserialize, Deserializer};

use super::form::{packed, ItemForm};

/// How a page of one list in one form is read for a stream.
pub trait LineForm {
    /// The raw page paging reads.
    type Raw: CursorPage<Item = Skipped> + PlainItem;
    /// The list and form, whose line [`ItemForm::line`] makes of a body not read in one go.
    const LIST: StreamedList;
    /// The form.
    const FORM: ItemForm;
    /// The page, its line and length, read in one go; `None`: not in its plain form.
    fn read(text: &str) -> Option<(Self::Raw, Vec<u8>, usize)>;
}

/// A list's pages in the API's form, the line each body as it came.
macro_rules! api_form {
    ($($(#[$doc:meta])* $name:ident: $raw:ty, $list:expr;)*) => {$(
        $(#[$doc])*
        pub struct $name;

        impl LineForm for $name {
            type Raw = $raw;
            const LIST: StreamedList = $list;
            const FORM: ItemForm = ItemForm::Api;
            fn read(text: &str) -> Option<(Self::Raw, Vec<u8>, usize)> {
                let (page, length) = <$raw>::scan_plain(text)?;
                Some((page, page_line(text.as_bytes()), length))
            }
        }
    )*};
}

api_form! {
    /// The rewards as the API gave them.
    ApiRewards: RawTrajectoryPage, StreamedList::Rewards;
    /// The trajectories as the API gave them.
    ApiTrajectories: RawTrajectoryPage, StreamedList::Trajectories;
    /// A benchmark's tasks as the API gave them.
    ApiTasks: RawTrajectoryPage, StreamedList::Tasks;
    /// A Chronicle job's trials as the API gave them.
    ApiTrials: RawChroniclePage, StreamedList::Trials;
}

/// The trajectories in their kept form.
pub struct KeptTrajectories;
/// The rewards in their kept form.
pub struct KeptRewards;

impl LineForm for KeptTrajectories {
    type Raw = RawTrajectoryPage;
    const LIST: StreamedList = StreamedList::Trajectories;
    const FORM: ItemForm = ItemForm::Kept;
    fn read(text: &str) -> Option<(Self::Raw, Vec<u8>, usize)> {
        read_kept_trajectory_page(text)
    }
}

impl LineForm for KeptRewards {
    type Raw = RawTrajectoryPage;
    const LIST: StreamedList = StreamedList::Rewards;
    const FORM: ItemForm = ItemForm::Kept;
    fn read(text: &str) -> Option<(Self::Raw, Vec<u8>, usize)> {
        read_kept_reward_page(text)
    }
}

/// A benchmark's tasks in their kept form: the page read for paging, its line projected
/// ([`kept_task_page`]; a line it leaves sent as it came).
pub struct KeptTasks;

impl LineForm for KeptTasks {
    type Raw = RawTrajectoryPage;
    const LIST: StreamedList = StreamedList::Tasks;
    const FORM: ItemForm = ItemForm::Kept;
    fn read(text: &str) -> Option<(Self::Raw, Vec<u8>, usize)> {
        let (page, length) = RawTrajectoryPage::scan_plain(text)?;
        let body = text.as_bytes().get(..length)?;
        let line = kept_task_page(body).unwrap_or_else(|| page_line(body));
        Some((page, line, length))
    }
}

/// The trajectories in their packed form: the kept line read in one go, then packed.
pub struct PackedTrajectories;
/// The rewards in their packed form.
pub struct PackedRewards;

impl LineForm for PackedTrajectories {
    type Raw = RawTrajectoryPage;
    const LIST: StreamedList = StreamedList::Trajectories;
    const FORM: ItemForm = ItemForm::Packed;
    fn read(text: &str) -> Option<(Self::Raw, Vec<u8>, usize)> {
        let (page, line, length) = read_kept_trajectory_page(text)?;
        Some((page, packed(Self::LIST, line), length))
    }
}

impl LineForm for PackedRewards {
    type Raw = RawTrajectoryPage;
    const LIST: StreamedList = StreamedList::Rewards;
    const FORM: ItemForm = ItemForm::Packed;
    fn read(text: &str) -> Option<(Self::Raw, Vec<u8>, usize)> {
        let (page, line, length) = read_kept_reward_page(text)?;
        Some((page, packed(Self::LIST, line), length))
    }
}

/// A page read for a stream (see the module).
pub struct StreamPage<F: LineForm> {
    page: F::Raw,
    line: Option<Vec<u8>>,
}

impl<F: LineForm> StreamPage<F> {
    /// The line to send (`None` once taken, or for a page serde read alone: never sent, its
    /// read having failed first).
    pub fn take_line(&mut self) -> Option<Vec<u8>> {
        self.line.take()
    }
}

/// Whether only JSON's whitespace follows a value (what serde_json allows after one).
fn only_whitespace(rest: &[u8]) -> bool {
    rest.iter()
        .all(|byte| matches!(byte, b' ' | b'\n' | b'\r' | b'\t'))
}

impl<F: LineForm> PlainItem for StreamPage<F> {
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let read =
            F::read(text).filter(|(_, _, length)| only_whitespace(&text.as_bytes()[*length..]));
        let (page, line) = match read {
            Some((page, line, _)) => (page, line),
            None => {
                // Not plain: serde reads the raw page (its error, if any, is serde's again).
                let page = decode_plain::<F::Raw>(text.as_bytes()).ok()?;
                (page, F::FORM.line(F::LIST, page_line(text.as_bytes())))
            }
        };
        let line = Some(line);
        Some((Self { page, line }, text.len()))
    }
}

impl<'de, F: LineForm> Deserialize<'de> for StreamPage<F> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let page = F::Raw::deserialize(deserializer)?;
        Ok(Self { page, line: None })
    }
}

impl<F: LineForm> CursorPage for StreamPage<F> {
    type Item = Skipped;
    fn items(&self) -> &[Skipped] {
        self.page.items()
    }
    fn into_items(self) -> Vec<Skipped> {
        self.page.into_items()
    }
    fn next_cursor(&self) -> Option<&str> {
        self.page.next_cursor()
    }
    fn has_more(&self) -> bool {
        self.page.has_more()
    }
    fn fingerprint(&self) -> Option<u64> {
        self.page.fingerprint()
    }
}
