//! Client configuration: base URL, API key (see [`super::key`]), contract version, retry policy.

use super::error::ApiError;
use super::key::ApiKey;

/// The public Trajectory API.
pub const DEFAULT_BASE_URL: &str = "https://api.trajectory.ai";
/// The contract version this client is written against.
pub const DEFAULT_API_VERSION: &str = "2026-10-14";
/// Header pinning the contract version.
pub const API_VERSION_HEADER: &str = "Trajectory-API-Version";

/// When and how long to retry failed requests. Deterministic: no random jitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0 turns retrying off).
    pub max_retries: u32,
    /// Delay before the first retry; doubled for each further one.
    pub base_delay_ms: u64,
    /// Cap of the computed backoff delay.
    pub max_delay_ms: u64,
    /// Cap of a delay the server asks for (`retry-after-ms`, `Retry-After`).
    pub max_retry_after_ms: u64,
}

impl Default for RetryPolicy {
    /// Two retries, 500 ms doubling up to 8 s; server-requested waits capped at 60 s.
    fn default() -> Self {
        Self {
            max_retries: 2,
            base_delay_ms: 500,
            max_delay_ms: 8_000,
            max_retry_after_ms: 60_000,
        }
    }
}

/// Everything a client needs to reach the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// Base URL without a trailing slash: `https://host[:port][/prefix]`, or a path from the
    /// page's origin (`/prefix`), or empty for the page's own origin.
    pub base_url: String,
    /// The key, sent as `X-API-Key` when set.
    pub api_key: Option<ApiKey>,
    /// Sent as `Trajectory-API-Version`.
    pub api_version: String,
    /// Retry policy.
    pub retry: RetryPolicy,
}

impl ClientConfig {
    /// A configuration for this base URL, without a key, on the default version and retry policy.
    ///
    /// Accepts `http(s)://...`, a path starting with `/`, or an empty string (same origin);
    /// rejects a query, a fragment, or credentials in the URL.
    pub fn new(base_url: &str) -> Result<Self, ApiError> {
        Ok(Self {
            base_url: normalize_base_url(base_url)?,
            api_key: None,
            api_version: DEFAULT_API_VERSION.to_owned(),
            retry: RetryPolicy::default(),
        })
    }

    /// The same configuration with this key.
    pub fn with_api_key(mut self, key: ApiKey) -> Self {
        self.api_key = Some(key);
        self
    }

    /// The same configuration with this retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }
}

fn normalize_base_url(raw: &str) -> Result<String, ApiError> {
    let trimmed = raw.trim().trim_end_matches('/');
    let invalid = |why: &str| Err(ApiError::InvalidArgument(format!("base URL {why}")));
    let rest = if trimmed.is_empty() || trimmed.starts_with('/') {
        trimmed
    } else if let Some(rest) = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"))
    {
        if rest.is_empty() || rest.starts_with('/') {
            return invalid("has no host");
        }
        rest
    } else {
        return invalid("must start with http:// or https:// (or be a path such as /)");
    };
    if rest.contains(['?', '#']) {
        return invalid("must not contain a query or a fragment");
    }
    if rest
        .split('/')
        .next()
        .is_some_and(|host| host.contains('@'))
    {
        return invalid("must not contain credentials; give the API key separately");
    }
    if rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return invalid("must not contain spaces");
    }
    Ok(trimmed.to_owned())
}
