//! The size of the demo dataset: test tasks per benchmark version and samples per task
//! (`--demo-scale NxS`). The default, 400x4, is the dataset every document and test names;
//! counts that are shares of the tasks scale with `N` ([`DemoScale::share`]).

use std::fmt;
use std::str::FromStr;

use super::scorecard_scale::ScorecardScale;

/// The fewest test tasks per benchmark version a scale may ask for.
pub const MIN_TEST_TASKS: u32 = 1;
/// The most test tasks per benchmark version a scale may ask for.
pub const MAX_TEST_TASKS: u32 = 1_000_000;
/// The fewest samples per task a scale may ask for.
pub const MIN_SAMPLES: u32 = 1;
/// The most samples per task a scale may ask for.
pub const MAX_SAMPLES: u32 = 64;

/// Test tasks of the first benchmark version and samples per task of every run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoScale {
    /// Test tasks of the first benchmark version (the second one differs by a few shares).
    pub test_tasks: u32,
    /// Samples per task of every evaluation run (the held-out rounds keep their own 2).
    pub samples: u32,
    /// The checkpoint scorecard's shape (`--demo-scorecard`): checkpoints and the added
    /// benchmarks' sizes.
    pub scorecard: ScorecardScale,
}

impl DemoScale {
    /// The default dataset: 400 test tasks, 4 samples per task.
    pub const DEFAULT: DemoScale = DemoScale {
        test_tasks: 400,
        samples: 4,
        scorecard: ScorecardScale::DEFAULT,
    };

    /// The count that is to this scale's test tasks what `default_count` is to the default's
    /// 400, rounded to the nearest whole (half up); exactly `default_count` at the default.
    pub fn share(&self, default_count: u32) -> u32 {
        let base = u64::from(Self::DEFAULT.test_tasks);
        let scaled = (u64::from(default_count) * u64::from(self.test_tasks) + base / 2) / base;
        scaled as u32
    }
}

impl Default for DemoScale {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for DemoScale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.test_tasks, self.samples)
    }
}

/// Why a `--demo-scale` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScaleError {
    /// Not of the form `NxS`.
    #[error("expected NxS (test tasks x samples per task, e.g. 100000x8), got {0:?}")]
    Shape(String),
    /// `N` is not a whole number in bounds.
    #[error(
        "test tasks N must be a whole number from {MIN_TEST_TASKS} to {MAX_TEST_TASKS}, got {0:?}"
    )]
    TestTasks(String),
    /// `S` is not a whole number in bounds.
    #[error(
        "samples per task S must be a whole number from {MIN_SAMPLES} to {MAX_SAMPLES}, got {0:?}"
    )]
    Samples(String),
}

/// A whole number of ASCII digits (no sign, no spaces) within `bounds`.
fn bounded(text: &str, min: u32, max: u32) -> Option<u32> {
    if text.is_empty() || text.len() > 7 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u32>().ok().filter(|n| (min..=max).contains(n))
}

impl FromStr for DemoScale {
    type Err = ScaleError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (tasks, samples) = text
            .split_once('x')
            .ok_or_else(|| ScaleError::Shape(text.to_owned()))?;
        let test_tasks = bounded(tasks, MIN_TEST_TASKS, MAX_TEST_TASKS)
            .ok_or_else(|| ScaleError::TestTasks(tasks.to_owned()))?;
        let samples = bounded(samples, MIN_SAMPLES, MAX_SAMPLES)
            .ok_or_else(|| ScaleError::Samples(samples.to_owned()))?;
        Ok(Self {
            test_tasks,
            samples,
            scorecard: ScorecardScale::DEFAULT,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_strictly() {
        assert_eq!(
            "100000x8".parse(),
            Ok(DemoScale {
                test_tasks: 100_000,
                samples: 8,
                ..DemoScale::DEFAULT
            })
        );
        assert_eq!(
            "1x1".parse::<DemoScale>().map(|s| s.to_string()),
            Ok("1x1".into())
        );
        assert_eq!("1000000x64".parse::<DemoScale>().map(|s| s.samples), Ok(64));
        for (bad, kind) in [
            ("", "shape"),
            ("100000", "shape"),
            ("100000X8", "shape"),
            ("x8", "tasks"),
            ("0x4", "tasks"),
            ("1000001x4", "tasks"),
            ("+5x4", "tasks"),
            (" 5x4", "tasks"),
            ("5.0x4", "tasks"),
            ("400x0", "samples"),
            ("400x65", "samples"),
            ("400x4x2", "samples"),
            ("400x", "samples"),
            ("400x-1", "samples"),
        ] {
            let error = bad.parse::<DemoScale>().err();
            let got = match error {
                Some(ScaleError::Shape(_)) => "shape",
                Some(ScaleError::TestTasks(_)) => "tasks",
                Some(ScaleError::Samples(_)) => "samples",
                None => "accepted",
            };
            assert_eq!(got, kind, "{bad:?}");
        }
    }

    #[test]
    fn shares_are_exact_at_the_default_and_proportional_otherwise() {
        let default = DemoScale::DEFAULT;
        for count in [12, 15, 3, 10, 300, 64] {
            assert_eq!(default.share(count), count);
        }
        let big = DemoScale {
            test_tasks: 100_000,
            samples: 8,
            ..DemoScale::DEFAULT
        };
        assert_eq!(big.share(300), 75_000);
        assert_eq!(big.share(12), 3_000);
        let tiny = DemoScale {
            test_tasks: 10,
            samples: 1,
            ..DemoScale::DEFAULT
        };
        assert_eq!(tiny.share(12), 0);
        assert_eq!(tiny.share(300), 8);
    }
}
