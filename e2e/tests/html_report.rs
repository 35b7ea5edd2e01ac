//! The viewer's "Download HTML report" is `eval-compare report --format html` byte for byte for
//! the same runs and settings (the CLI given the page's origin as `--link-base`), its link is
//! the page's Copy link, and the file opens with no script and its figures drawn.
//!
//! The server runs with `--running-eval-secs 0` (stable data, as in `report_page.rs`).

use eval_compare_e2e::cli::cli_report_html;
use eval_compare_e2e::page::{check, copy_link, download, js, wait_for_report};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

const BASELINE: &str = "eval_base_v2";
const CANDIDATES: [&str; 2] = ["eval_ckpt_s200", "eval_ckpt_s400"];

#[tokio::test]
async fn the_html_export_is_the_cli_html_report() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("html")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = async {
        let candidates: Vec<String> = CANDIDATES.iter().map(|c| (*c).to_owned()).collect();
        browser
            .goto(&format!(
                "{}/compare?base={BASELINE}&cand={}&B=2000",
                server.base_url(),
                candidates.join(",")
            ))
            .await?;
        wait_for_report(&browser).await?;
        let link = copy_link(&browser).await?;
        let (name, exported) =
            download(&browser, downloads.path(), "Download HTML report", "html").await?;
        check(
            name == format!("eval-compare-{BASELINE}-vs-2-candidates.html"),
            || format!("the HTML report downloads as {name}"),
        )?;
        let cli = cli_report_html(
            server.base_url(),
            BASELINE,
            &candidates,
            &["--resamples", "2000"],
        )?;
        check(exported == cli, || {
            let at = exported
                .bytes()
                .zip(cli.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(exported.len().min(cli.len()));
            let from = at.saturating_sub(80);
            format!(
                "the HTML export differs from the CLI's at byte {at}:\n page: {:?}\n  CLI: {:?}",
                exported.get(from..(at + 80).min(exported.len())),
                cli.get(from..(at + 80).min(cli.len()))
            )
        })?;
        let href = link.replace('&', "&amp;");
        check(exported.contains(&format!("<a href=\"{href}\"")), || {
            format!("the HTML report does not link to the Copy link's {link}")
        })?;

        // The file itself: no script, the figures drawn, the link there.
        let path = downloads.path().join("kept.html");
        std::fs::write(&path, &exported)?;
        browser.goto(&format!("file://{}", path.display())).await?;
        let shown = js(
            &browser,
            "return [document.scripts.length, document.querySelectorAll('svg.figure').length, \
             document.querySelectorAll('a[href]').length, document.title];",
            vec![],
        )
        .await?;
        check(
            shown[0] == 0 && shown[1].as_u64() >= Some(4) && shown[2] == 1,
            || format!("the opened file has [scripts, figures, links, title] = {shown}"),
        )?;
        Ok(())
    }
    .await;
    eval_compare_e2e::page::finish(browser, outcome).await
}
