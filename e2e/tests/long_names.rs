//! Long names and labels on the page, in real headless Chromium: run folders whose runs are
//! named with 5,000 and 3,000 unbroken characters and whose tasks are labelled with 3,000,
//! opened on the Files page and compared in an 800-pixel-wide viewport. Nothing widens the page
//! (no sideways scrolling), and the picker, the title, the runs' rows, the headline card and
//! the task table show the names and labels cut to 120 characters with the whole in the
//! element's `title`.

use std::path::Path;

use eval_compare_e2e::cdp::Cdp;
use eval_compare_e2e::page::{check, finish, js, wait_for_report, wait_js, PAGE_TIMEOUT};
use eval_compare_e2e::{workspace_root, BoxError, ChromeDriver, Server, TempDir};
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

const BASELINE: &str = "er_gpt-4";
const CANDIDATE: &str = "er_codellama-34b-instruct";
/// How many characters a name or label is shown with (`core::text::SHOWN_NAME_CHARS`).
const SHOWN: usize = 120;
/// The viewport's width: below about 760 pixels the page's own grids (the audit's findings,
/// the headline card's statistics) need more than there is, names or not.
const WIDTH: u64 = 800;

/// Copies a HumanEval run folder into `dir`, named `name`, every task labelled `label`.
fn long_folder(run: &str, dir: &Path, name: &str, label: &str) -> Result<(), BoxError> {
    let from = workspace_root()
        .join("../shared/real-data/humaneval-10x")
        .join(run);
    let to = dir.join(run);
    std::fs::create_dir_all(&to)?;
    for file in ["trajectory-rewards.json", "trajectories.json"] {
        std::fs::copy(from.join(file), to.join(file))?;
    }
    let mut record: Value = serde_json::from_slice(&std::fs::read(from.join("run.json"))?)?;
    record["display_name"] = json!(name);
    std::fs::write(to.join("run.json"), serde_json::to_vec(&record)?)?;
    let mut tasks: Value = serde_json::from_slice(&std::fs::read(from.join("tasks.json"))?)?;
    for task in tasks.as_array_mut().ok_or("tasks.json is not an array")? {
        task["label"] = json!(label);
    }
    std::fs::write(to.join("tasks.json"), serde_json::to_vec(&tasks)?)?;
    Ok(())
}

/// What the narrow page shows: its width against the viewport's, and the names and labels with
/// their titles.
const SHOWN_JS: &str = r#"
const one = (css) => {
  const e = document.querySelector(css);
  return e ? { text: e.textContent.trim(), title: e.getAttribute('title') || '' } : null;
};
const all = (css) => Array.from(document.querySelectorAll(css));
return {
  viewport: document.documentElement.clientWidth,
  page: document.documentElement.scrollWidth,
  heading: one('.report-header .page-heading'),
  run: one('.runs-summary .run-name'),
  card: one('.headline-title'),
  labels: all('.task-row .task-label').map((e) => e.textContent.length),
  label_titles: all('.task-row > .task-name').map((e) => (e.getAttribute('title') || '').length),
  // What widens the page: the innermost elements past its right edge that no scrolling box
  // holds.
  wide: (() => {
    const width = document.documentElement.clientWidth;
    const past = (e) => e.getBoundingClientRect().right > width + 1;
    const held = (e) => {
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      }
      return false;
    };
    return all('body *')
      .filter((e) => past(e) && !held(e) && !Array.from(e.children).some(past))
      .slice(0, 8)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().width)}px: ${e.textContent.slice(0, 30)}`);
  })(),
};
"#;

#[tokio::test]
async fn long_names_and_labels_are_cut_and_never_widen_the_page() -> Result<(), BoxError> {
    let folders = TempDir::new("long-names")?;
    let base_name = "n".repeat(5000);
    let cand_name = "c".repeat(3000);
    let label = "W".repeat(3000);
    long_folder("gpt-4", folders.path(), &base_name, &label)?;
    long_folder("codellama-34b-instruct", folders.path(), &cand_name, &label)?;
    let server = Server::start_demo(&[])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = check_narrow_page(&browser, &server, folders.path(), &cand_name).await;
    finish(browser, outcome).await
}

async fn check_narrow_page(
    browser: &Client,
    server: &Server,
    folders: &Path,
    cand_name: &str,
) -> Result<(), BoxError> {
    browser
        .issue_cmd(Cdp {
            cmd: "Emulation.setDeviceMetricsOverride",
            params: json!({ "width": WIDTH, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
        })
        .await?;
    browser
        .goto(&format!("{}/files", server.base_url()))
        .await?;
    wait_js(
        browser,
        "the folder picker",
        PAGE_TIMEOUT,
        "return !!document.querySelector('.drop-zone input[type=file]');",
        vec![],
    )
    .await?;
    browser
        .find(Locator::Css(".drop-zone input[type=file]"))
        .await?
        .send_keys(&folders.display().to_string())
        .await?;
    // The picker lists both runs, each name cut with the whole in its title.
    let picker = wait_js(
        browser,
        "the opened runs",
        PAGE_TIMEOUT,
        "const names = Array.from(document.querySelectorAll('tr[data-run-id] .run-name')); \
         return names.length === 2 && names.map((e) => [e.textContent.length, (e.getAttribute('title') || '').length]).sort((a, b) => b[1] - a[1]);",
        vec![],
    )
    .await?;
    check(picker == json!([[SHOWN, 5000], [SHOWN, 3000]]), || {
        format!("the picker's names [shown, title] lengths: {picker}")
    })?;
    let path = format!("/files/compare?base={BASELINE}&cand={CANDIDATE}");
    js(
        browser,
        "history.pushState(null, '', arguments[0]); dispatchEvent(new PopStateEvent('popstate', { state: null })); return true;",
        vec![json!(path)],
    )
    .await?;
    wait_for_report(browser).await?;
    let shown = js(browser, SHOWN_JS, vec![]).await?;
    let number = |key: &str| shown[key].as_u64().unwrap_or(u64::MAX);
    check(
        number("viewport").saturating_add(20) >= WIDTH && number("page") <= number("viewport"),
        || {
            format!(
                "the {WIDTH}-pixel page is {} pixels wide: {}",
                shown["page"], shown["wide"]
            )
        },
    )?;
    let cut_with_title = |key: &str, whole: usize| {
        let text = shown[key]["text"].as_str().unwrap_or_default();
        let title = shown[key]["title"].as_str().unwrap_or_default();
        text.chars().count() <= 2 * SHOWN + 16
            && text.contains('…')
            && title.chars().count() >= whole
    };
    // The baseline's 5,000 characters were cut to 4 KiB when the comparison was built.
    check(cut_with_title("heading", 7000), || {
        format!("the title: {}", shown["heading"])
    })?;
    check(cut_with_title("run", 4000), || {
        format!("the baseline's row: {}", shown["run"])
    })?;
    let card_title = shown["card"]["title"].as_str().unwrap_or_default();
    check(
        cut_with_title("card", 3000) && card_title == cand_name,
        || format!("the headline card: {}", shown["card"]),
    )?;
    let labels = shown["labels"].as_array().cloned().unwrap_or_default();
    let titles = shown["label_titles"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    check(
        !labels.is_empty()
            && labels.iter().all(|n| n.as_u64() == Some(SHOWN as u64))
            && titles.iter().all(|n| n.as_u64() > Some(3000)),
        || format!("the task table's labels (lengths) {labels:?}, titles {titles:?}"),
    )?;
    Ok(())
}
