//! The transport the server's streams read pages through: the core's client over reqwest to
//! the upstream (proxy mode), or over the demo's own router in process (demo mode), with the
//! same size and time limits as the proxy. It keeps the last answer it received when that was
//! not a success, so a refusal is passed on as the API gave it; a success's bytes are the
//! page's, read where the core reads them ([`super::page`]), not copied aside.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::Router;
use eval_compare_core::client::{HttpRequest, HttpResponse, Transport, TransportError};
use futures::StreamExt;
use tower::ServiceExt;

use crate::proxy::ProxyLimits;

/// The base URL the core's client is given in demo mode (never reached: requests go to the
/// demo's router).
pub const DEMO_BASE: &str = "http://demo.invalid";

/// Where pages are read from.
#[derive(Clone)]
pub enum PageOrigin {
    /// The upstream API, over HTTP.
    Upstream {
        /// Its base URL, without a trailing slash.
        base: String,
        /// The client (no redirects, connect and read timeouts).
        client: reqwest::Client,
        /// The proxy's limits, applied to each page.
        limits: ProxyLimits,
    },
    /// The demo's API router (its key check and version check included).
    Demo(Router),
}

impl std::fmt::Debug for PageOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Upstream { base, .. } => write!(f, "Upstream({base})"),
            Self::Demo(_) => f.write_str("Demo"),
        }
    }
}

impl PageOrigin {
    /// The upstream of the proxy, read with its client and limits.
    pub fn of_upstream(upstream: &crate::proxy::Upstream) -> Self {
        Self::Upstream {
            base: upstream.base(),
            client: upstream.client().clone(),
            limits: upstream.limits(),
        }
    }

    /// The base URL the core's client sends to.
    pub fn base_url(&self) -> &str {
        match self {
            Self::Upstream { base, .. } => base,
            Self::Demo(_) => DEMO_BASE,
        }
    }

    fn limits(&self) -> ProxyLimits {
        match self {
            Self::Upstream { limits, .. } => *limits,
            Self::Demo(_) => ProxyLimits::default(),
        }
    }
}

/// A [`Transport`] over a [`PageOrigin`] that keeps the last answer when it was not a success.
#[derive(Debug, Clone)]
pub struct PageTransport {
    origin: PageOrigin,
    last: Arc<Mutex<Option<HttpResponse>>>,
}

impl PageTransport {
    /// A transport reading from `origin`.
    pub fn new(origin: PageOrigin) -> Self {
        Self {
            origin,
            last: Arc::default(),
        }
    }

    /// The last answer received when it was not a success (2xx), taken: the next call gives
    /// the one after.
    pub fn take_last(&self) -> Option<HttpResponse> {
        self.last.lock().ok().and_then(|mut last| last.take())
    }

    async fn exchange(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let limits = self.origin.limits();
        match &self.origin {
            PageOrigin::Upstream { client, .. } => {
                let mut builder = client.get(&request.url).timeout(limits.timeout);
                for (name, value) in &request.headers {
                    builder = builder.header(name, value);
                }
                let answer = builder.send().await.map_err(|error| {
                    if error.is_timeout() {
                        TransportError::Timeout
                    } else {
                        TransportError::Connect(crate::proxy::causes(&error))
                    }
                })?;
                let status = answer.status().as_u16();
                let headers = headers_of(answer.headers());
                // Sized once when the length is declared (within the limit), not grown chunk
                // by chunk.
                let declared = answer
                    .content_length()
                    .unwrap_or(0)
                    .min(limits.max_body_bytes);
                let mut body = Vec::with_capacity(usize::try_from(declared).unwrap_or(0));
                let mut chunks = answer.bytes_stream();
                while let Some(chunk) = chunks.next().await {
                    let chunk = chunk.map_err(|error| {
                        if error.is_timeout() {
                            TransportError::Timeout
                        } else {
                            TransportError::Other(crate::proxy::causes(&error))
                        }
                    })?;
                    body.extend_from_slice(&chunk);
                    too_large(body.len(), limits.max_body_bytes)?;
                }
                Ok(HttpResponse {
                    status,
                    headers,
                    body,
                })
            }
            PageOrigin::Demo(router) => {
                let path = request
                    .url
                    .strip_prefix(DEMO_BASE)
                    .unwrap_or(&request.url)
                    .to_owned();
                let mut builder = axum::http::Request::get(path);
                for (name, value) in &request.headers {
                    builder = builder.header(name, value);
                }
                let built = builder
                    .body(Body::empty())
                    .map_err(|e| TransportError::Other(e.to_string()))?;
                let answer = router
                    .clone()
                    .oneshot(built)
                    .await
                    .map_err(|e| TransportError::Other(e.to_string()))?;
                let status = answer.status().as_u16();
                let headers = headers_of(answer.headers());
                let cap = usize::try_from(limits.max_body_bytes).unwrap_or(usize::MAX);
                let body = axum::body::to_bytes(answer.into_body(), cap)
                    .await
                    .map_err(|_| limit_error(limits.max_body_bytes))?;
                Ok(HttpResponse {
                    status,
                    headers,
                    body: body.to_vec(),
                })
            }
        }
    }
}

fn too_large(length: usize, max_bytes: u64) -> Result<(), TransportError> {
    if length as u64 > max_bytes {
        return Err(limit_error(max_bytes));
    }
    Ok(())
}

fn limit_error(max_bytes: u64) -> TransportError {
    TransportError::Limit(format!(
        "a page is over the server's limit of {max_bytes} bytes (--upstream-max-body)"
    ))
}

fn headers_of(headers: &axum::http::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .filter_map(|(name, value)| {
            Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
        })
        .collect()
}

impl Transport for PageTransport {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let response = self.exchange(request).await?;
        if let Ok(mut last) = self.last.lock() {
            let success = (200..300).contains(&response.status);
            *last = (!success).then(|| response.clone());
        }
        Ok(response)
    }

    async fn sleep(&self, ms: u64) {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }

    fn now_unix_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }
}
