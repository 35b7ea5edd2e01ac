//! The report on real HumanEval run folders equals a committed golden report. The viewer's
//! browser test (`tests/report_parity.rs` at the repository root) computes the same report in
//! wasm32 and compares it with the same file, so the browser and the CLI agree.
//!
//! The same report's markdown (the CLI's `--format text`) equals a committed golden text, with
//! two candidates and with one (the adjusted p-values are listed only when there are several).
//!
//! Regenerate after an intended change: `UPDATE_GOLDEN=1 cargo test -p eval-compare-core --test report_golden`.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::RunIdx;
use eval_compare_core::report::{build_report, Report, ReportSettings};
use eval_compare_core::run_folder::run_set_from_folders;
use eval_compare_core::testing::json_close::json_close;

const GOLDEN: &str = "tests/data/report_golden_humaneval.json";
const GOLDEN_MARKDOWN: &str = "tests/data/report_golden_humaneval.md";
const GOLDEN_MARKDOWN_ONE: &str = "tests/data/report_golden_humaneval_one_candidate.md";

use eval_compare_core::testing::real_data::humaneval_folder as folder;

/// The golden comparison's settings: B kept small so the debug-built browser test is quick.
pub fn golden_settings() -> ReportSettings {
    ReportSettings {
        resamples: 2000,
        seed: 11,
        ..ReportSettings::default()
    }
}

/// The report of `candidates` against codellama on the three HumanEval run folders.
fn humaneval_report(candidates: &[RunIdx]) -> Report {
    let folders = [
        folder("codellama-34b-instruct"),
        folder("gpt-3.5-turbo"),
        folder("gpt-4"),
    ];
    let set = run_set_from_folders(&folders, eval_compare_core::model::SourceKind::Files).unwrap();
    build_report(&set, RunIdx(0), candidates, &golden_settings()).unwrap()
}

/// `text` equals the committed file `golden` (rewritten first under `UPDATE_GOLDEN`).
fn assert_text_equals_golden(text: &str, golden: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(golden);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert!(
        text == expected,
        "the markdown differs from {golden}; its text:\n{text}"
    );
}

#[test]
fn humaneval_markdown_equals_the_golden_files() {
    let both = humaneval_report(&[RunIdx(1), RunIdx(2)]);
    assert_text_equals_golden(&both.to_markdown(), GOLDEN_MARKDOWN);
    let one = humaneval_report(&[RunIdx(2)]);
    assert_text_equals_golden(&one.to_markdown(), GOLDEN_MARKDOWN_ONE);
}

#[test]
fn humaneval_report_equals_the_golden_file() {
    let report = humaneval_report(&[RunIdx(1), RunIdx(2)]);
    let json = report.to_json();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, format!("{json}\n")).unwrap();
    }
    let golden: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let actual: serde_json::Value = serde_json::from_str(&json).unwrap();
    json_close(&actual, &golden, 1e-12).unwrap();
}
