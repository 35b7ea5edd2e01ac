//! A kept list's lines in fixed pieces, each with its own SHA-256 ([`PIECE_BYTES`]), so that a
//! list is served as it is read: each piece checked before it is handed out, the first byte
//! sent after one piece is read rather than after the whole list was read and hashed (40 MB for
//! 800,000 packed trajectories, hundreds of milliseconds when a comparison's four lists are
//! served at once). A damaged piece is never handed out: the entry is dropped, and the reader
//! says so ([`CacheError::Damaged`]); a caller that has sent pieces already ends its answer
//! short, so its reader sees a cut body, never a complete list.
//!
//! The reader reads in one read transaction: a list kept again meanwhile (a new row) does not
//! change what it reads.

use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension, MAIN_DB};
use sha2::{Digest, Sha256};

use crate::store::{connect, drop_entry, now_ms, writing, CacheError, Entry};

/// The size of the pieces a list's digests are taken over (the last piece may be shorter).
pub const PIECE_BYTES: usize = 1 << 20;

/// Bytes of one piece's digest.
const DIGEST_BYTES: usize = 32;

/// The SHA-256 of each [`PIECE_BYTES`] piece of the lines `chunks` hold in order (however they
/// are divided), one after another; an empty list has the digest of one empty piece.
pub fn piece_digests<C: AsRef<[u8]>>(chunks: &[C]) -> Vec<u8> {
    let mut digests = Vec::new();
    let mut hasher = Sha256::new();
    let mut filled = 0;
    for chunk in chunks {
        let mut bytes = chunk.as_ref();
        while !bytes.is_empty() {
            let take = bytes.len().min(PIECE_BYTES - filled);
            hasher.update(&bytes[..take]);
            (filled, bytes) = (filled + take, &bytes[take..]);
            if filled == PIECE_BYTES {
                digests.extend_from_slice(&std::mem::take(&mut hasher).finalize());
                filled = 0;
            }
        }
    }
    if filled > 0 || digests.is_empty() {
        digests.extend_from_slice(&hasher.finalize());
    }
    digests
}

/// The pieces a list of `length` bytes is digested in.
fn piece_count(length: usize) -> usize {
    length.div_ceil(PIECE_BYTES).max(1)
}

/// A kept list being read a piece at a time ([`PieceReader::open`]).
#[derive(Debug)]
pub struct PieceReader {
    connection: Connection,
    entry: Entry,
    rowid: i64,
    length: usize,
    digests: Vec<u8>,
    next: usize,
    pages: u32,
    items: u64,
}

impl PieceReader {
    /// The list kept under `entry` with the same record, its use noted, ready to be read;
    /// `None` when not kept, kept for another record, or unreadable or damaged in a way seen
    /// before any piece is read (then dropped).
    pub fn open(path: &Path, entry: &Entry) -> Result<Option<Self>, CacheError> {
        let connection = connect(path)?;
        {
            let _turn = writing();
            // Noted in a table of its own: a row of `lists` holds the lines, and SQLite rewrites
            // a row whole when one of its columns changes (40 MB for a list of trajectories).
            connection.execute(
                "UPDATE uses SET last_used = ?4
                 WHERE upstream = ?1 AND list = ?2 AND owner = ?3 AND EXISTS (
                     SELECT 1 FROM lists
                     WHERE upstream = ?1 AND list = ?2 AND owner = ?3 AND record_sha = ?5)",
                params![
                    entry.upstream,
                    entry.list,
                    entry.owner,
                    now_ms(),
                    entry.record_sha
                ],
            )?;
        }
        connection.execute_batch("BEGIN")?;
        let row = connection
            .query_row(
                "SELECT record_sha, pages, items, piece_shas, rowid, typeof(lines), length(lines)
                 FROM lists WHERE upstream = ?1 AND list = ?2 AND owner = ?3",
                params![entry.upstream, entry.list, entry.owner],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        (row.get::<_, i64>(1)?, row.get::<_, i64>(2)?),
                        row.get::<_, Vec<u8>>(3)?,
                        row.get::<_, i64>(4)?,
                        (row.get::<_, String>(5)?, row.get::<_, i64>(6)?),
                    ))
                },
            )
            .optional();
        let (record_sha, (pages, items), digests, rowid, (kind, length)) = match row {
            Ok(Some(row)) => row,
            Ok(None) => return Ok(None),
            Err(error) => return unreadable(connection, entry, &error.to_string()),
        };
        if record_sha != entry.record_sha {
            return Ok(None);
        }
        let counts = u32::try_from(pages).ok().zip(u64::try_from(items).ok());
        let length = usize::try_from(length).ok();
        let shape = length.filter(|&length| {
            kind == "blob" && digests.len() == piece_count(length) * DIGEST_BYTES
        });
        let (Some((pages, items)), Some(length)) = (counts, shape) else {
            return unreadable(connection, entry, "its lines or their digests");
        };
        Ok(Some(Self {
            connection,
            entry: entry.clone(),
            rowid,
            length,
            digests,
            next: 0,
            pages,
            items,
        }))
    }

    /// The list's pages.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// The list's items.
    pub fn items(&self) -> u64 {
        self.items
    }

    /// The next piece, checked; `None` once every piece was read. A piece that does not match
    /// its digest (or cannot be read) drops the entry and is [`CacheError::Damaged`].
    pub fn next_piece(&mut self) -> Option<Result<Vec<u8>, CacheError>> {
        let mut next = None;
        self.read_on(1, |piece| {
            next = Some(piece);
            true
        });
        next
    }

    /// Hands each piece not read yet, checked, to `take` until it returns false; a damaged
    /// piece drops the entry, is handed as [`CacheError::Damaged`] and ends the reading. One
    /// blob handle reads them all: a handle opened again for each piece would walk the blob's
    /// overflow pages from its start every time.
    pub fn read_rest(&mut self, take: impl FnMut(Result<Vec<u8>, CacheError>) -> bool) {
        self.read_on(usize::MAX, take);
    }

    /// At most `count` more pieces handed to `take` (see [`Self::read_rest`]).
    fn read_on(&mut self, count: usize, mut take: impl FnMut(Result<Vec<u8>, CacheError>) -> bool) {
        let end = piece_count(self.length).min(self.next.saturating_add(count));
        if self.next >= end {
            return;
        }
        let blob = self
            .connection
            .blob_open(MAIN_DB, c"lists", c"lines", self.rowid, true);
        let mut damaged = blob.is_err();
        if let Ok(blob) = &blob {
            while self.next < end {
                let index = self.next;
                self.next += 1;
                let start = index * PIECE_BYTES;
                let mut piece = vec![0; PIECE_BYTES.min(self.length - start)];
                let expected = &self.digests[index * DIGEST_BYTES..(index + 1) * DIGEST_BYTES];
                let read = blob.read_at_exact(&mut piece, start).is_ok();
                if !read || Sha256::digest(&piece).as_slice() != expected {
                    damaged = true;
                    break;
                }
                if !take(Ok(piece)) {
                    return;
                }
            }
        }
        drop(blob);
        if damaged {
            self.next = usize::MAX;
            let _ = self.connection.execute_batch("COMMIT");
            eprintln!(
                "cache: the kept {} of one run is damaged; dropped and read again",
                self.entry.list
            );
            take(drop_entry(&self.connection, &self.entry).and(Err(CacheError::Damaged)));
        }
    }

    /// Every piece, checked, in one buffer; `None` when one is damaged (the entry dropped).
    pub fn read_all(mut self) -> Result<Option<Vec<u8>>, CacheError> {
        let mut lines = Vec::with_capacity(self.length);
        let mut failed = None;
        self.read_rest(|piece| match piece {
            Ok(piece) => {
                lines.extend_from_slice(&piece);
                true
            }
            Err(error) => {
                failed = Some(error);
                false
            }
        });
        match failed {
            None => Ok(Some(lines)),
            Some(CacheError::Damaged) => Ok(None),
            Some(error) => Err(error),
        }
    }
}

/// An entry whose row could not be read: dropped, and not served.
fn unreadable<T>(
    connection: Connection,
    entry: &Entry,
    what: &str,
) -> Result<Option<T>, CacheError> {
    let _ = connection.execute_batch("COMMIT");
    eprintln!("cache: an entry could not be read ({what}); dropped");
    drop_entry(&connection, entry)?;
    Ok(None)
}
