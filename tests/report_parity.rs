//! The report computed in the browser (wasm32) equals the native one bit for bit: the same
//! HumanEval run folders and settings as `crates/core/tests/report_golden.rs`, compared with the
//! golden file that native test writes.
#![cfg(target_arch = "wasm32")]

use eval_compare_core::model::RunIdx;
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_core::run_folder::{
    parse_run_folder, run_set_from_folders, RunFolder, RunFolderFiles,
};
use eval_compare_core::testing::json_close::json_close;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

macro_rules! folder {
    ($run:literal) => {
        parse_run_folder(RunFolderFiles {
            run: include_bytes!(concat!(
                "../../shared/real-data/humaneval-10x/",
                $run,
                "/run.json"
            )),
            rewards: include_bytes!(concat!(
                "../../shared/real-data/humaneval-10x/",
                $run,
                "/trajectory-rewards.json"
            )),
            trajectories: include_bytes!(concat!(
                "../../shared/real-data/humaneval-10x/",
                $run,
                "/trajectories.json"
            )),
            tasks: Some(include_bytes!(concat!(
                "../../shared/real-data/humaneval-10x/",
                $run,
                "/tasks.json"
            ))),
            training_run: None,
            eval_options: None,
            platform_series: None,
        })
        .expect("a valid run folder")
    };
}

#[wasm_bindgen_test]
fn browser_report_equals_the_native_golden_report() {
    let folders: [RunFolder; 3] = [
        folder!("codellama-34b-instruct"),
        folder!("gpt-3.5-turbo"),
        folder!("gpt-4"),
    ];
    let set = run_set_from_folders(&folders, eval_compare_core::model::SourceKind::Files)
        .expect("a run set");
    // Same settings as `golden_settings()` in crates/core/tests/report_golden.rs.
    let settings = ReportSettings {
        resamples: 2000,
        seed: 11,
        ..ReportSettings::default()
    };
    let report =
        build_report(&set, RunIdx(0), &[RunIdx(1), RunIdx(2)], &settings).expect("a report");
    let golden = include_str!("../crates/core/tests/data/report_golden_humaneval.json");
    // Bit for bit: the core computes its logarithms and exponentials with the same code on every
    // target (crates/core/src/math.rs), so not even the last digit may differ.
    let actual = report.to_json();
    if actual != golden.trim_end() {
        let actual: serde_json::Value = serde_json::from_str(&actual).expect("report JSON");
        let golden: serde_json::Value = serde_json::from_str(golden).expect("golden JSON");
        json_close(&actual, &golden, 0.0)
            .expect("browser report equals native report, bit for bit");
        panic!("the browser report's JSON text differs from the native one");
    }
}
