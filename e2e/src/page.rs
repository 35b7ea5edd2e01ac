//! Reading and driving the viewer in a WebDriver session: polling waits (never fixed sleeps),
//! the report's readiness, its headline cards and run rows as data, Copy link, and downloads.
//!
//! Page state is read with small scripts returning JSON, so a re-render between two WebDriver
//! calls cannot leave a test holding a stale element.

use std::collections::BTreeMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde::Deserialize;
use serde_json::Value;

use crate::BoxError;

/// How long a page may take to load the runs and compute a report (bootstrap included).
pub const PAGE_TIMEOUT: Duration = Duration::from_secs(90);
/// How long a short reaction (a click, a re-render) may take.
pub const SHORT_TIMEOUT: Duration = Duration::from_secs(15);
/// Pause between two looks at the page.
const POLL_INTERVAL: Duration = Duration::from_millis(100);

/// `Err(message)` unless `condition` holds; tests return errors rather than panic so the
/// browser session is closed.
pub fn check(condition: bool, message: impl FnOnce() -> String) -> Result<(), BoxError> {
    if condition {
        Ok(())
    } else {
        Err(message().into())
    }
}

/// Calls `probe` until it returns `Some`, every 100 ms, for at most `timeout`; the error names
/// `what` and the last observation `describe` gives.
pub async fn poll<T, F, Fut>(what: &str, timeout: Duration, mut probe: F) -> Result<T, BoxError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Option<T>, BoxError>>,
{
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = probe().await? {
            return Ok(value);
        }
        if Instant::now() >= deadline {
            return Err(format!("timed out after {timeout:?} waiting for {what}").into());
        }
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}

/// Closes the browser, then returns what was done with it (its error first, then the close's).
pub async fn finish<T>(browser: Client, outcome: Result<T, BoxError>) -> Result<T, BoxError> {
    let closed = browser.close().await;
    let value = outcome?;
    closed?;
    Ok(value)
}

/// Runs `script` (a function body; `arguments[i]` are `args`) and returns its value.
pub async fn js(browser: &Client, script: &str, args: Vec<Value>) -> Result<Value, BoxError> {
    Ok(browser.execute(script, args).await?)
}

/// Polls `script` until it returns something other than `null`, `false` or `undefined`.
pub async fn wait_js(
    browser: &Client,
    what: &str,
    timeout: Duration,
    script: &str,
    args: Vec<Value>,
) -> Result<Value, BoxError> {
    poll(what, timeout, || {
        let args = args.clone();
        async move {
            let value = js(browser, script, args).await?;
            Ok(match value {
                Value::Null | Value::Bool(false) => None,
                value => Some(value),
            })
        }
    })
    .await
}

/// Runs `script`, which returns an array of strings, and returns them.
pub async fn js_strings(browser: &Client, script: &str) -> Result<Vec<String>, BoxError> {
    Ok(serde_json::from_value(js(browser, script, vec![]).await?)?)
}

/// Waits for the run picker's Compare button.
pub async fn wait_for_picker(browser: &Client) -> Result<(), BoxError> {
    wait_js(
        browser,
        "the picker's Compare button",
        PAGE_TIMEOUT,
        "return !!document.querySelector('.compare-bar button');",
        vec![],
    )
    .await
    .map(|_| ())
}

/// Waits up to `timeout` for the page's error panel and returns its title.
pub async fn error_panel_title(browser: &Client, timeout: Duration) -> Result<String, BoxError> {
    let panel = browser
        .wait()
        .at_most(timeout)
        .for_element(Locator::Css(".error-panel"))
        .await?;
    Ok(panel
        .find(Locator::Css(".error-title"))
        .await?
        .text()
        .await?)
}

/// The trimmed `textContent` of the first element matching `css`, if any.
pub async fn text_of(browser: &Client, css: &str) -> Result<Option<String>, BoxError> {
    let value = js(
        browser,
        "const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;",
        vec![css.into()],
    )
    .await?;
    Ok(value.as_str().map(str::to_owned))
}

/// Clicks the button whose text is `label` (the first one; inside `within_css` when given).
pub async fn click_button(
    browser: &Client,
    within_css: Option<&str>,
    label: &str,
) -> Result<(), BoxError> {
    let button = match within_css {
        Some(css) => {
            browser
                .wait()
                .at_most(SHORT_TIMEOUT)
                .for_element(Locator::Css(css))
                .await?
                .find(Locator::XPath(&format!(
                    ".//button[normalize-space()='{label}']"
                )))
                .await?
        }
        None => {
            browser
                .wait()
                .at_most(SHORT_TIMEOUT)
                .for_element(Locator::XPath(&format!(
                    "//button[normalize-space()='{label}']"
                )))
                .await?
        }
    };
    button.click().await?;
    Ok(())
}

/// What the report page shows about its progress.
#[derive(Debug, Clone, Deserialize)]
struct ReportProgress {
    /// The settings' status line ("Computed in this browser: … drawing it (B = 9,999).").
    status: Option<String>,
    /// Headline cards shown.
    cards: usize,
    /// Whether the loading panel is shown.
    load_panel: bool,
    /// Text of every error panel and load failure shown.
    failures: Vec<String>,
    /// Text of the "nothing to compare" state, if shown.
    empty: Option<String>,
}

const REPORT_PROGRESS_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
return {
  status: text(document.querySelector('.settings-status')),
  cards: document.querySelectorAll('article.headline-card').length,
  load_panel: !!document.querySelector('.load-panel'),
  failures: Array.from(document.querySelectorAll('.error-panel, .load-failure')).map(text),
  empty: text(document.querySelector('.app-main .empty-state')),
};
"#;

/// Waits until the report is complete: every run read (no loading panel), headline cards shown
/// and the bootstrap computed. Fails at once when an error panel or a load failure shows.
pub async fn wait_for_report(browser: &Client) -> Result<(), BoxError> {
    poll("the report with its bootstrap", PAGE_TIMEOUT, || async {
        let value = js(browser, REPORT_PROGRESS_JS, vec![]).await?;
        let progress: ReportProgress = serde_json::from_value(value)?;
        if !progress.failures.is_empty() {
            return Err(format!("the report page shows a failure: {:?}", progress.failures).into());
        }
        if let Some(empty) = progress.empty {
            return Err(format!("the report page shows no report: {empty}").into());
        }
        let done = progress.status.as_deref().is_some_and(|status| {
            status.contains("Computed in this browser") && status.contains("drawing it (B =")
        });
        Ok((done && progress.cards > 0 && !progress.load_panel).then_some(()))
    })
    .await
}

/// One headline card as shown.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct HeadlineCard {
    /// `data-run-id` of the card.
    pub run_id: String,
    /// The candidate's name.
    pub title: String,
    /// The verdict badge.
    pub verdict: String,
    /// The sentence.
    pub sentence: String,
    /// The Δ line of the headline analysis, without the turns and cost beside it.
    pub delta: String,
    /// The p-values, one per entry ("t 0.2347").
    pub p_values: Vec<String>,
    /// Every statistic of the card: label → text.
    pub stats: BTreeMap<String, String>,
    /// The details table (shown or not): statistic → [primary, sensitivity] (or one cell).
    pub details: BTreeMap<String, Vec<String>>,
}

const HEADLINE_CARDS_JS: &str = r#"
// What a reader reads: without the "?" buttons and their (closed) explanations.
const text = (e) => {
  if (!e) return '';
  const copy = e.cloneNode(true);
  copy.querySelectorAll('.explain, .explain-pop').forEach((x) => x.remove());
  return copy.textContent.replace(/\s+/g, ' ').trim();
};
const withoutParts = (e) => {
  if (!e) return e;
  const copy = e.cloneNode(true);
  copy.querySelectorAll('.headline-effort, .headline-cost').forEach((x) => x.remove());
  return copy;
};
return Array.from(document.querySelectorAll('article.headline-card')).map((card) => ({
  run_id: card.getAttribute('data-run-id') || '',
  title: text(card.querySelector('.headline-title')),
  verdict: text(card.querySelector('.verdict-badge')),
  sentence: text(card.querySelector('.headline-sentence')),
  // The quality part of the Δ line: the turns and cost beside it are read by the effort and
  // cost tests against the CLI's report.
  delta: text(withoutParts(card.querySelector('.headline-delta'))),
  p_values: Array.from(card.querySelectorAll('.p-list > span')).map(text),
  stats: Object.fromEntries(Array.from(card.querySelectorAll('.headline-stats > div')).map(
    (d) => [text(d.querySelector('dt')), text(d.querySelector('dd'))])),
  details: Object.fromEntries(Array.from(card.querySelectorAll('.details-table tbody tr')).map(
    (tr) => [text(tr.querySelector('th')), Array.from(tr.querySelectorAll('td')).map(text)])),
}));
"#;

/// The headline cards, in page order.
pub async fn headline_cards(browser: &Client) -> Result<Vec<HeadlineCard>, BoxError> {
    let value = js(browser, HEADLINE_CARDS_JS, vec![]).await?;
    Ok(serde_json::from_value(value)?)
}

/// One row of the report header's table of compared runs.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RunSummaryRow {
    /// `data-run-id` of the row.
    pub run_id: String,
    /// The run's name.
    pub name: String,
    /// Each cell's own text (without its detail lines).
    pub cells: Vec<String>,
    /// Each cell's detail lines (`.run-detail`).
    pub details: Vec<Vec<String>>,
}

const RUN_ROWS_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
const own = (e) => Array.from(e.childNodes).filter((n) => n.nodeType === 3)
  .map((n) => n.textContent).join('').replace(/\s+/g, ' ').trim();
return Array.from(document.querySelectorAll('table.runs-summary tbody tr')).map((tr) => ({
  run_id: tr.getAttribute('data-run-id') || '',
  name: text(tr.querySelector('.run-name')),
  cells: Array.from(tr.querySelectorAll('td')).map(own),
  details: Array.from(tr.querySelectorAll('td')).map(
    (td) => Array.from(td.querySelectorAll('.run-detail')).map(text)),
}));
"#;

/// The rows of the compared-runs table, baseline first.
pub async fn run_summary_rows(browser: &Client) -> Result<Vec<RunSummaryRow>, BoxError> {
    let value = js(browser, RUN_ROWS_JS, vec![]).await?;
    Ok(serde_json::from_value(value)?)
}

/// The value of query parameter `name` in `url` (percent-decoded), if present.
pub fn query_param(url: &url::Url, name: &str) -> Option<String> {
    url.query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

/// Replaces `navigator.clipboard.writeText` in the current page with one that records the text
/// in `window.__e2eCopied` (headless Chromium has no clipboard a test could read).
pub async fn record_clipboard(browser: &Client) -> Result<(), BoxError> {
    js(
        browser,
        r#"
        window.__e2eCopied = [];
        const record = (text) => { window.__e2eCopied.push(String(text)); return Promise.resolve(); };
        if (navigator.clipboard) {
          Object.defineProperty(navigator.clipboard, 'writeText', { value: record, configurable: true });
        } else {
          Object.defineProperty(navigator, 'clipboard', { value: { writeText: record }, configurable: true });
        }
        return true;
        "#,
        vec![],
    )
    .await?;
    Ok(())
}

/// Clicks "Copy link" and returns what it put on the clipboard (see [`record_clipboard`]), after
/// the page confirmed it with "Link copied".
pub async fn copy_link(browser: &Client) -> Result<String, BoxError> {
    copy_link_in(browser, ".report-actions").await
}

/// Clicks the "Copy link" button inside `scope_css` (the report's actions, the task panel's
/// header) and returns what it wrote to the clipboard.
pub async fn copy_link_in(browser: &Client, scope_css: &str) -> Result<String, BoxError> {
    record_clipboard(browser).await?;
    click_button(browser, Some(scope_css), "Copy link").await?;
    let copied = wait_js(
        browser,
        "the copied link",
        SHORT_TIMEOUT,
        r#"
        const copied = window.__e2eCopied || [];
        const status = document.querySelector(arguments[0] + ' .copy-link [role=status]');
        return copied.length > 0 && status && status.textContent.includes('Link copied') ? copied[copied.length - 1] : null;
        "#,
        vec![serde_json::Value::String(scope_css.to_owned())],
    )
    .await?;
    copied
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("the copied link is not a string: {copied}").into())
}

/// Clicks "Copy link" while the clipboard refuses to be written, and returns the link the page
/// then shows in its read-only field for copying by hand.
pub async fn copy_link_by_hand(browser: &Client) -> Result<String, BoxError> {
    js(
        browser,
        r#"
        const refuse = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
        Object.defineProperty(navigator.clipboard, 'writeText', { value: refuse, configurable: true });
        return true;
        "#,
        vec![],
    )
    .await?;
    click_button(browser, Some(".report-actions"), "Copy link").await?;
    let shown = wait_js(
        browser,
        "the link to copy by hand",
        SHORT_TIMEOUT,
        "const field = document.querySelector('.copy-fallback input'); return field ? field.value : null;",
        vec![],
    )
    .await?;
    shown
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("the link field holds {shown}").into())
}

/// Clicks the export button `label` and returns the file that lands in `dir` (the browser must
/// be opened with [`crate::ChromeDriver::open_browser_downloading_to`]): its name and contents.
/// `dir` must not hold another file with the same extension.
pub async fn download(
    browser: &Client,
    dir: &Path,
    label: &str,
    extension: &str,
) -> Result<(String, String), BoxError> {
    let before = files_with_extension(dir, extension)?;
    check(before.is_empty(), || {
        format!("{} already holds {before:?}", dir.display())
    })?;
    click_button(browser, Some(".export-buttons"), label).await?;
    let path = poll(
        &format!("the {extension} download of \"{label}\""),
        SHORT_TIMEOUT,
        || async {
            // Chromium writes `NAME.crdownload` and renames it once complete.
            let complete = files_with_extension(dir, extension)?
                .into_iter()
                .find(|path| std::fs::metadata(path).is_ok_and(|meta| meta.len() > 0));
            Ok(complete)
        },
    )
    .await?;
    let contents = std::fs::read_to_string(&path)?;
    std::fs::remove_file(&path)?;
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok((name, contents))
}

fn files_with_extension(dir: &Path, extension: &str) -> Result<Vec<PathBuf>, BoxError> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == extension) {
            found.push(path);
        }
    }
    Ok(found)
}
