//! Chronicle trials' steps and durations (issue 37 §3) in real headless Chromium over the demo
//! API, on the compare-mode job of the baseline and step 400, checked against
//! `eval-compare report --chronicle --trial-details` over the same API:
//!
//! 1. the effort panel offers to read the trials' details with its cost first (one request per
//!    counted trial: the CLI's count), reads them on a click, and says when all were read;
//! 2. the panel then shows the paired steps and durations, the card has them beside the Δ in
//!    the core's words with their "?", and the report JSON the page exports is the CLI's, byte
//!    for byte; the panel never shows the tokens' heading (a Chronicle report has no tokens).
//!
//! The server runs with `--running-eval-secs 0`, so the browser and the CLI read the same data.

use std::path::Path;

use eval_compare_core::report::{beside_delta_parts, BesideKind, Report, BESIDE_DELTA};
use eval_compare_e2e::cli::{cli_report_json, number};
use eval_compare_e2e::page::{
    check, click_button, download, finish, js, poll, wait_for_report, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::Client;

/// The demo with its running evaluation (and job) already finished.
const DEMO: &[&str] = &["--running-eval-secs", "0"];
/// The demo's compare-mode job of the baseline and step 400.
const COMPARE_JOB: &str = "job_compare_base_s400";

/// A part beside the first card's Δ (the element matching `arguments[0]` inside it): its text
/// without its "?" and the topic its "?" explains; null when there is none.
const CARD_PART_JS: &str = r#"
const part = document.querySelector('article.headline-card ' + arguments[0]);
if (!part) return null;
const copy = part.cloneNode(true);
copy.querySelectorAll('.explain, .explain-pop').forEach((x) => x.remove());
const button = part.querySelector('button.explain');
return {
  text: copy.textContent.replace(/\s+/g, ' ').trim(),
  topic: button ? button.getAttribute('data-topic') : null,
};
"#;

/// The text of the first element matching `css`, spaces folded; empty when there is none.
async fn text(browser: &Client, css: &str) -> Result<String, BoxError> {
    let value = js(
        browser,
        "const e = document.querySelector(arguments[0]); \
         return e ? e.textContent.replace(/\\s+/g, ' ').trim() : '';",
        vec![serde_json::Value::from(css)],
    )
    .await?;
    Ok(value.as_str().unwrap_or_default().to_owned())
}

async fn read_and_compare(
    browser: &Client,
    server: &Server,
    downloads: &Path,
) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/backtests/compare?base={COMPARE_JOB}/demo-coder@base&cand={COMPARE_JOB}/demo-coder@step-400",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let (cli, cli_text) = cli_report_json(
        server.base_url(),
        COMPARE_JOB,
        &[],
        &["--chronicle", "--trial-details"],
        None,
    )?;
    let counted = number(&cli, "/trial_effort/runs/0/counted")?
        + number(&cli, "/trial_effort/runs/1/counted")?;
    let offer = poll("the offer to read trial details", PAGE_TIMEOUT, || async {
        let now = text(browser, ".trial-details-reads .component-reads-text").await?;
        Ok((!now.is_empty()).then_some(now))
    })
    .await?;
    check(
        offer.contains(&format!("reading them takes {counted} requests")),
        || format!("the offer reads {offer:?}; the CLI read {counted} trials"),
    )?;
    check(
        text(browser, ".effort-trial-runs").await?.is_empty(),
        || "the trials' table shows before any detail was read".to_owned(),
    )?;
    check(
        text(browser, ".effort-tokens-title").await?.is_empty(),
        || "a Chronicle report, where no tokens can be read, shows the tokens' heading".to_owned(),
    )?;

    click_button(
        browser,
        Some(".trial-details-reads"),
        "Read steps and durations",
    )
    .await?;
    let done = poll("every trial detail read", PAGE_TIMEOUT, || async {
        let now = text(browser, ".trial-details-reads .component-reads-text").await?;
        Ok(now.contains("read for all").then_some(now))
    })
    .await?;
    check(
        done.contains(&format!("all {counted} counted trials")),
        || format!("after the read the panel says {done:?}"),
    )?;
    let lines = poll("the trials' sentences", PAGE_TIMEOUT, || async {
        let now = text(browser, ".effort-trial-lines").await?;
        Ok((!now.is_empty()).then_some(now))
    })
    .await?;
    check(
        lines.contains("Steps per trial:") && lines.contains("Duration per trial:"),
        || format!("the candidate's trial lines read {lines:?}"),
    )?;

    // Beside the verdict: the core's parts of the CLI's report, each with its "?".
    let report: Report = serde_json::from_str(&cli_text)?;
    let parts = beside_delta_parts(&report, &report.candidates[0]);
    for (kind, css, topic) in [
        (
            BesideKind::TrialSteps,
            ".headline-trial-steps",
            "trial-steps",
        ),
        (
            BesideKind::TrialDuration,
            ".headline-trial-duration",
            "trial-duration",
        ),
    ] {
        let part = parts
            .iter()
            .find(|part| part.kind == kind)
            .ok_or_else(|| format!("the CLI's report has no {kind:?} beside the Δ"))?;
        let want = format!("{}{}", BESIDE_DELTA.trim_start(), part.text);
        let card = poll("the trials beside the verdict", PAGE_TIMEOUT, || async {
            let value = js(browser, CARD_PART_JS, vec![serde_json::Value::from(css)]).await?;
            Ok((!value.is_null()).then_some(value))
        })
        .await?;
        check(
            card["text"] == want.as_str() && card["topic"] == topic,
            || format!("the card's {css} reads {card}; the CLI's words are {want:?}"),
        )?;
    }

    let (name, exported) = download(browser, downloads, "Download report JSON", "json").await?;
    check(exported.trim_end() == cli_text.trim_end(), || {
        let page: serde_json::Value = serde_json::from_str(&exported).unwrap_or_default();
        format!(
            "the page's {name} differs from `eval-compare report --chronicle --trial-details`: \
             page trial_effort {}, CLI {}",
            page["trial_effort"], cli["trial_effort"]
        )
    })
}

#[tokio::test]
async fn the_trials_steps_and_durations_are_read_on_request_and_match_the_cli(
) -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("trial-details")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = read_and_compare(&browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}
