//! The viewer under the server's Content-Security-Policy, in real headless Chromium:
//!
//! 1. the app starts (its hashed inline scripts run: the report chunk's preload and the module
//!    that starts the wasm, which announces `EvalCompareStarted`), the default comparison
//!    renders with its charts, an export downloads, and the browser reports no violation of
//!    the policy (a `securitypolicyviolation` listener installed before any page script);
//! 2. script injected into the page does not run: an inline `<script>` element, an inline
//!    event handler, `eval` and `new Function`, and a script from another origin.

use eval_compare_e2e::cdp::run_before_page_scripts;
use eval_compare_e2e::page::{
    check, click_button, download, finish, js, wait_for_report, wait_js, SHORT_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::Client;
use serde_json::Value;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

/// Installed in every document before its scripts: records the policy's violations and the
/// app's start event.
const WATCH_JS: &str = r#"
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} `
    + `(${e.sourceFile}:${e.lineNumber}) ${e.sample}`);
}, true);
window.__started = false;
addEventListener('EvalCompareStarted', () => { window.__started = true; });
"#;

/// The violation of `trunk serve`'s reload script, which a folder written by `trunk serve`
/// (not `trunk build`) carries: its WebSocket to an address Trunk fills in when it serves the
/// page itself is refused. Harmless, and the only violation tolerated.
const TRUNK_RELOAD: &str = "connect-src blocked ws://{{__trunk_address__}}";

/// The violations recorded so far (but [`TRUNK_RELOAD`]'s).
async fn violations(browser: &Client) -> Result<Vec<String>, BoxError> {
    let all: Vec<String> = serde_json::from_value(
        js(browser, "return window.__cspViolations || null;", vec![]).await?,
    )?;
    Ok(all
        .into_iter()
        .filter(|v| !v.starts_with(TRUNK_RELOAD))
        .collect())
}

/// Opens the default comparison under the policy and checks it works without a violation.
async fn app_runs_under_the_policy(
    browser: &Client,
    server: &Server,
    downloads: &std::path::Path,
) -> Result<(), BoxError> {
    run_before_page_scripts(browser, WATCH_JS).await?;
    browser.goto(&format!("{}/", server.base_url())).await?;
    wait_js(
        browser,
        "the app's start event",
        SHORT_TIMEOUT,
        "return window.__started;",
        vec![],
    )
    .await?;
    wait_js(
        browser,
        "the picker to enable Compare",
        SHORT_TIMEOUT,
        "const b = document.querySelector('.compare-bar button'); return !!b && !b.disabled;",
        vec![],
    )
    .await?;
    click_button(browser, Some(".compare-bar"), "Compare").await?;
    wait_for_report(browser).await?;
    let charts = js(
        browser,
        "return document.querySelectorAll('svg').length;",
        vec![],
    )
    .await?;
    check(charts.as_u64().unwrap_or(0) > 0, || {
        format!("the report shows no chart ({charts})")
    })?;
    let (name, text) = download(browser, downloads, "Download report JSON", "json").await?;
    check(serde_json::from_str::<Value>(&text).is_ok(), || {
        format!("the export {name} is not JSON")
    })?;
    // A report page loaded directly: the preload script adds the report chunk's preload.
    let link = browser.current_url().await?;
    browser.goto(link.as_str()).await?;
    wait_for_report(browser).await?;
    let preload = js(
        browser,
        "return !!document.querySelector('link[rel=preload][href$=\"/split_report_pages.wasm\"]') \
         && window.__started;",
        vec![],
    )
    .await?;
    check(preload == Value::Bool(true), || {
        "on a report page the inline preload script did not run, or the app did not start"
            .to_owned()
    })?;
    let seen = violations(browser).await?;
    check(seen.is_empty(), || {
        format!("the page violated its Content-Security-Policy: {seen:?}")
    })
}

/// Tries five ways of running injected script; each must be refused.
const INJECT_JS: &str = r#"
const done = arguments[arguments.length - 1];
window.__ran = [];
const inline = document.createElement('script');
inline.textContent = "window.__ran.push('inline script');";
document.body.append(inline);
const image = document.createElement('div');
image.innerHTML = `<img src="data:," onerror="window.__ran.push('event handler')">`;
document.body.append(image);
// Later, outside WebDriver's own evaluation (which the browser lets evaluate strings).
setTimeout(() => {
  try { eval("window.__ran.push('eval')"); } catch (e) { /* refused */ }
  try { new Function("window.__ran.push('new Function')")(); } catch (e) { /* refused */ }
}, 0);
const remote = document.createElement('script');
remote.src = 'http://127.0.0.2:9/x.js';
remote.onload = () => window.__ran.push('remote script');
document.body.append(remote);
setTimeout(() => done(window.__ran), 1000);
"#;

async fn injected_script_does_not_run(browser: &Client) -> Result<(), BoxError> {
    let before = violations(browser).await?.len();
    let ran = browser.execute_async(INJECT_JS, vec![]).await?;
    check(ran.as_array().is_some_and(Vec::is_empty), || {
        format!("injected script ran: {ran}")
    })?;
    let seen = violations(browser).await?;
    let new = &seen[before..];
    for directive in ["script-src-elem", "script-src-attr", "script-src"] {
        check(new.iter().any(|v| v.starts_with(directive)), || {
            format!("no {directive} violation was reported for the injections: {new:?}")
        })?;
    }
    Ok(())
}

#[tokio::test]
async fn the_app_runs_under_its_policy_and_injected_script_does_not() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("csp")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = async {
        app_runs_under_the_policy(&browser, &server, downloads.path()).await?;
        injected_script_does_not_run(&browser).await
    }
    .await;
    finish(browser, outcome).await
}
