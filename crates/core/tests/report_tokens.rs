//! The tokens beside the turns (read from the transcripts, paired per task) against reference
//! values computed independently with pandas and scipy from a fixture
//! (`scripts/reference/tokens_reference.py`: `tests/data/tokens_fixture.csv` →
//! `tests/data/tokens_reference.json`), to 1e-9; and the same figures in every renderer.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, SourceKind, TokenCount, TokenMap,
    TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{build_report, tokens_sentence, Report, ReportSettings};
use eval_compare_core::stats::PairedEstimate;
use serde_json::Value;

const FIXTURE: &str = include_str!("data/tokens_fixture.csv");

fn reference() -> Value {
    serde_json::from_str(include_str!("data/tokens_reference.json")).unwrap()
}

fn close(actual: f64, expected: &Value, what: &str) {
    let expected = expected
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: no reference"));
    let tolerance = 1e-9 * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual} vs the reference {expected}"
    );
}

fn check_estimate(estimate: &PairedEstimate, r: &Value, what: &str) {
    assert_eq!(estimate.n as u64, r["n"].as_u64().unwrap(), "{what} n");
    close(estimate.baseline_mean, &r["baseline_mean"], what);
    close(estimate.candidate_mean, &r["candidate_mean"], what);
    close(estimate.delta, &r["delta"], what);
    close(*estimate.se.as_ref().unwrap(), &r["se"], what);
    let interval = estimate.t_interval.as_ref().unwrap();
    close(interval.lower, &r["t_lower"], what);
    close(interval.upper, &r["t_upper"], what);
}

/// The fixture's two runs, with the tokens it says were read attached.
fn fixture_set() -> RunSet {
    let mut builder = RunSetBuilder::new();
    let mut tokens = TokenMap::new();
    let mut runs = Vec::new();
    for id in ["base", "cand"] {
        runs.push(
            builder
                .add_run(RunInfo {
                    id: id.into(),
                    status: Some("completed".into()),
                    source: SourceKind::Files,
                    ..RunInfo::default()
                })
                .unwrap(),
        );
    }
    for line in FIXTURE.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let [run, task, id, class, reward, steps, state, prompt, completion] = f[..] else {
            panic!("a fixture line of 9 fields: {line}");
        };
        let failed = class == "failed";
        let input = TrajectoryInput {
            id,
            task: Some(task),
            class: if failed {
                OutcomeClass::Failed
            } else {
                OutcomeClass::Graded
            },
            reward: reward.parse().ok(),
            ending: Some(if failed { "ERROR" } else { "ENV_DONE" }),
            flags: TrajectoryFlags::NONE,
            created: None,
            components: None,
        };
        let run = runs[usize::from(run == "cand")];
        builder
            .add_trajectory_with_steps(run, input, Some(steps.parse().unwrap()))
            .unwrap();
        match state {
            "counted" => {
                tokens.insert(
                    id.to_owned(),
                    Some(TokenCount {
                        prompt: prompt.parse().unwrap(),
                        completion: completion.parse().unwrap(),
                    }),
                );
            }
            "no_count" => {
                tokens.insert(id.to_owned(), None);
            }
            _ => {}
        }
    }
    let mut set = builder.build();
    set.attach_token_counts(&tokens);
    set
}

fn fixture_report() -> Report {
    let settings = ReportSettings {
        resamples: 999,
        ..ReportSettings::default()
    };
    build_report(&fixture_set(), RunIdx(0), &[RunIdx(1)], &settings).unwrap()
}

#[test]
fn the_paired_token_delta_matches_the_pandas_scipy_reference() {
    let report = fixture_report();
    let r = reference();
    let tokens = report.effort.as_ref().unwrap().tokens.as_ref().unwrap();
    for (run, expected) in tokens.runs.iter().zip(r["runs"].as_array().unwrap()) {
        assert_eq!(run.counted, expected["counted"].as_u64().unwrap());
        assert_eq!(run.with_count, expected["with_count"].as_u64().unwrap());
        assert_eq!(run.no_count, expected["no_count"].as_u64().unwrap());
        assert_eq!(run.not_read, expected["not_read"].as_u64().unwrap());
        assert_eq!(
            run.tasks_with_tokens,
            expected["tasks_with_tokens"].as_u64().unwrap()
        );
        close(
            run.mean_prompt.unwrap(),
            &expected["mean_prompt"],
            "mean prompt",
        );
        close(
            run.mean_completion.unwrap(),
            &expected["mean_completion"],
            "mean completion",
        );
        close(
            run.mean_total.unwrap(),
            &expected["mean_total"],
            "mean total",
        );
    }
    let candidate = &tokens.candidates[0];
    assert_eq!(
        candidate.tasks_without_tokens as u64,
        r["tasks_without_tokens"].as_u64().unwrap()
    );
    check_estimate(candidate.total.as_ref().unwrap(), &r["total"], "total");
    check_estimate(candidate.prompt.as_ref().unwrap(), &r["prompt"], "prompt");
    check_estimate(
        candidate.completion.as_ref().unwrap(),
        &r["completion"],
        "completion",
    );
    close(candidate.t_test.as_ref().unwrap().p_value, &r["t_p"], "t p");
    close(
        candidate.wilcoxon_pratt.as_ref().unwrap().p_value,
        &r["wilcoxon_pratt_p"],
        "Wilcoxon p",
    );
    let relative = candidate.relative.as_ref().unwrap();
    close(relative.ratio, &r["relative"], "relative");
    close(relative.se, &r["relative_se"], "relative SE");
    close(
        relative.interval.lower,
        &r["relative_lower"],
        "relative lower",
    );
    close(
        relative.interval.upper,
        &r["relative_upper"],
        "relative upper",
    );
    let bootstrap = candidate.bootstrap.as_ref().unwrap().as_ref().unwrap();
    assert!(
        bootstrap.percentile.lower < bootstrap.estimate
            && bootstrap.estimate < bootstrap.percentile.upper
    );
}

#[test]
fn every_renderer_says_the_same_tokens_sentence() {
    let report = fixture_report();
    let tokens = report.effort.as_ref().unwrap().tokens.as_ref().unwrap();
    let sentence = tokens_sentence(&tokens.candidates[0]);
    assert!(
        sentence.starts_with("Uses 74.8% more tokens per task (95% CI +27.8% to +121.7%)"),
        "{sentence}"
    );
    assert!(sentence.contains("on 36 paired tasks"), "{sentence}");
    assert!(
        sentence.contains("1 task without tokens in a run left out"),
        "{sentence}"
    );
    let markdown = report.to_markdown();
    assert!(markdown.contains("## Effort: tokens"));
    assert!(markdown.contains(&eval_compare_core::text::markdown_text(&sentence)));
    let html = report.to_html(None);
    assert!(html.contains("<section id=\"tokens\">"));
    assert!(html.contains(&eval_compare_core::text::html_text(&sentence)));
    let card = eval_compare_core::report::beside_delta(&report, &report.candidates[0]);
    assert!(card.contains(&"+74.8% tokens".to_owned()), "{card:?}");
    assert!(html.contains("+74.8% tokens</span>"));
}

#[test]
fn the_tokens_bootstrap_is_left_to_draw_in_slices_like_the_turns() {
    let settings = ReportSettings {
        resamples: 999,
        ..ReportSettings::default()
    };
    let set = fixture_set();
    let deferred =
        eval_compare_core::report::build_report_deferred(&set, RunIdx(0), &[RunIdx(1)], &settings)
            .unwrap();
    let tokens = deferred.report.effort.as_ref().unwrap().tokens.as_ref();
    assert_eq!(
        tokens.unwrap().candidates[0].bootstrap,
        None,
        "not drawn yet"
    );
    let mut bootstraps = deferred.bootstraps;
    let slots: Vec<_> = bootstraps.iter().map(|p| p.slot).collect();
    assert!(slots
        .iter()
        .any(|s| s.effort && s.tokens && s.candidate == 0));
    assert!(slots
        .iter()
        .any(|s| s.effort && !s.tokens && s.candidate == 0));
    // Drawn a few resamples at a time, as the page does: the CLI's report, bit for bit.
    for pending in &mut bootstraps {
        if let Ok(run) = pending.run.as_mut() {
            while !run.advance(37) {}
        }
    }
    let mut report = deferred.report;
    for pending in bootstraps {
        let (slot, result) = pending.complete();
        report.fill_bootstrap(slot, result);
    }
    let whole = fixture_report();
    assert_eq!(report, whole);
    let tokens = whole.effort.as_ref().unwrap().tokens.as_ref().unwrap();
    assert!(tokens.candidates[0].bootstrap.as_ref().unwrap().is_ok());
}

#[test]
fn the_card_has_the_tokens_with_their_explanation() {
    use eval_compare_core::report::{beside_delta_parts, explain, BesideKind, Topic};
    let report = fixture_report();
    let parts = beside_delta_parts(&report, &report.candidates[0]);
    let tokens = parts
        .iter()
        .find(|part| part.kind == BesideKind::Tokens)
        .unwrap();
    assert_eq!(tokens.text, "+74.8% tokens");
    let candidate = &report
        .effort
        .as_ref()
        .unwrap()
        .tokens
        .as_ref()
        .unwrap()
        .candidates[0];
    assert_eq!(tokens.sentence, tokens_sentence(candidate));
    assert_eq!(tokens.kind.topic(), Topic::Tokens);
    assert_eq!(Topic::Tokens.question(), "What is the change in tokens?");
    let html = report.to_html(None);
    let text = explain(Topic::Tokens, &report.settings);
    assert!(html.contains(&*eval_compare_core::text::html_text(&text)));
}
