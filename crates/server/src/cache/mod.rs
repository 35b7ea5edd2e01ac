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

use bytes::Bytes;
use eval_compare_list_cache::store;

use std::path::{Path, PathBuf};

use eval_compare_core::client::list_stream::StreamedList;
use eval_compare_core::client::{
    paths, percent_encode, ClientConfig, HttpResponse, TrajectoryClient,
};

use crate::stream::{ItemForm, PageTransport};

use eval_compare_list_cache::record_is_finished as is_finished;
pub use eval_compare_list_cache::{
    hex_sha256, CacheError, Entry, Stored, DEFAULT_MAX_MIB, FILE_NAME,
};

/// The pieces a kept list is read and served in: a few reads per list, none large enough to
/// cost a whole list's copy at once.
const SERVED_CHUNK_BYTES: usize = 4 * 1024 * 1024;

/// What the upstream's answer on a run's record allows.
#[derive(Debug)]
pub enum Consent {
    /// Not 200: the upstream's answer, to be passed on as it is.
    Refused(HttpResponse),
    /// Finished and kept unchanged: the lines to serve in pieces, trailer included.
    Serve(Vec<Bytes>),
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
            list: form.cache_name(list),
            owner: owner.to_owned(),
            record_sha: hex_sha256(&record.body),
        };
        let path = self.path.clone();
        let looked_up = entry.clone();
        let found = tokio::task::spawn_blocking(move || {
            store::fetch_chunks(&path, &looked_up, SERVED_CHUNK_BYTES)
        })
        .await
        .unwrap_or_else(|e| Err(CacheError::Task(e.to_string())));
        match found {
            Ok(Some(stored)) => {
                let trailer = store::complete_trailer(stored.pages, stored.items);
                let mut body: Vec<Bytes> = stored.chunks.into_iter().map(Bytes::from).collect();
                body.push(Bytes::from(trailer));
                Consent::Serve(body)
            }
            Ok(None) => Consent::Read(Some(entry)),
            Err(error) => {
                eprintln!("cache: {error}; reading from the upstream");
                Consent::Read(Some(entry))
            }
        }
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
