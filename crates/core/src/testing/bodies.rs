//! JSON bodies of the Trajectory API for scripted answers: small, valid, and easy to vary.

/// A contract error body.
pub fn error_body(error_type: &str, code: &str, message: &str, param: Option<&str>) -> String {
    serde_json::json!({"error": {"type": error_type, "code": code, "message": message,
        "param": param, "doc_url": format!("https://docs.trajectory.ai/errors/{code}"), "context": {}}})
    .to_string()
}

/// A 5xx error body (retryable).
pub const SERVER_FAILURE: &str = r#"{"error":{"type":"api_error","code":"internal","message":"try again","doc_url":"https://docs.test/errors"}}"#;
/// The error body of a cursor the API no longer accepts.
pub const EXPIRED_CURSOR: &str = r#"{"error":{"type":"invalid_request_error","code":"invalid_cursor","message":"cursor expired","doc_url":"https://docs.test/errors"}}"#;
/// The error body of an unknown resource.
pub const NOT_FOUND: &str = r#"{"error":{"type":"not_found_error","code":"not_found","message":"no such run","doc_url":"https://docs.test/errors"}}"#;

/// A minimal valid `EvalRun` body on benchmark `b1`.
pub fn eval_run_body(run_id: &str) -> String {
    serde_json::json!({"eval_run_id": run_id, "bench_id": "b1", "agent_id": null, "display_name": null,
        "options": {}, "status": "completed", "created_at": "t", "updated_at": "t"})
    .to_string()
}

/// An `EvalRun` body on benchmark `b_1` with this status and 3 planned rollouts.
pub fn run_body(run_id: &str, status: &str) -> String {
    format!(
        r#"{{"eval_run_id":"{run_id}","bench_id":"b_1","agent_id":"a_1","options":{{}},"status":"{status}","total_rollouts":3,"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}"#
    )
}

/// A completed checkpoint evaluation on benchmark `b_1` of model `org/model`, of training run
/// `training_run` at step 100, recording these `options` (a JSON object), 3 planned rollouts.
pub fn checkpoint_run_body(run_id: &str, training_run: &str, options: &str) -> String {
    format!(
        r#"{{"eval_run_id":"{run_id}","bench_id":"b_1","agent_id":"a_1","base_model_slug":"org/model","options":{options},"status":"completed","step":100,"training_run_id":"{training_run}","parent_checkpoint_id":"ck_{training_run}_100","total_rollouts":3,"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}"#
    )
}

/// A `TrainingRunResponse` of model `org/model` on `b_1` recording these `options` (a JSON
/// object).
pub fn training_run_body(training_run_id: &str, options: &str) -> String {
    format!(
        r#"{{"training_run_id":"{training_run_id}","agent_id":"a_1","pipeline_run_id":null,"display_name":null,"status":"succeeded","bench_id":"b_1","base_model_slug":"org/model","options":{options},"created_by":"me","created_at":"2026-01-01T00:00:00Z","has_training_execution":true}}"#
    )
}

/// A `RunOptionsResponse` of `bench_id` for one model with these fixed number defaults.
pub fn eval_options_body(bench_id: &str, model: &str, defaults: &[(&str, f64)]) -> String {
    let options: serde_json::Map<String, serde_json::Value> = defaults
        .iter()
        .map(|(key, default)| {
            let option = serde_json::json!({"type": "number", "default": default,
                "default_kind": "fixed", "description": key});
            ((*key).to_owned(), option)
        })
        .collect();
    serde_json::json!({"bench_id": bench_id, "models": [{"base_model_slug": model, "options": options}]})
        .to_string()
}

/// A trajectory-rewards page with these trajectory ids (reward 1, task `task-{id}`).
pub fn rewards_page(ids: &[&str], next_cursor: Option<&str>) -> String {
    let items: Vec<_> = ids
        .iter()
        .map(|id| serde_json::json!({"trajectory_id": id, "reward": 1.0, "task_id": format!("task-{id}")}))
        .collect();
    serde_json::json!({"items": items, "next_cursor": next_cursor, "has_more": next_cursor.is_some(),
        "eval_run_id": "er_1"})
    .to_string()
}

/// One `EvalTrajectoryReward` item.
pub fn reward_item(trajectory_id: &str, task_id: &str, reward: f64) -> String {
    format!(r#"{{"trajectory_id":"{trajectory_id}","reward":{reward},"task_id":"{task_id}"}}"#)
}

/// One completed `TrajectoryMetadata` item (ended by the environment).
pub fn trajectory_item(trajectory_id: &str, task_id: &str) -> String {
    format!(
        r#"{{"trajectory_id":"{trajectory_id}","organization_id":"org","source":"eval","status":"completed","termination_reason":"ENV_DONE","created_at":"2026-01-01T00:00:00Z","task_id":"{task_id}"}}"#
    )
}

/// A trajectory's detail (`GET /api/v1/trajectories/{id}?include_reward_components=true`):
/// [`trajectory_item`] with these components as `(name, value, weight)` on a 0–10 range.
pub fn trajectory_detail_body(
    trajectory_id: &str,
    task_id: &str,
    components: &[(&str, f64, f64)],
) -> String {
    let item = trajectory_item(trajectory_id, task_id);
    let parts: Vec<String> = components
        .iter()
        .map(|(name, value, weight)| {
            format!(
                r#"{{"name":"{name}","value":{value},"scaled_value":{},"weight":{weight},"score_range_min":0,"score_range_max":10}}"#,
                value / 10.0
            )
        })
        .collect();
    format!(
        r#"{},"reward_components":[{}]}}"#,
        item.trim_end_matches('}'),
        parts.join(",")
    )
}

/// One `BenchmarkSpecTask` item with only its id.
pub fn task_item(task_id: &str) -> String {
    format!(r#"{{"task_id":"{task_id}"}}"#)
}

/// A cursor page of these items; `has_more` when `next` is set.
pub fn page(owner_id: &str, items: &[String], next: Option<&str>) -> String {
    let cursor = next.map_or("null".to_owned(), |cursor| format!("\"{cursor}\""));
    format!(
        r#"{{"eval_run_id":"{owner_id}","items":[{}],"next_cursor":{cursor},"has_more":{}}}"#,
        items.join(","),
        next.is_some()
    )
}

/// A Chronicle job on suite `suite_1` with these agents (the first the baseline in `compare`
/// mode), `done` of `total` trials finished.
pub fn chronicle_job_body(
    id: &str,
    status: &str,
    agents: &[&str],
    done: u64,
    total: u64,
) -> String {
    serde_json::json!({
        "id": id, "name": format!("job {id}"), "status": status,
        "mode": if agents.len() > 1 { "compare" } else { "suite" },
        "agents": agents, "completed_trials": done, "total_trials": total,
        "task_suite_id": "suite_1", "task_suite_version": "v1",
        "created_at": "2026-11-30T08:00:00Z"
    })
    .to_string()
}

/// A finished trial of `agent` on `task` with one thresholded scorer that passed or not.
pub fn chronicle_trial_item(id: &str, agent: &str, task: &str, passed: bool) -> String {
    let score = if passed { 1.0 } else { 0.0 };
    serde_json::json!({
        "id": id, "agent": agent, "task_id": task, "status": "succeeded", "error": null,
        "scores": [{"name": "tests", "score": score, "threshold": 1.0, "passed": passed}]
    })
    .to_string()
}

/// A Chronicle page of these items (`has_next_page` when `next` is given).
pub fn chronicle_page(items: &[String], next: Option<&str>) -> String {
    format!(
        r#"{{"items":[{}],"has_next_page":{},"limit":100,"next_cursor":{}}}"#,
        items.join(","),
        next.is_some(),
        next.map_or("null".to_owned(), |cursor| format!("\"{cursor}\""))
    )
}

/// The suite results page of job `job_id`: each `(task, passed)`.
pub fn chronicle_results_page(job_id: &str, tasks: &[(&str, bool)]) -> String {
    let passed = tasks.iter().filter(|(_, passed)| *passed).count();
    let results: Vec<serde_json::Value> = tasks
        .iter()
        .map(|(task, ok)| {
            serde_json::json!({"task_id": task, "title": task, "passed": ok,
                "failed_scorers": if *ok { vec![] } else { vec!["tests"] }})
        })
        .collect();
    let item = serde_json::json!({
        "job_id": job_id, "name": format!("job {job_id}"), "status": "succeeded",
        "pass_rate": if tasks.is_empty() { None } else { Some(passed as f64 / tasks.len() as f64) },
        "task_results": results
    });
    chronicle_page(&[item.to_string()], None)
}

/// A server-sent event with this name, id and data.
pub fn sse_event(name: &str, id: u32, data: &str) -> String {
    format!("event: {name}\nid: {id}\ndata: {data}\n\n")
}
