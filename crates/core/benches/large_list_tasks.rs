//! A benchmark's task list at the demo's largest scale (125,000 tasks: 100,000 test tasks and a
//! training one after every four, in pages of 200, each task as the demo writes it), decoded
//! by serde alone (`decode`) and by the plain scanner (`decode_plain`, what the load engine
//! and the run folders use). Each page is dropped once decoded, timed alike for both: the
//! figures are the reading and the allocations in memory the allocator holds (the pages kept,
//! 125,000 tasks a run, both took as long, the time then the fresh memory's page faults).
//!
//! Run: `cargo bench -p eval-compare-core --bench large_list_tasks`.
#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use eval_compare_core::api::{decode, BenchmarkTaskPage};
use eval_compare_core::large_list::{decode_plain, PlainItem};

const TASKS: usize = 125_000;
const PAGE: usize = 200;

const CATEGORIES: [(&str, &str); 4] = [
    ("cat_parsing", "Parsing"),
    ("cat_strings", "Strings"),
    ("cat_concurrency", "Concurrency"),
    ("cat_numerics", "Numerics"),
];

/// Task `number` as the demo lists it.
fn task(number: usize) -> String {
    let module = ["ini_section_reader", "template_renderer", "lru_cache"][number % 3];
    let (category, label) = CATEGORIES[number % CATEGORIES.len()];
    let split = if number % 5 == 4 { "train" } else { "test" };
    format!(
        r#"{{"task_id":"cf-{number:06}","label":"Fix timezone handling in the {module}","split":"{split}","input_message":"Repository `{module}`: fix timezone handling in the {module}. The failing test is `tests/test_{module}.py::test_case_{number}`. Make every test pass, then submit your patch with the `submit` tool.","task_categories":[{{"task_category_id":"{category}","label":"{label}"}}],"runtime_id":"rt_codefix_py312","run_command":"python /app/harness.py","build_status":"ready","env_vars":{{"CODEFIX_MODULE":"{module}","GRADER_TOKEN":{{"secret_ref":"codefix-grader-token"}}}}}}"#
    )
}

/// The list's pages, as the API sends them.
fn pages() -> Vec<Vec<u8>> {
    (0..TASKS)
        .step_by(PAGE)
        .map(|first| {
            let items: Vec<String> = (first..(first + PAGE).min(TASKS)).map(task).collect();
            let more = first + PAGE < TASKS;
            format!(
                r#"{{"items":[{}],"next_cursor":{},"has_more":{more}}}"#,
                items.join(","),
                if more { r#""djEfYWJj""# } else { "null" }
            )
            .into_bytes()
        })
        .collect()
}

fn tasks(c: &mut Criterion) {
    let pages = pages();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    // Every page is read by the scanner, none left to serde.
    assert!(pages
        .iter()
        .all(|page| BenchmarkTaskPage::scan_plain(std::str::from_utf8(page).unwrap()).is_some()));
    let mut group = c.benchmark_group("tasks_125k");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("serde", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|page| decode::<BenchmarkTaskPage>(page).unwrap().items.len())
                .sum::<usize>()
        })
    });
    group.bench_function("plain_scanner", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|page| decode_plain::<BenchmarkTaskPage>(page).unwrap().items.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, tasks);
criterion_main!(benches);
