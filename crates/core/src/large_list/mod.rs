//! The two large lists (trajectories and trajectory rewards) decoded to what the comparison
//! model keeps, fast: built on the contract in [`crate::api`], which knows nothing of them.
//!
//! - The fields the model keeps, listed once (`facts.rs`: a table per item that every reader
//!   below follows), what the model reads of an item ([`TrajectoryFacts`]) and the traits
//!   through which it reads any form ([`AsTrajectoryFacts`], [`AsRewardFacts`]).
//! - The lean forms ([`LeanTrajectory`], [`LeanReward`]): serde reads only the fields the
//!   model keeps, borrowed from the text, and checks the others without keeping them.
//! - The packed forms ([`PackedTrajectory`], [`PackedReward`]): what the load engine and the
//!   run folders keep, each item's strings in one text, a page's items sharing texts.
//! - The plain scanner ([`PlainItem`], [`decode_plain`]): a hand-written reader of the items
//!   and pages in their plain form, for the list files and the API's pages read at scale
//!   (serde_json spent most of the CLI's time on them). A benchmark's tasks, as long a list at
//!   scale, have a scanner of their own (`task_scan.rs`), decoding to the contract's type.
//! - The raw pages ([`RawPage`]): a page read only as far as paging needs (cursor, count,
//!   fingerprint), its items skipped: what the server's list streams pass on undecoded.
//! - The kept form ([`kept_trajectory_page`], [`kept_reward_page`]): a page with only the
//!   fields the model keeps or the full type requires, what the streams send on `?form=kept`.
//! - The packed wire form ([`encode_trajectory_page`], [`decode_trajectory_page`],
//!   [`PackedPage`]): a page as a length-prefixed frame of bytes laid out as the packed items
//!   keep their texts, decoded at about the speed of a copy.
//!
//! The plain form is what every exporter writes: an object whose keys and strings have no
//! escapes (nor control characters, which JSON refuses), whose numbers are at most 2^53 in
//! their digits with a power of ten up to 22 (converted with one exact operation, so correctly
//! rounded, as serde_json converts them), and whose fields hold only null, booleans, plain
//! strings, numbers and (a trajectory's) a plain rollout object. Anything else (an escape, a
//! nested value not read here, a field twice, a required field missing, a type the full types
//! refuse, the text's end) makes a scanner answer `None`: serde then decodes the item as it
//! always did, and accepts or refuses it. Within a page, an item that is not plain is read by
//! serde alone, where it lies, and the page's other items are still scanned. A scanner never
//! accepts what serde refuses, nor reads a value differently: it reads the same field tables as
//! [`LeanTrajectory`] and [`LeanReward`], and property tests (`tests/large_list_scan.rs`)
//! compare the readers on mutated items, numbers and pages.
//!
//! May import: [`crate::api`] and serde; nothing else of the crate.

mod cursor;
mod facts;
mod item_scan;
mod kept_form;
mod lean;
mod packed;
mod packed_wire;
mod page_scan;
mod plain_item;
mod raw_page;
mod shared_texts;
mod task_scan;

pub(crate) use cursor::{value_length, Cursor};
pub use facts::{AsRewardFacts, AsTrajectoryFacts, TrajectoryFacts};
pub use kept_form::{
    kept_reward_page, kept_task_page, kept_trajectory_page, read_kept_reward_page,
    read_kept_trajectory_page,
};
pub use lean::{JsonStr, LeanReward, LeanTrajectory};
pub use packed::{PackedReward, PackedRewardsPage, PackedTrajectory, PackedTrajectoryPage};
pub use packed_wire::{
    decode_reward_page, decode_trajectory_page, encode_reward_page, encode_trajectory_page,
    frame_length, is_frame_start, PackedPage, PackedPageError, FRAME_HEAD, FRAME_MARK,
    MAX_FRAME_BODY, MAX_FRAME_ITEMS, MAX_FRAME_TEXTS,
};
pub(crate) use page_scan::{once, scan_page_object};
pub use plain_item::{decode_plain, PlainItem};
pub use raw_page::{RawChroniclePage, RawPage, RawTrajectoryPage, Skipped};
pub use shared_texts::SharedTexts;
