//! What the CLI's kept lists know during one command: the consent the API gave (each finished
//! record's SHA-256, as the API answered it to this key), the lists being served from the
//! store page by page, and the lists being read whole to be kept. The store itself is the
//! server's ([`eval_compare_list_cache::store`]), read and written off the async thread.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;
use std::rc::Rc;

use eval_compare_core::client::list_stream::{page_line, ListStreamEnd, StreamedList};
use eval_compare_core::client::HttpResponse;
use eval_compare_list_cache::{record_is_finished, store, CacheError, Entry, Stored};
use serde::de::IgnoredAny;
use serde::Deserialize;

use super::asked::Owner;

/// The fields of a page the kept lists read: how many items, and what follows.
#[derive(Deserialize)]
struct PageShape {
    items: Vec<IgnoredAny>,
    #[serde(default)]
    has_more: bool,
    #[serde(default)]
    next_cursor: Option<String>,
}

/// A kept list served page by page: its page lines, and which line follows each cursor.
#[derive(Debug)]
pub struct Served {
    lines: Vec<u8>,
    pages: Vec<Range<usize>>,
    after: HashMap<String, usize>,
}

impl Served {
    /// The lines of `stored`, each page's `next_cursor` leading to the next line; `None` when
    /// a line is not a page of the form the API sends.
    fn of(stored: Stored) -> Option<Self> {
        let lines = stored.lines;
        let mut pages = Vec::new();
        let mut start = 0;
        for end in memchr_newlines(&lines).chain(std::iter::once(lines.len())) {
            if !lines[start..end].trim_ascii().is_empty() {
                pages.push(start..end);
            }
            start = end + 1;
        }
        let mut after = HashMap::new();
        for (index, range) in pages.iter().enumerate() {
            let page: PageShape = serde_json::from_slice(&lines[range.clone()]).ok()?;
            if let Some(next) = page.next_cursor.filter(|_| page.has_more) {
                after.insert(next, index + 1);
            }
        }
        Some(Self {
            lines,
            pages,
            after,
        })
    }

    /// The page after `cursor` (the first for `None`).
    fn page(&self, cursor: Option<&str>) -> Option<HttpResponse> {
        let index = match cursor {
            None => 0,
            Some(cursor) => *self.after.get(cursor)?,
        };
        let body = self.lines.get(self.pages.get(index)?.clone())?.to_vec();
        Some(HttpResponse {
            status: 200,
            headers: vec![("content-type".to_owned(), "application/json".to_owned())],
            body,
        })
    }
}

/// Where the line breaks of `bytes` are.
fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(at, _)| at)
}

/// A list being read page by page to be kept once whole.
#[derive(Debug)]
struct Capture {
    entry: Entry,
    lines: Vec<u8>,
    pages: u32,
    items: u64,
    next: Option<String>,
}

/// The kept lists of one command; see the module's documentation.
#[derive(Debug)]
pub struct Keeper {
    path: PathBuf,
    max_bytes: u64,
    upstream: String,
    consent: RefCell<HashMap<Owner, Rc<[u8]>>>,
    serving: RefCell<HashMap<(StreamedList, String), Rc<Served>>>,
    capturing: RefCell<HashMap<(StreamedList, String), Capture>>,
    used: Cell<u32>,
    kept: Cell<u32>,
}

impl Keeper {
    /// The kept lists in the database at `path`, of the API at `upstream`, at most
    /// `max_bytes` of lines.
    pub fn new(path: PathBuf, upstream: &str, max_bytes: u64) -> Self {
        Self {
            path,
            max_bytes,
            upstream: upstream.to_owned(),
            consent: RefCell::default(),
            serving: RefCell::default(),
            capturing: RefCell::default(),
            used: Cell::new(0),
            kept: Cell::new(0),
        }
    }

    /// The base URL of the API whose lists these are.
    pub fn upstream(&self) -> &str {
        &self.upstream
    }

    /// The most bytes of lines kept.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// How many lists were served from the store, and how many were kept in it.
    pub fn counts(&self) -> (u32, u32) {
        (self.used.get(), self.kept.get())
    }

    /// Notes the API's answer to `owner`'s record: a `200` with a finished record is its
    /// consent to use the lists kept for exactly that record; any other answer withdraws it.
    pub fn saw_record(&self, owner: Owner, answer: Option<&HttpResponse>) {
        let finished = answer
            .filter(|answer| answer.status == 200)
            .filter(|answer| record_is_finished(owner.record_list(), &answer.body));
        let mut consent = self.consent.borrow_mut();
        match finished {
            Some(answer) => {
                consent.insert(owner, Rc::from(answer.body.as_slice()));
            }
            None => {
                consent.remove(&owner);
            }
        }
    }

    /// What `list` of `owner` is kept under, when the API consented.
    pub fn entry(&self, list: StreamedList, owner: &str) -> Option<Entry> {
        let record = self
            .consent
            .borrow()
            .get(&Owner::of(list, owner))
            .cloned()?;
        Some(Entry::of_record(&self.upstream, list, owner, &record))
    }

    /// The list kept under `entry`, checked (a damaged one is dropped and `None`).
    pub async fn fetch(&self, entry: &Entry) -> Option<Stored> {
        let path = self.path.clone();
        let entry = entry.clone();
        let found = tokio::task::spawn_blocking(move || store::fetch(&path, &entry))
            .await
            .unwrap_or_else(|e| Err(CacheError::Task(e.to_string())));
        match found {
            Ok(found) => found,
            Err(error) => {
                eprintln!("eval-compare: cache: {error}; reading from the API");
                None
            }
        }
    }

    /// Keeps the complete list `lines` under `entry`, when the API's consent still stands for
    /// the same record and it fits the bound. A failure is said, never the command's.
    pub async fn keep(
        &self,
        list: StreamedList,
        entry: Entry,
        lines: Vec<u8>,
        pages: u32,
        items: u64,
    ) {
        let still = self.entry(list, &entry.owner);
        if still.is_none_or(|now| now.record_sha != entry.record_sha)
            || lines.len() as u64 > self.max_bytes
        {
            return;
        }
        let path = self.path.clone();
        let max = self.max_bytes;
        let kept = tokio::task::spawn_blocking(move || {
            store::put(&path, &entry, &lines, pages, items, max)
        })
        .await
        .unwrap_or_else(|e| Err(CacheError::Task(e.to_string())));
        match kept {
            Ok(()) => self.kept.set(self.kept.get() + 1),
            Err(error) => eprintln!("eval-compare: cache: could not keep a list: {error}"),
        }
    }

    /// The kept lines of `list` of `owner` with their trailer, as the server streams them,
    /// when the API consented and they are kept.
    pub async fn stream(&self, list: StreamedList, owner: &str) -> Option<Vec<u8>> {
        let stored = self.fetch(&self.entry(list, owner)?).await?;
        self.used.set(self.used.get() + 1);
        Some(stored.into_stream_body())
    }

    /// Keeps a whole streamed body (`captured`: page lines, then the trailer) read for
    /// `entry`, when its trailer says the list is complete.
    pub async fn keep_stream(&self, list: StreamedList, entry: Entry, captured: Vec<u8>) {
        let body = captured.strip_suffix(b"\n").unwrap_or(&captured);
        let (lines, last) = match body.iter().rposition(|&b| b == b'\n') {
            Some(end) => (&captured[..=end], &body[end + 1..]),
            None => (&captured[..0], body),
        };
        let Some(end) = ListStreamEnd::parse(last).filter(|end| end.complete) else {
            return;
        };
        let lines = lines.to_vec();
        self.keep(list, entry, lines, end.pages_read, end.items_read)
            .await;
    }

    /// A page of `list` of `owner` from the kept list, when the API consented and it is kept;
    /// otherwise `None`, and the first page starts keeping the list as it is read.
    pub async fn page(
        &self,
        list: StreamedList,
        owner: &str,
        cursor: Option<&str>,
    ) -> Option<HttpResponse> {
        let key = (list, owner.to_owned());
        if cursor.is_none() {
            self.serving.borrow_mut().remove(&key);
            self.capturing.borrow_mut().remove(&key);
            let entry = self.entry(list, owner)?;
            match self.fetch(&entry).await.and_then(Served::of) {
                Some(served) => {
                    self.used.set(self.used.get() + 1);
                    self.serving
                        .borrow_mut()
                        .insert(key.clone(), Rc::new(served));
                }
                None => {
                    let capture = Capture {
                        entry,
                        lines: Vec::new(),
                        pages: 0,
                        items: 0,
                        next: None,
                    };
                    self.capturing.borrow_mut().insert(key.clone(), capture);
                }
            }
        }
        let served = self.serving.borrow().get(&key).cloned()?;
        served.page(cursor)
    }

    /// Notes a page of `list` of `owner` the API answered after `cursor`: the next of a list
    /// being kept is added to it, and a list read to its end is kept.
    pub async fn saw_page(
        &self,
        list: StreamedList,
        owner: &str,
        cursor: Option<&str>,
        answer: &HttpResponse,
    ) {
        let key = (list, owner.to_owned());
        let finished = {
            let mut capturing = self.capturing.borrow_mut();
            let Some(capture) = capturing.get_mut(&key) else {
                return;
            };
            if answer.status != 200 || capture.next.as_deref() != cursor {
                return;
            }
            // A body that does not read (cut off, say) is read again by the client's retry.
            let Ok(page) = serde_json::from_slice::<PageShape>(&answer.body) else {
                return;
            };
            capture.lines.extend_from_slice(&page_line(&answer.body));
            capture.pages += 1;
            capture.items += page.items.len() as u64;
            let next = page.next_cursor.filter(|_| page.has_more);
            if capture.lines.len() as u64 > self.max_bytes || (page.has_more && next.is_none()) {
                capturing.remove(&key);
                return;
            }
            if next.is_some() {
                capture.next = next;
                return;
            }
            capturing.remove(&key)
        };
        if let Some(done) = finished {
            self.keep(list, done.entry, done.lines, done.pages, done.items)
                .await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use eval_compare_core::testing::bodies::run_body;

    fn record(status: &str) -> HttpResponse {
        answer(run_body("r1", status).into_bytes())
    }

    fn page(items: usize, next: Option<&str>) -> Vec<u8> {
        let items = vec!["{\"trajectory_id\":\"t\"}"; items].join(",");
        let next = next.map_or("null".to_owned(), |c| format!("\"{c}\""));
        format!(
            "{{\"items\":[{items}],\"has_more\":{},\"next_cursor\":{next}}}",
            next != "null"
        )
        .into_bytes()
    }

    fn answer(body: Vec<u8>) -> HttpResponse {
        HttpResponse {
            status: 200,
            headers: Vec::new(),
            body,
        }
    }

    fn keeper(dir: &std::path::Path) -> Keeper {
        let path = dir.join("lists.sqlite3");
        store::prepare(&path, false).unwrap();
        Keeper::new(path, "http://api", 1 << 20)
    }

    #[tokio::test]
    async fn a_paged_list_is_kept_once_whole_and_served_page_by_page() {
        let dir = tempfile::tempdir().unwrap();
        let keeper = keeper(dir.path());
        let list = StreamedList::Rewards;
        // No consent yet: nothing served, nothing kept.
        assert!(keeper.page(list, "r1", None).await.is_none());
        keeper.saw_record(Owner::Run("r1".into()), Some(&record("completed")));
        assert!(keeper.page(list, "r1", None).await.is_none());
        keeper
            .saw_page(list, "r1", None, &answer(page(2, Some("c2"))))
            .await;
        // An answer cut off is not kept; the retry's is.
        keeper
            .saw_page(list, "r1", Some("c2"), &answer(b"{\"items\":[".to_vec()))
            .await;
        keeper
            .saw_page(list, "r1", Some("c2"), &answer(page(1, None)))
            .await;
        assert_eq!(keeper.counts(), (0, 1));
        let first = keeper.page(list, "r1", None).await.unwrap();
        assert_eq!(first.body, page(2, Some("c2")));
        let second = keeper.page(list, "r1", Some("c2")).await.unwrap();
        assert_eq!(second.body, page(1, None));
        assert!(keeper.page(list, "r1", Some("other")).await.is_none());
        let streamed = keeper.stream(list, "r1").await.unwrap();
        let text = String::from_utf8(streamed).unwrap();
        assert!(text.ends_with(
            "{\"stream_end\":{\"complete\":true,\"pages_read\":2,\"items_read\":3,\"retryable\":false}}\n"
        ), "{text}");

        // A record no longer finished, or refused, withdraws the consent.
        keeper.saw_record(Owner::Run("r1".into()), Some(&record("running")));
        assert!(keeper.page(list, "r1", None).await.is_none());
        keeper.saw_record(Owner::Run("r1".into()), Some(&record("completed")));
        assert!(keeper.page(list, "r1", None).await.is_some());
        let refused = HttpResponse {
            status: 401,
            ..record("completed")
        };
        keeper.saw_record(Owner::Run("r1".into()), Some(&refused));
        assert!(keeper.stream(list, "r1").await.is_none());
    }

    #[tokio::test]
    async fn a_stream_is_kept_only_when_its_trailer_says_complete() {
        let dir = tempfile::tempdir().unwrap();
        let keeper = keeper(dir.path());
        let list = StreamedList::Trajectories;
        keeper.saw_record(Owner::Run("r1".into()), Some(&record("completed")));
        let entry = keeper.entry(list, "r1").unwrap();
        let mut cut = page_line(&page(2, Some("c2")));
        cut.extend_from_slice(
            b"{\"stream_end\":{\"complete\":false,\"pages_read\":1,\"items_read\":2}}\n",
        );
        keeper.keep_stream(list, entry.clone(), cut).await;
        assert!(keeper.stream(list, "r1").await.is_none());
        let mut whole = page_line(&page(2, None));
        whole.extend_from_slice(
            b"{\"stream_end\":{\"complete\":true,\"pages_read\":1,\"items_read\":2}}\n",
        );
        keeper.keep_stream(list, entry, whole).await;
        let mut served = page_line(&page(2, None));
        served.extend_from_slice(
            b"{\"stream_end\":{\"complete\":true,\"pages_read\":1,\"items_read\":2,\"retryable\":false}}\n",
        );
        assert_eq!(keeper.stream(list, "r1").await.unwrap(), served);
    }
}
