//! The client: builds requests, retries, and maps responses to types or errors.

use serde::de::DeserializeOwned;

use crate::api::{decode, DecodeError, DecodeErrorKind};
use crate::large_list::{decode_plain, PlainItem};

use super::config::{ClientConfig, API_VERSION_HEADER};
use super::error::{decode_error, http_error, scrub, ApiError, Service};
use super::key::API_KEY_HEADER;
use super::retry::{
    backoff_ms, response_is_retryable, retry_delay_ms, server_delay_ms,
    transport_error_is_retryable,
};
use super::transport::{HttpRequest, HttpResponse, Transport, TransportError};

/// A Trajectory API client over a transport. Reads only (GET).
#[derive(Debug, Clone)]
pub struct TrajectoryClient<T> {
    config: ClientConfig,
    transport: T,
}

impl<T> TrajectoryClient<T> {
    /// A client with this configuration, sending through this transport.
    pub fn new(config: ClientConfig, transport: T) -> Self {
        Self { config, transport }
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// The transport.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// The request for a path (starting with `/`, query included): URL and headers.
    pub fn request(&self, path_and_query: &str) -> HttpRequest {
        let mut headers = vec![
            ("Accept".to_owned(), "application/json".to_owned()),
            (
                API_VERSION_HEADER.to_owned(),
                self.config.api_version.clone(),
            ),
        ];
        if let Some(key) = &self.config.api_key {
            headers.push((API_KEY_HEADER.to_owned(), key.expose().to_owned()));
        }
        HttpRequest {
            url: format!("{}{path_and_query}", self.config.base_url),
            headers,
        }
    }
}

impl<T: Transport> TrajectoryClient<T> {
    /// GETs a path (starting with `/`, query included) and decodes the JSON answer, retrying
    /// per the retry policy. A successful answer whose body ended early (cut off mid-read) is
    /// asked for again like a failed one, within the same retries.
    pub async fn get<R: DeserializeOwned>(&self, path_and_query: &str) -> Result<R, ApiError> {
        self.get_decoded(path_and_query, |body| decode(body)).await
    }

    /// [`Self::get`] for a page or item with a plain scanner ([`PlainItem`]): a body in its
    /// plain form is read by the scanner ([`decode_plain`]), with the same result and errors.
    pub async fn get_plain<R: PlainItem>(&self, path_and_query: &str) -> Result<R, ApiError> {
        self.get_decoded(path_and_query, |body| decode_plain(body))
            .await
    }

    /// GETs a path and decodes the successful answer with `decode`; a body that ended early
    /// ([`DecodeErrorKind::Eof`]: the connection broke or a proxy cut it) is retried with the
    /// backoff, sharing the retries of [`Self::get_response`]'s failures, so a request is sent
    /// at most `1 + max_retries` times whatever went wrong. The one retry rule of every
    /// transport (the viewer's, the CLI's).
    async fn get_decoded<R>(
        &self,
        path_and_query: &str,
        decode: impl Fn(&[u8]) -> Result<R, DecodeError>,
    ) -> Result<R, ApiError> {
        let policy = self.config.retry;
        let mut retry_index = 0;
        loop {
            let response = self.send_retrying(path_and_query, &mut retry_index).await?;
            match decode(&response.body) {
                Err(error)
                    if error.kind == DecodeErrorKind::Eof && retry_index < policy.max_retries =>
                {
                    self.transport.sleep(backoff_ms(&policy, retry_index)).await;
                    retry_index += 1;
                }
                decoding => return self.decoded(decoding, &response),
            }
        }
    }

    /// GETs a path and returns the successful (2xx) response undecoded, retrying per the retry
    /// policy; an error status or a transport failure is the [`ApiError`] after the retries.
    pub async fn get_response(&self, path_and_query: &str) -> Result<HttpResponse, ApiError> {
        self.send_retrying(path_and_query, &mut 0).await
    }

    /// [`Self::get_response`], counting retries in `retry_index` (retries already made).
    async fn send_retrying(
        &self,
        path_and_query: &str,
        retry_index: &mut u32,
    ) -> Result<HttpResponse, ApiError> {
        let policy = self.config.retry;
        loop {
            let outcome = match self.transport.send(self.request(path_and_query)).await {
                Ok(response) if (200..300).contains(&response.status) => return Ok(response),
                other => other,
            };
            let retryable = match &outcome {
                Ok(response) => response_is_retryable(response),
                Err(error) => transport_error_is_retryable(error),
            };
            if !retryable || *retry_index >= policy.max_retries {
                return Err(self.failure(outcome, Service::of_path(path_and_query)));
            }
            let response = outcome.as_ref().ok();
            let delay = retry_delay_ms(
                &policy,
                *retry_index,
                response,
                self.transport.now_unix_ms(),
            );
            self.transport.sleep(delay).await;
            *retry_index += 1;
        }
    }

    /// A response's decoding, its error naming the response (the key redacted).
    fn decoded<R>(
        &self,
        decoding: Result<R, DecodeError>,
        response: &HttpResponse,
    ) -> Result<R, ApiError> {
        decoding.map_err(|error| decode_error(error, response, self.config.api_key.as_ref()))
    }

    /// The error of a failed request to a service (after any retries).
    pub(crate) fn failure(
        &self,
        outcome: Result<HttpResponse, TransportError>,
        service: Service,
    ) -> ApiError {
        let key = self.config.api_key.as_ref();
        match outcome {
            Ok(response) => {
                let mut error = http_error(&response, service, key);
                if let ApiError::Http(http) = &mut error {
                    http.retry_after_ms = server_delay_ms(&response, self.transport.now_unix_ms());
                }
                error
            }
            Err(TransportError::Connect(detail)) => {
                ApiError::Transport(TransportError::Connect(scrub(&detail, key)))
            }
            Err(TransportError::Other(detail)) => {
                ApiError::Transport(TransportError::Other(scrub(&detail, key)))
            }
            Err(TransportError::Limit(detail)) => {
                ApiError::Transport(TransportError::Limit(scrub(&detail, key)))
            }
            Err(error) => ApiError::Transport(error),
        }
    }
}
