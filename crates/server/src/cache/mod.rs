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
//! `trials`) and run or job id: the list's page lines as the upstream sent them, their page and
//! item counts, a SHA-256 of the lines (a damaged entry is detected on read, dropped and read
//! again from the upstream) and a SHA-256 of the run's record as the upstream answered it when
//! the list was read. **No API key** is stored, nor anything derived from one.
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

mod store;

use std::path::{Path, PathBuf};

use eval_compare_core::api::{decode, ChronicleJob, EvalRun};
use eval_compare_core::client::list_stream::{ListStreamEnd, StreamedList};
use eval_compare_core::client::{
    paths, percent_encode, ClientConfig, HttpResponse, TrajectoryClient,
};
use sha2::{Digest, Sha256};

use crate::stream::PageTransport;

pub use store::{CacheError, Entry, Stored};

/// Default of `--cache-max-mib`.
pub const DEFAULT_MAX_MIB: u64 = 1024;
/// The database's file name in the cache directory.
pub const FILE_NAME: &str = "finished-lists.sqlite3";

/// What the upstream's answer on a run's record allows.
#[derive(Debug)]
pub enum Consent {
    /// Not 200: the upstream's answer, to be passed on as it is.
    Refused(HttpResponse),
    /// Finished and kept unchanged: the lines to serve, trailer included.
    Serve(Vec<u8>),
    /// Finished but not kept (or changed, or damaged): read it, and keep it under this entry.
    Read(Option<Entry>),
    /// Not finished, or the record could not be asked: read it, keep nothing.
    NotKept,
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
    /// says what may be served; see the module's documentation.
    pub async fn consent(
        &self,
        config: &ClientConfig,
        transport: &PageTransport,
        list: StreamedList,
        owner: &str,
    ) -> Consent {
        if owner.is_empty() || owner == "." || owner == ".." {
            return Consent::NotKept;
        }
        let id = percent_encode(owner);
        let path = match list {
            StreamedList::Rewards | StreamedList::Trajectories => paths::eval_run(&id),
            StreamedList::Trials => paths::chronicle_job(&id),
            // A benchmark version has no finished record to consent with: never kept.
            StreamedList::Tasks => return Consent::NotKept,
        };
        let client = TrajectoryClient::new(config.clone(), transport.clone());
        let record = match client.get_response(&path).await {
            Ok(record) => record,
            Err(_) => {
                return match transport.take_last() {
                    Some(answer) if answer.status != 200 => Consent::Refused(answer),
                    _ => Consent::NotKept,
                }
            }
        };
        let _ = transport.take_last();
        if record.status != 200 {
            return Consent::Refused(record);
        }
        if !is_finished(list, &record.body) {
            return Consent::NotKept;
        }
        let entry = Entry {
            upstream: self.upstream.clone(),
            list: list.name().to_owned(),
            owner: owner.to_owned(),
            record_sha: hex_sha256(&record.body),
        };
        let path = self.path.clone();
        let looked_up = entry.clone();
        let found = tokio::task::spawn_blocking(move || store::fetch(&path, &looked_up))
            .await
            .unwrap_or_else(|e| Err(CacheError::Task(e.to_string())));
        match found {
            Ok(Some(stored)) => {
                let mut lines = stored.lines;
                lines.extend_from_slice(
                    ListStreamEnd {
                        complete: true,
                        pages_read: stored.pages,
                        items_read: stored.items,
                        failed_page: None,
                        failure: None,
                        status: None,
                        code: None,
                        message: None,
                        retryable: false,
                    }
                    .to_line()
                    .as_bytes(),
                );
                Consent::Serve(lines)
            }
            Ok(None) => Consent::Read(Some(entry)),
            Err(error) => {
                eprintln!("cache: {error}; reading from the upstream");
                Consent::Read(Some(entry))
            }
        }
    }

    /// Keeps the complete list `lines` of `entry` (`pages` pages, `items` items), then drops the
    /// least recently served lists beyond the bound. A failure is logged, never the caller's.
    pub async fn store(&self, entry: Entry, lines: Vec<u8>, pages: u32, items: u64) {
        if lines.len() as u64 > self.max_bytes {
            return;
        }
        let path = self.path.clone();
        let max = self.max_bytes;
        let stored = tokio::task::spawn_blocking(move || {
            store::put(&path, &entry, &lines, pages, items, max)
        })
        .await
        .unwrap_or_else(|e| Err(CacheError::Task(e.to_string())));
        if let Err(error) = stored {
            eprintln!("cache: could not keep a list: {error}");
        }
    }
}

/// Whether the record `body` of `list`'s owner says it finished (terminal status).
fn is_finished(list: StreamedList, body: &[u8]) -> bool {
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

/// SHA-256 of `bytes`, in hex.
pub fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
