//! `GET /api/v1/eval/options` (the evaluation defaults) beside `GET /api/v1/eval/{run_id}` on
//! the same path slot, and the demo's settings: what each run recorded, its training run's
//! options and the defaults resolve (with the core's rule) to the settings it ran with.
#![allow(clippy::unwrap_used)]

mod common;

use common::{client, demo, get_error, get_json, start};
use eval_compare_core::api::{EvalRun, RunOptionsResponse, TrainingRun};
use eval_compare_core::model::{
    run_info_from_api, run_options, EvaluationDefaults, Lookup, Resolution, SettingKey,
    SettingSource, SettingValue, SourceKind,
};
use eval_compare_server::dataset::runs::plans;
use eval_compare_server::dataset::scale::DemoScale;
use eval_compare_server::dataset::suite_runs::suite_plans;
use serde::de::DeserializeOwned;
use serde_json::Value;

const V1: &str = "bench_codefix_v1";
const V2: &str = "bench_codefix_v2";
const MODEL: &str = "qwen/qwen3-235b-a22b";

fn decode<T: DeserializeOwned>(value: &Value) -> T {
    serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("does not decode: {e}: {value}"))
}

#[tokio::test]
async fn the_options_path_and_the_run_path_both_answer() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let all: RunOptionsResponse =
        decode(&get_json(&c, b, &format!("/api/v1/eval/options?bench_id={V2}"), 200).await);
    assert_eq!(all.bench_id, V2);
    let models: Vec<&str> = all
        .models
        .iter()
        .map(|m| m.base_model_slug.as_str())
        .collect();
    assert_eq!(models, [MODEL, "Qwen/Qwen3.5-4B"]);
    let one: RunOptionsResponse = decode(
        &get_json(
            &c,
            b,
            &format!("/api/v1/eval/options?bench_id={V1}&base_model_slug={MODEL}"),
            200,
        )
        .await,
    );
    assert_eq!(one.models.len(), 1);
    let temperature = &one.models[0].options["temperature"];
    assert_eq!(temperature.option_type.as_str(), "number");
    assert_eq!(temperature.default_kind.as_str(), "fixed");
    let computed = &one.models[0].options["max_output_tokens_per_step"];
    assert_eq!(
        (computed.default_kind.as_str(), computed.default.is_none()),
        ("computed", true)
    );
    // A model of the contract the benchmark does not support: no entry.
    let unsupported: RunOptionsResponse = decode(
        &get_json(
            &c,
            b,
            &format!("/api/v1/eval/options?bench_id={V2}&base_model_slug=z-ai/glm-5.3"),
            200,
        )
        .await,
    );
    assert!(unsupported.models.is_empty());
    for (path, status, code) in [
        ("/api/v1/eval/options", 422, "validation_error"),
        (
            "/api/v1/eval/options?bench_id=bench_codefix_v2&base_model_slug=qwen/qwen3-8b",
            422,
            "validation_error",
        ),
        (
            "/api/v1/eval/options?bench_id=bench_nope",
            404,
            "resource_not_found",
        ),
    ] {
        get_error(&c, b, path, status, code).await;
    }
    // The run path still serves runs.
    let run: EvalRun = decode(&get_json(&c, b, "/api/v1/eval/eval_base_v2", 200).await);
    assert_eq!(run.eval_run_id, "eval_base_v2");
    get_error(&c, b, "/api/v1/eval/eval_nope", 404, "resource_not_found").await;
}

#[tokio::test]
async fn every_runs_settings_resolve_to_the_ones_it_ran_with() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let mut sources = Vec::new();
    for plan in plans(DemoScale::DEFAULT)
        .into_iter()
        .chain(suite_plans(DemoScale::DEFAULT))
    {
        let record: EvalRun =
            decode(&get_json(&c, b, &format!("/api/v1/eval/{}", plan.eval_run_id), 200).await);
        let mut info = run_info_from_api(&record, SourceKind::Api);
        if let Some(training_run_id) = &record.training_run_id {
            let training: TrainingRun =
                decode(&get_json(&c, b, &format!("/api/v1/train/{training_run_id}"), 200).await);
            info.settings_inputs.training_run = Lookup::Read(run_options(&training.options));
        }
        let slug = record.base_model_slug.clone().unwrap();
        let options: RunOptionsResponse = decode(
            &get_json(
                &c,
                b,
                &format!(
                    "/api/v1/eval/options?bench_id={}&base_model_slug={slug}",
                    record.bench_id
                ),
                200,
            )
            .await,
        );
        info.settings_inputs.defaults =
            Lookup::Read(EvaluationDefaults::from_api(&options, Some(&slug)).unwrap());
        let settings = info.effective_settings();
        let of = |key: SettingKey| {
            settings
                .iter()
                .find(|s| s.setting == key)
                .map(|s| s.resolution.clone())
                .unwrap()
        };
        let applied = plan.settings;
        let expected = [
            (
                SettingKey::Temperature,
                SettingValue::Number(applied.temperature),
            ),
            (SettingKey::TopP, SettingValue::Number(applied.top_p)),
            (
                SettingKey::SamplesPerTask,
                SettingValue::Integer(applied.samples_per_task.into()),
            ),
            (
                SettingKey::MaxTurnsPerTrajectory,
                SettingValue::Integer(applied.max_turns.into()),
            ),
            (
                SettingKey::MaxOutputTokensPerStep,
                SettingValue::Integer(applied.max_output_tokens_per_step.into()),
            ),
            (
                SettingKey::MaxTotalTokensPerTrajectory,
                SettingValue::Integer(applied.max_total_tokens_per_trajectory.into()),
            ),
            (
                SettingKey::ExecutionTimeoutSeconds,
                SettingValue::Integer(applied.execution_timeout_seconds.into()),
            ),
        ];
        for (key, value) in expected {
            let resolution = of(key);
            assert_eq!(
                resolution.value(),
                Some(&value),
                "{} {key:?}: {resolution:?}",
                plan.eval_run_id
            );
            if let Resolution::Resolved { source, .. } = resolution {
                sources.push((plan.eval_run_id.clone(), key, source));
            }
        }
    }
    // The demo shows every provenance: recorded, inherited and default.
    let source_of = |run: &str, key: SettingKey| {
        sources
            .iter()
            .find(|(r, k, _)| *r == run && *k == key)
            .map(|(_, _, s)| *s)
    };
    assert_eq!(
        source_of("eval_base_v2", SettingKey::Temperature),
        Some(SettingSource::Recorded)
    );
    assert_eq!(
        source_of("eval_base_v2_hot", SettingKey::Temperature),
        Some(SettingSource::EvaluationDefault)
    );
    assert_eq!(
        source_of("eval_ckpt_s200_failed", SettingKey::Temperature),
        Some(SettingSource::TrainingRun)
    );
    assert_eq!(
        source_of("eval_ckpt_s200_failed", SettingKey::ExecutionTimeoutSeconds),
        Some(SettingSource::EvaluationDefault)
    );
}
