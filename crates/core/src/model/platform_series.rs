//! The platform's own progression of a training run, read beside the checkpoint evaluations:
//! its evaluation series (`GET /api/v1/agents/{agent}/training-runs/{run}/evaluation-series`,
//! one reward mean per checkpoint step) and its held-out reward by step (`GET
//! /api/v1/train/{run}/step/held-out-reward-by-step`).

use serde::{Deserialize, Serialize};

use crate::api::{AgentTrainingEvaluationPoint, HeldOutReward};

/// What the platform reports of one training run's progression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformSeries {
    /// The evaluation series: the platform's reward mean per checkpoint step.
    pub evaluation: Vec<AgentTrainingEvaluationPoint>,
    /// The held-out reward recorded at each training step.
    pub held_out: Vec<HeldOutReward>,
}
