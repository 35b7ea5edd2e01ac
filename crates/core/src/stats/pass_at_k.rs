//! Unbiased pass@k per task (Chen et al. 2021; statistics.md §6) and pass^k, every one of k
//! samples passes (τ-bench, Yao et al. 2024, arXiv 2406.12045).

use serde::{Deserialize, Serialize};

use super::describe::CompensatedSum;
use super::outcome::{NotComputable, Stat};
use super::validate::check_count;

/// Binary outcomes of one task: `samples` attempts of which `passes` passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassCounts {
    /// Number of samples n.
    pub samples: u64,
    /// Number of passing samples c (≤ n).
    pub passes: u64,
}

/// pass@k of one task: `1 − C(n−c, k)/C(n, k) = 1 − Π_{i=n−c+1}^{n} (1 − k/i)`, and 1 when
/// `n − c < k`.
///
/// Needs `k ≥ 1`, `c ≤ n`, and `n ≥ k` ([`NotComputable::NotEnoughData`] otherwise).
pub fn pass_at_k_task(counts: PassCounts, k: u64) -> Stat<f64> {
    let PassCounts { samples, passes } = checked(counts, k)?;
    let failures = samples - passes;
    if failures < k {
        return Ok(1.0);
    }
    let kf = k as f64;
    let all_fail: f64 = (failures + 1..=samples)
        .map(|i| 1.0 - kf / i as f64)
        .product();
    Ok(1.0 - all_fail)
}

/// `counts` when pass@k and pass^k can be computed from them: `k ≥ 1`, `c ≤ n` and `n ≥ k`
/// ([`NotComputable::NotEnoughData`] for the last).
fn checked(counts: PassCounts, k: u64) -> Stat<PassCounts> {
    let PassCounts { samples, passes } = counts;
    if k == 0 {
        return Err(NotComputable::invalid("k", "must be at least 1"));
    }
    if passes > samples {
        return Err(NotComputable::invalid("passes", "must not exceed samples"));
    }
    if samples < k {
        return Err(NotComputable::NotEnoughData {
            needed: usize::try_from(k).unwrap_or(usize::MAX),
            got: usize::try_from(samples).unwrap_or(usize::MAX),
        });
    }
    Ok(counts)
}

/// A task's value, `None` when it has fewer than k samples (it is then left out of the mean).
fn unless_too_few(value: Stat<f64>) -> Stat<Option<f64>> {
    match value {
        Ok(value) => Ok(Some(value)),
        Err(NotComputable::NotEnoughData { .. }) => Ok(None),
        Err(other) => Err(other),
    }
}

/// pass@k over a run's tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PassAtK {
    /// The k used.
    pub k: u64,
    /// Per-task pass@k in input order; `None` for tasks with fewer than k samples.
    pub per_task: Vec<Option<f64>>,
    /// Number of tasks with at least k samples.
    pub included: usize,
    /// Number of tasks excluded for having fewer than k samples.
    pub excluded: usize,
    /// Mean pass@k over the included tasks; needs at least one.
    pub mean: Stat<f64>,
}

/// Per-task pass@k and their mean; tasks with `n < k` are excluded and counted.
///
/// `k = 0` or a task with more passes than samples gives [`NotComputable::InvalidParameter`].
pub fn pass_at_k(tasks: &[PassCounts], k: u64) -> Stat<PassAtK> {
    let mut cache = SmallTaskCache::new(k);
    mean_over_tasks(tasks, k, |counts| cache.pass_at_k_task(counts))
}

/// Each task's value (`None`: the task has fewer than k samples and is left out) and their
/// mean over the tasks that have one: the shape pass@k and pass^k share.
fn mean_over_tasks(
    tasks: &[PassCounts],
    k: u64,
    mut value_of: impl FnMut(PassCounts) -> Stat<Option<f64>>,
) -> Stat<PassAtK> {
    let mut per_task = Vec::with_capacity(tasks.len());
    let (mut sum, mut included) = (CompensatedSum::default(), 0);
    for &counts in tasks {
        let value = value_of(counts)?;
        if let Some(value) = value {
            sum.add(value);
            included += 1;
        }
        per_task.push(value);
    }
    let mean = check_count(1, included).map(|()| sum.total() / included as f64);
    Ok(PassAtK {
        k,
        excluded: tasks.len() - included,
        per_task,
        included,
        mean,
    })
}

/// pass^k of one task: the chance that k samples drawn without replacement from its n all
/// pass, `C(c, k)/C(n, k) = Π_{i=0}^{k−1} (c − i)/(n − i)` (0 when `c < k`).
///
/// Needs `k ≥ 1`, `c ≤ n`, and `n ≥ k` ([`NotComputable::NotEnoughData`] otherwise).
pub fn pass_hat_k_task(counts: PassCounts, k: u64) -> Stat<f64> {
    let PassCounts { samples, passes } = checked(counts, k)?;
    if passes < k {
        return Ok(0.0);
    }
    Ok((0..k)
        .map(|i| (passes - i) as f64 / (samples - i) as f64)
        .product())
}

/// Per-task pass^k and their mean over the tasks with at least k samples (τ-bench's pass^k);
/// tasks with `n < k` are left out and counted in [`PassAtK::excluded`]. The result has the
/// shape of [`pass_at_k`]'s.
pub fn pass_hat_k(tasks: &[PassCounts], k: u64) -> Stat<PassAtK> {
    mean_over_tasks(tasks, k, |counts| {
        unless_too_few(pass_hat_k_task(counts, k))
    })
}

/// Tasks with at most this many samples have their pass@k cached.
const CACHED_SAMPLES: u64 = 32;

/// Per-task pass@k for one k, each distinct small (samples, passes) computed once: runs draw
/// the same few sample counts over and over.
struct SmallTaskCache {
    k: u64,
    /// Indexed by `samples · (CACHED_SAMPLES + 1) + passes`; the outer `None` = not computed.
    entries: Vec<Option<Option<f64>>>,
}

impl SmallTaskCache {
    fn new(k: u64) -> Self {
        let side = CACHED_SAMPLES as usize + 1;
        SmallTaskCache {
            k,
            entries: vec![None; side * side],
        }
    }

    /// [`pass_at_k_task`], with `None` for a task with fewer than k samples.
    fn pass_at_k_task(&mut self, counts: PassCounts) -> Stat<Option<f64>> {
        let slot = (counts.passes <= counts.samples && counts.samples <= CACHED_SAMPLES)
            .then(|| (counts.samples * (CACHED_SAMPLES + 1) + counts.passes) as usize);
        if let Some(Some(value)) = slot.and_then(|slot| self.entries.get(slot)) {
            return Ok(*value);
        }
        let value = unless_too_few(pass_at_k_task(counts, self.k))?;
        if let Some(entry) = slot.and_then(|slot| self.entries.get_mut(slot)) {
            *entry = Some(value);
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(samples: u64, passes: u64) -> PassCounts {
        PassCounts { samples, passes }
    }

    #[test]
    fn matches_binomial_formula() {
        // n = 5, c = 2, k = 2: 1 − C(3,2)/C(5,2) = 1 − 3/10.
        assert!((pass_at_k_task(counts(5, 2), 2).unwrap() - 0.7).abs() < 1e-15);
        // k = 1 is the pass rate.
        assert!((pass_at_k_task(counts(8, 3), 1).unwrap() - 0.375).abs() < 1e-15);
        assert_eq!(pass_at_k_task(counts(5, 4), 2), Ok(1.0));
        assert_eq!(pass_at_k_task(counts(5, 0), 3), Ok(0.0));
    }

    #[test]
    fn pass_hat_k_matches_the_ratio_of_binomials() {
        // n = 5, c = 3, k = 2: C(3,2)/C(5,2) = 3/10.
        assert!((pass_hat_k_task(counts(5, 3), 2).unwrap() - 0.3).abs() < 1e-15);
        assert_eq!(pass_hat_k_task(counts(5, 1), 2), Ok(0.0));
        assert_eq!(pass_hat_k_task(counts(4, 4), 4), Ok(1.0));
        assert!((pass_hat_k_task(counts(8, 3), 1).unwrap() - 0.375).abs() < 1e-15);
        let r = pass_hat_k(&[counts(5, 3), counts(1, 1), counts(4, 4)], 2).unwrap();
        assert_eq!((r.included, r.excluded), (2, 1));
        assert!((r.mean.unwrap() - 0.65).abs() < 1e-15);
        assert!(pass_hat_k(&[counts(2, 3)], 1).is_err());
        assert!(pass_hat_k_task(counts(2, 1), 0).is_err());
    }

    #[test]
    fn excludes_short_tasks_and_rejects_bad_input() {
        let r = pass_at_k(&[counts(5, 2), counts(1, 1), counts(4, 0)], 2).unwrap();
        assert_eq!((r.included, r.excluded), (2, 1));
        assert_eq!(r.per_task[1], None);
        assert!((r.mean.unwrap() - 0.35).abs() < 1e-15);
        assert!(pass_at_k(&[counts(2, 3)], 1).is_err());
        assert!(pass_at_k(&[counts(2, 1)], 0).is_err());
        let none = pass_at_k(&[counts(1, 1)], 2).unwrap();
        assert_eq!(
            none.mean,
            Err(NotComputable::NotEnoughData { needed: 1, got: 0 })
        );
    }
}
