//! The client: builds requests, retries, and maps responses to types or errors.

use serde::de::DeserializeOwned;

use crate::api::{decode, decode_plain, DecodeError, PlainItem};

use super::config::{ClientConfig, API_VERSION_HEADER};
use super::error::{decode_error, http_error, scrub, ApiError, Service};
use super::key::API_KEY_HEADER;
use super::retry::{response_is_retryable, retry_delay_ms, transport_error_is_retryable};
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
    /// per the retry policy.
    pub async fn get<R: DeserializeOwned>(&self, path_and_query: &str) -> Result<R, ApiError> {
        let response = self.get_response(path_and_query).await?;
        self.decode_success(&response)
    }

    /// [`Self::get`] for a page or item with a plain scanner ([`PlainItem`]): a body in its
    /// plain form is read by the scanner ([`decode_plain`]), with the same result and errors.
    pub async fn get_plain<R: PlainItem>(&self, path_and_query: &str) -> Result<R, ApiError> {
        let response = self.get_response(path_and_query).await?;
        self.decoded(decode_plain(&response.body), &response)
    }

    /// GETs a path and returns the successful (2xx) response undecoded, retrying per the retry
    /// policy; an error status or a transport failure is the [`ApiError`] after the retries.
    pub async fn get_response(&self, path_and_query: &str) -> Result<HttpResponse, ApiError> {
        let policy = self.config.retry;
        let mut retry_index = 0;
        loop {
            let outcome = match self.transport.send(self.request(path_and_query)).await {
                Ok(response) if (200..300).contains(&response.status) => return Ok(response),
                other => other,
            };
            let retryable = match &outcome {
                Ok(response) => response_is_retryable(response),
                Err(error) => transport_error_is_retryable(error),
            };
            if !retryable || retry_index >= policy.max_retries {
                return Err(self.failure(outcome, Service::of_path(path_and_query)));
            }
            let response = outcome.as_ref().ok();
            let delay =
                retry_delay_ms(&policy, retry_index, response, self.transport.now_unix_ms());
            self.transport.sleep(delay).await;
            retry_index += 1;
        }
    }

    fn decode_success<R: DeserializeOwned>(&self, response: &HttpResponse) -> Result<R, ApiError> {
        self.decoded(decode(&response.body), response)
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
            Ok(response) => http_error(&response, service, key),
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
