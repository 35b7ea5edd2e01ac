//! The trajectories of one run on the task as the panel lists them, copied out of the run set:
//! the reward shown honestly (as published: a missing one is "no reward", never 0; with a pass
//! threshold, whether it passes beside it, never the 0/1 the report counts) and how it enters
//! the task's mean. Plain functions, tested natively.

use eval_compare_core::model::{
    Exclusion, OutcomeClass, PrimaryValue, RewardComponent, RewardState, RunSet, Trajectory,
};
use eval_compare_core::report::{pass_value, RunSummary};
use eval_compare_core::text::{compact_value, mean};

/// One trajectory as the panel lists it, copied out of the run set.
#[derive(Debug, Clone, PartialEq)]
pub struct TrajectoryLine {
    /// Trajectory id.
    pub id: String,
    /// Outcome class.
    pub class: OutcomeClass,
    /// The reward as shown: a number, `no reward`, or the invalid value.
    pub reward: String,
    /// How the reward enters the per-task mean, when not simply as itself.
    pub note: Option<&'static str>,
    /// Whether the reward passes at the view's pass threshold ([`threshold_text`]), when one is
    /// set and the reward is valid.
    pub pass: Option<String>,
    /// The ending kept by name, if recorded.
    pub ending: Option<String>,
    /// Provenance flags, by name.
    pub flags: Vec<&'static str>,
    /// Reward components already in the run set.
    pub components: Option<Vec<RewardComponent>>,
}

impl TrajectoryLine {
    /// The line of a stored trajectory (its reward as published), and whether that passes at
    /// the view's pass threshold, if one is set.
    pub fn of(trajectory: &Trajectory<'_>, threshold: Option<f64>) -> Self {
        let (reward, note) = reward_text(trajectory);
        Self {
            id: trajectory.id.to_owned(),
            class: trajectory.class,
            reward,
            note,
            pass: threshold_text(trajectory.reward_state(), threshold),
            ending: trajectory.ending.map(str::to_owned),
            flags: trajectory.flags.names().collect(),
            components: trajectory.components.map(<[RewardComponent]>::to_vec),
        }
    }

    /// The provenance flags in words (`reward from metadata, task conflict`), when any.
    pub fn flags_text(&self) -> Option<String> {
        (!self.flags.is_empty()).then(|| {
            self.flags
                .iter()
                .map(|flag| flag.replace('_', " "))
                .collect::<Vec<_>>()
                .join(", ")
        })
    }
}

/// The reward of a trajectory as shown, and how it enters the task's mean when that is not
/// simply as itself. A missing reward is "no reward", never 0; a cut-off without one reads
/// "0 by platform rule".
pub fn reward_text(trajectory: &Trajectory<'_>) -> (String, Option<&'static str>) {
    let shown = match trajectory.reward_state() {
        RewardState::Missing => "no reward".to_owned(),
        RewardState::Valid(value) => mean(value),
        RewardState::Invalid => match trajectory.reward {
            Some(raw) => format!("{raw}"),
            None => "no reward".to_owned(),
        },
    };
    let note = match trajectory.scoring().primary {
        PrimaryValue::Reward(_) => None,
        PrimaryValue::ZeroByPlatformRule => Some("0 by platform rule"),
        PrimaryValue::ZeroWithoutGrade => Some("0, no grade"),
        PrimaryValue::Excluded(Exclusion::InvalidReward) => Some("invalid, not in the mean"),
        PrimaryValue::Excluded(_) => Some("not in the mean"),
    };
    (shown, note)
}

/// Whether a valid reward passes at the view's pass threshold, in words: `passes at ≥ 0.5` or
/// `fails at ≥ 0.5` (core's [`pass_value`] decides). `None` without a threshold, or for a
/// missing or invalid reward: the threshold does not score those (their note says how they
/// count).
pub fn threshold_text(reward: RewardState, threshold: Option<f64>) -> Option<String> {
    let (RewardState::Valid(value), Some(threshold)) = (reward, threshold) else {
        return None;
    };
    let verb = if pass_value(value, threshold) == 1.0 {
        "passes"
    } else {
        "fails"
    };
    Some(format!("{verb} at ≥ {}", compact_value(threshold)))
}

/// What a run's cell on the task is called in the panel: `Mean`, or with a pass threshold (the
/// cell then counts passes) `Pass rate at ≥ 0.5`.
pub fn cell_mean_label(threshold: Option<f64>) -> String {
    match threshold {
        Some(threshold) => format!("Pass rate at ≥ {}", compact_value(threshold)),
        None => "Mean".to_owned(),
    }
}

/// The trajectories of `run` on the task `task_id`, in the order the run set keeps them, each
/// with whether it passes at `threshold` (the view's pass threshold), if set.
pub fn trajectory_lines(
    set: &RunSet,
    run: &RunSummary,
    task_id: &str,
    threshold: Option<f64>,
) -> Vec<TrajectoryLine> {
    let (Ok(stored), Some(task)) = (set.run(run.index), set.find_task(task_id)) else {
        return Vec::new();
    };
    stored
        .trajectories_of_task(task)
        .map(|trajectory| TrajectoryLine::of(&trajectory, threshold))
        .collect()
}

/// A CSS-friendly name of an outcome class.
pub fn class_slug(class: OutcomeClass) -> &'static str {
    match class {
        OutcomeClass::Graded => "graded",
        OutcomeClass::Ungraded => "ungraded",
        OutcomeClass::CutOff => "cut-off",
        OutcomeClass::ModelEnding => "model-ending",
        OutcomeClass::Failed => "failed",
        OutcomeClass::Cancelled => "cancelled",
        OutcomeClass::Unfinished => "unfinished",
        OutcomeClass::Other => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::model::TrajectoryFlags;

    fn trajectory(class: OutcomeClass, reward: Option<f64>) -> Trajectory<'static> {
        Trajectory {
            id: "tr_1",
            task: None,
            class,
            reward,
            ending: Some("ENV_DONE"),
            flags: TrajectoryFlags::NONE,
            created: None,
            components: None,
            steps: None,
        }
    }

    #[test]
    fn a_valid_reward_is_shown_with_three_decimals_and_no_note() {
        let graded = trajectory(OutcomeClass::Graded, Some(0.5));
        assert_eq!(reward_text(&graded), ("0.500".to_owned(), None));
    }

    #[test]
    fn a_missing_reward_is_no_reward_never_zero() {
        let failed = trajectory(OutcomeClass::Failed, None);
        assert_eq!(
            reward_text(&failed),
            ("no reward".to_owned(), Some("not in the mean"))
        );
        let cut_off = trajectory(OutcomeClass::CutOff, None);
        assert_eq!(
            reward_text(&cut_off),
            ("no reward".to_owned(), Some("0 by platform rule"))
        );
    }

    #[test]
    fn an_invalid_reward_is_shown_as_recorded_and_left_out() {
        let invalid = trajectory(OutcomeClass::Graded, Some(1.5));
        assert_eq!(
            reward_text(&invalid),
            ("1.5".to_owned(), Some("invalid, not in the mean"))
        );
    }

    #[test]
    fn a_line_copies_the_trajectory_and_names_its_flags() {
        let mut stored = trajectory(OutcomeClass::Graded, Some(1.0));
        stored.flags = TrajectoryFlags::REWARD_FROM_METADATA | TrajectoryFlags::TASK_CONFLICT;
        let line = TrajectoryLine::of(&stored, None);
        assert_eq!(line.id, "tr_1");
        assert_eq!(line.reward, "1.000");
        assert_eq!(line.ending.as_deref(), Some("ENV_DONE"));
        assert_eq!(
            line.flags_text().as_deref(),
            Some("reward from metadata, task conflict")
        );
        let plain = TrajectoryLine::of(&trajectory(OutcomeClass::Graded, Some(1.0)), None);
        assert_eq!(plain.flags_text(), None);
    }

    #[test]
    fn with_a_threshold_the_published_reward_is_shown_and_whether_it_passes_beside_it() {
        let graded = trajectory(OutcomeClass::Graded, Some(0.43));
        let line = TrajectoryLine::of(&graded, Some(0.5));
        assert_eq!(line.reward, "0.430");
        assert_eq!(line.pass.as_deref(), Some("fails at ≥ 0.5"));
        let passing = TrajectoryLine::of(&trajectory(OutcomeClass::Graded, Some(0.75)), Some(0.5));
        assert_eq!(passing.reward, "0.750");
        assert_eq!(passing.pass.as_deref(), Some("passes at ≥ 0.5"));
        assert_eq!(TrajectoryLine::of(&graded, None).pass, None);
    }

    #[test]
    fn a_reward_at_the_threshold_passes_and_the_threshold_is_written_short() {
        assert_eq!(
            threshold_text(RewardState::Valid(0.7), Some(0.7)).as_deref(),
            Some("passes at ≥ 0.7")
        );
        assert_eq!(
            threshold_text(RewardState::Valid(0.6999), Some(0.7)).as_deref(),
            Some("fails at ≥ 0.7")
        );
        assert_eq!(
            threshold_text(RewardState::Valid(0.0), Some(0.125)).as_deref(),
            Some("fails at ≥ 0.125")
        );
        assert_eq!(
            threshold_text(RewardState::Valid(1.0), Some(1.0)).as_deref(),
            Some("passes at ≥ 1")
        );
    }

    #[test]
    fn a_missing_or_invalid_reward_is_not_scored_by_the_threshold() {
        assert_eq!(threshold_text(RewardState::Missing, Some(0.5)), None);
        assert_eq!(threshold_text(RewardState::Invalid, Some(0.5)), None);
        let cut_off = TrajectoryLine::of(&trajectory(OutcomeClass::CutOff, None), Some(0.5));
        assert_eq!(cut_off.reward, "no reward");
        assert_eq!(cut_off.pass, None);
    }

    #[test]
    fn with_a_threshold_the_cell_is_a_pass_rate() {
        assert_eq!(cell_mean_label(None), "Mean");
        assert_eq!(cell_mean_label(Some(0.5)), "Pass rate at ≥ 0.5");
    }

    #[test]
    fn class_slugs_are_css_friendly() {
        for class in OutcomeClass::ALL {
            let slug = class_slug(class);
            assert!(
                slug.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{slug}"
            );
        }
    }
}
