//! How one attempt ends: its termination reason, its grade (reward components) and reward.
//!
//! Semantics follow the contract's termination-reason guide: `ERROR`, `STALE`, `SANDBOX_*` and
//! `CANCELLED` carry no reward; an `ENV_DONE` can be ungraded; `TRUNCATION`, `MAX_STEPS` and
//! `LIMIT_REACHED` score zero (capped at zero, graded or not); `TIMEOUT` and the unlisted
//! `BUDGET_EXHAUSTED` sometimes carry a grade; `MISSING_SUBMIT` is graded zero.

use eval_compare_core::api::TerminationReason;

use super::catalog::{ComponentSpec, COMPONENTS, HIDDEN_TESTS};
use super::rng::SplitMix64;

/// Declares [`Ending`] from one list: each ending the dataset draws, in order, with the
/// termination reason it records.
macro_rules! endings {
    ($($ending:ident => $reason:expr,)*) => {
        /// Why an attempt ended: the termination reasons the dataset draws, each core's
        /// [`TerminationReason`] of the same name (its meaning documented there):
        /// `SandboxTimeout` is `SANDBOX_TIMEOUT`, and `BudgetExhausted` a reason the contract
        /// does not list yet, which clients must keep by name. The wire value is
        /// [`Ending::reason`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Ending {
            $($ending,)*
        }

        impl Ending {
            /// Every ending the dataset produces.
            pub const ALL: [Ending; [$(Ending::$ending),*].len()] = [$(Ending::$ending),*];

            /// The `termination_reason` recorded: core's reason of the same name.
            pub fn reason(self) -> TerminationReason {
                match self {
                    $(Ending::$ending => $reason,)*
                }
            }
        }
    };
}

endings! {
    EnvDone => TerminationReason::EnvDone,
    Error => TerminationReason::Error,
    Timeout => TerminationReason::Timeout,
    Truncation => TerminationReason::Truncation,
    MissingSubmit => TerminationReason::MissingSubmit,
    MaxSteps => TerminationReason::MaxSteps,
    LimitReached => TerminationReason::LimitReached,
    Cancelled => TerminationReason::Cancelled,
    Stale => TerminationReason::Stale,
    SandboxTimeout => TerminationReason::from("SANDBOX_TIMEOUT"),
    BudgetExhausted => TerminationReason::from("BUDGET_EXHAUSTED"),
}

impl Ending {
    /// Whether the attempt failed execution (counted as failed, never scored).
    pub fn is_execution_failure(self) -> bool {
        matches!(self, Ending::Error | Ending::Stale | Ending::SandboxTimeout)
    }

    /// Whether the platform caps this ending's reward at zero.
    pub fn is_cut_off(self) -> bool {
        matches!(
            self,
            Ending::Truncation | Ending::MaxSteps | Ending::LimitReached
        )
    }
}

/// Relative frequencies of endings, in attempts per 1000.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EndingRates(pub [(Ending, u32); 11]);

/// Endings of a run with the standard 50-turn limit.
pub const STANDARD_RATES: EndingRates = EndingRates([
    (Ending::EnvDone, 858),
    (Ending::Error, 30),
    (Ending::Timeout, 18),
    (Ending::Truncation, 18),
    (Ending::MissingSubmit, 15),
    (Ending::MaxSteps, 20),
    (Ending::LimitReached, 10),
    (Ending::Cancelled, 8),
    (Ending::Stale, 6),
    (Ending::SandboxTimeout, 10),
    (Ending::BudgetExhausted, 7),
]);

/// Endings of a run with a 20-turn limit: many more attempts hit the turn limit.
pub const SHORT_TURN_RATES: EndingRates = EndingRates([
    (Ending::EnvDone, 798),
    (Ending::Error, 30),
    (Ending::Timeout, 12),
    (Ending::Truncation, 18),
    (Ending::MissingSubmit, 25),
    (Ending::MaxSteps, 80),
    (Ending::LimitReached, 10),
    (Ending::Cancelled, 8),
    (Ending::Stale, 6),
    (Ending::SandboxTimeout, 10),
    (Ending::BudgetExhausted, 3),
]);

impl EndingRates {
    fn draw(&self, rng: &mut SplitMix64) -> Ending {
        let total: u32 = self.0.iter().map(|(_, rate)| rate).sum();
        let mut ticket = rng.between(0, total.saturating_sub(1));
        for &(ending, rate) in &self.0 {
            if ticket < rate {
                return ending;
            }
            ticket -= rate;
        }
        Ending::EnvDone
    }
}

/// The grader's verdict: the raw values of the three reward components.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grade {
    /// Hidden tests passed, 0..=8.
    pub tests_passed: u32,
    /// Whether the patch applied cleanly (0 or 1).
    pub patch_applies: bool,
    /// Linter score 0..=10 (informative, weight 0).
    pub lint_score: f64,
}

impl Grade {
    /// A zero grade: nothing passed, no applicable patch.
    fn zero(rng: &mut SplitMix64) -> Self {
        Self {
            tests_passed: 0,
            patch_applies: false,
            lint_score: lint(rng, 0.3),
        }
    }

    /// Each component's spec with its raw value, in logged order.
    pub fn components(&self) -> [(ComponentSpec, f64); 3] {
        [
            (COMPONENTS[0], f64::from(self.tests_passed)),
            (COMPONENTS[1], if self.patch_applies { 1.0 } else { 0.0 }),
            (COMPONENTS[2], self.lint_score),
        ]
    }

    /// The effective reward: the weighted average of the components scaled to [0, 1] by their
    /// declared bounds. Weight-0 components do not count.
    pub fn reward(&self) -> f64 {
        let (weighted, weights) =
            self.components()
                .iter()
                .fold((0.0, 0.0), |(sum, weights), (spec, value)| {
                    (
                        sum + spec.weight * scaled(spec, *value),
                        weights + spec.weight,
                    )
                });
        if weights > 0.0 {
            weighted / weights
        } else {
            0.0
        }
    }
}

/// A raw component value scaled to [0, 1] by the component's bounds.
pub fn scaled(spec: &ComponentSpec, value: f64) -> f64 {
    (value - spec.min) / (spec.max - spec.min)
}

/// A linter score in 0..=10 with one decimal, centred on `quality` (0..1).
fn lint(rng: &mut SplitMix64, quality: f64) -> f64 {
    let raw = 10.0 * (quality + 0.15 * rng.normal()).clamp(0.0, 1.0);
    (raw * 10.0).round() / 10.0
}

/// Why an attempt could not be graded: recorded as the trajectory's `error` and as the
/// rollout's harness diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct FailureNote {
    /// The trajectory's `error` text.
    pub message: String,
    /// Harness diagnostic category (`timeout`, `connection`, `rate_limit`, `server`, `other`).
    pub category: &'static str,
    /// Exception class names, outermost first.
    pub exception_chain: Vec<String>,
    /// Where it was raised.
    pub location: String,
    /// Harness exit code, when the harness exited.
    pub exit_code: Option<i64>,
}

impl FailureNote {
    /// Whether the model call failed (rather than the sandbox, the harness or the grader).
    pub fn is_model_call(&self) -> bool {
        self.location.contains("call_model")
    }
}

/// Everything decided about one attempt once it has ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Why it ended.
    pub ending: Ending,
    /// The logged grade, if the grader ran.
    pub grade: Option<Grade>,
    /// The effective reward: the trajectory's `reward` and its trajectory-rewards entry.
    pub reward: Option<f64>,
    /// Steps taken.
    pub num_steps: u32,
    /// Failure details for execution failures.
    pub failure: Option<Box<FailureNote>>,
}

impl Outcome {
    /// The outcome of an attempt the platform cancelled after `num_steps` steps.
    pub fn cancelled(num_steps: u32) -> Self {
        Self {
            ending: Ending::Cancelled,
            grade: None,
            reward: None,
            num_steps,
            failure: None,
        }
    }
}

/// How much longer than the base model a checkpoint trained to `step` works on a task before
/// it ends on its own: training teaches it to reproduce, test and check more (1 for the base
/// model, about 1.4 at step 400, diminishing returns like the skill it gains).
pub fn effort_factor(checkpoint_step: Option<u32>) -> f64 {
    checkpoint_step.map_or(1.0, |step| {
        1.0 + 0.5 * (f64::from(step) / 500.0).min(1.0).powf(0.8)
    })
}

impl Outcome {
    /// This outcome as a checkpoint trained to `checkpoint_step` plays it: an attempt that
    /// ended on its own (`ENV_DONE`, a budget, a timeout, a missing submission) took
    /// [`effort_factor`] times the turns, below the turn limit `max_turns`. Nothing is drawn,
    /// so the ending, the grade, the reward and every later draw stay as they were; an attempt
    /// cut off at the limit or failed keeps its count.
    pub fn with_effort(mut self, checkpoint_step: Option<u32>, max_turns: u32) -> Self {
        let lengthens = matches!(
            self.ending,
            Ending::EnvDone | Ending::BudgetExhausted | Ending::Timeout | Ending::MissingSubmit
        );
        if lengthens && self.num_steps > 0 {
            let longer = (f64::from(self.num_steps) * effort_factor(checkpoint_step)).round();
            self.num_steps = (longer as u32).clamp(
                self.num_steps,
                max_turns.saturating_sub(1).max(self.num_steps),
            );
        }
        self
    }
}

/// A grade for a finished attempt whose latent chance of solving the task is `p_pass`.
fn grade(rng: &mut SplitMix64, p_pass: f64) -> Grade {
    if rng.chance(p_pass) {
        return Grade {
            tests_passed: HIDDEN_TESTS,
            patch_applies: true,
            lint_score: lint(rng, 0.8),
        };
    }
    if rng.chance(0.3) {
        // Partial credit: a patch that fixes some of the hidden tests, more of them when the
        // task was nearly within reach.
        let partial = 1 + (p_pass * f64::from(HIDDEN_TESTS - 2) + rng.unit() * 2.0) as u32;
        return Grade {
            tests_passed: partial.min(HIDDEN_TESTS - 1),
            patch_applies: true,
            lint_score: lint(rng, 0.6),
        };
    }
    Grade {
        tests_passed: 0,
        patch_applies: rng.chance(0.3),
        lint_score: lint(rng, 0.4),
    }
}

fn failure_note(rng: &mut SplitMix64, ending: Ending) -> Option<FailureNote> {
    let note = match ending {
        Ending::Error => match rng.between(0, 2) {
            0 => FailureNote {
                message: "model request failed after 3 retries: 503 Service Unavailable".into(),
                category: "server",
                exception_chain: vec![
                    "trajectory.APIStatusError".into(),
                    "httpx.HTTPStatusError".into(),
                ],
                location: "harness.py:88 in call_model".into(),
                exit_code: Some(1),
            },
            1 => FailureNote {
                message: "connection reset by peer while streaming the model reply".into(),
                category: "connection",
                exception_chain: vec![
                    "trajectory.APIConnectionError".into(),
                    "httpcore.ReadError".into(),
                ],
                location: "harness.py:91 in call_model".into(),
                exit_code: Some(1),
            },
            _ => FailureNote {
                message: "grader crashed: pytest collection failed with ImportError".into(),
                category: "other",
                exception_chain: vec!["grader.GraderError".into(), "ImportError".into()],
                location: "grade.py:40 in run_hidden_tests".into(),
                exit_code: Some(2),
            },
        },
        Ending::Stale => FailureNote {
            message:
                "no heartbeat from the harness for 600 s; the platform marked the attempt stale"
                    .into(),
            category: "timeout",
            exception_chain: Vec::new(),
            location: "rollout-service".into(),
            exit_code: None,
        },
        Ending::SandboxTimeout => FailureNote {
            message: "sandbox exceeded its 1800 s wall-clock limit".into(),
            category: "timeout",
            exception_chain: vec!["sandbox.WallClockExceeded".into()],
            location: "sandbox-supervisor".into(),
            exit_code: Some(137),
        },
        _ => return None,
    };
    Some(note)
}

fn steps_for(rng: &mut SplitMix64, ending: Ending, max_turns: u32, difficulty: f64) -> u32 {
    let typical = (4.0 + 2.5 * difficulty.max(-1.0) + 3.0 * rng.unit())
        .round()
        .max(2.0) as u32;
    match ending {
        Ending::MaxSteps => max_turns,
        Ending::EnvDone | Ending::BudgetExhausted => typical.min(max_turns - 1),
        Ending::Truncation | Ending::LimitReached => rng.between(max_turns / 3, max_turns),
        Ending::Timeout | Ending::MissingSubmit => rng.between(max_turns / 2, max_turns - 1),
        Ending::Error | Ending::Stale | Ending::SandboxTimeout => rng.between(1, 8),
        Ending::Cancelled => rng.between(1, 5),
    }
}

/// Decides how one attempt ends.
///
/// `p_pass` is the latent probability that the policy solves the task; `difficulty` the task's
/// latent difficulty (longer transcripts on harder tasks).
pub fn sample_outcome(
    rng: &mut SplitMix64,
    rates: &EndingRates,
    p_pass: f64,
    difficulty: f64,
    max_turns: u32,
) -> Outcome {
    let ending = rates.draw(rng);
    let graded = match ending {
        Ending::EnvDone => Some(rng.chance(0.97)),
        Ending::Timeout | Ending::BudgetExhausted => Some(rng.chance(0.5)),
        Ending::MissingSubmit => Some(true),
        Ending::Truncation | Ending::MaxSteps | Ending::LimitReached => Some(rng.chance(0.4)),
        Ending::Error | Ending::Cancelled | Ending::Stale | Ending::SandboxTimeout => None,
    };
    let grade = match (ending, graded) {
        (_, None | Some(false)) => None,
        // Cut-off and missing-submission attempts are graded zero (capped at zero).
        (e, Some(true)) if e.is_cut_off() || e == Ending::MissingSubmit => Some(Grade::zero(rng)),
        // A timed-out attempt is often partially done.
        (Ending::Timeout, Some(true)) => Some(grade(rng, p_pass * 0.5)),
        (_, Some(true)) => Some(grade(rng, p_pass)),
    };
    let reward = match grade {
        Some(grade) => Some(grade.reward()),
        // Cut-off endings score zero without a logged grade.
        None if ending.is_cut_off() => Some(0.0),
        None => None,
    };
    let mut num_steps = steps_for(rng, ending, max_turns, difficulty);
    let failure = failure_note(rng, ending);
    // A third of the failed model calls fail at the first one: no step is recorded.
    if failure.as_ref().is_some_and(FailureNote::is_model_call) && rng.chance(1.0 / 3.0) {
        num_steps = 0;
    }
    Outcome {
        ending,
        grade,
        reward,
        num_steps,
        failure: failure.map(Box::new),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_take_more_turns_without_changing_anything_else() {
        assert_eq!(effort_factor(None), 1.0);
        assert!(effort_factor(Some(100)) < effort_factor(Some(400)));
        assert!((1.35..1.5).contains(&effort_factor(Some(400))));
        let mut rng = SplitMix64::new(3);
        let (mut base, mut trained) = (0u64, 0u64);
        for _ in 0..5_000 {
            let o = sample_outcome(&mut rng, &STANDARD_RATES, 0.5, 0.0, 50);
            let longer = o.clone().with_effort(Some(400), 50);
            assert_eq!(
                (longer.ending, longer.grade, longer.reward),
                (o.ending, o.grade, o.reward)
            );
            assert!(longer.num_steps >= o.num_steps && longer.num_steps <= 50);
            if o.ending.is_cut_off() || o.ending.is_execution_failure() || o.num_steps == 0 {
                assert_eq!(longer.num_steps, o.num_steps, "{:?}", o.ending);
            }
            assert_eq!(o.clone().with_effort(None, 50), o);
            base += u64::from(o.num_steps);
            trained += u64::from(longer.num_steps);
        }
        assert!(trained as f64 > 1.25 * base as f64, "{trained} vs {base}");
    }

    #[test]
    fn rates_sum_to_one_thousand() {
        for rates in [STANDARD_RATES, SHORT_TURN_RATES] {
            assert_eq!(rates.0.iter().map(|(_, r)| r).sum::<u32>(), 1000);
            let endings: Vec<Ending> = rates.0.iter().map(|(e, _)| *e).collect();
            assert_eq!(endings, Ending::ALL);
        }
    }

    #[test]
    fn reward_is_the_weighted_average_of_scaled_components() {
        let grade = Grade {
            tests_passed: 6,
            patch_applies: true,
            lint_score: 3.0,
        };
        // (3 * 6/8 + 1 * 1 + 0 * 0.3) / (3 + 1 + 0)
        assert_eq!(grade.reward(), (3.0 * 0.75 + 1.0) / 4.0);
        let zero = Grade {
            tests_passed: 0,
            patch_applies: false,
            lint_score: 9.0,
        };
        assert_eq!(zero.reward(), 0.0);
    }

    #[test]
    fn outcomes_respect_the_contract_semantics() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..20_000 {
            let o = sample_outcome(&mut rng, &STANDARD_RATES, 0.6, 0.0, 50);
            match o.ending {
                Ending::Error | Ending::Stale | Ending::SandboxTimeout | Ending::Cancelled => {
                    assert_eq!(o.reward, None);
                    assert_eq!(o.grade, None);
                }
                e if e.is_cut_off() || e == Ending::MissingSubmit => {
                    assert_eq!(o.reward, Some(0.0))
                }
                _ => assert_eq!(o.reward, o.grade.map(|g| g.reward())),
            }
            assert_eq!(o.failure.is_some(), o.ending.is_execution_failure());
            assert!(o.num_steps <= 50);
            if o.num_steps == 0 {
                assert!(o.failure.as_deref().is_some_and(FailureNote::is_model_call));
            }
            if o.ending == Ending::MaxSteps {
                assert_eq!(o.num_steps, 50);
            }
        }
    }
}
