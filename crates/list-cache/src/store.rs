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

use crate::pieces::{piece_digests, PieceReader};

/// The schema version written in `PRAGMA user_version`; another one is started afresh.
const SCHEMA_VERSION: i64 = 2;

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
    ListStreamEnd::complete(pages, items).to_line()
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
    /// A kept list's piece did not match its digest (the entry was dropped).
    #[error("a kept list is damaged")]
    Damaged,
}

/// The writes of this process, one at a time (see the module's documentation).
static WRITES: Mutex<()> = Mutex::new(());

pub(crate) fn writing() -> MutexGuard<'static, ()> {
    WRITES.lock().unwrap_or_else(PoisonError::into_inner)
}

pub(crate) fn connect(path: &Path) -> Result<Connection, CacheError> {
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
        connection.execute_batch("DROP TABLE IF EXISTS lists; DROP TABLE IF EXISTS uses;")?;
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
            piece_shas BLOB NOT NULL,
            size INTEGER NOT NULL,
            PRIMARY KEY (upstream, list, owner)
        );
        CREATE TABLE IF NOT EXISTS uses (
            upstream TEXT NOT NULL,
            list TEXT NOT NULL,
            owner TEXT NOT NULL,
            last_used INTEGER NOT NULL,
            PRIMARY KEY (upstream, list, owner)
        );
        CREATE INDEX IF NOT EXISTS uses_by_time ON uses (last_used);
        PRAGMA user_version = {SCHEMA_VERSION};"
    ))?;
    Ok(())
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The list kept under `entry` with the same record, every piece checked and its use noted;
/// `None` when not kept, kept for another record, or damaged (then dropped). The record's
/// fingerprint is compared before the lines are read: a list kept for another record costs
/// one small row, not its whole blob. ([`PieceReader`] reads it a piece at a time.)
pub fn fetch(path: &Path, entry: &Entry) -> Result<Option<Stored>, CacheError> {
    let Some(reader) = PieceReader::open(path, entry)? else {
        return Ok(None);
    };
    let (pages, items) = (reader.pages(), reader.items());
    Ok(reader.read_all()?.map(|lines| Stored {
        lines,
        pages,
        items,
    }))
}

/// Whether a list is kept under `entry` with its record, its lines not read.
pub fn holds(path: &Path, entry: &Entry) -> Result<bool, CacheError> {
    Ok(connect(path)?.query_row(
        "SELECT EXISTS (SELECT 1 FROM lists
         WHERE upstream = ?1 AND list = ?2 AND owner = ?3 AND record_sha = ?4)",
        params![entry.upstream, entry.list, entry.owner, entry.record_sha],
        |row| row.get(0),
    )?)
}

pub(crate) fn drop_entry(connection: &Connection, entry: &Entry) -> Result<(), CacheError> {
    let _turn = writing();
    delete(connection, entry)
}

/// Deletes the list of `entry` (whatever its record) and its use.
fn delete(connection: &Connection, entry: &Entry) -> Result<(), CacheError> {
    for table in ["lists", "uses"] {
        connection.execute(
            &format!("DELETE FROM {table} WHERE upstream = ?1 AND list = ?2 AND owner = ?3"),
            params![entry.upstream, entry.list, entry.owner],
        )?;
    }
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
    let piece_shas = piece_digests(chunks);
    let length: usize = chunks.iter().map(|piece| piece.as_ref().len()).sum();
    let size = i64::try_from(length).unwrap_or(i64::MAX);
    let mut connection = connect(path)?;
    let _turn = writing();
    // Immediate: the write lock is taken (waiting up to the busy timeout for another
    // process's) before anything is read, never upgraded from a read mid-way.
    let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
    transaction.execute(
        "INSERT OR REPLACE INTO lists
         (upstream, list, owner, record_sha, pages, items, lines, piece_shas, size)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            entry.upstream,
            entry.list,
            entry.owner,
            entry.record_sha,
            i64::from(pages),
            i64::try_from(items).unwrap_or(i64::MAX),
            ZeroBlob(u64::try_from(length).unwrap_or(u64::MAX)),
            piece_shas,
            size,
        ],
    )?;
    let rowid = transaction.last_insert_rowid();
    transaction.execute(
        "INSERT OR REPLACE INTO uses (upstream, list, owner, last_used) VALUES (?1, ?2, ?3, ?4)",
        params![entry.upstream, entry.list, entry.owner, now_ms()],
    )?;
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
        let oldest = transaction
            .query_row(
                "SELECT upstream, list, owner FROM lists LEFT JOIN uses USING (upstream, list, owner)
                 WHERE NOT (upstream = ?1 AND list = ?2 AND owner = ?3)
                 ORDER BY COALESCE(last_used, 0) ASC LIMIT 1",
                params![entry.upstream, entry.list, entry.owner],
                |row| {
                    Ok(Entry {
                        upstream: row.get(0)?,
                        list: row.get(1)?,
                        owner: row.get(2)?,
                        record_sha: String::new(),
                    })
                },
            )
            .optional()?;
        let Some(oldest) = oldest else {
            break;
        };
        delete(&transaction, &oldest)?;
    }
    transaction.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pieces::PIECE_BYTES;

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
                "INSERT INTO lists VALUES ('u', 'l', 'o', 'r', 1, 1, x'00', x'00', 1)",
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
    fn lines_kept_in_pieces_read_back_whole_or_a_piece_at_a_time() {
        let path = fresh("chunks");
        let pieces: [&[u8]; 3] = [b"{\"items\":[1]}\n", b"", b"{\"items\":[2,3]}\n"];
        put_chunks(&path, &entry("a"), &pieces, 2, 3, 1_000).unwrap();
        let whole = pieces.concat();
        let stored = fetch(&path, &entry("a")).unwrap().unwrap();
        assert_eq!(
            (stored.lines.as_slice(), stored.pages, stored.items),
            (&whole[..], 2, 3)
        );
        // The same digests as the whole list kept at once: an entry either way reads alike.
        put(&path, &entry("b"), &whole, 2, 3, 1_000).unwrap();
        let sums: Vec<Vec<u8>> = connect(&path)
            .unwrap()
            .prepare("SELECT piece_shas FROM lists ORDER BY owner")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(sums, [piece_digests(&[&whole]), piece_digests(&[&whole])]);
        put_chunks::<&[u8]>(&path, &entry("c"), &[], 0, 0, 1_000).unwrap();
        let mut empty = PieceReader::open(&path, &entry("c")).unwrap().unwrap();
        assert_eq!(empty.next_piece().unwrap().unwrap(), Vec::<u8>::new());
        assert!(empty.next_piece().is_none());
    }

    #[test]
    fn a_long_list_is_read_a_checked_piece_at_a_time_and_a_damaged_piece_is_never_handed_out() {
        let path = fresh("long");
        let lines: Vec<u8> = (0..PIECE_BYTES * 2 + 10).map(|i| (i % 251) as u8).collect();
        let halves = [&lines[..1000], &lines[1000..]];
        put_chunks(&path, &entry("a"), &halves, 3, 30, u64::MAX).unwrap();
        let mut reader = PieceReader::open(&path, &entry("a")).unwrap().unwrap();
        let mut read = Vec::new();
        while let Some(piece) = reader.next_piece() {
            let piece = piece.unwrap();
            assert!(piece.len() <= PIECE_BYTES);
            read.extend_from_slice(&piece);
        }
        assert_eq!(read, lines);
        // One byte changed in the last piece: the first two are handed out, the third is not.
        connect(&path)
            .unwrap()
            .execute(
                "UPDATE lists SET lines = ?1",
                [[&lines[..lines.len() - 1], &[0u8][..]].concat()],
            )
            .unwrap();
        let mut reader = PieceReader::open(&path, &entry("a")).unwrap().unwrap();
        assert!(reader.next_piece().unwrap().is_ok());
        assert!(reader.next_piece().unwrap().is_ok());
        assert!(matches!(
            reader.next_piece(),
            Some(Err(CacheError::Damaged))
        ));
        assert!(reader.next_piece().is_none());
        assert_eq!(count(&path), 0, "dropped");
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
