//! Chrome DevTools Protocol commands through chromedriver (`goog/cdp/execute`).

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::Client;
use serde_json::{json, Value};

use crate::BoxError;

/// One CDP command and its parameters.
#[derive(Debug)]
pub struct Cdp {
    /// The command, e.g. `Page.addScriptToEvaluateOnNewDocument`.
    pub cmd: &'static str,
    /// Its parameters.
    pub params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Runs `source` in every document the browser opens from now on, before the page's own
/// scripts (and outside the page's Content-Security-Policy, as the browser's own tooling).
pub async fn run_before_page_scripts(browser: &Client, source: &str) -> Result<(), BoxError> {
    browser
        .issue_cmd(Cdp {
            cmd: "Page.addScriptToEvaluateOnNewDocument",
            params: json!({ "source": source }),
        })
        .await?;
    Ok(())
}

/// Starts the browser's sampling CPU profiler (a sample every `interval_us` microseconds).
pub async fn start_cpu_profile(browser: &Client, interval_us: u32) -> Result<(), BoxError> {
    for (cmd, params) in [
        ("Profiler.enable", json!({})),
        (
            "Profiler.setSamplingInterval",
            json!({ "interval": interval_us }),
        ),
        ("Profiler.start", json!({})),
    ] {
        browser.issue_cmd(Cdp { cmd, params }).await?;
    }
    Ok(())
}

/// Stops the profiler started by [`start_cpu_profile`] and returns its profile (the
/// DevTools `.cpuprofile` format: nodes, samples, time deltas).
pub async fn stop_cpu_profile(browser: &Client) -> Result<Value, BoxError> {
    let stopped = browser
        .issue_cmd(Cdp {
            cmd: "Profiler.stop",
            params: json!({}),
        })
        .await?;
    stopped
        .get("profile")
        .cloned()
        .ok_or_else(|| "Profiler.stop returned no profile".into())
}

/// Lets the page run what its Content-Security-Policy forbids (a benchmark's worker from a blob
/// URL); never for a test of the page itself.
pub async fn bypass_csp(browser: &Client) -> Result<(), BoxError> {
    browser
        .issue_cmd(Cdp {
            cmd: "Page.setBypassCSP",
            params: json!({ "enabled": true }),
        })
        .await?;
    Ok(())
}

/// Makes the page see `prefers-color-scheme: dark` (`dark` false: light).
pub async fn prefer_color_scheme(browser: &Client, dark: bool) -> Result<(), BoxError> {
    let scheme = if dark { "dark" } else { "light" };
    browser
        .issue_cmd(Cdp {
            cmd: "Emulation.setEmulatedMedia",
            params: json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
        })
        .await?;
    Ok(())
}
