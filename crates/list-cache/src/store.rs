//! The cache's SQLite database: one table of kept lists, written in one transaction each, read
//! with its checksum verified; a connection per operation (many readers at once, in write-ahead
//! log mode). Commits are not synced to disk one by one (`synchronous=NORMAL`, safe in that
//! mode: a crash of the process loses nothing, a power cut at most the latest lists kept,
//! never the database), and the writes of one process take turns on a lock of their own rather
//! than SQLite's busy wait, which sleeps in steps of up to 100 ms: twelve lists kept or served
//! at once then cost milliseconds, not a second.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use eval_compare_core::client::list_stream::ListStreamEnd;
use rusqlite::blob::ZeroBlob;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior, MAIN_DB};
use sha2::{Digest, Sha256};

/// The schema version written in `PRAGMA user_version`; another one is started afresh.
const SCHEMA_VERSION: i64 = 1;

/// How long a connection waits for another's write lock.
const BUSY_TIMEOUT_MS: u64 = 5_000;

/// What a list is kept under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The upstream's base URL.
    pub upstream: String,
    /// The list's name (core's `StreamedList::name`: `trajectory-rewards`, `trajectories`, `trials`).
    pub list: String,
    /// The run or job id.
    pub owner: String,
    /// SHA-256 of the owner's record as the upstream answered it when the list was read.
    pub record_sha: String,
}

/// A kept list, its checksum verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The page lines.
    pub lines: Vec<u8>,
    /// Pages.
    pub pages: u32,
    /// Items.
    pub items: u64,
}

/// A kept list read in chunks ([`fetch_chunks`]), its checksum verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredChunks {
    /// The page lines, in pieces of at most the size asked for, in order.
    pub chunks: Vec<Vec<u8>>,
    /// Pages.
    pub pages: u32,
    /// Items.
    pub items: u64,
}

impl Stored {
    /// The list as the server streams it: its page lines, then the trailer of a complete list.
    pub fn into_stream_body(self) -> Vec<u8> {
        let mut body = self.lines;
        body.extend_from_slice(complete_trailer(self.pages, self.items).as_bytes());
        body
    }
}

/// The trailer line of a complete list of `pages` pages and `items` items.
pub fn complete_trailer(pages: u32, items: u64) -> String {
    ListStreamEnd {
        complete: true,
        pages_read: pages,
        items_read: items,
        failed_page: None,
        failure: None,
        status: None,
        code: None,
        message: None,
        retryable: false,
    }
    .to_line()
}

/// Why the cache could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// The database failed.
    #[error("the cache database failed: {0}")]
    Sql(#[from] rusqlite::Error),
    /// A file or directory failed.
    #[error("the cache at {0} failed: {1}")]
    Io(String, std::io::Error),
    /// The background task failed.
    #[error("the cache's task failed: {0}")]
    Task(String),
}

/// The writes of this process, one at a time (see the module's documentation).
static WRITES: Mutex<()> = Mutex::new(());

fn writing() -> MutexGuard<'static, ()> {
    WRITES.lock().unwrap_or_else(PoisonError::into_inner)
}

fn connect(path: &Path) -> Result<Connection, CacheError> {
    let connection = Connection::open(path)?;
    connection.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))?;
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(connection)
}

/// Creates the database when missing; empties it when `clear`; a file that is not a readable
/// database of this schema is set aside (`.damaged`) and started afresh.
pub fn prepare(path: &Path, clear: bool) -> Result<(), CacheError> {
    match create(path, clear) {
        Ok(()) => Ok(()),
        Err(error) => {
            eprintln!(
                "cache: {} cannot be used ({error}); starting a new one",
                path.display()
            );
            let aside = path.with_extension("sqlite3.damaged");
            let _ = std::fs::rename(path, &aside);
            for suffix in ["-wal", "-shm"] {
                let mut side = path.as_os_str().to_owned();
                side.push(suffix);
                let _ = std::fs::remove_file(side);
            }
            create(path, clear)
        }
    }
}

fn create(path: &Path, clear: bool) -> Result<(), CacheError> {
    let connection = connect(path)?;
    let mode: String = connection.query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0))?;
    let _ = mode;
    let check: String = connection.query_row("PRAGMA quick_check", [], |row| row.get(0))?;
    if check != "ok" {
        return Err(CacheError::Task(format!("integrity check: {check}")));
    }
    let version: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if version != SCHEMA_VERSION || clear {
        connection.execute_batch("DROP TABLE IF EXISTS lists;")?;
    }
    connection.execute_batch(&format!(
        "CREATE TABLE IF NOT EXISTS lists (
            upstream TEXT NOT NULL,
            list TEXT NOT NULL,
            owner TEXT NOT NULL,
            record_sha TEXT NOT NULL,
            pages INTEGER NOT NULL,
            items INTEGER NOT NULL,
            lines BLOB NOT NULL,
            lines_sha TEXT NOT NULL,
            size INTEGER NOT NULL,
            last_used INTEGER NOT NULL,
            PRIMARY KEY (upstream, list, owner)
        );
        CREATE INDEX IF NOT EXISTS lists_by_use ON lists (last_used);
        PRAGMA user_version = {SCHEMA_VERSION};"
    ))?;
    Ok(())
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The list kept under `entry` with the same record, its checksum verified and its use noted;
/// `None` when not kept, kept for another record, or damaged (then dropped). The record's
/// fingerprint is compared before the lines are read: a list kept for another record costs
/// one small row, not its whole blob.
pub fn fetch(path: &Path, entry: &Entry) -> Result<Option<Stored>, CacheError> {
    Ok(
        fetch_chunks(path, entry, usize::MAX)?.map(|mut stored| Stored {
            lines: stored.chunks.pop().unwrap_or_default(),
            pages: stored.pages,
            items: stored.items,
        }),
    )
}

/// [`fetch`], the lines read in pieces of at most `chunk` bytes (at least one piece), straight
/// from the blob into each (no copy of the whole list made first), hashed as they are read.
pub fn fetch_chunks(
    path: &Path,
    entry: &Entry,
    chunk: usize,
) -> Result<Option<StoredChunks>, CacheError> {
    let connection = connect(path)?;
    let key = params![entry.upstream, entry.list, entry.owner];
    let row = connection
        .query_row(
            "SELECT record_sha, pages, items, lines_sha, rowid FROM lists
             WHERE upstream = ?1 AND list = ?2 AND owner = ?3",
            key,
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, i64>(1)?,
                    row.get::<_, i64>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, i64>(4)?,
                ))
            },
        )
        .optional();
    let row = match row {
        Ok(Some((record_sha, ..))) if record_sha != entry.record_sha => return Ok(None),
        Ok(row) => row.map(|(_, pages, items, lines_sha, rowid)| (pages, items, lines_sha, rowid)),
        Err(error) => return unreadable(&connection, entry, &error),
    };
    let Some((pages, items, lines_sha, rowid)) = row else {
        return Ok(None);
    };
    let chunks = match read_blob(&connection, rowid, chunk.max(1)) {
        Ok(chunks) => chunks,
        Err(error) => return unreadable(&connection, entry, &error),
    };
    let mut hasher = Sha256::new();
    chunks.iter().for_each(|piece| hasher.update(piece));
    let counts = u32::try_from(pages).ok().zip(u64::try_from(items).ok());
    let sound = hex_digest(hasher) == lines_sha;
    let Some((pages, items)) = counts.filter(|_| sound) else {
        eprintln!(
            "cache: the kept {} of one run is damaged; dropped and read again",
            entry.list
        );
        drop_entry(&connection, entry)?;
        return Ok(None);
    };
    let _turn = writing();
    connection.execute(
        "UPDATE lists SET last_used = ?4 WHERE upstream = ?1 AND list = ?2 AND owner = ?3",
        params![entry.upstream, entry.list, entry.owner, now_ms()],
    )?;
    Ok(Some(StoredChunks {
        chunks,
        pages,
        items,
    }))
}

/// The lines of row `rowid` in pieces of at most `chunk` bytes (one empty piece when empty).
/// A value that is not a blob (text, a number) fails, as reading it as one would.
fn read_blob(
    connection: &Connection,
    rowid: i64,
    chunk: usize,
) -> Result<Vec<Vec<u8>>, rusqlite::Error> {
    let kind: String = connection.query_row(
        "SELECT typeof(lines) FROM lists WHERE rowid = ?1",
        [rowid],
        |row| row.get(0),
    )?;
    if kind != "blob" {
        return Err(rusqlite::Error::InvalidColumnType(
            0,
            "lines".to_owned(),
            rusqlite::types::Type::Blob,
        ));
    }
    let blob = connection.blob_open(MAIN_DB, c"lists", c"lines", rowid, true)?;
    let length = blob.len();
    let mut chunks = Vec::with_capacity(length.div_ceil(chunk).max(1));
    let mut at = 0;
    loop {
        let size = chunk.min(length - at);
        let mut piece = vec![0; size];
        blob.read_at_exact(&mut piece, at)?;
        chunks.push(piece);
        at += size;
        if at >= length {
            return Ok(chunks);
        }
    }
}

fn hex_digest(hasher: Sha256) -> String {
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// An entry whose row could not be read: dropped, and not served.
fn unreadable<T>(
    connection: &Connection,
    entry: &Entry,
    error: &rusqlite::Error,
) -> Result<Option<T>, CacheError> {
    eprintln!("cache: an entry could not be read ({error}); dropped");
    drop_entry(connection, entry)?;
    Ok(None)
}

fn drop_entry(connection: &Connection, entry: &Entry) -> Result<(), CacheError> {
    let _turn = writing();
    connection.execute(
        "DELETE FROM lists WHERE upstream = ?1 AND list = ?2 AND owner = ?3",
        params![entry.upstream, entry.list, entry.owner],
    )?;
    Ok(())
}

/// Keeps `lines` under `entry` in one transaction, then drops the least recently used lists
/// until at most `max_bytes` are kept (never the one just kept).
pub fn put(
    path: &Path,
    entry: &Entry,
    lines: &[u8],
    pages: u32,
    items: u64,
    max_bytes: u64,
) -> Result<(), CacheError> {
    put_chunks(path, entry, &[lines], pages, items, max_bytes)
}

/// [`put`] of the lines in pieces (`chunks`, in order), written into the blob one by one: no
/// copy of the whole list is made first.
pub fn put_chunks<C: AsRef<[u8]>>(
    path: &Path,
    entry: &Entry,
    chunks: &[C],
    pages: u32,
    items: u64,
    max_bytes: u64,
) -> Result<(), CacheError> {
    let mut hasher = Sha256::new();
    chunks
        .iter()
        .for_each(|piece| hasher.update(piece.as_ref()));
    let lines_sha = hex_digest(hasher);
    let length: usize = chunks.iter().map(|piece| piece.as_ref().len()).sum();
    let size = i64::try_from(length).unwrap_or(i64::MAX);
    let mut connection = connect(path)?;
    let _turn = writing();
    // Immediate: the write lock is taken (waiting up to the busy timeout for another
    // process's) before anything is read, never upgraded from a read mid-way.
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    transaction.execute(
        "INSERT OR REPLACE INTO lists
         (upstream, list, owner, record_sha, pages, items, lines, lines_sha, size, last_used)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            entry.upstream,
            entry.list,
            entry.owner,
            entry.record_sha,
            i64::from(pages),
            i64::try_from(items).unwrap_or(i64::MAX),
            ZeroBlob(u64::try_from(length).unwrap_or(u64::MAX)),
            lines_sha,
            size,
            now_ms(),
        ],
    )?;
    let rowid = transaction.last_insert_rowid();
    {
        let mut blob = transaction.blob_open(MAIN_DB, c"lists", c"lines", rowid, false)?;
        let mut at = 0;
        for piece in chunks {
            blob.write_all_at(piece.as_ref(), at)?;
            at += piece.as_ref().len();
        }
    }
    let max = i64::try_from(max_bytes).unwrap_or(i64::MAX);
    loop {
        let total: i64 =
            transaction.query_row("SELECT COALESCE(SUM(size), 0) FROM lists", [], |row| {
                row.get(0)
            })?;
        if total <= max {
            break;
        }
        let dropped = transaction.execute(
            "DELETE FROM lists WHERE rowid = (
                SELECT rowid FROM lists
                WHERE NOT (upstream = ?1 AND list = ?2 AND owner = ?3)
                ORDER BY last_used ASC LIMIT 1)",
            params![entry.upstream, entry.list, entry.owner],
        )?;
        if dropped == 0 {
            break;
        }
    }
    transaction.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex_sha256;

    fn entry(owner: &str) -> Entry {
        Entry {
            upstream: "http://up".into(),
            list: "trajectories".into(),
            owner: owner.into(),
            record_sha: "r1".into(),
        }
    }

    fn fresh(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("eval-compare-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("lists.sqlite3");
        prepare(&path, false).unwrap();
        path
    }

    #[test]
    fn the_least_recently_served_go_first_and_the_bound_holds() {
        let path = fresh("lru");
        let line = vec![b'x'; 400];
        put(&path, &entry("a"), &line, 1, 1, 1_000).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(3));
        put(&path, &entry("b"), &line, 1, 1, 1_000).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(3));
        // Serving `a` makes `b` the least recently used.
        assert!(fetch(&path, &entry("a")).unwrap().is_some());
        std::thread::sleep(std::time::Duration::from_millis(3));
        put(&path, &entry("c"), &line, 1, 1, 1_000).unwrap();
        assert!(fetch(&path, &entry("b")).unwrap().is_none());
        assert!(fetch(&path, &entry("a")).unwrap().is_some());
        assert!(fetch(&path, &entry("c")).unwrap().is_some());
        let other_record = Entry {
            record_sha: "r2".into(),
            ..entry("a")
        };
        assert!(fetch(&path, &other_record).unwrap().is_none());
    }

    fn count(path: &Path) -> i64 {
        connect(path)
            .unwrap()
            .query_row("SELECT COUNT(*) FROM lists", [], |row| row.get(0))
            .unwrap()
    }

    #[test]
    fn the_record_is_compared_before_the_lines_are_read() {
        let path = fresh("record-first");
        put(&path, &entry("a"), b"line\n", 1, 1, 1_000).unwrap();
        // Lines that cannot be read as a blob: reading them would fail and drop the entry.
        connect(&path)
            .unwrap()
            .execute("UPDATE lists SET lines = 5", [])
            .unwrap();
        let other_record = Entry {
            record_sha: "r2".into(),
            ..entry("a")
        };
        assert!(fetch(&path, &other_record).unwrap().is_none());
        assert_eq!(
            count(&path),
            1,
            "another record's look-up never read the lines"
        );
        assert!(fetch(&path, &entry("a")).unwrap().is_none());
        assert_eq!(
            count(&path),
            0,
            "the same record's read them, found them damaged"
        );
    }

    #[test]
    fn a_store_waits_for_another_connections_write_instead_of_failing() {
        let path = fresh("busy");
        let holder = connect(&path).unwrap();
        // Another process's write (not this process's turn lock): held for a moment.
        holder.execute_batch("BEGIN IMMEDIATE").unwrap();
        holder
            .execute(
                "INSERT INTO lists VALUES ('u', 'l', 'o', 'r', 1, 1, x'00', 'x', 1, 0)",
                [],
            )
            .unwrap();
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || put(&path, &entry("a"), b"line\n", 1, 1, 1_000))
        };
        std::thread::sleep(std::time::Duration::from_millis(300));
        holder.execute_batch("COMMIT").unwrap();
        writer
            .join()
            .unwrap()
            .expect("waited, not \"database is locked\"");
        assert_eq!(count(&path), 2);
        assert!(fetch(&path, &entry("a")).unwrap().is_some());
    }

    #[test]
    fn lines_kept_in_pieces_read_back_whole_or_in_pieces() {
        let path = fresh("chunks");
        let pieces: [&[u8]; 3] = [b"{\"items\":[1]}\n", b"", b"{\"items\":[2,3]}\n"];
        put_chunks(&path, &entry("a"), &pieces, 2, 3, 1_000).unwrap();
        let whole = pieces.concat();
        let stored = fetch(&path, &entry("a")).unwrap().unwrap();
        assert_eq!(
            (stored.lines.as_slice(), stored.pages, stored.items),
            (&whole[..], 2, 3)
        );
        for size in [1, 5, whole.len(), whole.len() + 1] {
            let read = fetch_chunks(&path, &entry("a"), size).unwrap().unwrap();
            assert!(read.chunks.iter().all(|piece| piece.len() <= size));
            assert_eq!(read.chunks.concat(), whole, "pieces of {size}");
        }
        // The same checksum as the whole list kept at once: an entry either way reads alike.
        put(&path, &entry("b"), &whole, 2, 3, 1_000).unwrap();
        let sums: Vec<String> = connect(&path)
            .unwrap()
            .prepare("SELECT lines_sha FROM lists ORDER BY owner")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(sums, [hex_sha256(&whole), hex_sha256(&whole)]);
        put_chunks::<&[u8]>(&path, &entry("c"), &[], 0, 0, 1_000).unwrap();
        let empty = fetch_chunks(&path, &entry("c"), 4).unwrap().unwrap();
        assert_eq!(empty.chunks, [Vec::<u8>::new()]);
    }

    #[test]
    fn a_damaged_entry_is_dropped_and_clearing_empties() {
        let path = fresh("damage");
        put(&path, &entry("a"), b"line\n", 1, 1, 1_000).unwrap();
        connect(&path)
            .unwrap()
            .execute("UPDATE lists SET lines = x'00'", [])
            .unwrap();
        assert!(fetch(&path, &entry("a")).unwrap().is_none());
        let count: i64 = connect(&path)
            .unwrap()
            .query_row("SELECT COUNT(*) FROM lists", [], |row| row.get(0))
            .unwrap();
        assert_eq!(count, 0, "dropped");
        put(&path, &entry("a"), b"line\n", 1, 1, 1_000).unwrap();
        prepare(&path, true).unwrap();
        assert!(fetch(&path, &entry("a")).unwrap().is_none());
    }
}
