//! The CLI's limits per request against a hostile loopback server: an answer that trickles in
//! byte by byte is stopped at the overall deadline (`--request-timeout`), one larger than
//! `--max-response-mib` is refused while it streams in; both exit 4 and write nothing.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::{eval_compare, run};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Connections the server accepts before it stops (each test makes one).
const MAX_CONNECTIONS: usize = 4;
/// How long the server lives at most.
const SERVER_LIFETIME: Duration = Duration::from_secs(60);

/// A loopback server answering `GET /api/v1/eval/slow` with one byte every 200 ms (at most 100)
/// and `GET /api/v1/eval/huge` with a chunked body of 3 MiB; its URL.
fn hostile_server() -> String {
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            addr_tx.send(listener.local_addr().unwrap()).unwrap();
            let serve = async {
                for _ in 0..MAX_CONNECTIONS {
                    let Ok((socket, _)) = listener.accept().await else {
                        return;
                    };
                    tokio::spawn(answer(socket));
                }
                std::future::pending::<()>().await;
            };
            let _ = tokio::time::timeout(SERVER_LIFETIME, serve).await;
        });
    });
    let addr = addr_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    format!("http://{addr}")
}

async fn answer(mut socket: TcpStream) {
    let mut head = Vec::new();
    let mut buffer = [0u8; 1024];
    while !head.windows(4).any(|window| window == b"\r\n\r\n") && head.len() < 64 * 1024 {
        match socket.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => head.extend_from_slice(&buffer[..read]),
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    if head.starts_with("GET /api/v1/eval/slow ") {
        let _ = drip(&mut socket).await;
    } else if head.starts_with("GET /api/v1/eval/huge ") {
        let _ = flood(&mut socket).await;
    } else {
        // It closes the connection after answering, so it says so: a client keeping the
        // connection for its next request (the run's record after the stream probe) would
        // otherwise race the close.
        let _ = socket
            .write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            .await;
    }
}

/// Headers promising 1,000 bytes, then one byte every 200 ms: the read timeout never fires.
async fn drip(socket: &mut TcpStream) -> std::io::Result<()> {
    socket
        .write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n",
        )
        .await?;
    for _ in 0..100 {
        socket.write_all(b" ").await?;
        socket.flush().await?;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Ok(())
}

/// A chunked body (no length announced) of 3 MiB of JSON whitespace.
async fn flood(socket: &mut TcpStream) -> std::io::Result<()> {
    socket
        .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n")
        .await?;
    let chunk = vec![b' '; 64 * 1024];
    for _ in 0..48 {
        socket
            .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
            .await?;
        socket.write_all(&chunk).await?;
        socket.write_all(b"\r\n").await?;
    }
    socket.write_all(b"0\r\n\r\n").await
}

#[test]
fn an_answer_trickling_in_is_stopped_at_the_request_deadline() {
    let server = hostile_server();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let started = Instant::now();
    let stopped = run(eval_compare()
        .args(["export", "--server", &server, "--request-timeout", "1"])
        .args(["--read-timeout", "30", "slow"])
        .arg(&out));
    let took = started.elapsed();
    assert_eq!(stopped.code, 4, "{}", stopped.stderr);
    assert!(
        stopped.stderr.contains("could not read run slow (GET /api/v1/eval/slow): the request was stopped: the answer did not complete within the request deadline of 1 s (--request-timeout)"),
        "{}",
        stopped.stderr
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn an_answer_over_the_size_cap_is_refused_as_it_streams_in() {
    let server = hostile_server();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let refused = run(eval_compare()
        .args([
            "export",
            "--server",
            &server,
            "--max-response-mib",
            "1",
            "huge",
        ])
        .arg(&out));
    assert_eq!(refused.code, 4, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("could not read run huge (GET /api/v1/eval/huge): the request was stopped: the answer is larger than the 1 MiB allowed per response (--max-response-mib)"),
        "{}",
        refused.stderr
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn the_limits_are_documented_in_the_help() {
    let help = run(eval_compare().args(["export", "--help"]));
    assert_eq!(help.code, 0, "{}", help.stderr);
    for text in [
        "--request-timeout <SECS>",
        "[default: 120]",
        "--max-response-mib <MIB>",
        "[default: 64]",
    ] {
        assert!(help.stdout.contains(text), "no {text}: {}", help.stdout);
    }
}
