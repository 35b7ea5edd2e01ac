//! Tokens beside the turns, read on request from the transcripts, in real headless Chromium
//! over the demo API, step 400 against the baseline:
//!
//! 1. the effort panel offers to read the tokens with their cost (requests) before any is made;
//!    reading them shows progress with Cancel; a Cancel keeps what was read and offers Resume,
//!    which reads only the rest;
//! 2. once all are read, the card says "· +X% tokens" and the panel has the tokens table and
//!    sentence, and the page's report JSON is the CLI's `report --tokens` byte for byte.

use eval_compare_e2e::cli::cli_report_json;
use eval_compare_e2e::page::{
    check, click_button, download, finish, js, poll, wait_for_report, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::Client;
use serde_json::Value;

/// The demo with its running evaluation already finished (stable data), its transcripts'
/// reads slowed so that a Cancel lands mid-read.
const DEMO: &[&str] = &[
    "--running-eval-secs",
    "0",
    "--fault",
    "latency:ms=20:path=/steps",
];
const BASELINE: &str = "eval_base_v2";
const CANDIDATE: &str = "eval_ckpt_s400";

/// The tokens part of the effort panel: its status line, its buttons, the card's tokens and
/// the candidate's sentence.
const TOKENS_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
const shown = (e) => {
  if (!e) return null;
  const copy = e.cloneNode(true);
  copy.querySelectorAll('.explain, .explain-pop').forEach((x) => x.remove());
  return text(copy);
};
const panel = document.querySelector('section.effort-panel');
if (!panel) return null;
const card = document.querySelector('article.headline-card .headline-tokens');
return {
  title: text(panel.querySelector('.effort-tokens-title')),
  status: text(panel.querySelector('.token-reads .component-reads-text')),
  buttons: Array.from(panel.querySelectorAll('.token-reads button')).map(text),
  rows: panel.querySelectorAll('table.effort-token-runs tbody tr').length,
  sentence: text(panel.querySelector('li.effort-tokens')),
  card: shown(card),
  card_topic: card && card.querySelector('button.explain')
    ? card.querySelector('button.explain').getAttribute('data-topic') : null,
};
"#;

async fn tokens_when(
    browser: &Client,
    what: &str,
    ready: impl Fn(&Value) -> bool,
) -> Result<Value, BoxError> {
    poll(what, PAGE_TIMEOUT, || async {
        let value = js(browser, TOKENS_JS, vec![]).await?;
        Ok((!value.is_null() && ready(&value)).then_some(value))
    })
    .await
}

fn status(panel: &Value) -> &str {
    panel["status"].as_str().unwrap_or_default()
}

async fn read_tokens_match_the_cli(
    browser: &Client,
    server: &Server,
    downloads: &std::path::Path,
) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let offer = tokens_when(browser, "the offer to read tokens", |panel| {
        status(panel).starts_with("These runs' lists carry no token counts")
    })
    .await?;
    check(
        offer["rows"] == 0
            && offer["card"].is_null()
            && offer["title"] == "Effort: tokens"
            && status(&offer).contains(" requests for "),
        || format!("before any read the panel says {offer}"),
    )?;
    click_button(browser, Some("section.effort-panel"), "Read tokens").await?;
    let reading = tokens_when(browser, "the read in progress", |panel| {
        status(panel).starts_with("Reading tokens: ")
    })
    .await?;
    check(reading["buttons"] == serde_json::json!(["Cancel"]), || {
        format!("while reading the panel offers {reading}")
    })?;
    click_button(browser, Some("section.effort-panel"), "Cancel").await?;
    let cancelled = tokens_when(browser, "the read cancelled", |panel| {
        panel["buttons"] == serde_json::json!(["Resume"])
    })
    .await?;
    check(status(&cancelled).starts_with("Tokens read for "), || {
        format!("after a Cancel the panel says {cancelled}")
    })?;
    click_button(browser, Some("section.effort-panel"), "Resume").await?;
    let read = tokens_when(browser, "every token count read", |panel| {
        status(panel).starts_with("Tokens read for all") && !panel["card"].is_null()
    })
    .await?;
    let card = read["card"].as_str().unwrap_or_default();
    check(
        card.starts_with("· +") && card.ends_with("% tokens") && read["card_topic"] == "tokens",
        || {
            format!(
                "the card's tokens read {card:?}, its \"?\" {}",
                read["card_topic"]
            )
        },
    )?;
    check(
        read["rows"] == 2
            && read["sentence"]
                .as_str()
                .is_some_and(|s| s.contains("more tokens per task")),
        || format!("the panel after the read: {read}"),
    )?;

    // The page's report, tokens included, is the CLI's.
    let (_, text) = download(browser, downloads, "Download report JSON", "json").await?;
    let (cli, cli_text) = cli_report_json(
        server.base_url(),
        BASELINE,
        &[CANDIDATE.to_owned()],
        &["--tokens"],
        None,
    )?;
    check(text.trim_end() == cli_text.trim_end(), || {
        "with tokens read, the page's report JSON is not `eval-compare report --tokens`".to_owned()
    })?;
    let ratio = cli
        .pointer("/effort/tokens/candidates/0/relative/Ok/ratio")
        .and_then(Value::as_f64)
        .ok_or("the CLI's report has no relative change of tokens")?;
    check(
        card == format!(
            "· {} tokens",
            eval_compare_core::report::signed_percent(ratio)
        ),
        || format!("the card says {card:?}, the CLI's ratio is {ratio}"),
    )
}

#[tokio::test]
async fn tokens_read_on_request_with_cancel_and_resume_match_the_cli() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("tokens")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = read_tokens_match_the_cli(&browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}
