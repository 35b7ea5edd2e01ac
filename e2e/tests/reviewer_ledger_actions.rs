//! Every way the page adds to or changes the reviewer's ledger, in headless Chromium over the
//! demo API: one attempt set aside from its trajectory row; a note on a task (no figure
//! changes; the task table marks the task); an entry edited in the ledger panel and the edit
//! undone; the tasks a table filter shows set aside in one action; and a ledger file too long
//! for a link refused with the page saying so. After all of it, the page's report JSON equals
//! `eval-compare report --exclusions FILE --format json` with the link's ledger.

use eval_compare_core::ledger::{Action, Ledger, Reason, Target};
use eval_compare_e2e::cli::cli_report_json;
use eval_compare_e2e::page::{
    check, click_button, download, finish, js, poll, wait_for_report, wait_js, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::{Client, Locator};
use serde_json::json;

const BASELINE: &str = "eval_base_v2";
const CANDIDATE: &str = "eval_ckpt_s400";

/// The link's ledger, read the page's way.
async fn link_ledger(browser: &Client) -> Result<Ledger, BoxError> {
    let url = browser.current_url().await?;
    let text = url
        .query()
        .unwrap_or_default()
        .split('&')
        .find_map(|pair| pair.strip_prefix("ledger="))
        .unwrap_or_default()
        .to_owned();
    if text.is_empty() {
        return Ok(Ledger::default());
    }
    Ok(Ledger::from_link_text(&text)?)
}

/// Waits until the link's ledger satisfies `test`, and returns it.
async fn ledger_until(
    browser: &Client,
    what: &str,
    test: impl Fn(&Ledger) -> bool,
) -> Result<Ledger, BoxError> {
    let ledger = poll(what, PAGE_TIMEOUT, || async {
        let ledger = link_ledger(browser).await?;
        Ok(test(&ledger).then_some(ledger))
    })
    .await?;
    wait_for_report(browser).await?;
    Ok(ledger)
}

/// Clicks the element `css` (the first) by script.
async fn click_css(browser: &Client, css: &str) -> Result<(), BoxError> {
    wait_js(
        browser,
        css,
        PAGE_TIMEOUT,
        "const e = document.querySelector(arguments[0]); if (!e) return null; e.click(); return true;",
        vec![json!(css)],
    )
    .await?;
    Ok(())
}

async fn every_action(browser: &Client, server: &Server, dir: &TempDir) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let task = wait_js(
        browser,
        "a task row",
        PAGE_TIMEOUT,
        "const r = document.querySelector('.task-table tr[data-task-id]'); return r ? r.dataset.taskId : null;",
        vec![],
    )
    .await?;
    let task = task.as_str().ok_or("no task id")?.to_owned();

    // One attempt, from its row in the task panel.
    let mut url = browser.current_url().await?;
    url.query_pairs_mut().append_pair("task", &task);
    browser.goto(url.as_str()).await?;
    wait_for_report(browser).await?;
    let attempt = wait_js(
        browser,
        "a trajectory row",
        PAGE_TIMEOUT,
        "const r = document.querySelector('.task-panel tr.trajectory-row'); return r ? r.dataset.trajectoryId : null;",
        vec![],
    )
    .await?;
    let attempt = attempt.as_str().ok_or("no trajectory id")?.to_owned();
    click_css(
        browser,
        ".task-panel tr.trajectory-row .attempt-aside-action",
    )
    .await?;
    click_button(
        browser,
        Some(".attempt-aside-row .set-aside-form"),
        "Set aside",
    )
    .await?;
    let ledger = ledger_until(browser, "the attempt in the ledger", |l| {
        l.entries
            .iter()
            .any(|e| e.target == Target::Trajectory(attempt.clone()))
    })
    .await?;
    check(
        ledger.entries[0].action == Action::LeaveOut
            && ledger.entries[0].reason == Reason::InfrastructureError,
        || format!("the attempt's entry: {:?}", ledger.entries[0]),
    )?;

    // A note on the task: the table marks it.
    click_button(browser, Some(".task-panel .set-aside"), "Set aside…").await?;
    js(
        browser,
        r#"const form = document.querySelector('.task-panel .set-aside-form');
        form.querySelector('input[value=note]').click();
        const note = form.querySelector('textarea');
        note.value = 'grader output <b>truncated</b>';
        note.dispatchEvent(new Event('input', { bubbles: true }));
        return null;"#,
        vec![],
    )
    .await?;
    click_button(browser, Some(".task-panel .set-aside-form"), "Set aside").await?;
    let ledger = ledger_until(browser, "the note in the ledger", |l| l.entries.len() == 2).await?;
    check(
        ledger.entries[1].action == Action::Note
            && ledger.entries[1].target == Target::Task(task.clone())
            && ledger.entries[1].note.as_deref() == Some("grader output <b>truncated</b>"),
        || format!("the note: {:?}", ledger.entries[1]),
    )?;
    let mark = wait_js(
        browser,
        "the table's marker",
        PAGE_TIMEOUT,
        "const row = Array.from(document.querySelectorAll('.task-table tr[data-task-id]')).find((r) => r.dataset.taskId === arguments[0]); \
         const m = row && row.querySelector('.ledger-mark'); return m ? [m.textContent, m.getAttribute('title')] : null;",
        vec![json!(task)],
    )
    .await?;
    check(
        mark == json!([
            "note",
            "Note only: infrastructure error — grader output <b>truncated</b>"
        ]),
        || format!("the task's marker: {mark}"),
    )?;

    // Edit the note into counting the task as a failure, then undo the edit.
    click_css(
        browser,
        ".ledger-panel table.ledger-table tbody tr:nth-child(2) .ledger-row-actions button",
    )
    .await?;
    js(
        browser,
        r#"const form = document.querySelector('.ledger-edit-row .set-aside-form');
        form.querySelector('input[value=count_as_failure]').click();
        return null;"#,
        vec![],
    )
    .await?;
    click_button(browser, Some(".ledger-edit-row"), "Save").await?;
    ledger_until(browser, "the edited entry", |l| {
        l.entries.len() == 2 && l.entries[1].action == Action::CountAsFailure
    })
    .await?;
    click_button(browser, Some(".ledger-panel .ledger-actions"), "Undo").await?;
    ledger_until(browser, "the edit undone", |l| {
        l.entries.len() == 2 && l.entries[1].action == Action::Note
    })
    .await?;

    // The tasks a filter shows, in one action.
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}&filter=regressions&ledger={}",
            server.base_url(),
            link_ledger(browser).await?.to_link_text()
        ))
        .await?;
    wait_for_report(browser).await?;
    let label = wait_js(
        browser,
        "the shown tasks' action",
        PAGE_TIMEOUT,
        "const b = document.querySelector('.set-aside-shown button'); return b ? b.textContent.trim() : null;",
        vec![],
    )
    .await?;
    let label = label.as_str().unwrap_or_default().to_owned();
    let shown: usize = label
        .trim_start_matches("Set aside the ")
        .split(' ')
        .next()
        .unwrap_or_default()
        .replace(',', "")
        .parse()
        .map_err(|_| format!("the action's label: {label}"))?;
    click_button(browser, Some(".set-aside-shown"), &label).await?;
    click_button(
        browser,
        Some(".set-aside-shown .set-aside-form"),
        "Set aside",
    )
    .await?;
    let ledger = ledger_until(browser, "the shown tasks in the ledger", |l| {
        l.entries.len() >= 2 + shown.saturating_sub(1)
    })
    .await?;
    let bulk = ledger.entries.len() - 2;
    check(bulk > 0 && bulk <= shown, || {
        format!("{bulk} entries added for {shown} shown tasks")
    })?;

    // A ledger file too long for a link is refused, and the page says so.
    let files = TempDir::new("ledger-long")?;
    let long = files.path().join("long.json");
    let entries: Vec<String> = (0..400)
        .map(|i| {
            format!(
                r#"{{"task_id": "{}-{i}", "action": "leave_out", "reason": "other"}}"#,
                "x".repeat(60)
            )
        })
        .collect();
    std::fs::write(
        &long,
        format!(r#"{{"version": 1, "entries": [{}]}}"#, entries.join(",")),
    )?;
    browser
        .find(Locator::Css(".ledger-panel input[type=file]"))
        .await?
        .send_keys(&long.display().to_string())
        .await?;
    let notice = wait_js(
        browser,
        "the refusal",
        PAGE_TIMEOUT,
        "const n = Array.from(document.querySelectorAll('.ledger-notice')).map((e) => e.textContent).find((t) => t.startsWith('Not applied')); return n || null;",
        vec![],
    )
    .await?;
    check(
        notice
            .as_str()
            .is_some_and(|n| n.contains("characters long")),
        || format!("the refusal: {notice}"),
    )?;
    check(link_ledger(browser).await? == ledger, || {
        "the refused file changed the ledger".to_owned()
    })?;

    // The page's report with this ledger is the CLI's.
    let file = files.path().join("ledger.json");
    std::fs::write(&file, ledger.to_json())?;
    let file_arg = file.to_string_lossy().into_owned();
    let (_, cli) = cli_report_json(
        server.base_url(),
        BASELINE,
        &[CANDIDATE.to_owned()],
        &["--exclusions", &file_arg],
        None,
    )?;
    let (_, page) = download(browser, dir.path(), "Download report JSON", "json").await?;
    check(page.trim_end() == cli.trim_end(), || {
        "the page's report JSON is not the CLI's with the same ledger".to_owned()
    })
}

#[tokio::test]
async fn every_way_of_changing_the_ledger_reaches_the_link_and_the_report() -> Result<(), BoxError>
{
    let server = Server::start_demo(&["--running-eval-secs", "0"])?;
    let driver = ChromeDriver::start()?;
    let dir = TempDir::new("ledger-actions")?;
    let browser = driver.open_browser_downloading_to(dir.path()).await?;
    let outcome = every_action(&browser, &server, &dir).await;
    finish(browser, outcome).await
}
