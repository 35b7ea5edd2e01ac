//! The shape of the demo's checkpoint scorecard (`--demo-scorecard CxT`): how many checkpoints
//! the training run commits over its 500 steps, and how many test tasks each added benchmark
//! has. The default, 5 checkpoints (steps 100 to 500) and each added benchmark at its own size
//! (a share of `--demo-scale`'s N), is the dataset every document and test names.

use std::fmt;
use std::str::FromStr;

/// The training run's last step: its checkpoints split it evenly.
pub const FINAL_STEP: u32 = 500;
/// The most checkpoints a scorecard may ask for (every 10 steps).
pub const MAX_CHECKPOINTS: u32 = 50;
/// The most test tasks per added benchmark a scorecard may ask for.
pub const MAX_SUITE_TASKS: u32 = 1_000_000;

/// Checkpoints of the training run and test tasks of each added benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScorecardScale {
    /// Checkpoints, evenly spaced up to [`FINAL_STEP`] (a divisor of it, at most
    /// [`MAX_CHECKPOINTS`]).
    pub checkpoints: u32,
    /// Test tasks of every added benchmark; none keeps each one's own size.
    pub suite_tasks: Option<u32>,
}

impl ScorecardScale {
    /// Five checkpoints (steps 100, 200, 300, 400, 500), the added benchmarks at their sizes.
    pub const DEFAULT: ScorecardScale = ScorecardScale {
        checkpoints: 5,
        suite_tasks: None,
    };

    /// The checkpoint steps, ascending; the last is always [`FINAL_STEP`].
    pub fn steps(&self) -> Vec<u32> {
        (1..=self.checkpoints)
            .map(|k| FINAL_STEP / self.checkpoints * k)
            .collect()
    }
}

impl Default for ScorecardScale {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for ScorecardScale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suite_tasks {
            Some(tasks) => write!(f, "{}x{tasks}", self.checkpoints),
            None => write!(f, "{}", self.checkpoints),
        }
    }
}

/// Why a `--demo-scorecard` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScorecardScaleError {
    /// The checkpoint count is not a divisor of 500 up to 50.
    #[error(
        "checkpoints C must be one of 1, 2, 4, 5, 10, 20, 25, 50 (they split the training run's \
         {FINAL_STEP} steps evenly), got {0:?}"
    )]
    Checkpoints(String),
    /// The task count is not a whole number in bounds.
    #[error("test tasks T must be a whole number from 1 to {MAX_SUITE_TASKS}, got {0:?}")]
    Tasks(String),
}

/// A whole number of ASCII digits (no sign, no spaces), at most seven of them.
fn whole(text: &str) -> Option<u32> {
    let digits = !text.is_empty() && text.len() <= 7 && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse().ok()).flatten()
}

impl FromStr for ScorecardScale {
    type Err = ScorecardScaleError;

    /// `C` (checkpoints) or `CxT` (and T test tasks per added benchmark), e.g. `10x500`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (checkpoints, tasks) = match text.split_once('x') {
            Some((c, t)) => (c, Some(t)),
            None => (text, None),
        };
        let checkpoints = whole(checkpoints)
            .filter(|&c| (1..=MAX_CHECKPOINTS).contains(&c) && FINAL_STEP.is_multiple_of(c))
            .ok_or_else(|| ScorecardScaleError::Checkpoints(checkpoints.to_owned()))?;
        let suite_tasks = match tasks {
            None => None,
            Some(t) => Some(
                whole(t)
                    .filter(|&n| (1..=MAX_SUITE_TASKS).contains(&n))
                    .ok_or_else(|| ScorecardScaleError::Tasks(t.to_owned()))?,
            ),
        };
        Ok(Self {
            checkpoints,
            suite_tasks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_strictly_and_splits_the_run_evenly() {
        let parsed = |text: &str| text.parse::<ScorecardScale>();
        assert_eq!(
            parsed("10x500"),
            Ok(ScorecardScale {
                checkpoints: 10,
                suite_tasks: Some(500)
            })
        );
        assert_eq!(parsed("5"), Ok(ScorecardScale::DEFAULT));
        assert_eq!(ScorecardScale::DEFAULT.steps(), [100, 200, 300, 400, 500]);
        let ten = parsed("10x500").map(|s| s.steps());
        assert_eq!(
            ten,
            Ok(vec![50, 100, 150, 200, 250, 300, 350, 400, 450, 500])
        );
        assert_eq!(parsed("10x500").map(|s| s.to_string()), Ok("10x500".into()));
        for c in [1, 2, 4, 5, 10, 20, 25, 50] {
            let steps = parsed(&c.to_string()).map(|s| s.steps());
            assert!(steps.is_ok_and(|s| s.len() == c && s.last() == Some(&FINAL_STEP)));
        }
        for bad in [
            "",
            "0",
            "3",
            "100",
            "x500",
            "-5",
            " 5",
            "10x0",
            "10x",
            "10x1000001",
            "10x5x2",
        ] {
            assert!(parsed(bad).is_err(), "{bad:?}");
        }
        assert!(matches!(
            parsed("3x10"),
            Err(ScorecardScaleError::Checkpoints(_))
        ));
        assert!(matches!(parsed("5x0"), Err(ScorecardScaleError::Tasks(_))));
    }
}
