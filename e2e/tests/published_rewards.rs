//! With a pass threshold in the link (`pass=0.5`), the task panel shows each trajectory's reward
//! as the API published it, never the 0/1 the report counts, and beside it whether it passes at
//! the threshold; without one, the same rewards and no such words. In real headless Chromium over
//! the demo API, on a task whose rewards are partial (step 400's samples of cf-0002 scored 1,
//! 0, 0.625 and 0.25).

use eval_compare_e2e::page::{check, finish, js, poll, wait_for_report, SHORT_TIMEOUT};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

const REPORT: &str = "/compare?base=eval_base_v2&cand=eval_ckpt_s400&task=cf-0002";

/// Step 400's trajectories in the panel: id, reward, and the pass words (empty without).
const ROWS_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
const rows = document.querySelectorAll(
  ".task-panel section.panel-run[data-run-id='eval_ckpt_s400'] tr.trajectory-row");
return Array.from(rows).map((tr) => [tr.dataset.trajectoryId,
  text(tr.querySelector('.reward-value')), text(tr.querySelector('.reward-pass'))]);
"#;

fn row(id: &str, reward: &str, pass: &str) -> Vec<String> {
    vec![id.to_owned(), reward.to_owned(), pass.to_owned()]
}

async fn rows(browser: &Client) -> Result<Vec<Vec<String>>, BoxError> {
    poll(
        "step 400's trajectories in the panel",
        SHORT_TIMEOUT,
        || async {
            let rows: Vec<Vec<String>> =
                serde_json::from_value(js(browser, ROWS_JS, vec![]).await?)?;
            Ok((rows.len() == 4).then_some(rows))
        },
    )
    .await
}

async fn published(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.set_window_size(1280, 800).await?;
    browser
        .goto(&format!("{}{REPORT}&pass=0.5", server.base_url()))
        .await?;
    wait_for_report(browser).await?;
    let state = js(
        browser,
        "return document.querySelector('.pass-threshold-state')?.textContent",
        vec![],
    )
    .await?;
    check(
        state
            .as_str()
            .is_some_and(|s| s.contains("at least 0.5 passes")),
        || format!("the threshold is not on: {state:?}"),
    )?;
    let thresholded = rows(browser).await?;
    let want = vec![
        row("trj_s400_cf-0002_0", "1.000", "passes at ≥ 0.5"),
        row("trj_s400_cf-0002_1", "0.000", "fails at ≥ 0.5"),
        row("trj_s400_cf-0002_2", "0.625", "passes at ≥ 0.5"),
        row("trj_s400_cf-0002_3", "0.250", "fails at ≥ 0.5"),
    ];
    check(thresholded == want, || {
        format!("with pass=0.5 the panel lists {thresholded:?}")
    })?;
    browser
        .goto(&format!("{}{REPORT}", server.base_url()))
        .await?;
    wait_for_report(browser).await?;
    let plain = rows(browser).await?;
    let want: Vec<_> = want
        .iter()
        .map(|r| row(&r[0], &r[1], ""))
        .collect::<Vec<_>>();
    check(plain == want, || {
        format!("without a threshold the panel lists {plain:?}")
    })
}

#[tokio::test]
async fn with_a_pass_threshold_the_task_panel_shows_the_published_rewards() -> Result<(), BoxError>
{
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = published(&browser, &server).await;
    finish(browser, outcome).await
}
