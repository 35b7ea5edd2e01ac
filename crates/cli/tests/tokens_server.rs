//! `report --tokens` against the demo server: every counted trajectory's tokens are read from
//! its last step, with progress and a closing note on stderr, and the report in every format
//! gives the paired Δ of tokens per task; a 429 storm stops the read after ten trajectories in
//! a row failed, in the core's words, exit 4.
#![allow(clippy::unwrap_used)]

mod common;

use common::{eval_compare, run, DemoServer, Run};

fn report_tokens(server: &DemoServer, extra: &[&str]) -> Run {
    run(eval_compare()
        .args(["report", "--server", &server.url, "--tokens"])
        .args(["--resamples", "0"])
        .args(extra)
        .args(["eval_base_v2", "eval_ckpt_s400"]))
}

#[test]
fn tokens_are_read_and_every_format_gives_their_paired_delta() {
    let server = DemoServer::start(None, &[]);
    let markdown = report_tokens(&server, &[]);
    assert_eq!(markdown.code, 0, "{}", markdown.stderr);
    assert!(
        markdown.stderr.contains("tokens: ") && markdown.stderr.contains(" requests)"),
        "{}",
        markdown.stderr
    );
    assert!(markdown.stdout.contains("## Effort: tokens"));
    assert!(markdown.stdout.contains("more tokens per task"));
    let json = report_tokens(&server, &["--format", "json", "-q"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let tokens = &report["effort"]["tokens"];
    let ratio = tokens["candidates"][0]["relative"]["Ok"]["ratio"]
        .as_f64()
        .unwrap();
    assert!(
        ratio > 0.05,
        "the demo's step 400 uses more tokens: {ratio}"
    );
    assert_eq!(tokens["runs"][0]["not_read"], 0, "every count read");
    let html = report_tokens(&server, &["--format", "html", "-q"]);
    assert!(html.stdout.contains("<section id=\"tokens\">"));
}

#[test]
fn a_report_without_the_flag_has_no_tokens() {
    let server = DemoServer::start(None, &[]);
    let json = run(eval_compare()
        .args(["report", "--server", &server.url, "--format", "json", "-q"])
        .args(["--resamples", "0", "eval_base_v2", "eval_ckpt_s400"]));
    assert_eq!(json.code, 0, "{}", json.stderr);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert!(report["effort"].get("tokens").is_none(), "never estimated");
}

#[test]
fn a_429_storm_stops_the_read_after_ten_failures_in_a_row() {
    let server = DemoServer::start(None, &["429:path=/steps:from=21"]);
    let outcome = report_tokens(&server, &["-q"]);
    assert_eq!(outcome.code, 4, "{}", outcome.stderr);
    assert!(
        outcome.stderr.contains(
            "could not read the tokens: stopped after 10 reads in a row failed (HTTP 429 Too Many Requests); 20 of "
        ),
        "{}",
        outcome.stderr
    );
    assert!(outcome.stdout.is_empty());
}
