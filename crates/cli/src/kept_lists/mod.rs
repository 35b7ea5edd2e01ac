//! `--cache DIR`: the CLI keeps the lists of finished runs and jobs in the server's store
//! ([`eval_compare_list_cache`], the same SQLite file and form as `eval-compare-server`'s
//! cache), so a CI gate comparing against one baseline all day reads its lists once.
//!
//! It is a [`Transport`] around the HTTP one, so the core's one load engine reads kept lists
//! as it reads any other, page by page or streamed: nothing in the engine knows. The consent
//! rule is the server's. A kept list is used only after the API answered the run's (or job's)
//! record with `200` and a finished record **for this command's key**: the engine reads that
//! record before the run's lists, and the transport notes the answer; a list is used only
//! when kept for a record with the same SHA-256 (a record that changed makes it read again).
//! Any other answer withdraws the consent and is the engine's as it came (a wrong key's 401
//! stops the run before any list). A list read whole for a finished record is kept: from
//! the server's stream its page lines as sent (trailer complete), from the API's pages each
//! page as a line (`page_line`). Running runs are never kept, nor benchmarks' tasks; the
//! key is never stored (the entry names the base URL, the list and the run).

mod asked;
mod keeper;

use std::path::Path;

use eval_compare_core::client::list_stream::{FORM_PARAM, STREAM_CONTENT_TYPE};
use eval_compare_core::client::{HttpRequest, HttpResponse, Transport, TransportError};

use asked::{asked, Asked};
use keeper::Keeper;

use crate::error::CliError;

pub use eval_compare_list_cache::{DEFAULT_MAX_MIB, FILE_NAME};

/// The HTTP transport `T`, keeping finished lists when a cache was asked for.
#[derive(Debug)]
pub struct KeepingTransport<T> {
    inner: T,
    keeper: Option<Keeper>,
}

impl<T> KeepingTransport<T> {
    /// `inner` as it is: nothing kept.
    pub fn plain(inner: T) -> Self {
        Self {
            inner,
            keeper: None,
        }
    }

    /// `inner` keeping the finished lists of the API at `base_url` in the store in `dir`
    /// (created when missing), at most `max_mib` MiB of lines.
    pub fn keeping(inner: T, dir: &Path, base_url: &str, max_mib: u64) -> Result<Self, CliError> {
        let failed = |error: eval_compare_list_cache::CacheError| {
            CliError::Usage(format!("--cache {}: {error}", dir.display()))
        };
        std::fs::create_dir_all(dir).map_err(|error| {
            failed(eval_compare_list_cache::CacheError::Io(
                dir.display().to_string(),
                error,
            ))
        })?;
        let path = dir.join(FILE_NAME);
        eval_compare_list_cache::store::prepare(&path, false).map_err(failed)?;
        let keeper = Keeper::new(path, base_url, max_mib.saturating_mul(1024 * 1024));
        Ok(Self {
            inner,
            keeper: Some(keeper),
        })
    }

    /// What the cache did, for stderr: `None` without one.
    pub fn summary(&self) -> Option<String> {
        let (used, kept) = self.keeper.as_ref()?.counts();
        Some(format!(
            "cache: {used} kept {} used, {kept} newly kept",
            if used == 1 { "list" } else { "lists" }
        ))
    }
}

impl<T: Transport> Transport for KeepingTransport<T> {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let Some(keeper) = &self.keeper else {
            return self.inner.send(request).await;
        };
        match keeper_asked(keeper, &request) {
            Asked::Record(owner) => {
                let answer = self.inner.send(request).await;
                keeper.saw_record(owner, answer.as_ref().ok());
                answer
            }
            Asked::Page {
                list,
                owner,
                cursor,
            } => {
                if let Some(page) = keeper.page(list, &owner, cursor.as_deref()).await {
                    return Ok(page);
                }
                let answer = self.inner.send(request).await;
                if let Ok(answer) = &answer {
                    keeper
                        .saw_page(list, &owner, cursor.as_deref(), answer)
                        .await;
                }
                answer
            }
            Asked::Stream { .. } | Asked::Other => self.inner.send(request).await,
        }
    }

    async fn send_streaming(
        &self,
        request: HttpRequest,
        on_chunk: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<HttpResponse, TransportError> {
        let Some(keeper) = &self.keeper else {
            return self.inner.send_streaming(request, on_chunk).await;
        };
        let Asked::Stream {
            list,
            owner,
            fresh: true,
        } = keeper_asked(keeper, &request)
        else {
            return self.inner.send_streaming(request, on_chunk).await;
        };
        let Some(entry) = keeper.entry(list, &owner) else {
            return self.inner.send_streaming(request, on_chunk).await;
        };
        if let Some(body) = keeper.stream(list, &owner).await {
            on_chunk(&body);
            return Ok(HttpResponse {
                status: 200,
                headers: vec![("content-type".to_owned(), STREAM_CONTENT_TYPE.to_owned())],
                body: Vec::new(),
            });
        }
        // The store keeps the API's form (as the server's cache does under this name): a
        // stream asked in the kept form (`?form=kept`) is read in the API's form here.
        let request = in_the_apis_form(request);
        let max = keeper.max_bytes();
        let mut captured = Some(Vec::new());
        let mut tee = |chunk: &[u8]| {
            if let Some(bytes) = captured.as_mut() {
                if (bytes.len() + chunk.len()) as u64 > max {
                    captured = None;
                } else {
                    bytes.extend_from_slice(chunk);
                }
            }
            on_chunk(chunk)
        };
        let answer = self.inner.send_streaming(request, &mut tee).await;
        if let (Ok(response), Some(captured)) = (&answer, captured) {
            if response.status == 200 {
                keeper.keep_stream(list, entry, captured).await;
            }
        }
        answer
    }

    async fn sleep(&self, ms: u64) {
        self.inner.sleep(ms).await;
    }

    fn now_unix_ms(&self) -> u64 {
        self.inner.now_unix_ms()
    }
}

/// `request` without the query parameter asking for another form of the items.
fn in_the_apis_form(mut request: HttpRequest) -> HttpRequest {
    if let Ok(mut url) = reqwest::Url::parse(&request.url) {
        let kept: Vec<(String, String)> = url
            .query_pairs()
            .filter(|(name, _)| name != FORM_PARAM)
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect();
        if kept.is_empty() {
            url.set_query(None);
        } else {
            url.query_pairs_mut().clear().extend_pairs(kept);
        }
        request.url = url.into();
    }
    request
}

fn keeper_asked(keeper: &Keeper, request: &HttpRequest) -> Asked {
    asked(keeper.upstream(), &request.url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_directory_that_cannot_be_one_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"not a directory").unwrap();
        let error = KeepingTransport::keeping((), &file, "http://api", 1).unwrap_err();
        assert!(error.to_string().starts_with("--cache "), "{error}");
        assert!(error.to_string().contains("a-file"), "{error}");

        let kept = KeepingTransport::keeping((), dir.path(), "http://api", 1).unwrap();
        assert!(dir.path().join(FILE_NAME).exists());
        assert_eq!(
            kept.summary().as_deref(),
            Some("cache: 0 kept lists used, 0 newly kept")
        );
        assert_eq!(KeepingTransport::plain(()).summary(), None);
    }
}
