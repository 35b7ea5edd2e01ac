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
