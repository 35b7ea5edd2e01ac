//! A bootstrap drawn in steps: the page draws a few resamples at a time between frames, so a
//! large bootstrap never blocks it, and ends with exactly the result of the one-call
//! [`paired_bootstrap`](super::paired_bootstrap) (the same draws in the same order).

use std::hash::Hash;

use super::rng::{HalfDraws, Xoshiro256};
use super::{check_settings, summarize, BootstrapResult, BootstrapSettings, Resample, Units};
use crate::stats::outcome::Stat;
use crate::stats::validate::{check_count, check_same_length};

/// Where the draws come from: the per-task fast path's 32-bit halves, or the general stream.
#[derive(Debug)]
enum Draws {
    Compact(HalfDraws),
    Wide(Xoshiro256),
}

/// A seeded paired bootstrap in progress: [`advance`](Self::advance) draws resamples,
/// [`complete`](Self::complete) draws the rest and gives the intervals.
#[derive(Debug)]
pub struct BootstrapRun {
    units: Units,
    clusters: Option<usize>,
    settings: BootstrapSettings,
    draws: Draws,
    resamples: Vec<Resample>,
}

impl BootstrapRun {
    /// The bootstrap resampling tasks (as [`paired_bootstrap`](super::paired_bootstrap)); the
    /// same errors, before any draw.
    pub fn per_task(deltas: &[f64], settings: &BootstrapSettings) -> Stat<Self> {
        check_settings(settings)?;
        let units = Units::per_task(deltas)?;
        Self::start(units, None, settings)
    }

    /// The bootstrap resampling whole clusters (as
    /// [`clustered_paired_bootstrap`](super::clustered_paired_bootstrap)).
    pub fn per_cluster<K: Eq + Hash>(
        deltas: &[f64],
        labels: &[K],
        settings: &BootstrapSettings,
    ) -> Stat<Self> {
        check_settings(settings)?;
        check_same_length(deltas.len(), labels.len())?;
        let units = Units::per_cluster(deltas, labels)?;
        let clusters = units.sums.len();
        Self::start(units, Some(clusters), settings)
    }

    fn start(units: Units, clusters: Option<usize>, settings: &BootstrapSettings) -> Stat<Self> {
        check_count(2, units.sums.len())?;
        let rng = Xoshiro256::from_seed(settings.seed);
        let draws = if units.is_compact() {
            Draws::Compact(HalfDraws::new(rng))
        } else {
            Draws::Wide(rng)
        };
        Ok(Self {
            units,
            clusters,
            settings: *settings,
            draws,
            resamples: Vec::new(),
        })
    }

    /// Resamples drawn so far.
    pub fn drawn(&self) -> usize {
        self.resamples.len()
    }

    /// Resamples in all (B).
    pub fn total(&self) -> usize {
        self.settings.resamples
    }

    /// Draws one resample takes: the number of tasks, or of clusters.
    pub fn draws_per_resample(&self) -> usize {
        self.units.sums.len()
    }

    /// Draws up to `resamples` more resamples; true once all B are drawn.
    pub fn advance(&mut self, resamples: usize) -> bool {
        let count = resamples.min(self.total() - self.drawn());
        let Self {
            units,
            draws,
            resamples: drawn,
            ..
        } = self;
        match draws {
            // `start` chose these draws from the same units: the fast path is there.
            Draws::Compact(halves) => {
                drawn.extend(units.compact_resamples(halves, count).unwrap_or_default());
            }
            Draws::Wide(rng) => {
                drawn.extend((0..count).map(|_| units.wide_resample(rng)));
            }
        }
        self.drawn() == self.total()
    }

    /// The result: draws what is left (all of it at once natively over the machine's cores,
    /// when none was drawn yet), then computes the intervals.
    pub fn complete(mut self) -> Stat<BootstrapResult> {
        if self.resamples.is_empty() {
            self.resamples = self
                .units
                .resample_sums(self.settings.resamples, self.settings.seed);
        } else {
            self.advance(usize::MAX);
        }
        summarize(&self.units, self.clusters, &self.settings, &self.resamples)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{clustered_paired_bootstrap, paired_bootstrap};
    use super::*;

    fn deltas(n: usize, scale: f64, seed: u64) -> Vec<f64> {
        let mut rng = Xoshiro256::from_seed(seed);
        (0..n)
            .map(|_| scale * (rng.below(2001) as f64 - 1000.0) / 1000.0)
            .collect()
    }

    fn settings(resamples: usize, seed: u64) -> BootstrapSettings {
        BootstrapSettings {
            resamples,
            seed,
            level: 0.95,
        }
    }

    /// Completes `run` after drawing it in steps of `steps` resamples (cycled).
    fn in_steps(mut run: BootstrapRun, steps: &[usize]) -> Stat<BootstrapResult> {
        for &step in steps.iter().cycle() {
            if run.advance(step) {
                break;
            }
        }
        run.complete()
    }

    #[test]
    fn drawn_in_steps_equals_drawn_at_once() {
        // Deltas within ±1 take the per-task fast path, within ±3 the general one.
        for (n, scale, resamples) in [(40, 1.0, 250), (3, 1.0, 17), (57, 3.0, 120)] {
            let d = deltas(n, scale, n as u64);
            let s = settings(resamples, 11);
            let once = paired_bootstrap(&d, &s);
            for steps in [&[1][..], &[7, 2], &[resamples], &[1000]] {
                let run = BootstrapRun::per_task(&d, &s).unwrap();
                assert_eq!(in_steps(run, steps), once, "n {n}, steps {steps:?}");
            }
        }
    }

    #[test]
    fn clustered_in_steps_equals_at_once() {
        let d = deltas(90, 1.0, 3);
        let labels: Vec<usize> = (0..90).map(|i| i % 9).collect();
        let s = settings(300, 4);
        let once = clustered_paired_bootstrap(&d, &labels, &s);
        let run = BootstrapRun::per_cluster(&d, &labels, &s).unwrap();
        assert_eq!(in_steps(run, &[13]), once);
    }

    #[test]
    fn a_large_bootstrap_in_steps_equals_the_parallel_one() {
        // 4,000 tasks × 600 resamples: above the draws where natively the cores share it.
        let d = deltas(4_000, 1.0, 8);
        let s = settings(600, 20_261_014);
        let run = BootstrapRun::per_task(&d, &s).unwrap();
        assert_eq!(
            (run.drawn(), run.total(), run.draws_per_resample()),
            (0, 600, 4_000)
        );
        assert_eq!(in_steps(run, &[64]), paired_bootstrap(&d, &s));
    }

    #[test]
    fn refuses_what_the_one_call_refuses() {
        let s = settings(100, 1);
        assert!(BootstrapRun::per_task(&[0.5], &s).is_err());
        assert!(BootstrapRun::per_task(&[0.1, 0.2], &settings(1, 1)).is_err());
        assert!(BootstrapRun::per_cluster(&[0.1, 0.2], &["a", "a"], &s).is_err());
        let flat = BootstrapRun::per_task(&[0.5, 0.5, 0.5], &s).unwrap();
        assert_eq!(flat.complete(), paired_bootstrap(&[0.5, 0.5, 0.5], &s));
    }
}
