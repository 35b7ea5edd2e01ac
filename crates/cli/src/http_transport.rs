//! The native [`Transport`] of the core client: reqwest over rustls, on the tokio runtime.

use std::error::Error as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use eval_compare_core::client::{
    hand_over_body, HttpRequest, HttpResponse, OpenBody, Transport, TransportError,
};

/// One mebibyte, the unit of `--max-response-mib`.
pub const MIB: u64 = 1024 * 1024;

/// How long to wait for the API, and how much of an answer to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// To establish a connection (TCP and TLS).
    pub connect: Duration,
    /// Between two reads of a response (reset by every read, so large pages are fine).
    pub read: Duration,
    /// For the whole request, from connecting to the last byte of the body (a body trickling in
    /// never resets it).
    pub request: Duration,
    /// Largest response body read, in bytes; a larger one is refused while it streams in,
    /// never buffered past this.
    pub max_response_bytes: u64,
}

/// Why the HTTP client could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("could not set up the HTTP client: {0}")]
pub struct TransportSetupError(#[source] reqwest::Error);

/// Sends the client's GET requests with reqwest.
///
/// Redirects are not followed: the API does not redirect, and following one to another host
/// would hand it the `X-API-Key` header.
#[derive(Debug, Clone)]
pub struct HttpTransport {
    client: reqwest::Client,
    request_deadline: Duration,
    max_response_bytes: u64,
}

impl HttpTransport {
    /// A transport with these timeouts.
    pub fn new(timeouts: Timeouts) -> Result<Self, TransportSetupError> {
        let client = reqwest::Client::builder()
            .user_agent(concat!("eval-compare/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(timeouts.connect)
            .read_timeout(timeouts.read)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(TransportSetupError)?;
        Ok(Self {
            client,
            request_deadline: timeouts.request,
            max_response_bytes: timeouts.max_response_bytes,
        })
    }

    /// Sends the request and reads the whole answer, refusing a body over the size cap.
    /// Sends the request; the response's head has arrived.
    async fn start(&self, request: &HttpRequest) -> Result<reqwest::Response, TransportError> {
        let mut builder = self.client.get(&request.url);
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        builder.send().await.map_err(transport_error)
    }

    async fn exchange(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let response = self.start(&request).await?;
        self.read_whole(response).await
    }

    /// Reads a response's body whole, up to the size cap.
    async fn read_whole(
        &self,
        response: reqwest::Response,
    ) -> Result<HttpResponse, TransportError> {
        let status = response.status().as_u16();
        let headers = headers_of(&response);
        if response
            .content_length()
            .is_some_and(|length| length > self.max_response_bytes)
        {
            return Err(self.too_large());
        }
        let mut response = response;
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(body_error)? {
            if (body.len() + chunk.len()) as u64 > self.max_response_bytes {
                return Err(self.too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(HttpResponse {
            status,
            headers,
            body,
        })
    }

    fn deadline_passed(&self) -> TransportError {
        TransportError::Limit(format!(
            "the answer did not complete within the request deadline of {} (--request-timeout)",
            seconds(self.request_deadline)
        ))
    }

    fn too_large(&self) -> TransportError {
        TransportError::Limit(format!(
            "the answer is larger than the {} allowed per response (--max-response-mib)",
            size(self.max_response_bytes)
        ))
    }
}

impl Transport for HttpTransport {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        match tokio::time::timeout(self.request_deadline, self.exchange(request)).await {
            Ok(outcome) => outcome,
            Err(_) => Err(self.deadline_passed()),
        }
    }

    /// A successful answer's body is handed over chunk by chunk as it arrives, for as long as
    /// the server keeps the stream open: neither the request deadline nor the size cap applies
    /// to it (nothing is kept; the caller's wait has its own deadline), the read timeout does
    /// (a stream silent for longer counts as broken). An error status's body is read whole, as
    /// by [`Transport::send`].
    async fn send_streaming(
        &self,
        request: HttpRequest,
        on_chunk: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<HttpResponse, TransportError> {
        let head = tokio::time::timeout(self.request_deadline, self.start(&request)).await;
        let response = head.map_err(|_| self.deadline_passed())??;
        let status = response.status().as_u16();
        let headers = headers_of(&response);
        let body = ReqwestBody {
            transport: self,
            response,
        };
        hand_over_body(status, headers, body, on_chunk).await
    }

    async fn sleep(&self, ms: u64) {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }

    fn now_unix_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| {
                u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
            })
    }
}

/// A reqwest response's body still to be read: whole within the request deadline and the size
/// cap (an error status's), or chunk by chunk (a stream's).
struct ReqwestBody<'t> {
    transport: &'t HttpTransport,
    response: reqwest::Response,
}

impl OpenBody for ReqwestBody<'_> {
    async fn read_whole(self) -> Result<Vec<u8>, TransportError> {
        let transport = self.transport;
        let whole = tokio::time::timeout(
            transport.request_deadline,
            transport.read_whole(self.response),
        );
        let response = whole.await.map_err(|_| transport.deadline_passed())??;
        Ok(response.body)
    }

    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError> {
        let chunk = self.response.chunk().await.map_err(body_error)?;
        Ok(chunk.map(|chunk| chunk.to_vec()))
    }
}

/// A response's headers whose values are text.
fn headers_of(response: &reqwest::Response) -> Vec<(String, String)> {
    response
        .headers()
        .iter()
        .filter_map(|(name, value)| {
            let value = value.to_str().ok()?;
            Some((name.as_str().to_owned(), value.to_owned()))
        })
        .collect()
}

/// `64 MiB`, or a number of bytes when not a whole number of MiB.
fn size(bytes: u64) -> String {
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// `120 s`, or milliseconds below a second.
fn seconds(duration: Duration) -> String {
    if duration.subsec_millis() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{} ms", duration.as_millis())
    }
}

/// Maps a reqwest failure to the core's kinds, with the underlying causes as detail (the URL is
/// left out: the caller names the endpoint; headers, and so the key, are never part of it).
fn transport_error(error: reqwest::Error) -> TransportError {
    if error.is_timeout() {
        return TransportError::Timeout;
    }
    let connect = error.is_connect();
    let detail = causes(&error.without_url());
    if connect {
        TransportError::Connect(detail)
    } else {
        TransportError::Other(detail)
    }
}

/// Maps a failure while a body streams in: the connection broke (it closed before the body's
/// end, or was reset), a [`TransportError::Connect`] the client retries as the browser's fetch
/// reports it; a read timeout stays a timeout.
fn body_error(error: reqwest::Error) -> TransportError {
    if error.is_timeout() {
        return TransportError::Timeout;
    }
    TransportError::Connect(format!(
        "the connection broke while the answer was read: {}",
        causes(&error.without_url())
    ))
}

/// The error's message followed by its sources', skipping repeats.
fn causes(error: &reqwest::Error) -> String {
    let mut parts = vec![error.to_string()];
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if parts.last() != Some(&text) {
            parts.push(text);
        }
        source = cause.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    use eval_compare_core::client::{ApiError, ClientConfig, TrajectoryClient};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    fn runtime() -> tokio::runtime::Runtime {
        match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(error) => panic!("no runtime: {error}"),
        }
    }

    fn quick() -> Timeouts {
        Timeouts {
            connect: Duration::from_secs(2),
            read: Duration::from_millis(300),
            request: Duration::from_secs(5),
            max_response_bytes: MIB,
        }
    }

    /// A one-connection server answering the first request with `response`, returning what it
    /// received.
    async fn answer_once(response: &'static [u8]) -> (String, tokio::task::JoinHandle<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let handle = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut received = Vec::new();
            let mut buffer = [0u8; 1024];
            while !received.windows(4).any(|window| window == b"\r\n\r\n") {
                let read = socket.read(&mut buffer).await.unwrap();
                if read == 0 {
                    break;
                }
                received.extend_from_slice(&buffer[..read]);
            }
            socket.write_all(response).await.unwrap();
            socket.flush().await.unwrap();
            String::from_utf8_lossy(&received).into_owned()
        });
        (format!("http://{addr}"), handle)
    }

    #[test]
    fn sends_headers_and_returns_status_headers_and_body() {
        runtime().block_on(async {
            let (url, server) = answer_once(
                b"HTTP/1.1 404 Not Found\r\nx-request-id: req_1\r\ncontent-length: 2\r\n\r\n{}",
            )
            .await;
            let transport = HttpTransport::new(quick()).unwrap();
            let response = transport
                .send(HttpRequest {
                    url: format!("{url}/api/v1/eval/er_1"),
                    headers: vec![("X-API-Key".to_owned(), "k_123".to_owned())],
                })
                .await
                .unwrap();
            assert_eq!(response.status, 404);
            assert_eq!(response.header("X-Request-Id"), Some("req_1"));
            assert_eq!(response.body, b"{}");
            let received = server.await.unwrap().to_ascii_lowercase();
            assert!(received.starts_with("get /api/v1/eval/er_1 http/1.1"));
            assert!(received.contains("x-api-key: k_123"));
            assert!(received.contains("user-agent: eval-compare/"));
        });
    }

    #[test]
    fn does_not_follow_redirects() {
        runtime().block_on(async {
            let (url, _server) = answer_once(
                b"HTTP/1.1 302 Found\r\nlocation: http://elsewhere.invalid/\r\ncontent-length: 0\r\n\r\n",
            )
            .await;
            let transport = HttpTransport::new(quick()).unwrap();
            let response = transport
                .send(HttpRequest {
                    url,
                    headers: Vec::new(),
                })
                .await
                .unwrap();
            assert_eq!(response.status, 302);
        });
    }

    #[test]
    fn a_silent_server_times_out() {
        runtime().block_on(async {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let _server = tokio::spawn(async move {
                let (socket, _) = listener.accept().await.unwrap();
                tokio::time::sleep(Duration::from_secs(5)).await;
                drop(socket);
            });
            let transport = HttpTransport::new(quick()).unwrap();
            let outcome = transport
                .send(HttpRequest {
                    url: format!("http://{addr}/"),
                    headers: Vec::new(),
                })
                .await;
            assert_eq!(outcome, Err(TransportError::Timeout));
        });
    }

    /// A one-connection server writing `head`, then `chunks` bytes-chunks of `chunk_size`
    /// bytes, `pause` apart.
    async fn stream_once(
        head: &'static [u8],
        chunks: usize,
        chunk: &'static [u8],
        pause: Duration,
    ) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut buffer = [0u8; 1024];
            let _ = socket.read(&mut buffer).await;
            if socket.write_all(head).await.is_err() {
                return;
            }
            for _ in 0..chunks {
                if socket.write_all(chunk).await.is_err() || socket.flush().await.is_err() {
                    return;
                }
                tokio::time::sleep(pause).await;
            }
        });
        format!("http://{addr}/")
    }

    fn get(url: String) -> HttpRequest {
        HttpRequest {
            url,
            headers: Vec::new(),
        }
    }

    #[test]
    fn a_body_announced_over_the_cap_is_refused_before_it_is_read() {
        runtime().block_on(async {
            let url = stream_once(
                b"HTTP/1.1 200 OK\r\ncontent-length: 2000000\r\n\r\n",
                0,
                b"",
                Duration::ZERO,
            )
            .await;
            let outcome = HttpTransport::new(quick()).unwrap().send(get(url)).await;
            assert_eq!(
                outcome,
                Err(TransportError::Limit(
                    "the answer is larger than the 1 MiB allowed per response (--max-response-mib)"
                        .to_owned()
                ))
            );
        });
    }

    #[test]
    fn a_chunked_body_over_the_cap_is_refused_while_it_streams() {
        runtime().block_on(async {
            // 40 chunks of 100 bytes (chunk-size line included) for a cap of 1,000 bytes.
            let url = stream_once(
                b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n",
                40,
                b"5c\r\n                                                                                            \r\n",
                Duration::from_millis(1),
            )
            .await;
            let limits = Timeouts {
                max_response_bytes: 1_000,
                ..quick()
            };
            let outcome = HttpTransport::new(limits).unwrap().send(get(url)).await;
            assert_eq!(
                outcome,
                Err(TransportError::Limit(
                    "the answer is larger than the 1000 bytes allowed per response (--max-response-mib)"
                        .to_owned()
                ))
            );
        });
    }

    #[test]
    fn a_body_trickling_in_stops_at_the_deadline_though_each_byte_is_in_time() {
        runtime().block_on(async {
            // A byte every 100 ms: the read timeout (300 ms) never fires.
            let url = stream_once(
                b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n",
                100,
                b" ",
                Duration::from_millis(100),
            )
            .await;
            let limits = Timeouts {
                request: Duration::from_millis(700),
                ..quick()
            };
            let started = std::time::Instant::now();
            let outcome = HttpTransport::new(limits).unwrap().send(get(url)).await;
            assert_eq!(
                outcome,
                Err(TransportError::Limit(
                    "the answer did not complete within the request deadline of 700 ms (--request-timeout)"
                        .to_owned()
                ))
            );
            assert!(started.elapsed() < Duration::from_secs(3));
        });
    }

    #[test]
    fn a_stream_is_handed_over_as_it_arrives_past_the_request_deadline() {
        runtime().block_on(async {
            // 8 chunks 100 ms apart, a deadline of 300 ms: the stream outlives it.
            let url = stream_once(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n",
                8,
                b"5\r\nhello\r\n",
                Duration::from_millis(100),
            )
            .await;
            let limits = Timeouts {
                request: Duration::from_millis(300),
                max_response_bytes: 16,
                ..quick()
            };
            let mut received = Vec::new();
            let started = std::time::Instant::now();
            // Stops after 30 bytes: the server's last chunks and its end (it drops the
            // connection without the final chunk, an error) are never read.
            let outcome = HttpTransport::new(limits)
                .unwrap()
                .send_streaming(get(url), &mut |chunk| {
                    received.extend_from_slice(chunk);
                    received.len() < 30
                })
                .await
                .unwrap();
            assert_eq!(outcome.status, 200);
            assert!(started.elapsed() >= Duration::from_millis(400), "past the deadline");
            assert!(received.len() >= 30 && received.len() < 40, "{received:?}");
            assert!(b"hello".repeat(8).starts_with(&received), "{received:?}");
        });
    }

    #[test]
    fn a_jobs_progress_stream_ends_at_run_finished_through_the_client() {
        runtime().block_on(async {
            // The same `run_finished` event every 300 ms; the server never ends the stream.
            let url = stream_once(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n",
                20,
                b"1e\r\nevent: run_finished\ndata: {}\n\n\r\n",
                Duration::from_millis(300),
            )
            .await;
            let client = TrajectoryClient::new(
                ClientConfig::new(url.trim_end_matches('/')).unwrap(),
                HttpTransport::new(quick()).unwrap(),
            );
            let started = std::time::Instant::now();
            let mut events = 0;
            let summary = client
                .follow_job("j1", &mut |_| {
                    events += 1;
                    true
                })
                .await
                .unwrap();
            assert_eq!(summary.end, eval_compare_core::client::StreamEnd::RunFinished);
            assert_eq!(events, 1);
            assert!(started.elapsed() < Duration::from_secs(2));
        });
    }

    #[test]
    fn a_body_cut_off_by_a_broken_connection_is_asked_for_again_through_the_client() {
        runtime().block_on(async {
            // The first answer announces 60 bytes and closes after 10; the second is whole.
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let server = tokio::spawn(async move {
                for answer in [
                    b"HTTP/1.1 200 OK\r\ncontent-length: 60\r\n\r\n{\"eval_run".to_vec(),
                    run_answer(),
                ] {
                    let (mut socket, _) = listener.accept().await.unwrap();
                    let mut buffer = [0u8; 1024];
                    let _ = socket.read(&mut buffer).await;
                    socket.write_all(&answer).await.unwrap();
                    socket.flush().await.unwrap();
                    drop(socket);
                }
            });
            let config = ClientConfig::new(&format!("http://{addr}"))
                .unwrap()
                .with_retry(eval_compare_core::client::RetryPolicy {
                    max_retries: 1,
                    base_delay_ms: 1,
                    ..Default::default()
                });
            let client = TrajectoryClient::new(config, HttpTransport::new(quick()).unwrap());
            let run = client.eval_run("er_1").await.unwrap();
            assert_eq!(run.eval_run_id, "er_1");
            server.await.unwrap();
        });
    }

    /// A whole answer to `GET /api/v1/eval/er_1`.
    fn run_answer() -> Vec<u8> {
        let body = r#"{"eval_run_id":"er_1","bench_id":"b_1","agent_id":"a_1","options":{},"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}"#;
        format!(
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }

    #[test]
    fn a_refused_connection_is_a_connect_error_through_the_client() {
        runtime().block_on(async {
            // Bind then drop a listener: nothing listens on that port any more.
            let addr = TcpListener::bind("127.0.0.1:0")
                .await
                .unwrap()
                .local_addr()
                .unwrap();
            let config = ClientConfig::new(&format!("http://{addr}"))
                .unwrap()
                .with_retry(eval_compare_core::client::RetryPolicy {
                    max_retries: 0,
                    ..Default::default()
                });
            let client = TrajectoryClient::new(config, HttpTransport::new(quick()).unwrap());
            match client.eval_run("er_1").await {
                Err(ApiError::Transport(TransportError::Connect(detail))) => {
                    assert!(!detail.is_empty());
                }
                other => panic!("expected a connect error, got {other:?}"),
            }
        });
    }
}
