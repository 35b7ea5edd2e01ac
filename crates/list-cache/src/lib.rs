//! The finished-run cache's store, one for the server's proxy (`crates/server/src/cache/`) and
//! the CLI's `--cache DIR` (`crates/cli/src/list_cache.rs`): the streamed lists of finished runs
//! and Chronicle jobs kept in one SQLite file, keyed by upstream, list and run, each with a
//! SHA-256 of every megabyte of its lines (damage is detected on read, before a piece is
//! handed out: `pieces.rs`) and of the run's record when it was read.
//! No API key is stored, nor anything derived from one; asking the API's consent before a kept
//! list is used is the caller's (both callers ask for the run's record with their own key).
//!
//! **Why SQLite (rusqlite, compiled in).** One file, transactions (an entry is written in one:
//! a write cut short by a crash or a kill is rolled back, never read as a partial list), many
//! readers at once beside one writer (write-ahead log), and it survives restarts; a directory of
//! files would need its own atomic renames, locking and index for the least-recently-used order.

#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod pieces;
pub mod store;

use eval_compare_core::api::{decode, ChronicleJob, EvalRun};
use eval_compare_core::client::list_stream::StreamedList;
use sha2::{Digest, Sha256};

pub use pieces::{piece_digests, PieceReader, PIECE_BYTES};
pub use store::{CacheError, Entry, Stored};

/// The default of `--cache-max-mib`, for the server and the CLI.
pub const DEFAULT_MAX_MIB: u64 = 1024;
/// The database's file name in the cache directory.
pub const FILE_NAME: &str = "finished-lists.sqlite3";

/// Whether `body`, the record of `list`'s owner (a run, or a job for trials) as the API
/// answered it, says the owner finished (a terminal status): only then may its list be kept.
/// A benchmark's tasks have no such record and are never kept.
pub fn record_is_finished(list: StreamedList, body: &[u8]) -> bool {
    match list {
        StreamedList::Rewards | StreamedList::Trajectories => decode::<EvalRun>(body)
            .ok()
            .and_then(|run| run.status)
            .is_some_and(|status| status.is_terminal()),
        StreamedList::Tasks => false,
        StreamedList::Trials => decode::<ChronicleJob>(body)
            .ok()
            .and_then(|job| job.status)
            .is_some_and(|status| status.is_terminal()),
    }
}

impl Entry {
    /// What `list` of `owner` read from `upstream` is kept under, with the owner's record
    /// `record` as the API answered it (only its SHA-256 is kept).
    pub fn of_record(upstream: &str, list: StreamedList, owner: &str, record: &[u8]) -> Self {
        Self {
            upstream: upstream.to_owned(),
            list: list.name().to_owned(),
            owner: owner.to_owned(),
            record_sha: hex_sha256(record),
        }
    }
}

/// SHA-256 of `bytes`, in hex.
pub fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
