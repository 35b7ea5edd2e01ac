//! The comparison page answers first (issue 36 §4), in real headless Chromium over the demo API
//! at 1280×800:
//!
//! 1. a comparable pair: the first screen shows the first verdict card's verdict and sentence;
//!    the comparability audit, after the cards, is one folded line that names what it holds;
//!    opened, its findings and a settings section that says every setting is the same, with the
//!    whole table on demand;
//! 2. a pair with cautions (the baseline sampled at another temperature) and a pair that is not
//!    comparable (another benchmark version): the audit is open, its findings worst first, and
//!    the settings table shows only the rows that differ, the others on demand and hidden again.

use eval_compare_e2e::page::{
    check, click_button, finish, js, poll, wait_for_report, SHORT_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;
use serde::Deserialize;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

/// How many effective settings every Trajectory run has (`core::model::SETTINGS`).
const SETTINGS: usize = 10;

/// What the page shows of the answer and the audit.
#[derive(Debug, Deserialize)]
struct Shown {
    /// The window's inner height.
    viewport: f64,
    /// The bottom of the first card's verdict badge and the top of its sentence, from the top.
    badge_bottom: f64,
    sentence_top: f64,
    /// Whether the first card comes before the audit in the page.
    card_before_audit: bool,
    /// Whether the audit's `<details>` is open.
    open: bool,
    /// Whether the audit's heading and what it holds sit on one line.
    one_line: bool,
    /// The audit's line.
    summary: String,
    /// The severity badges of the findings, in order, when visible.
    severities: Vec<String>,
    /// The codes of the findings, in order.
    codes: Vec<String>,
    /// The line counting the settings that differ, when visible.
    difference: String,
    /// The settings table's rows, when visible: the setting and whether it is marked.
    rows: Vec<(String, bool)>,
    /// The settings button's label, when there is one.
    toggle: Option<String>,
}

const SHOWN_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
const seen = (e) => !!e && e.checkVisibility();
const card = document.querySelector('article.headline-card');
const audit = document.querySelector('section.audit');
const details = audit.querySelector('details.audit-details');
const title = audit.querySelector('summary .panel-title').getBoundingClientRect();
const contents = audit.querySelector('summary .audit-contents').getBoundingClientRect();
const toggle = audit.querySelector('.settings-toggle');
return {
  viewport: window.innerHeight,
  badge_bottom: card.querySelector('.verdict-badge').getBoundingClientRect().bottom,
  sentence_top: card.querySelector('.headline-sentence').getBoundingClientRect().top,
  card_before_audit: !!(card.compareDocumentPosition(audit) & Node.DOCUMENT_POSITION_FOLLOWING),
  open: details.open,
  one_line: contents.height > 0 && Math.abs(contents.bottom - title.bottom) < title.height / 2,
  summary: text(audit.querySelector('summary')),
  severities: Array.from(audit.querySelectorAll('.finding .severity')).filter(seen).map(text),
  codes: Array.from(audit.querySelectorAll('.finding .finding-code')).map(text),
  difference: seen(audit.querySelector('.settings-difference'))
    ? text(audit.querySelector('.settings-difference')) : '',
  rows: Array.from(audit.querySelectorAll('.settings-table tbody tr')).filter(seen)
    .map((tr) => [text(tr.querySelector('th')), tr.classList.contains('setting-differs')]),
  toggle: seen(toggle) ? text(toggle) : null,
};
"#;

async fn shown(browser: &Client) -> Result<Shown, BoxError> {
    Ok(serde_json::from_value(
        js(browser, SHOWN_JS, vec![]).await?,
    )?)
}

/// Waits until the page shows what `done` wants, and returns it.
async fn shown_when(
    browser: &Client,
    what: &str,
    done: impl Fn(&Shown) -> bool,
) -> Result<Shown, BoxError> {
    let last = std::cell::RefCell::new(None);
    let seen = poll(what, SHORT_TIMEOUT, || async {
        let now = shown(browser).await?;
        if done(&now) {
            return Ok(Some(now));
        }
        *last.borrow_mut() = Some(format!("{now:?}"));
        Ok(None)
    })
    .await;
    seen.map_err(|error| format!("{error}; the page shows {:?}", last.borrow()).into())
}

async fn open_report(browser: &Client, server: &Server, query: &str) -> Result<(), BoxError> {
    browser
        .goto(&format!("{}/compare?{query}", server.base_url()))
        .await?;
    wait_for_report(browser).await
}

/// The ranks of severities, worst first.
fn rank(severity: &str) -> u8 {
    match severity.to_lowercase().as_str() {
        "blocking" => 0,
        "caution" => 1,
        _ => 2,
    }
}

async fn comparable(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.set_window_size(1280, 800).await?;
    open_report(
        browser,
        server,
        "base=eval_base_v2&cand=eval_ckpt_s200,eval_ckpt_s400",
    )
    .await?;
    let page = shown(browser).await?;
    check(
        page.badge_bottom <= page.viewport && page.sentence_top < page.viewport,
        || format!("the first verdict is not on the first screen: {page:?}"),
    )?;
    check(page.card_before_audit, || {
        "the audit comes before the verdict cards".to_owned()
    })?;
    check(!page.open && page.one_line, || {
        format!("the audit of comparable runs is not one folded line: {page:?}")
    })?;
    check(
        page.summary.starts_with("Comparability: Comparable")
            && page
                .summary
                .ends_with(&format!("findings · {SETTINGS} settings, all the same")),
        || format!("the audit's line reads {:?}", page.summary),
    )?;
    check(
        page.severities.is_empty() && page.difference.is_empty() && page.toggle.is_none(),
        || format!("the folded audit shows its insides: {page:?}"),
    )?;
    js(
        browser,
        "document.querySelector('section.audit summary').click();",
        vec![],
    )
    .await?;
    let opened = shown_when(browser, "the opened audit", |page| page.open).await?;
    check(
        !opened.severities.is_empty()
            && opened.difference == format!("All {SETTINGS} settings are the same in every run.")
            && opened.rows.is_empty()
            && opened.toggle.as_deref() == Some(&format!("Show all {SETTINGS} settings")),
        || format!("the opened audit shows {opened:?}"),
    )?;
    click_button(
        browser,
        Some("section.audit"),
        &format!("Show all {SETTINGS} settings"),
    )
    .await?;
    let all = shown_when(browser, "every setting", |page| page.rows.len() == SETTINGS).await?;
    check(
        all.rows.iter().all(|(_, differs)| !differs)
            && all.toggle.as_deref() == Some("Hide the settings"),
        || format!("every setting shows {all:?}"),
    )
}

async fn not_comparable(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.set_window_size(1280, 800).await?;
    // The baseline sampled at temperature 1.0 with 20 turns: comparable, with cautions.
    open_report(
        browser,
        server,
        "base=eval_base_v2_hot&cand=eval_ckpt_s200,eval_ckpt_s400",
    )
    .await?;
    let page = shown(browser).await?;
    check(page.open && page.card_before_audit, || {
        format!("the audit with cautions is not open after the cards: {page:?}")
    })?;
    check(
        page.severities.first().map(String::as_str) == Some("caution")
            && page
                .severities
                .windows(2)
                .all(|w| rank(&w[0]) <= rank(&w[1])),
        || format!("the findings are not worst first: {:?}", page.severities),
    )?;
    let differing = ["Temperature", "top_p", "Max turns per trajectory"];
    let names: Vec<&str> = page.rows.iter().map(|(name, _)| name.as_str()).collect();
    check(
        names == differing && page.rows.iter().all(|(_, differs)| *differs),
        || format!("the settings table shows {:?}", page.rows),
    )?;
    check(
        page.difference
            == format!(
                "3 of {SETTINGS} settings differ between the runs; the other {} are the same in \
                 every run.",
                SETTINGS - 3
            ),
        || format!("the settings line reads {:?}", page.difference),
    )?;
    click_button(
        browser,
        Some("section.audit"),
        &format!("Show all {SETTINGS} settings"),
    )
    .await?;
    let all = shown_when(browser, "every setting", |page| page.rows.len() == SETTINGS).await?;
    check(
        all.rows.iter().filter(|(_, differs)| *differs).count() == 3
            && all.toggle.as_deref() == Some("Show only the 3 that differ"),
        || format!("every setting shows {all:?}"),
    )?;
    click_button(
        browser,
        Some("section.audit"),
        "Show only the 3 that differ",
    )
    .await?;
    shown_when(browser, "only the settings that differ", |page| {
        page.rows.len() == 3
    })
    .await?;

    // Another benchmark version: not comparable, its blocking finding first.
    open_report(
        browser,
        server,
        "base=eval_base_v1&cand=eval_ckpt_s300,eval_ckpt_s400",
    )
    .await?;
    let page = shown_when(browser, "the audit of another version", |page| {
        page.summary.starts_with("Comparability: Not comparable")
    })
    .await?;
    check(
        page.open
            && page.severities.first().map(String::as_str) == Some("blocking")
            && page.codes.first().map(String::as_str) == Some("BENCHMARK_VERSION_DIFFERS")
            && page
                .severities
                .windows(2)
                .all(|w| rank(&w[0]) <= rank(&w[1])),
        || format!("the not-comparable audit shows {page:?}"),
    )?;
    check(
        page.rows.is_empty()
            && page.difference == format!("All {SETTINGS} settings are the same in every run."),
        || format!("the settings of the two versions show {page:?}"),
    )
}

#[tokio::test]
async fn comparable_runs_answer_first_with_the_audit_on_one_line() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = comparable(&browser, &server).await;
    finish(browser, outcome).await
}

#[tokio::test]
async fn runs_that_differ_open_the_audit_and_show_the_settings_that_differ() -> Result<(), BoxError>
{
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = not_comparable(&browser, &server).await;
    finish(browser, outcome).await
}
