//! Fuzzing the API decoders: every response type the clients decode (Trajectory API and
//! Chronicle), fed arbitrary bytes, real fixtures mutated structurally and byte by byte.
//! Properties: no panic; a failure names a JSON path (one that exists in the document when the
//! body is valid JSON of the wrong shape, without repeated keys); a success serializes back and
//! decodes to the same value; the packed pages the load engine keeps accept and refuse what the
//! full ones do, with the same facts. `PROPTEST_CASES` sets the number of cases (README.md, "Fuzzing").
#![allow(clippy::unwrap_used)]

mod fuzz_common;

use eval_compare_core::api::*;
use eval_compare_core::large_list::{
    AsRewardFacts, AsTrajectoryFacts, PackedRewardsPage, PackedTrajectoryPage,
};
use eval_compare_core::model::RunSetBuilder;
use eval_compare_core::testing::json_close::json_close;
use fuzz_common::{apply, apply_bytes, byte_ops, fixture, has_repeated_keys, ops, resolves};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// What decoding one body gave: the outer error is a broken property, the inner one the decode
/// error.
type Checked = Result<Result<(), DecodeError>, String>;

/// Decodes `bytes` as `T`; a success must survive serializing and decoding again.
fn check<T>(bytes: &[u8]) -> Checked
where
    T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let value = match decode::<T>(bytes) {
        Ok(value) => value,
        Err(error) => return Ok(Err(error)),
    };
    let text = serde_json::to_vec(&value).map_err(|e| format!("does not serialize: {e}"))?;
    let again: T = decode(&text).map_err(|e| format!("its own JSON does not decode: {e}"))?;
    let (first, second) = (
        serde_json::to_value(&value).unwrap(),
        serde_json::to_value(&again).unwrap(),
    );
    json_close(&first, &second, 1e-15).map_err(|e| format!("round trip changed it: {e}"))?;
    Ok(Ok(()))
}

/// One decoded type and the document it is seeded with.
struct Decoder {
    name: &'static str,
    seed: fn() -> Vec<u8>,
    check: fn(&[u8]) -> Checked,
}

macro_rules! decoders {
    ($($ty:ty => $seed:expr),* $(,)?) => {
        &[$(Decoder { name: stringify!($ty), seed: || $seed, check: check::<$ty> }),*]
    };
}

const CHRONICLE_JOB: &str = r#"{"id": "job_1", "name": "nightly", "status": "succeeded", "mode": "compare",
  "agents": ["coder@1", "coder@2"], "completed_trials": 4, "total_trials": 4, "task_suite_id": "suite"}"#;
const CHRONICLE_TRIALS: &str = r#"{"items": [
  {"id": "1", "agent": "coder@1", "task_id": "t1", "status": "succeeded", "error": null,
   "scores": [{"name": "tests", "score": 1.0, "threshold": 0.5, "passed": true},
              {"name": "style", "score": 0.25, "threshold": null, "passed": null}]},
  {"id": "2", "agent": "coder@2", "task_id": "t1", "status": "errored", "error": {"message": "sandbox died"},
   "scores": []}],
  "has_next_page": true, "next_cursor": "c2"}"#;
const CHRONICLE_TRIAL_DETAIL: &str = r#"{"id": "1", "agent": "coder@1", "task_id": "t1", "status": "succeeded",
  "error": null, "scores": [{"name": "tests", "score": 1.0, "threshold": 0.5, "passed": true}],
  "instruction": "Fix the failing test.",
  "steps": [{"kind": "setup", "name": "Start sandbox", "status": "succeeded", "duration_ms": 4100},
            {"kind": "tool_call", "name": "run_tests", "status": "failed", "duration_ms": 900}],
  "artifacts": [{"name": "patch.diff", "media_type": "text/x-diff", "size_bytes": 512}]}"#;
const CHRONICLE_RESULTS: &str = r#"{"items": [{"job_id": "job_1", "name": "nightly", "status": "succeeded",
  "pass_rate": 0.5, "task_results": [
    {"task_id": "t1", "title": "Fix it", "passed": true, "failed_scorers": []},
    {"task_id": "t2", "title": "Fix that", "passed": false, "failed_scorers": ["tests"]}]}],
  "has_next_page": false, "limit": 20, "next_cursor": null}"#;

/// Every response type the clients decode, each with a real body.
const DECODERS: &[Decoder] = decoders![
    Organization => fixture("organization.json"),
    AgentListPage => fixture("agents_page.json"),
    Agent => fixture("agent.json"),
    BenchmarkPage => fixture("benchmarks_page.json"),
    BenchmarkTaskPage => fixture("tasks_page.json"),
    EvalRun => fixture("eval_run.json"),
    EvalRunPage => fixture("eval_runs_page_forward.json"),
    EvalProgress => fixture("progress.json"),
    EvalRemainingWorkPage => fixture("remaining_work.json"),
    EvalTrajectoryRewardsPage => fixture("trajectory_rewards_page.json"),
    TrajectoryPage => fixture("trajectories_page.json"),
    Trajectory => fixture("trajectory_detail.json"),
    StepPage => fixture("steps_page.json"),
    TrainingRunPage => fixture("training_runs_page.json"),
    TrainingCheckpointPage => fixture("checkpoints_page.json"),
    AgentTrainingEvaluationSeriesPage => fixture("evaluation_series_page.json"),
    HeldOutRewardsByStepPage => fixture("held_out_page.json"),
    ApiErrorEnvelope => fixture("error_invalid_cursor.json"),
    ChronicleJob => CHRONICLE_JOB.as_bytes().to_vec(),
    ChronicleTrialPage => CHRONICLE_TRIALS.as_bytes().to_vec(),
    ChronicleTrialDetail => CHRONICLE_TRIAL_DETAIL.as_bytes().to_vec(),
    SuiteEvalRunPage => CHRONICLE_RESULTS.as_bytes().to_vec(),
];

/// The properties every decode result must have, given the bytes it came from.
fn assert_well_formed(
    decoder: &Decoder,
    bytes: &[u8],
    error: &DecodeError,
) -> Result<(), TestCaseError> {
    let name = decoder.name;
    prop_assert!(!error.path.is_empty(), "{name}: empty path");
    prop_assert!(
        error.to_string().contains(&format!("`{}`", error.path)),
        "{name}: the message does not name the path: {error}"
    );
    prop_assert!(
        !error.message.contains(" at line "),
        "{name}: position left in the message: {}",
        error.message
    );
    if error.kind == DecodeErrorKind::Data && !has_repeated_keys(bytes) {
        if let Ok(document) = serde_json::from_slice::<Value>(bytes) {
            prop_assert!(
                resolves(&document, &error.path),
                "{name}: the path `{}` is not in the document: {error}\n{}",
                error.path,
                String::from_utf8_lossy(bytes)
            );
        }
    }
    Ok(())
}

fn run_all(bytes: &[u8]) -> Result<(), TestCaseError> {
    for decoder in DECODERS {
        match (decoder.check)(bytes) {
            Err(broken) => {
                return Err(TestCaseError::fail(format!(
                    "{}: {broken}\n{}",
                    decoder.name,
                    String::from_utf8_lossy(bytes)
                )))
            }
            Ok(Err(error)) => assert_well_formed(decoder, bytes, &error)?,
            Ok(Ok(())) => {}
        }
    }
    Ok(())
}

#[test]
fn every_seed_decodes() {
    for decoder in DECODERS {
        let seed = (decoder.seed)();
        assert!(
            matches!((decoder.check)(&seed), Ok(Ok(()))),
            "{}",
            decoder.name
        );
    }
}

#[test]
fn the_path_check_catches_a_wrong_path() {
    // The oracle itself: a path that is not in the document is refused.
    let document: Value =
        serde_json::from_str(r#"{"items": [{"reward": 1, "a.b[": {"q\"": 2}}]}"#).unwrap();
    assert!(resolves(&document, "items[0].reward"));
    assert!(resolves(&document, "items[0].a.b[.q\\\""));
    assert!(resolves(&document, "items[0].a.b[.q\""));
    assert!(resolves(&document, "items[0]"));
    assert!(!resolves(&document, "items[1].reward"));
    assert!(!resolves(&document, "items[0].task"));
    assert!(!resolves(&document, "items.reward"));
    assert!(has_repeated_keys(br#"{"a": [{"b": 1, "b": 2}]}"#));
    assert!(!has_repeated_keys(
        br#"{"a": [{"b": 1}, {"b": 2}], "b": {"b": 0}}"#
    ));
}

/// What the model reads of each listed trajectory, in either form.
fn trajectory_facts<T: AsTrajectoryFacts>(items: &[T]) -> Vec<String> {
    items
        .iter()
        .map(|item| format!("{:?}", item.facts()))
        .collect()
}

/// What the model reads of each trajectory reward, in either form.
fn reward_facts<R: AsRewardFacts>(items: &[R]) -> Vec<String> {
    let facts = |r: &R| format!("{:?}", (r.trajectory_id(), r.reward(), r.task_id()));
    items.iter().map(facts).collect()
}

/// A decode's result as compared across forms: the facts, or where and how it failed.
type Outcome = Result<Vec<String>, (String, DecodeErrorKind)>;

fn outcome(result: Result<Vec<String>, DecodeError>) -> Outcome {
    result.map_err(|error| (error.path, error.kind))
}

proptest! {
    /// Arbitrary bytes, and bytes drawn from JSON's own punctuation.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..512),
        proptest::collection::vec(
            proptest::sample::select(b"{}[],:\"\\ a1.-enul\ntrf".to_vec()), 0..512),
    ]) {
        run_all(&bytes)?;
    }

    /// Real bodies mutated structurally (types swapped, members removed and added, NaN-ish and
    /// out-of-range numbers, deep nesting, unknown enum names), then byte by byte.
    #[test]
    fn mutated_bodies_fail_with_a_path(
        which in 0..DECODERS.len(),
        structural in ops(6),
        bytes in byte_ops(2),
        pretty in any::<bool>(),
    ) {
        let decoder = &DECODERS[which];
        let seed: Value = serde_json::from_slice(&(decoder.seed)()).unwrap();
        let body = apply_bytes(apply(seed, &structural, pretty), &bytes);
        match (decoder.check)(&body) {
            Err(broken) => prop_assert!(false, "{}: {broken}\n{}", decoder.name,
                String::from_utf8_lossy(&body)),
            Ok(Err(error)) => assert_well_formed(decoder, &body, &error)?,
            Ok(Ok(())) => {}
        }
        // The same body through every other decoder: a page where a run is expected, etc.
        run_all(&body)?;
    }

    /// The packed pages the load engine keeps accept exactly the pages the full types accept
    /// (a failure at the same path, of the same kind) and keep the same facts of each item.
    #[test]
    fn packed_pages_decode_as_the_full_pages(
        trajectories in any::<bool>(),
        structural in ops(6),
        bytes in byte_ops(2),
    ) {
        let seed = if trajectories { "trajectories_page.json" } else { "trajectory_rewards_page.json" };
        let seed: Value = serde_json::from_slice(&fixture(seed)).unwrap();
        let body = apply_bytes(apply(seed, &structural, false), &bytes);
        let (full, packed) = if trajectories {
            (
                outcome(decode::<TrajectoryPage>(&body).map(|page| trajectory_facts(&page.items))),
                outcome(decode::<PackedTrajectoryPage>(&body).map(|page| trajectory_facts(&page.items))),
            )
        } else {
            (
                outcome(decode::<EvalTrajectoryRewardsPage>(&body).map(|page| reward_facts(&page.items))),
                outcome(decode::<PackedRewardsPage>(&body).map(|page| reward_facts(&page.items))),
            )
        };
        prop_assert_eq!(full, packed, "{}", String::from_utf8_lossy(&body));
    }

    /// Chronicle trials that decode also go into a run set without panicking.
    #[test]
    fn mutated_chronicle_trials_build_a_run_set(structural in ops(6)) {
        let seed: Value = serde_json::from_str(CHRONICLE_TRIALS).unwrap();
        let body = apply(seed, &structural, false);
        if let Ok(page) = decode::<ChronicleTrialPage>(&body) {
            let job: ChronicleJob = decode(CHRONICLE_JOB.as_bytes()).unwrap();
            let mut builder = RunSetBuilder::new();
            if builder.add_chronicle_job(&job, &page.items, None).is_ok() {
                let set = builder.build();
                prop_assert!(set.runs().len() >= job.agents.len());
            }
        }
    }
}
