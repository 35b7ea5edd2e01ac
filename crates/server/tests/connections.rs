//! The server's connection limits over loopback: a client sending its headers a byte at a
//! time is cut off at the header-read timeout, a silent connection at the idle timeout, a
//! kept-alive connection is not kept waiting for a next request past the header-read
//! timeout, and connections over the cap wait until one closes.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::{demo, start_with_limits, TestServer};
use eval_compare_server::ConnectionLimits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn server(header_read: u64, idle: u64, max_connections: usize) -> TestServer {
    start_with_limits(
        demo(1),
        ConnectionLimits {
            header_read_timeout: Duration::from_millis(header_read),
            idle_timeout: Duration::from_millis(idle),
            max_connections,
        },
    )
    .await
}

async fn connect(server: &TestServer) -> TcpStream {
    TcpStream::connect(server.base.trim_start_matches("http://"))
        .await
        .unwrap()
}

/// Waits (at most `limit`) until the server closes `stream`, reading whatever it sends;
/// returns when it closed and what it sent.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> (Duration, String) {
    let started = Instant::now();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let read = tokio::time::timeout_at(
            tokio::time::Instant::from_std(started + limit),
            stream.read(&mut buffer),
        )
        .await
        .unwrap_or_else(|_| panic!("still open after {limit:?}"));
        match read {
            Ok(0) | Err(_) => {
                return (
                    started.elapsed(),
                    String::from_utf8_lossy(&answer).into_owned(),
                )
            }
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
        }
    }
}

#[tokio::test]
async fn a_client_sending_headers_a_byte_at_a_time_is_cut_off() {
    let server = server(1_000, 30_000, 16).await;
    let mut stream = connect(&server).await;
    let started = Instant::now();
    let request = format!(
        "GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nX-Slow: {}\r\n\r\n",
        "a".repeat(100)
    );
    let mut cut_after = None;
    for byte in request.bytes() {
        if stream.write_all(&[byte]).await.is_err() {
            cut_after = Some(started.elapsed());
            break;
        }
        let mut probe = [0u8; 512];
        // Reading for 100 ms paces the bytes and notices the close.
        match tokio::time::timeout(Duration::from_millis(100), stream.read(&mut probe)).await {
            Ok(Ok(n)) => {
                // The server's farewell (a 408, or nothing); either way it closes.
                let shown = String::from_utf8_lossy(&probe[..n]).into_owned();
                assert!(n == 0 || shown.starts_with("HTTP/1.1 408"), "{shown}");
                cut_after = Some(started.elapsed());
                break;
            }
            Ok(Err(_)) => {
                cut_after = Some(started.elapsed());
                break;
            }
            Err(_) => {}
        }
    }
    let cut_after = cut_after.expect("the whole request went through, byte by byte");
    assert!(
        cut_after >= Duration::from_millis(900) && cut_after < Duration::from_millis(3_000),
        "cut after {cut_after:?}"
    );
}

#[tokio::test]
async fn a_silent_connection_is_closed_at_the_idle_timeout() {
    let server = server(20_000, 1_000, 16).await;
    let mut stream = connect(&server).await;
    let (after, _) = closed_within(&mut stream, Duration::from_secs(5)).await;
    assert!(
        after >= Duration::from_millis(900),
        "closed after {after:?}"
    );
}

#[tokio::test]
async fn a_kept_alive_connection_waits_for_its_next_request_only_so_long() {
    let server = server(1_000, 20_000, 16).await;
    let mut stream = connect(&server).await;
    stream
        .write_all(b"GET /api/v1/agents HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = vec![0u8; 64 * 1024];
    let n = stream.read(&mut buffer).await.unwrap();
    assert!(String::from_utf8_lossy(&buffer[..n]).starts_with("HTTP/1.1 200"));
    // Read the rest of the answer, then wait: the server closes the idle connection.
    let (after, _) = closed_within(&mut stream, Duration::from_secs(5)).await;
    assert!(
        after < Duration::from_millis(3_000),
        "closed after {after:?}"
    );
}

#[tokio::test]
async fn connections_over_the_cap_wait_until_one_closes() {
    let server = server(10_000, 10_000, 2).await;
    let held = [connect(&server).await, connect(&server).await];
    // Let the server accept both.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut third = connect(&server).await; // Queued in the listening socket's backlog.
    third
        .write_all(b"GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = vec![0u8; 64 * 1024];
    assert!(
        tokio::time::timeout(Duration::from_millis(700), third.read(&mut buffer))
            .await
            .is_err(),
        "a third connection is not served while two are open"
    );
    drop(held);
    let n = tokio::time::timeout(Duration::from_secs(3), third.read(&mut buffer))
        .await
        .expect("served once a connection closed")
        .unwrap();
    assert!(String::from_utf8_lossy(&buffer[..n]).starts_with("HTTP/1.1 200"));
}
