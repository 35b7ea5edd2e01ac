//! The reviewer's ledger in real headless Chromium over the demo API: a comparison opened with
//! a ledger in its link shows each candidate's verdict with and without it (core's sentence,
//! word for word), the coverage ledger's "set aside by reviewer" column, and its JSON export
//! equals `eval-compare report --exclusions FILE --format json` byte for byte. The ledger
//! panel lists the entries as text (a note's markup is never rendered). A task set aside from
//! its panel goes into the link, and the export equals the CLI's with that ledger again.

use eval_compare_core::ledger::{Action, Entry, Ledger, Reason, Target};
use eval_compare_core::report::{ledger_verdicts, Report, SET_ASIDE_COLUMN};
use eval_compare_e2e::cli::cli_report_json;
use eval_compare_e2e::page::{
    check, click_button, download, finish, js, poll, wait_for_report, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::Client;

const BASELINE: &str = "eval_base_v2";
const CANDIDATE: &str = "eval_ckpt_s400";

/// A ledger over the comparison's first tasks: two left out (one with a note holding
/// characters a link must encode), one counted as a failure, one attempt left out, and one
/// task no run has (kept, not applying).
fn ledger_of(report: &Report) -> Result<Ledger, BoxError> {
    let task = |i: usize| -> Result<String, BoxError> {
        Ok(report
            .tasks
            .get(i)
            .ok_or("the demo comparison has too few tasks")?
            .task_id
            .clone())
    };
    let entry = |target, action, reason, note: Option<&str>| Entry {
        target,
        action,
        reason,
        note: note.map(str::to_owned),
        at: Some("2026-12-05T12:00:00Z".to_owned()),
    };
    Ok(Ledger {
        entries: vec![
            entry(
                Target::Task(task(0)?),
                Action::LeaveOut,
                Reason::InfrastructureError,
                Some("docker <b>died</b>, twice & more ~ 100%"),
            ),
            entry(
                Target::Task(task(1)?),
                Action::LeaveOut,
                Reason::BrokenTask,
                None,
            ),
            entry(
                Target::Task(task(2)?),
                Action::CountAsFailure,
                Reason::GraderError,
                None,
            ),
            entry(
                Target::Task("no-such-task".into()),
                Action::LeaveOut,
                Reason::Duplicate,
                None,
            ),
        ],
    })
}

/// Each card's ledger sentence, the changed-verdict notice and the coverage table's headings.
const LEDGER_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
return {
  verdicts: Array.from(document.querySelectorAll('article.headline-card .ledger-verdicts')).map(text),
  changes: text(document.querySelector('.ledger-changes')),
  headings: Array.from(document.querySelectorAll('table.coverage-table thead th')).map(text),
  set_aside: Array.from(document.querySelectorAll('table.coverage-table td.set-aside')).map(text),
};
"#;

async fn a_link_with_a_ledger_shows_both_verdicts_as_the_cli(
    browser: &Client,
    server: &Server,
    dir: &TempDir,
) -> Result<(), BoxError> {
    let candidates = vec![CANDIDATE.to_owned()];
    let (plain, _) = cli_report_json(server.base_url(), BASELINE, &candidates, &[], None)?;
    let ledger = ledger_of(&serde_json::from_value(plain)?)?;
    // Not in the downloads' folder: a download is found by its extension.
    let files = TempDir::new("ledger-file")?;
    let file = files.path().join("ledger.json");
    std::fs::write(&file, ledger.to_json())?;
    let file_arg = file.to_string_lossy().into_owned();
    let with_ledger = || {
        cli_report_json(
            server.base_url(),
            BASELINE,
            &candidates,
            &["--exclusions", &file_arg],
            None,
        )
    };
    let (cli, cli_text) = with_ledger()?;
    let cli_report: Report = serde_json::from_value(cli)?;
    let expected: Vec<String> = cli_report
        .candidates
        .iter()
        .filter_map(|candidate| ledger_verdicts(&cli_report, candidate))
        .collect();
    check(!expected.is_empty(), || {
        "the CLI's report has no ledger verdicts".to_owned()
    })?;

    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}&ledger={}",
            server.base_url(),
            ledger.to_link_text()
        ))
        .await?;
    wait_for_report(browser).await?;
    let seen = js(browser, LEDGER_JS, vec![]).await?;
    check(seen["verdicts"] == serde_json::json!(expected), || {
        format!("the cards' ledger sentences {seen} are not the CLI's {expected:?}")
    })?;
    check(
        seen["headings"]
            .as_array()
            .is_some_and(|h| h.iter().any(|h| h == SET_ASIDE_COLUMN)),
        || format!("the coverage table has no `{SET_ASIDE_COLUMN}` column: {seen}"),
    )?;
    check(
        seen["set_aside"].as_array().is_some_and(|s| s.len() == 2),
        || format!("not one set-aside cell per run: {seen}"),
    )?;

    let (_, text) = download(browser, dir.path(), "Download report JSON", "json").await?;
    check(text.trim_end() == cli_text.trim_end(), || {
        "the page's report JSON with the ledger is not `eval-compare report --exclusions`'s"
            .to_owned()
    })?;

    let panel = poll("the ledger panel's rows", PAGE_TIMEOUT, || async {
        let value = js(browser, PANEL_JS, vec![]).await?;
        Ok((value["rows"].as_array().map_or(0, Vec::len) == ledger.entries.len()).then_some(value))
    })
    .await?;
    check(
        panel["notes"][0] == "docker <b>died</b>, twice & more ~ 100%" && panel["markup"] == 0,
        || format!("the ledger panel does not show the note as text: {panel}"),
    )?;
    check(
        panel["rows"][3]
            .as_str()
            .is_some_and(|r| r.contains("does not apply")),
        || format!("the entry naming no task is not marked as not applying: {panel}"),
    )?;
    let task = cli_report
        .tasks
        .get(3)
        .ok_or("too few tasks")?
        .task_id
        .clone();
    set_aside_from_the_task_panel(browser, &ledger, &task).await?;
    let url = browser.current_url().await?;
    let text = raw_param(&url, "ledger").ok_or("the link lost its ledger")?;
    let now = Ledger::from_link_text(&text)?;
    check(now.entries.len() == ledger.entries.len() + 1, || {
        format!("the link's ledger after Set aside: {now:?}")
    })?;
    let added = &now.entries[ledger.entries.len()];
    check(
        added.target == Target::Task(task.clone())
            && added.action == Action::LeaveOut
            && added.reason == Reason::InfrastructureError
            && added.note.as_deref() == Some("seen in the logs")
            && added.at.is_some(),
        || format!("the entry set aside from the panel: {added:?}"),
    )?;
    std::fs::write(&file, now.to_json())?;
    let (_, cli_text) = with_ledger()?;
    wait_for_report(browser).await?;
    let (_, text) = download(browser, dir.path(), "Download report JSON", "json").await?;
    check(text.trim_end() == cli_text.trim_end(), || {
        "after Set aside, the page's report JSON is not the CLI's with the same ledger".to_owned()
    })
}

/// The value of `name` in `url`'s query as the link has it, still percent-encoded (a ledger's
/// link form is read encoded).
fn raw_param(url: &url::Url, name: &str) -> Option<String> {
    url.query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
        .map(str::to_owned)
}

/// The ledger panel's rows and notes as text, and how many elements a note's markup made.
const PANEL_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
const table = document.querySelector('.ledger-panel table.ledger-table');
if (!table) return { rows: [] };
return {
  rows: Array.from(table.querySelectorAll('tbody tr')).map(text),
  notes: Array.from(table.querySelectorAll('td.ledger-note')).map((td) => td.textContent),
  markup: table.querySelectorAll('b, i, script').length,
};
"#;

/// Opens `task`'s panel, sets it aside (leave out, infrastructure error, a note) and waits
/// until the link's ledger holds one more entry than `before`.
async fn set_aside_from_the_task_panel(
    browser: &Client,
    before: &Ledger,
    task: &str,
) -> Result<(), BoxError> {
    let mut url = browser.current_url().await?;
    url.query_pairs_mut().append_pair("task", task);
    browser.goto(url.as_str()).await?;
    wait_for_report(browser).await?;
    click_button(browser, Some(".task-panel .set-aside"), "Set aside…").await?;
    js(
        browser,
        r#"const note = document.querySelector('.set-aside-form textarea');
        note.value = 'seen in the logs';
        note.dispatchEvent(new Event('input', { bubbles: true }));
        return null;"#,
        vec![],
    )
    .await?;
    click_button(browser, Some(".set-aside-form"), "Set aside").await?;
    poll("the set-aside entry in the link", PAGE_TIMEOUT, || async {
        let url = browser.current_url().await?;
        let count = raw_param(&url, "ledger")
            .and_then(|text| Ledger::from_link_text(&text).ok())
            .map_or(0, |ledger| ledger.entries.len());
        Ok((count > before.entries.len()).then_some(()))
    })
    .await
}

#[tokio::test]
async fn a_link_with_a_ledger_shows_both_verdicts_and_exports_the_clis_report(
) -> Result<(), BoxError> {
    let server = Server::start_demo(&["--running-eval-secs", "0"])?;
    let driver = ChromeDriver::start()?;
    let dir = TempDir::new("ledger")?;
    let browser = driver.open_browser_downloading_to(dir.path()).await?;
    let outcome =
        a_link_with_a_ledger_shows_both_verdicts_as_the_cli(&browser, &server, &dir).await;
    finish(browser, outcome).await
}
