//! The demo's billing list (`GET /api/v1/billing/usage/runs`: offset paging, sorting, the
//! 403 of a key without billing access) and rollout statistics
//! (`GET /api/v1/eval/{run_id}/rollout-statistics`).
#![allow(clippy::unwrap_used)]

mod common;

use common::{client, demo, get_error, get_json, start};
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::Mode;
use serde_json::Value;

const BILLING: &str = "/api/v1/billing/usage/runs";

fn ids(body: &Value) -> Vec<String> {
    body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["run_id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn billing_pages_by_offset_sorts_and_validates() {
    let server = start(demo(1)).await;
    let c = client();
    let all = get_json(&c, &server.base, &format!("{BILLING}?limit=50"), 200).await;
    let total = all["total"].as_u64().unwrap() as usize;
    assert!(all["snapshot_id"].as_str().is_some_and(|s| !s.is_empty()));
    let all_ids = ids(&all);
    assert_eq!(all_ids.len(), total);
    assert!(all_ids.iter().any(|id| id == "train_codefix_grpo"));
    assert!(all_ids.iter().any(|id| id == "eval_ckpt_s400"));
    assert!(
        !all_ids.iter().any(|id| id == "eval_base_v1"),
        "launched before the 30-day window"
    );
    let cents: Vec<f64> = all["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["cents"].as_f64().unwrap())
        .collect();
    assert!(
        cents.windows(2).all(|w| w[0] >= w[1]),
        "cents, descending by default: {cents:?}"
    );

    let default = get_json(&c, &server.base, BILLING, 200).await;
    assert_eq!(ids(&default).len(), total.min(20));
    let mut walked = Vec::new();
    for offset in (0..total + 3).step_by(3) {
        let page = get_json(
            &c,
            &server.base,
            &format!("{BILLING}?limit=3&offset={offset}"),
            200,
        )
        .await;
        assert_eq!(page["total"].as_u64(), Some(total as u64));
        walked.extend(ids(&page));
    }
    assert_eq!(walked, all_ids, "offset pages make the whole list");

    let by_launch = get_json(
        &c,
        &server.base,
        &format!("{BILLING}?limit=50&sort=launch_at&order=asc"),
        200,
    )
    .await;
    let launches: Vec<&str> = by_launch["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["launch_at"].as_str().unwrap())
        .collect();
    assert!(launches.windows(2).all(|w| w[0] <= w[1]), "{launches:?}");
    let ascending = get_json(
        &c,
        &server.base,
        &format!("{BILLING}?limit=50&order=asc"),
        200,
    )
    .await;
    let mut reversed = ids(&ascending);
    reversed.reverse();
    assert_eq!(reversed, all_ids);

    for bad in [
        "limit=0",
        "limit=51",
        "offset=-1",
        "offset=x",
        "sort=name",
        "order=up",
    ] {
        get_error(
            &c,
            &server.base,
            &format!("{BILLING}?{bad}"),
            422,
            "validation_error",
        )
        .await;
    }
}

#[tokio::test]
async fn costs_add_up_and_a_longer_checkpoint_costs_more() {
    let server = start(demo(1)).await;
    let c = client();
    let all = get_json(&c, &server.base, &format!("{BILLING}?limit=50"), 200).await;
    let row = |id: &str| {
        all["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["run_id"] == id)
            .cloned()
            .unwrap()
    };
    for item in all["items"].as_array().unwrap() {
        let parts: f64 = [
            "training_cents",
            "inference_cents",
            "grading_cents",
            "sandbox_cents",
        ]
        .iter()
        .map(|k| item[*k].as_f64().unwrap())
        .sum();
        assert!(
            (item["cents"].as_f64().unwrap() - parts).abs() < 0.011,
            "{item}"
        );
        for field in ["name", "type", "status", "launch_at"] {
            assert!(item[field].is_string(), "{field} in {item}");
        }
    }
    let (base, s400) = (row("eval_base_v2"), row("eval_ckpt_s400"));
    assert_eq!(base["type"], "eval");
    assert_eq!(row("train_codefix_grpo")["type"], "training");
    let f = |row: &Value, k: &str| row[k].as_f64().unwrap();
    assert!(f(&s400, "inference_cents") > 1.3 * f(&base, "inference_cents"));
    assert!(f(&s400, "sandbox_cents") > f(&base, "sandbox_cents"));
    assert_eq!(f(&base, "training_cents"), 0.0);
    assert_eq!(row("eval_ckpt_s500")["status"], "running");
}

#[tokio::test]
async fn a_key_without_billing_access_is_refused_billing_only() {
    let mut config = demo(1);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.key = Some(ApiKey::new("full-key"));
        demo.key_without_billing = Some(ApiKey::new("no-billing-key"));
    }
    let server = start(config).await;
    let c = client();
    let send = |path: &str, key: Option<&str>| {
        let mut request = c.get(format!("{}{path}", server.base));
        if let Some(key) = key {
            request = request.header("X-API-Key", key);
        }
        request.send()
    };
    for (path, key, status) in [
        (BILLING, Some("full-key"), 200),
        (BILLING, Some("no-billing-key"), 403),
        (BILLING, None, 401),
        (BILLING, Some("wrong"), 401),
        ("/api/v1/eval/eval_ckpt_s400", Some("no-billing-key"), 200),
        (
            "/api/v1/eval/eval_ckpt_s400/rollout-statistics",
            Some("no-billing-key"),
            200,
        ),
    ] {
        let response = send(path, key).await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{path} with {key:?}");
        let retry = response.headers().get("trajectory-should-retry").cloned();
        let text = response.text().await.unwrap();
        assert!(!text.contains("billing-key") && !text.contains("full-key"));
        if status == 403 {
            let body: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(body["error"]["type"], "permission_error");
            assert_eq!(body["error"]["code"], "permission_denied");
            assert_eq!(retry.as_ref().and_then(|v| v.to_str().ok()), Some("false"));
        }
    }
}

fn mean(values: &Value) -> f64 {
    let values = values.as_array().unwrap();
    values.iter().map(|v| v.as_f64().unwrap()).sum::<f64>() / values.len() as f64
}

#[tokio::test]
async fn rollout_statistics_of_finished_runs_show_longer_checkpoints() {
    let server = start(demo(1)).await;
    let c = client();
    let path = |run: &str| format!("/api/v1/eval/{run}/rollout-statistics");
    let turns = |body: &Value| {
        let snapshots = body["snapshots"].as_array().unwrap();
        let turns = snapshots
            .iter()
            .find(|s| s["knob_name"] == "max_turns")
            .unwrap();
        assert_eq!(turns["unit"], "turns");
        assert_eq!(turns["stage"], "rollout");
        assert_eq!(
            turns["sample_count"].as_u64(),
            Some(turns["samples"].as_array().unwrap().len() as u64)
        );
        assert!(turns["created_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z')));
        mean(&turns["samples"])
    };
    let base = get_json(&c, &server.base, &path("eval_base_v2"), 200).await;
    let s400 = get_json(&c, &server.base, &path("eval_ckpt_s400"), 200).await;
    assert_eq!(s400["eval_run_id"], "eval_ckpt_s400");
    let knobs: Vec<&str> = s400["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["knob_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        knobs,
        [
            "max_turns",
            "max_output_tokens_per_step",
            "max_total_tokens_per_trajectory",
            "execution_timeout_seconds"
        ]
    );
    let (base_turns, s400_turns) = (turns(&base), turns(&s400));
    assert!(
        s400_turns > 1.2 * base_turns,
        "{s400_turns} vs {base_turns}"
    );
    let running = get_json(&c, &server.base, &path("eval_ckpt_s500"), 200).await;
    assert_eq!(running["snapshots"].as_array().map(Vec::len), Some(0));
    get_error(
        &c,
        &server.base,
        &path("eval_nope"),
        404,
        "resource_not_found",
    )
    .await;
}
