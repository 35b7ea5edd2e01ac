//! The trajectories of one run on the task as the panel lists them, copied out of the run set:
//! the reward shown honestly (a missing one is "no reward", never 0) and how it enters the
//! task's mean. Plain functions, tested natively.

use eval_compare_core::model::{
    Exclusion, OutcomeClass, PrimaryValue, RewardComponent, RewardState, RunSet, Trajectory,
};
use eval_compare_core::report::RunSummary;
use eval_compare_core::text::mean;

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
    /// The ending kept by name, if recorded.
    pub ending: Option<String>,
    /// Provenance flags, by name.
    pub flags: Vec<&'static str>,
    /// Reward components already in the run set.
    pub components: Option<Vec<RewardComponent>>,
}

impl TrajectoryLine {
    /// The line of a stored trajectory.
    pub fn of(trajectory: &Trajectory<'_>) -> Self {
        let (reward, note) = reward_text(trajectory);
        Self {
            id: trajectory.id.to_owned(),
            class: trajectory.class,
            reward,
            note,
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

/// The trajectories of `run` on the task `task_id`, in the order the run set keeps them.
pub fn trajectory_lines(set: &RunSet, run: &RunSummary, task_id: &str) -> Vec<TrajectoryLine> {
    let (Ok(stored), Some(task)) = (set.run(run.index), set.find_task(task_id)) else {
        return Vec::new();
    };
    stored
        .trajectories_of_task(task)
        .map(|trajectory| TrajectoryLine::of(&trajectory))
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
        let line = TrajectoryLine::of(&stored);
        assert_eq!(line.id, "tr_1");
        assert_eq!(line.reward, "1.000");
        assert_eq!(line.ending.as_deref(), Some("ENV_DONE"));
        assert_eq!(
            line.flags_text().as_deref(),
            Some("reward from metadata, task conflict")
        );
        let plain = TrajectoryLine::of(&trajectory(OutcomeClass::Graded, Some(1.0)));
        assert_eq!(plain.flags_text(), None);
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
