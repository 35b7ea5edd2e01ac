//! The finished-run cache of the proxy: the streamed lists of runs (and Chronicle jobs) whose
//! record is terminal, kept on disk so a shared link, a CI gate or a scorecard reading the same
//! finished runs again gets them without walking the upstream's cursor chains again.
//!
//! **Why SQLite (rusqlite, compiled in).** One file, transactions (an entry is written in one:
//! a write cut short by a crash or a kill is rolled back, never read as a partial list), many
//! readers at once beside one writer (write-ahead log), and it survives restarts; a directory of
//! files would need its own atomic renames, locking and index for the least-recently-used order.
//!
//! **What is stored**, per upstream base URL, list (`trajectory-rewards`, `trajectories`,
//! `trials`, the kept forms `trajectory-rewards+kept`, `trajectories+kept` and the packed forms
//! `trajectory-rewards+packed`, `trajectories+packed`: [`crate::stream::ItemForm`]) and run or
//! job id: the list's page lines (packed: frames) as they were sent, their page and
//! item counts, a SHA-256 of each megabyte of the lines and a SHA-256 of the run's record as
//! the upstream answered it when the list was read. **No API key** is stored, nor anything
//! derived from one.
//!
//! **Served as read.** A kept list is sent a megabyte at a time as it is read, each piece
//! checked against its digest before it goes out, so the first bytes leave after one piece
//! rather than after the whole list was read and hashed. A damaged first piece makes the list
//! read again from the upstream; a damaged later piece ends the answer short (a cut body, which
//! the reader cannot take for a complete list; it resumes from its last page, from the
//! upstream, the entry being dropped).
//!
//! **Consent.** Nothing is served without asking the upstream first, with the caller's key, for
//! the run's (or job's) record ([`ListCache::consent`]): only a `200` whose record is terminal
//! and hashes the same as when the list was kept lets the cache answer; any other status is
//! passed on as the upstream gave it (a wrong key gets the upstream's refusal, never the kept
//! list); a record that changed makes the list read again (and kept again once read whole).
//! Running runs are never kept, nor benchmarks' task lists (they have no finished record).
//!
//! **Bounded**: at most `--cache-max-mib` of lines; the least recently served go first.
//! `--no-cache` turns it off, `--cache-clear` empties it at start.

use bytes::Bytes;
use eval_compare_list_cache::{store, PieceReader};
use futures::stream::BoxStream;
use futures::StreamExt;

use std::path::{Path, PathBuf};

use eval_compare_core::client::list_stream::StreamedList;
use eval_compare_core::client::{
    paths, percent_encode, ClientConfig, HttpResponse, TrajectoryClient,
};

use crate::stream::{ItemForm, PageTransport};

use eval_compare_list_cache::record_is_finished as is_finished;
pub use eval_compare_list_cache::{
    hex_sha256, piece_digests, CacheError, Entry, Stored, DEFAULT_MAX_MIB, FILE_NAME, PIECE_BYTES,
};

/// Pieces read ahead of what the caller has taken.
const PIECES_AHEAD: usize = 4;

/// A kept list's answer body: its pieces as they are read and checked, then its trailer; an
/// error (a damaged piece) ends it short.
pub type ServedList = BoxStream<'static, Result<Bytes, std::io::Error>>;

/// What the upstream's answer on a run's record allows.
pub enum Consent {
    /// Not 200: the upstream's answer, to be passed on as it is.
    Refused(HttpResponse),
    /// Finished and kept unchanged: the lines, served as they are read.
    Serve(ServedList),
    /// Finished but not kept (or changed, or damaged): read it, and keep it under this entry.
    Read(Option<Entry>),
    /// Not finished, or the record could not be asked: read it, keep nothing.
    NotKept,
}

impl std::fmt::Debug for Consent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Consent::Refused(answer) => f.debug_tuple("Refused").field(answer).finish(),
            Consent::Serve(_) => f.write_str("Serve(..)"),
            Consent::Read(entry) => f.debug_tuple("Read").field(entry).finish(),
            Consent::NotKept => f.write_str("NotKept"),
        }
    }
}

/// What the upstream's answer on a run's record says of keeping its lists
/// ([`ListCache::ask_record`]).
#[derive(Debug)]
pub enum Asked {
    /// Not 200: the upstream's answer, to be passed on as it is.
    Refused(HttpResponse),
    /// Not finished, or the record could not be asked: nothing is kept.
    NotKept,
    /// Finished: the entry its list is kept under.
    Finished(Entry),
}

/// The cache: where its database is and its bound.
#[derive(Debug)]
pub struct ListCache {
    path: PathBuf,
    max_bytes: u64,
    upstream: String,
}

/// The default cache directory: `$XDG_CACHE_HOME/eval-compare`, `~/.cache/eval-compare`, or
/// `.eval-compare-cache` when neither is set.
pub fn default_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("eval-compare");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(home).join(".cache").join("eval-compare");
    }
    PathBuf::from(".eval-compare-cache")
}

impl ListCache {
    /// Opens (or creates) the cache in `dir` for `upstream`, bounded to `max_mib` MiB; `clear`
    /// empties it first. A database that cannot be read is set aside and started afresh.
    pub fn open(dir: &Path, upstream: &str, max_mib: u64, clear: bool) -> Result<Self, CacheError> {
        std::fs::create_dir_all(dir).map_err(|e| CacheError::Io(dir.display().to_string(), e))?;
        let path = dir.join(FILE_NAME);
        store::prepare(&path, clear)?;
        Ok(Self {
            path,
            max_bytes: max_mib.saturating_mul(1024 * 1024),
            upstream: upstream.to_owned(),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Asks the upstream for the record of `owner` with the caller's `config` (its key) and
    /// says what may be served of `list` in `form` (each form kept on its own,
    /// [`ItemForm::cache_name`]); see the module's documentation.
    pub async fn consent(
        &self,
        config: &ClientConfig,
        transport: &PageTransport,
        list: StreamedList,
        form: ItemForm,
        owner: &str,
    ) -> Consent {
        let entry = match self.ask_record(config, transport, list, form, owner).await {
            Asked::Refused(answer) => return Consent::Refused(answer),
            Asked::NotKept => return Consent::NotKept,
            Asked::Finished(entry) => entry,
        };
        let path = self.path.clone();
        let looked_up = entry.clone();
        // The first piece is read (and checked) before the answer is chosen: a damaged one
        // is read again from the upstream, nothing having been sent.
        let found = tokio::task::spawn_blocking(move || {
            let Some(mut reader) = PieceReader::open(&path, &looked_up)? else {
                return Ok(None);
            };
            match reader.next_piece() {
                Some(Ok(first)) => Ok(Some((reader, first))),
                Some(Err(CacheError::Damaged)) | None => Ok(None),
                Some(Err(error)) => Err(error),
            }
        })
        .await
        .unwrap_or_else(|e| Err(CacheError::Task(e.to_string())));
        match found {
            Ok(Some((reader, first))) => Consent::Serve(served(reader, first)),
            Ok(None) => Consent::Read(Some(entry)),
            Err(error) => {
                eprintln!("cache: {error}; reading from the upstream");
                Consent::Read(Some(entry))
            }
        }
    }

    /// Asks the upstream for the record of `owner` with the caller's `config` (its key): its
    /// refusal, not keepable (not finished, or not asked), or the entry `list` in `form` is kept
    /// under for this record.
    pub async fn ask_record(
        &self,
        config: &ClientConfig,
        transport: &PageTransport,
        list: StreamedList,
        form: ItemForm,
        owner: &str,
    ) -> Asked {
        if owner.is_empty() || owner == "." || owner == ".." {
            return Asked::NotKept;
        }
        let id = percent_encode(owner);
        let path = match list {
            StreamedList::Rewards | StreamedList::Trajectories => paths::eval_run(&id),
            StreamedList::Trials => paths::chronicle_job(&id),
            // A benchmark version has no finished record to consent with: never kept.
            StreamedList::Tasks => return Asked::NotKept,
        };
        let client = TrajectoryClient::new(config.clone(), transport.clone());
        let record = match client.get_response(&path).await {
            Ok(record) => record,
            Err(_) => {
                return match transport.take_last() {
                    Some(answer) if answer.status != 200 => Asked::Refused(answer),
                    _ => Asked::NotKept,
                }
            }
        };
        let _ = transport.take_last();
        if record.status != 200 {
            return Asked::Refused(record);
        }
        if !is_finished(list, &record.body) {
            return Asked::NotKept;
        }
        Asked::Finished(Entry {
            upstream: self.upstream.clone(),
            list: form.cache_name(list),
            owner: owner.to_owned(),
            record_sha: hex_sha256(&record.body),
        })
    }

    /// Whether a list is kept under `entry` (the same record), without reading its lines; a
    /// cache that cannot be read holds nothing.
    pub async fn holds(&self, entry: &Entry) -> bool {
        let (path, entry) = (self.path.clone(), entry.clone());
        tokio::task::spawn_blocking(move || store::holds(&path, &entry))
            .await
            .is_ok_and(|held| held.unwrap_or(false))
    }

    /// Keeps the complete list `lines` (its page lines, in order) of `entry` (`pages` pages,
    /// `items` items), then drops the least recently served lists beyond the bound. A failure
    /// is logged, never the caller's.
    pub async fn store(&self, entry: Entry, lines: Vec<Bytes>, pages: u32, items: u64) {
        let length: usize = lines.iter().map(Bytes::len).sum();
        if length as u64 > self.max_bytes {
            return;
        }
        let path = self.path.clone();
        let max = self.max_bytes;
        let stored = tokio::task::spawn_blocking(move || {
            store::put_chunks(&path, &entry, &lines, pages, items, max)
        })
        .await
        .unwrap_or_else(|e| Err(CacheError::Task(e.to_string())));
        if let Err(error) = stored {
            eprintln!("cache: could not keep a list: {error}");
        }
    }
}

/// The answer of a kept list whose first piece `first` was read: the other pieces read on a
/// blocking thread a few ahead of the caller, each checked, then the trailer; a damaged piece
/// ends the answer with an error (the body is cut), nothing after it sent.
fn served(mut reader: PieceReader, first: Vec<u8>) -> ServedList {
    let (sender, receiver) = tokio::sync::mpsc::channel(PIECES_AHEAD);
    let trailer = store::complete_trailer(reader.pages(), reader.items());
    tokio::task::spawn_blocking(move || {
        if sender.blocking_send(Ok(Bytes::from(first))).is_err() {
            return;
        }
        let mut whole = true;
        reader.read_rest(|piece| {
            let piece = piece
                .map(Bytes::from)
                .map_err(|error| std::io::Error::other(error.to_string()));
            // A damaged piece is sent as the error that cuts the answer.
            whole = piece.is_ok();
            sender.blocking_send(piece).is_ok() && whole
        });
        if whole {
            let _ = sender.blocking_send(Ok(Bytes::from(trailer)));
        }
    });
    futures::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|piece| (piece, receiver))
    })
    .boxed()
}
