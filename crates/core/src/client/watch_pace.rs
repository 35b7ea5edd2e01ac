//! The pace of watching a running job: when to reconnect to its progress stream or read it
//! again, and when to stop. One home for the viewer's live follow
//! (`src/state/loader/follow.rs`) and the CLI's gate (through
//! [`super::TrajectoryClient::wait_for_job`]); time comes in as arguments (the core has no
//! clock), randomness from a seed.
//!
//! The rule ([`WatchPolicy::default`]):
//! - A try (a stream followed to its end, or a wait, then the job read again) that moved the
//!   job's record (status or finished trials) starts the pace over: the next try comes at once
//!   (a stream) or after the poll interval.
//! - A try that changed nothing waits before the next: exponential backoff from 1 s, doubling to
//!   60 s, with "equal jitter" (a uniform draw in the upper half of the step: 0.5–1 s, 1–2 s, …,
//!   30–60 s), so tabs and CI jobs left open on the same job spread out. Never less than the
//!   poll interval when polling, and never less than what the API asked for (`Retry-After`,
//!   honoured up to 5 min).
//! - Once the stream said the job ended (`run_finished`) while its record still says it runs,
//!   8 tries in a row that changed nothing end the watch with a [`Contradiction`] naming what
//!   contradicted what. Without such a claim nothing is given up: a job may legitimately run for
//!   hours without a change, and is then read at most once a minute (the gate's `--timeout`
//!   bounds its wait).

use std::fmt;

use crate::stats::Xoshiro256;
use crate::text::visible;

/// The bounds of a watch's pace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchPolicy {
    /// The backoff's first step, after one try that changed nothing.
    pub first_wait_ms: u64,
    /// The backoff's largest step.
    pub max_wait_ms: u64,
    /// Largest wait a `Retry-After` is honoured for.
    pub max_server_wait_ms: u64,
    /// Tries in a row that changed nothing, after the stream said the job ended, before the
    /// watch stops.
    pub give_up_after: u32,
}

impl Default for WatchPolicy {
    /// 1 s doubling to 60 s, `Retry-After` up to 5 min, stop after 8 contradicted tries.
    fn default() -> Self {
        Self {
            first_wait_ms: 1_000,
            max_wait_ms: 60_000,
            max_server_wait_ms: 300_000,
            give_up_after: 8,
        }
    }
}

/// What to do after a try.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextTry {
    /// Try again after this many milliseconds (0: at once).
    After(u64),
    /// Stop watching: the API keeps contradicting itself.
    GiveUp(Contradiction),
}

/// The stream said a job ended while its record kept saying it runs, through
/// [`WatchPolicy::give_up_after`] tries that changed nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction {
    /// The job whose stream said it ended.
    pub job_id: String,
    /// The status its `run_finished` event gave, when it gave one.
    pub stream_status: Option<String>,
    /// Tries in a row that changed nothing.
    pub tries: u32,
    /// Time waited between them, in milliseconds.
    pub waited_ms: u64,
}

impl fmt::Display for Contradiction {
    /// `job j1's progress stream said it ended (succeeded), but its record still says it is
    /// running, unchanged after 8 reads over 95 s: the API contradicts itself`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = self
            .stream_status
            .as_deref()
            .map(|status| format!(" ({})", visible(status)))
            .unwrap_or_default();
        write!(
            f,
            "job {}'s progress stream said it ended{status}, but its record still says it is \
             running, unchanged after {} reads over {} s: the API contradicts itself",
            visible(&self.job_id),
            self.tries,
            self.waited_ms.div_ceil(1_000)
        )
    }
}

/// Where a watch stands: the tries that changed nothing since the last change, and what the
/// stream claimed meanwhile.
#[derive(Debug, Clone)]
pub struct WatchPace {
    policy: WatchPolicy,
    fruitless: u32,
    waited_ms: u64,
    claimed_end: Option<(String, Option<String>)>,
    rng: Xoshiro256,
}

impl WatchPace {
    /// A pace at its start; `seed` draws the jitter (the time, or a random number, so that
    /// watchers do not move in step).
    pub fn new(policy: WatchPolicy, seed: u64) -> Self {
        Self {
            policy,
            fruitless: 0,
            waited_ms: 0,
            claimed_end: None,
            rng: Xoshiro256::from_seed(seed),
        }
    }

    /// The stream of `job_id` said the job ended (`run_finished`, with its `status`).
    pub fn stream_said_ended(&mut self, job_id: &str, status: Option<&str>) {
        self.claimed_end = Some((job_id.to_owned(), status.map(str::to_owned)));
    }

    /// Tries in a row that changed nothing.
    pub fn fruitless_tries(&self) -> u32 {
        self.fruitless
    }

    /// What comes after a try: `moved` says whether it changed the job's record; `floor_ms` is
    /// the least wait (the poll interval when polling, 0 before a stream); `server_asked_ms`
    /// what the API asked for (`Retry-After` of a refusal).
    pub fn after_try(
        &mut self,
        moved: bool,
        floor_ms: u64,
        server_asked_ms: Option<u64>,
    ) -> NextTry {
        let asked = server_asked_ms.map_or(0, |ms| ms.min(self.policy.max_server_wait_ms));
        if moved {
            self.fruitless = 0;
            self.waited_ms = 0;
            self.claimed_end = None;
            return NextTry::After(floor_ms.max(asked));
        }
        self.fruitless = self.fruitless.saturating_add(1);
        if let Some((job_id, stream_status)) = &self.claimed_end {
            if self.fruitless >= self.policy.give_up_after {
                return NextTry::GiveUp(Contradiction {
                    job_id: job_id.clone(),
                    stream_status: stream_status.clone(),
                    tries: self.fruitless,
                    waited_ms: self.waited_ms,
                });
            }
        }
        let wait = self.jittered_step().max(floor_ms).max(asked);
        self.waited_ms = self.waited_ms.saturating_add(wait);
        NextTry::After(wait)
    }

    /// The backoff step of the tries so far, drawn in its upper half.
    fn jittered_step(&mut self) -> u64 {
        let doublings = self.fruitless.saturating_sub(1);
        let step = self
            .policy
            .first_wait_ms
            .saturating_mul(1u64.checked_shl(doublings).unwrap_or(u64::MAX))
            .min(self.policy.max_wait_ms);
        let half = step / 2;
        step - half + self.rng.below(half + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waits(pace: &mut WatchPace, tries: usize, floor_ms: u64) -> Vec<u64> {
        (0..tries)
            .map(|_| match pace.after_try(false, floor_ms, None) {
                NextTry::After(ms) => ms,
                NextTry::GiveUp(why) => panic!("gave up: {why}"),
            })
            .collect()
    }

    #[test]
    fn waits_double_from_one_second_to_a_minute_each_in_the_upper_half_of_its_step() {
        for seed in 0..50 {
            let mut pace = WatchPace::new(WatchPolicy::default(), seed);
            let got = waits(&mut pace, 10, 0);
            let steps = [1, 2, 4, 8, 16, 32, 60, 60, 60, 60].map(|s: u64| s * 1_000);
            for (wait, step) in got.iter().zip(steps) {
                assert!((step / 2..=step).contains(wait), "seed {seed}: {got:?}");
            }
        }
    }

    #[test]
    fn the_jitter_spreads_watchers_apart() {
        let sixth: Vec<u64> = (0..20)
            .map(|seed| waits(&mut WatchPace::new(WatchPolicy::default(), seed), 6, 0)[5])
            .collect();
        let mut distinct = sixth.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(distinct.len() > 15, "{sixth:?}");
    }

    #[test]
    fn a_change_starts_over_and_polls_never_come_faster_than_asked() {
        let mut pace = WatchPace::new(WatchPolicy::default(), 7);
        assert!(waits(&mut pace, 5, 0)[4] >= 8_000);
        assert_eq!(pace.after_try(true, 0, None), NextTry::After(0));
        assert!(waits(&mut pace, 1, 0)[0] <= 1_000);
        let polls = waits(&mut WatchPace::new(WatchPolicy::default(), 7), 4, 5_000);
        assert_eq!(polls[..3], [5_000, 5_000, 5_000]);
        assert_eq!(
            pace.after_try(true, 5_000, Some(30_000)),
            NextTry::After(30_000)
        );
        assert_eq!(
            pace.after_try(false, 0, Some(3_600_000)),
            NextTry::After(300_000),
            "Retry-After is honoured up to 5 min"
        );
    }

    #[test]
    fn only_a_claimed_end_the_record_keeps_contradicting_is_given_up() {
        let mut quiet = WatchPace::new(WatchPolicy::default(), 1);
        assert_eq!(
            waits(&mut quiet, 100, 0).len(),
            100,
            "a quiet job is watched on"
        );
        let mut pace = WatchPace::new(WatchPolicy::default(), 1);
        pace.stream_said_ended("j1", Some("succeeded"));
        let waited: u64 = waits(&mut pace, 7, 0).iter().sum();
        let NextTry::GiveUp(why) = pace.after_try(false, 0, None) else {
            panic!("the eighth contradicted try gives up");
        };
        assert_eq!(why.tries, 8);
        assert_eq!(why.waited_ms, waited);
        assert_eq!(
            why.to_string(),
            format!(
                "job j1's progress stream said it ended (succeeded), but its record still says \
                 it is running, unchanged after 8 reads over {} s: the API contradicts itself",
                waited.div_ceil(1_000)
            )
        );
        let mut caught_up = WatchPace::new(WatchPolicy::default(), 1);
        caught_up.stream_said_ended("j1", None);
        waits(&mut caught_up, 7, 0);
        assert_eq!(caught_up.after_try(true, 0, None), NextTry::After(0));
        assert_eq!(
            waits(&mut caught_up, 20, 0).len(),
            20,
            "the claim was forgotten"
        );
    }
}
