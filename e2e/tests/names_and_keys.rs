//! Names and words when things go wrong, in real headless Chromium over the demo API:
//!
//! 1. two candidates named alike (both at step 200) are told apart in the heading, the
//!    compared-runs table, the headline cards and the focus choice;
//! 2. without a key behind a keyed API the page says no key was sent and where to enter one,
//!    and that nothing was read (not that what was read is kept).

use std::collections::BTreeSet;

use eval_compare_e2e::page::{
    check, finish, headline_cards, js, poll, wait_for_report, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;
use serde_json::Value;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

const NAMES_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
const heading = document.querySelector('.page-heading');
return {
  heading: heading ? (heading.getAttribute('title') || text(heading)) : '',
  rows: Array.from(document.querySelectorAll('table.runs-summary tbody tr .run-name')).map(text),
  choices: Array.from(document.querySelectorAll('.focus-selector .segment-choice span')).map(text),
};
"#;

fn distinct(what: &str, names: &[String]) -> Result<(), BoxError> {
    let set: BTreeSet<&String> = names.iter().collect();
    check(set.len() == names.len() && names.len() > 1, || {
        format!("the {what} name runs alike: {names:?}")
    })
}

async fn runs_named_alike(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s200,eval_ckpt_s200_failed",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let shown = js(browser, NAMES_JS, vec![]).await?;
    let strings = |key: &str| -> Vec<String> {
        shown[key]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let heading = shown["heading"].as_str().unwrap_or_default();
    check(
        heading.contains("Step 200 (first attempt)")
            && heading.contains("Step 200 · eval_ckpt_s200"),
        || format!("the heading does not tell the runs apart: {heading:?}"),
    )?;
    distinct("compared-runs table", &strings("rows"))?;
    distinct("focus choice", &strings("choices"))?;
    let titles: Vec<String> = headline_cards(browser)
        .await?
        .into_iter()
        .map(|card| card.title)
        .collect();
    distinct("headline cards", &titles)
}

#[tokio::test]
async fn two_candidates_named_alike_are_told_apart_wherever_runs_are_named() -> Result<(), BoxError>
{
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = runs_named_alike(&browser, &server).await;
    finish(browser, outcome).await
}

const STOPPED_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
const panel = document.querySelector('.load-panel');
if (!panel || text(panel.querySelector('.panel-title')) !== 'Loading stopped early') return null;
return {
  panel: text(panel),
  messages: Array.from(panel.querySelectorAll('.load-failure .error-message')).map(text),
  hints: Array.from(panel.querySelectorAll('.load-failure .error-hint')).map(text),
};
"#;

async fn no_key_sent(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s400",
            server.base_url()
        ))
        .await?;
    let seen = poll("the stopped load", PAGE_TIMEOUT, || async {
        let value = js(browser, STOPPED_JS, vec![]).await?;
        Ok((!value.is_null()).then_some(value))
    })
    .await?;
    let panel = seen["panel"].as_str().unwrap_or_default();
    check(
        panel.contains("Nothing was read") && !panel.contains("What was read is kept"),
        || format!("the panel says something was read: {panel:?}"),
    )?;
    let all = |key: &str, test: &dyn Fn(&str) -> bool| {
        seen[key].as_array().is_some_and(|items| {
            !items.is_empty() && items.iter().filter_map(Value::as_str).all(test)
        })
    };
    check(
        all("messages", &|message| {
            message.starts_with("No API key was sent") && !message.contains("key was refused")
        }),
        || format!("the failures say a key was refused: {}", seen["messages"]),
    )?;
    check(
        all("hints", &|hint| {
            hint.contains("in the source settings") && !hint.contains("on the server")
        }),
        || format!("the hints send the reader elsewhere: {}", seen["hints"]),
    )
}

#[tokio::test]
async fn without_a_key_the_page_says_none_was_sent_and_nothing_was_read() -> Result<(), BoxError> {
    let mut args = DEMO.to_vec();
    args.extend(["--demo-key", "k-names-and-keys"]);
    let server = Server::start_demo(&args)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = no_key_sent(&browser, &server).await;
    finish(browser, outcome).await
}
