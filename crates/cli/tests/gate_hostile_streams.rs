//! `eval-compare gate` against progress streams that never behave (the demo server's
//! `endless-event` and `event-flood` faults): the gate's memory stays bounded and the stream
//! ends with a clear error, and a flood of events is summarised on stderr, not written line by
//! line.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

use common::{eval_compare, DemoServer};

/// The demo's running job (its evaluation takes 30 minutes).
const RUNNING_JOB: &str = "job_s500";

/// What a gate printed, how it ended, and the most memory it held (peak resident set, KiB).
struct Watched {
    code: i32,
    stderr: String,
    peak_kib: u64,
}

/// Runs `gate` on the running job for `timeout_s` seconds, reading its peak memory as it runs.
fn gate_watched(server: &DemoServer, timeout_s: &str) -> Watched {
    let mut child = eval_compare()
        .args(["gate", "--server", &server.url, "--chronicle", RUNNING_JOB])
        .args(["--timeout", timeout_s, "--poll", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        // VmHWM: the process's peak resident set so far.
        if let Ok(status) = std::fs::read_to_string(&status_file) {
            let hwm = status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok());
            peak_kib = peak_kib.max(hwm.unwrap_or(0));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Watched {
        code: status.code().unwrap_or(-1),
        stderr: reader.join().unwrap(),
        peak_kib,
    }
}

#[test]
fn an_event_that_never_ends_stops_the_stream_with_a_clear_error_and_bounded_memory() {
    // `data:` lines of 64 KiB for ever, no blank line: before, every line was kept (1 GB in
    // 12 s, then an allocation failure).
    let server = DemoServer::start(None, &["endless-event"]);
    let gated = gate_watched(&server, "5");
    assert_eq!(gated.code, 7, "the timeout came first: {}", gated.stderr);
    assert!(
        gated.stderr.contains(
            "the progress stream could not be read: the API's answer broke the contract: an event \
             of the progress stream went on past 1 MiB without the blank line that ends it"
        ),
        "{}",
        gated.stderr
    );
    assert_eq!(
        gated.stderr.matches("went on past 1 MiB").count(),
        1,
        "a stream like that is not followed again: {}",
        gated.stderr
    );
    assert!(
        gated.peak_kib < 150 * 1024,
        "peak memory {} KiB",
        gated.peak_kib
    );
    eprintln!(
        "gate on an endless event: peak memory {} KiB",
        gated.peak_kib
    );
}

#[test]
fn a_flood_of_events_is_summarised_on_stderr() {
    // `trial_finished` events for ever: before, one line each (710,567 lines in 12 s).
    let server = DemoServer::start(None, &["event-flood"]);
    let gated = gate_watched(&server, "3");
    assert_eq!(gated.code, 7, "{}", gated.stderr);
    let lines = gated.stderr.lines().count();
    assert!(lines < 30, "{lines} lines: {}", gated.stderr);
    assert!(
        gated.stderr.contains("more events)"),
        "the lines say what they stand for: {}",
        gated.stderr
    );
    eprintln!("gate on an event flood: {lines} lines on stderr in 3 s");
}
