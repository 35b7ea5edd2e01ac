//! The trials of one Chronicle run (an agent version of a job) on the task as the panel lists
//! them: status kept by name, the agent, each scorer's score with its threshold and whether it
//! passed (a missing score is "no score", never 0), and the trial's error as text. Plain
//! functions, tested natively.

use eval_compare_core::api::ChronicleTrial;
use eval_compare_core::model::{error_text, OutcomeClass, RewardComponent};

use crate::report::task_panel::trajectory::lines::TrajectoryLine;
use eval_compare_core::text::compact_value;

/// One trial as the panel lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct TrialLine {
    /// Trial id (the trajectory id in the run set).
    pub id: String,
    /// Outcome class, for the status's style.
    pub class: OutcomeClass,
    /// The trial's status as the API named it, if it gave one.
    pub status: Option<String>,
    /// The agent version that ran it.
    pub agent: Option<String>,
    /// One line per scorer, in the order the API listed them.
    pub scores: Vec<ScoreLine>,
    /// The trial's error as text, when it has one.
    pub error: Option<String>,
}

/// Whether a scorer's result met its threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreResult {
    /// The API says the threshold was met.
    Passed,
    /// The API says it was not.
    NotPassed,
    /// The scorer has no threshold: it only measures.
    MeasuredOnly,
    /// A threshold but no verdict from the API.
    NotReported,
}

impl ScoreResult {
    /// The result in words.
    pub fn label(self) -> &'static str {
        match self {
            ScoreResult::Passed => "passed",
            ScoreResult::NotPassed => "not passed",
            ScoreResult::MeasuredOnly => "measured only",
            ScoreResult::NotReported => "not reported",
        }
    }

    /// A CSS-friendly name of the result.
    pub fn slug(self) -> &'static str {
        match self {
            ScoreResult::Passed => "passed",
            ScoreResult::NotPassed => "not-passed",
            ScoreResult::MeasuredOnly => "measured",
            ScoreResult::NotReported => "not-reported",
        }
    }
}

/// One scorer's result in a trial, as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreLine {
    /// Scorer name.
    pub name: String,
    /// The score, or `no score` when the scorer produced none (never 0).
    pub score: String,
    /// The threshold, or `none` for a scorer that only measures.
    pub threshold: String,
    /// Whether it passed.
    pub result: ScoreResult,
}

/// Shown for a scorer that produced no score.
pub const NO_SCORE: &str = "no score";

impl ScoreLine {
    /// The line of one scorer: its score, threshold and whether the threshold was met.
    pub fn new(
        name: &str,
        score: Option<f64>,
        threshold: Option<f64>,
        passed: Option<bool>,
    ) -> Self {
        let result = match (threshold, passed) {
            (None, _) => ScoreResult::MeasuredOnly,
            (Some(_), Some(true)) => ScoreResult::Passed,
            (Some(_), Some(false)) => ScoreResult::NotPassed,
            (Some(_), None) => ScoreResult::NotReported,
        };
        Self {
            name: name.to_owned(),
            score: score.map_or_else(|| NO_SCORE.to_owned(), compact_value),
            threshold: threshold.map_or_else(|| "none".to_owned(), compact_value),
            result,
        }
    }

    fn of_component(component: &RewardComponent) -> Self {
        Self::new(
            &component.name,
            component.value,
            component.threshold,
            component.passed,
        )
    }
}

impl TrialLine {
    /// The line of a trial: from the trial as the API listed it when the panel has it (`raw`),
    /// else from the run set's trajectory (status = its ending, scorers = its components).
    /// `run_agent` is the agent of the run the trial belongs to.
    pub fn of(
        line: &TrajectoryLine,
        raw: Option<&ChronicleTrial>,
        run_agent: Option<&str>,
    ) -> Self {
        let scores = match raw {
            Some(trial) => trial
                .scores
                .iter()
                .map(|score| {
                    ScoreLine::new(&score.name, score.score, score.threshold, score.passed)
                })
                .collect(),
            None => line
                .components
                .iter()
                .flatten()
                .map(ScoreLine::of_component)
                .collect(),
        };
        Self {
            id: line.id.clone(),
            class: line.class,
            status: raw
                .and_then(|trial| trial.status.clone())
                .or_else(|| line.ending.clone()),
            agent: raw
                .map(|trial| trial.agent.clone())
                .or_else(|| run_agent.map(str::to_owned)),
            scores,
            error: raw.and_then(|trial| error_text(trial.error.as_ref())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::api::ChronicleScore;

    fn line() -> TrajectoryLine {
        TrajectoryLine {
            id: "tr_7".to_owned(),
            class: OutcomeClass::Failed,
            reward: "no reward".to_owned(),
            note: None,
            pass: None,
            ending: Some("failed".to_owned()),
            flags: Vec::new(),
            components: Some(vec![RewardComponent {
                name: "tests_pass".to_owned(),
                value: None,
                scaled_value: None,
                weight: None,
                score_range: None,
                threshold: Some(1.0),
                passed: Some(false),
                explanation: None,
            }]),
        }
    }

    fn score(
        name: &str,
        score: Option<f64>,
        threshold: Option<f64>,
        passed: Option<bool>,
    ) -> ChronicleScore {
        ChronicleScore {
            name: name.to_owned(),
            score,
            threshold,
            passed,
        }
    }

    #[test]
    fn a_missing_score_is_no_score_and_a_scorer_without_threshold_only_measures() {
        assert_eq!(
            ScoreLine::new("tests_pass", None, Some(1.0), Some(false)),
            ScoreLine {
                name: "tests_pass".to_owned(),
                score: "no score".to_owned(),
                threshold: "1".to_owned(),
                result: ScoreResult::NotPassed,
            }
        );
        let zero = ScoreLine::new("tests_pass", Some(0.0), Some(0.5), Some(false));
        assert_eq!(zero.score, "0", "a real 0 stays 0");
        let measured = ScoreLine::new("latency", Some(0.8125), None, None);
        assert_eq!(
            (measured.threshold.as_str(), measured.result.label()),
            ("none", "measured only")
        );
        assert_eq!(
            ScoreLine::new("rubric", Some(0.7), Some(0.6), None).result,
            ScoreResult::NotReported,
            "the verdict is the API's, not recomputed"
        );
        assert_eq!(
            ScoreLine::new("rubric", Some(0.7), Some(0.6), Some(true))
                .result
                .label(),
            "passed"
        );
    }

    #[test]
    fn the_raw_trial_gives_status_agent_scores_and_error() {
        let raw = ChronicleTrial {
            id: "tr_7".to_owned(),
            agent: "coder@2.0".to_owned(),
            task_id: Some("task_a".to_owned()),
            status: Some("sandbox_lost".to_owned()),
            error: Some(serde_json::Value::String(
                "<script>alert(1)</script> timed out".to_owned(),
            )),
            scores: vec![
                score("tests_pass", None, Some(1.0), None),
                score("latency", Some(1.5), None, None),
            ],
        };
        let trial = TrialLine::of(&line(), Some(&raw), Some("ignored@1"));
        assert_eq!(
            trial.status.as_deref(),
            Some("sandbox_lost"),
            "kept by name"
        );
        assert_eq!(trial.agent.as_deref(), Some("coder@2.0"));
        assert_eq!(
            trial.error.as_deref(),
            Some("<script>alert(1)</script> timed out")
        );
        let scores: Vec<(&str, &str, &str, &str)> = trial
            .scores
            .iter()
            .map(|s| {
                (
                    s.name.as_str(),
                    s.score.as_str(),
                    s.threshold.as_str(),
                    s.result.label(),
                )
            })
            .collect();
        assert_eq!(
            scores,
            [
                ("tests_pass", "no score", "1", "not reported"),
                ("latency", "1.5", "none", "measured only"),
            ]
        );
    }

    #[test]
    fn without_the_raw_trial_the_run_set_gives_status_and_scorers() {
        let trial = TrialLine::of(&line(), None, Some("coder@1.0"));
        assert_eq!(trial.status.as_deref(), Some("failed"));
        assert_eq!(trial.agent.as_deref(), Some("coder@1.0"));
        assert_eq!(trial.error, None);
        assert_eq!(trial.scores.len(), 1);
        assert_eq!(trial.scores[0].score, "no score");
        assert_eq!(trial.scores[0].result, ScoreResult::NotPassed);
    }
}
