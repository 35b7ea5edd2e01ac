//! Per-step facts (reward, error) of a trajectory, read by paging through every step; only
//! these are kept, not each step's copy of the conversation.

use crate::api::Step;
use crate::client::{ApiError, PageGuard};

/// Steps per page when reading every step: each step holds the conversation so far, so pages
/// are kept small (the API's default size).
pub const STEP_PAGE_LIMIT: u32 = 25;

/// One step's reward and error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepSummary {
    /// The step's index.
    pub step_index: i64,
    /// The reward logged at the step.
    pub reward: Option<f64>,
    /// Whether the step recorded an error.
    pub has_error: bool,
    /// How many messages the step holds.
    pub messages: usize,
}

impl StepSummary {
    /// The summary of a step.
    pub fn of(step: &Step) -> Self {
        Self {
            step_index: step.step_index,
            reward: step.reward,
            has_error: step.has_error,
            messages: step.messages.len(),
        }
    }
}

/// The steps of a trajectory as far as they were read.
///
/// Complete when `error` is `None`; otherwise reading again with this value continues at
/// `resume_cursor`, the pages already read recognised by `guard`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StepSummaries {
    /// The steps read, in order.
    pub steps: Vec<StepSummary>,
    /// Why reading stopped early.
    pub error: Option<ApiError>,
    /// Where to continue (`None`: from the start).
    pub resume_cursor: Option<String>,
    /// Pages read.
    pub pages_read: u32,
    /// The cursors followed and pages read, to resume without looping.
    pub guard: PageGuard,
}

impl StepSummaries {
    /// Whether every step was read.
    pub fn is_complete(&self) -> bool {
        self.error.is_none()
    }

    /// The steps that recorded an error.
    pub fn error_steps(&self) -> impl Iterator<Item = &StepSummary> {
        self.steps.iter().filter(|step| step.has_error)
    }

    /// Whether each step holds the conversation so far, as the guide says: the steps' message
    /// counts never decrease.
    pub fn hold_conversation_so_far(&self) -> bool {
        self.steps
            .windows(2)
            .all(|pair| pair[0].messages <= pair[1].messages)
    }

    /// The step that added turn `turn` of the transcript (the first step holding more than
    /// `turn` messages); `None` beyond the steps read, or when the steps do not each hold the
    /// conversation so far.
    pub fn step_of_turn(&self, turn: usize) -> Option<&StepSummary> {
        if !self.hold_conversation_so_far() {
            return None;
        }
        let position = self.steps.partition_point(|step| step.messages <= turn);
        self.steps.get(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summaries(counts: &[usize]) -> StepSummaries {
        StepSummaries {
            steps: counts
                .iter()
                .enumerate()
                .map(|(index, &messages)| StepSummary {
                    step_index: index as i64,
                    reward: None,
                    has_error: false,
                    messages,
                })
                .collect(),
            ..StepSummaries::default()
        }
    }

    #[test]
    fn a_turn_belongs_to_the_first_step_that_holds_it() {
        let read = summaries(&[3, 5, 5, 8]);
        let step = |turn| read.step_of_turn(turn).map(|step| step.step_index);
        assert_eq!(
            (0..9).map(step).collect::<Vec<_>>(),
            [
                Some(0),
                Some(0),
                Some(0),
                Some(1),
                Some(1),
                Some(3),
                Some(3),
                Some(3),
                None
            ]
        );
        // Steps that hold only their own messages do not map turns.
        assert_eq!(summaries(&[3, 2]).step_of_turn(0), None);
    }
}
