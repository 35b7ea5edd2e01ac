//! A verdict from a half-read run, in real headless Chromium over the demo API: with one page of
//! a run's rewards cut off mid-body (and on both retries), the load stops early, and the headline card marks its
//! verdict partial, says which run was not read completely, and offers Retry; the load panel
//! says the answer was cut off (not that the API may be newer). Retry from the card reads the
//! rest, and the card's verdict is then plain.

use eval_compare_e2e::page::{check, finish, js, poll, PAGE_TIMEOUT};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;
use serde_json::Value;

const BASELINE: &str = "eval_base_v2";
const CANDIDATE: &str = "eval_ckpt_s400";

/// The first headline card and the load panel, as text.
const CARD_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
const card = document.querySelector('article.headline-card');
const panel = document.querySelector('section.load-panel');
return {
  card: card ? {
    badge: text(card.querySelector('.verdict-badge')),
    partial: !!card.querySelector('.partial-mark'),
    sentence: text(card.querySelector('.headline-sentence')),
    reasons: Array.from(card.querySelectorAll('.verdict-reasons li')).map(text),
    rest: text(card.querySelector('.read-the-rest p')),
    retry: !!card.querySelector('.read-the-rest button'),
  } : null,
  panel: panel ? text(panel) : null,
};
"#;

async fn seen_when(
    browser: &Client,
    what: &str,
    ready: impl Fn(&Value) -> bool,
) -> Result<Value, BoxError> {
    poll(what, PAGE_TIMEOUT, || async {
        let value = js(browser, CARD_JS, vec![]).await?;
        Ok(ready(&value).then_some(value))
    })
    .await
}

async fn a_half_read_run_gets_no_plain_verdict(
    browser: &Client,
    server: &Server,
) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}",
            server.base_url()
        ))
        .await?;
    let seen = seen_when(browser, "a card after the load stopped early", |v| {
        !v["card"].is_null()
            && v["panel"]
                .as_str()
                .is_some_and(|p| p.contains("Loading stopped early"))
    })
    .await?;
    let card = &seen["card"];
    let panel = seen["panel"].as_str().unwrap_or_default();
    check(card["partial"] == true, || {
        format!("the card of a half-read run is not marked partial: {card}")
    })?;
    check(
        card["sentence"]
            .as_str()
            .is_some_and(|s| s.starts_with("Partial data: ")),
        || format!("the sentence reads as a plain verdict: {card}"),
    )?;
    check(
        card["reasons"].as_array().is_some_and(|r| {
            r.iter().any(|r| {
                r.as_str()
                    .unwrap_or_default()
                    .contains("was not read completely")
            })
        }),
        || format!("no reason names what was not read: {card}"),
    )?;
    check(
        card["rest"]
            .as_str()
            .is_some_and(|r| r.contains("Retry reads the rest"))
            && card["retry"] == true,
        || format!("the card offers no Retry: {card}"),
    )?;
    check(
        panel.contains("cut off") && !panel.contains("newer than this"),
        || format!("the load panel does not say the answer was cut off: {panel}"),
    )?;

    // Retry from the card: only the one page was cut, so the rest reads and the verdict is plain.
    js(
        browser,
        "document.querySelector('article.headline-card .read-the-rest button').click(); return null;",
        vec![],
    )
    .await?;
    let after = seen_when(browser, "the card after Retry read the rest", |v| {
        v["card"]["partial"] == false && v["panel"].is_null()
    })
    .await?;
    let card = &after["card"];
    check(
        card["rest"].is_null()
            && card["sentence"]
                .as_str()
                .is_some_and(|s| s.starts_with("Step 400 scores ")),
        || format!("after Retry the card still reads as partial: {card}"),
    )
}

#[tokio::test]
async fn a_verdict_from_a_half_read_run_is_marked_partial_until_retry_reads_the_rest(
) -> Result<(), BoxError> {
    // The candidate's second page of rewards is cut off mid-body three times in a row: the
    // request and both of its retries. Retry's request is the fifth, read whole.
    const REWARDS: &str = "/eval_ckpt_s400/trajectory-rewards";
    let faults: Vec<String> = (2..=4)
        .map(|nth| format!("truncate:path={REWARDS}:nth={nth}"))
        .collect();
    // The page reads the contract's pages here (`--no-list-streams`): the server's streamed
    // lists retry a cut page themselves and resume (crates/core/tests/load_stream.rs and
    // crates/server/tests/list_streams.rs test that path).
    let mut args = vec!["--running-eval-secs", "0", "--no-list-streams"];
    for fault in &faults {
        args.extend(["--fault", fault.as_str()]);
    }
    let server = Server::start_demo(&args)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = a_half_read_run_gets_no_plain_verdict(&browser, &server).await;
    finish(browser, outcome).await
}
