//! A list file in memory fed to a [`ListFeed`](crate::run_folder::ListFeed) in chunks (through
//! [`read_list`], as the CLI reads a file), for the core's tests and benchmarks.

use crate::large_list::PlainItem;

use crate::run_folder::{read_list, read_list_with, ListFeed, ParsedList};

/// `bytes` pushed `chunk` bytes at a time and read `budget` bytes a step, the feed told their
/// size (as the CLI tells it); `None` when the feed ended unexpectedly (the
/// whole read then answers). Once read, every byte was consumed.
pub fn feed_in_chunks<T: PlainItem>(
    bytes: &[u8],
    chunk: usize,
    budget: usize,
) -> Option<ParsedList<T>> {
    read_list(bytes, Some(bytes.len() as u64), chunk, budget).expect("reading memory cannot fail")
}

/// [`feed_in_chunks`] with the feed not told the size (its items' room grown by doubling), as
/// the Files page reads.
pub fn feed_in_chunks_unsized<T: PlainItem>(
    bytes: &[u8],
    chunk: usize,
    budget: usize,
) -> Option<ParsedList<T>> {
    read_list(bytes, None, chunk, budget).expect("reading memory cannot fail")
}

/// [`feed_in_chunks_unsized`] with every page not arrived whole read member by member, however
/// small (a feed reads so only pages of a megabyte or more): that reading, at every cut.
pub fn feed_in_chunks_opening_pages<T: PlainItem>(
    bytes: &[u8],
    chunk: usize,
    budget: usize,
) -> Option<ParsedList<T>> {
    read_list_with(ListFeed::new().opening_pages_from(0), bytes, chunk, budget)
        .expect("reading memory cannot fail")
}
