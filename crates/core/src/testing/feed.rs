//! A list file fed to a [`ListFeed`] in chunks, as the viewer's Files page feeds it: one home
//! for the feeding loop the core's tests and benchmarks share.

use serde::de::DeserializeOwned;

use crate::run_folder::{Feed, ListFeed, ParsedList};

/// `bytes` pushed `chunk` bytes at a time and read `budget` bytes a step; `None` when the feed
/// ended unexpectedly (the whole read then answers). Once read, every byte was consumed.
pub fn feed_in_chunks<T: DeserializeOwned>(
    bytes: &[u8],
    chunk: usize,
    budget: usize,
) -> Option<ParsedList<T>> {
    let mut feed = ListFeed::<T>::new();
    let mut chunks = bytes.chunks(chunk.max(1));
    loop {
        match feed.advance(budget) {
            Feed::Working => {}
            Feed::NeedMore => match chunks.next() {
                Some(chunk) => feed.push(chunk),
                None => feed.end(),
            },
            Feed::Read(list) => {
                assert_eq!(feed.consumed(), bytes.len(), "every byte consumed");
                return Some(list);
            }
            Feed::Unexpected => return None,
        }
    }
}
