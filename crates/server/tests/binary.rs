//! The `eval-compare-server` binary: one stdout line with the bound address, then it serves.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn prints_the_bound_address_and_serves() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_eval-compare-server"))
        .args([
            "--addr",
            "127.0.0.1:0",
            "--seed",
            "9",
            "--dist",
            "/nonexistent",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim_end()
        .strip_prefix("listening on ")
        .map(str::to_owned);
    let served = base.as_ref().map(|base| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            reqwest::get(format!("{base}/api/v1/agents"))
                .await
                .map(|r| r.status().as_u16())
        })
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let base = base.unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    assert!(
        base.starts_with("http://127.0.0.1:") && !base.ends_with(":0"),
        "{base}"
    );
    assert_eq!(served.unwrap().unwrap(), 200);
}

#[test]
fn help_documents_every_flag() {
    let output = Command::new(env!("CARGO_BIN_EXE_eval-compare-server"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    for flag in [
        "--demo",
        "--upstream",
        "--addr",
        "--dist",
        "--seed",
        "--demo-key",
        "--fault",
        "--running-eval-secs",
        "--upstream-timeout",
        "--upstream-max-body",
        "--header-read-timeout",
        "--idle-timeout",
        "--max-connections",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help");
    }
    assert!(
        help.contains("path=SUBSTR") && help.contains("bad-cursor"),
        "the fault syntax is documented"
    );
}

#[test]
fn refuses_an_invalid_fault_spec() {
    let output = Command::new(env!("CARGO_BIN_EXE_eval-compare-server"))
        .args(["--fault", "explode"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown fault kind"));
}
