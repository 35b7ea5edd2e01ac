//! Reaching the API: the base URL from `--server`, the key from `TRAJECTORY_API_KEY` only.

use std::time::Duration;

use eval_compare_core::client::{ApiKey, ClientConfig, RetryPolicy, TrajectoryClient};

use crate::args::{CacheArgs, ConnectionArgs};
use crate::error::CliError;
use crate::http_transport::{HttpTransport, Timeouts, MIB};
use crate::kept_lists::KeepingTransport;

/// The environment variable holding the API key.
pub const API_KEY_ENV: &str = "TRAJECTORY_API_KEY";

/// The API key from [`API_KEY_ENV`]: `None` when unset; an error (never quoting it) when set
/// but empty or not sendable in a header.
pub fn api_key_from_env() -> Result<Option<ApiKey>, CliError> {
    match std::env::var_os(API_KEY_ENV) {
        None => Ok(None),
        Some(raw) => {
            let raw = raw.into_string().map_err(|_| {
                CliError::Usage(format!(
                    "{API_KEY_ENV} is not valid text; set it to the key itself"
                ))
            })?;
            ApiKey::new(&raw).map(Some).map_err(CliError::ApiKey)
        }
    }
}

/// The CLI's transport: HTTP, keeping finished lists with `--cache`.
pub type CliTransport = KeepingTransport<HttpTransport>;

/// A client of the API at `server`, with the key from the environment, keeping nothing.
pub fn client(
    server: &str,
    connection: &ConnectionArgs,
) -> Result<TrajectoryClient<CliTransport>, CliError> {
    client_keeping(server, connection, None)
}

/// [`client`], keeping finished runs' lists in `cache`'s directory when it names one.
pub fn client_keeping(
    server: &str,
    connection: &ConnectionArgs,
    cache: Option<&CacheArgs>,
) -> Result<TrajectoryClient<CliTransport>, CliError> {
    let mut config =
        ClientConfig::new(server).map_err(|error| CliError::Usage(format!("--server: {error}")))?;
    if config.base_url.starts_with('/') || config.base_url.is_empty() {
        return Err(CliError::Usage(
            "--server: give an absolute URL, e.g. http://127.0.0.1:8080".to_owned(),
        ));
    }
    if let Some(key) = api_key_from_env()? {
        config = config.with_api_key(key);
    }
    config = config.with_retry(RetryPolicy {
        max_retries: connection.retries,
        ..RetryPolicy::default()
    });
    let transport = HttpTransport::new(Timeouts {
        connect: Duration::from_secs(connection.connect_timeout),
        read: Duration::from_secs(connection.read_timeout),
        request: Duration::from_secs(connection.request_timeout),
        max_response_bytes: connection.max_response_mib * MIB,
    })
    .map_err(CliError::TransportSetup)?;
    let transport = match cache.and_then(|cache| Some((cache.cache.as_deref()?, cache))) {
        Some((dir, cache)) => {
            KeepingTransport::keeping(transport, dir, &config.base_url, cache.cache_max_mib)?
        }
        None => KeepingTransport::plain(transport),
    };
    Ok(TrajectoryClient::new(config, transport))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::exit_code::Exit;

    const CONNECTION: ConnectionArgs = ConnectionArgs {
        connect_timeout: 1,
        read_timeout: 1,
        request_timeout: 1,
        max_response_mib: 1,
        retries: 0,
    };

    #[test]
    fn a_bad_server_url_is_a_usage_error() {
        for bad in [
            "ftp://host",
            "/api",
            "",
            "http://user:pw@host",
            "http://host/?q=1",
        ] {
            let error = client(bad, &CONNECTION).unwrap_err();
            assert_eq!(error.exit(), Exit::Usage, "{bad}: {error}");
            assert!(!error.to_string().contains("pw@"), "{error}");
        }
        assert!(client("http://127.0.0.1:9/", &CONNECTION).is_ok());
    }
}
