//! Cluster-robust standard error of the mean delta, clustering tasks by category
//! (statistics.md §3; statsmodels OLS on a constant with `cov_type='cluster'`).

use std::hash::Hash;

use serde::{Deserialize, Serialize};

use super::describe::mean_of_finite;
use super::dist::StudentT;
use super::interval::Interval;
use super::outcome::{NotComputable, Stat};
use super::validate::{check_count, check_level, check_same_length, rounded_deltas};
use crate::model::IdMap;

/// Δ with a cluster-robust SE and a t interval on C − 1 degrees of freedom.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterRobust {
    /// Number of tasks.
    pub n: usize,
    /// Number of clusters C.
    pub clusters: usize,
    /// Δ, the mean delta over all tasks.
    pub mean: f64,
    /// `sqrt(C/(C−1) · Σ_c (Σ_{i∈c} eᵢ)²) / n` with `eᵢ = dᵢ − Δ`.
    pub se: f64,
    /// Degrees of freedom, C − 1.
    pub df: f64,
    /// t = Δ / SE.
    pub t: f64,
    /// Two-sided p-value of H0: Δ = 0 on C − 1 df.
    pub p_value: f64,
    /// Δ ± t_{C−1}·SE at the requested level.
    pub interval: Interval,
}

/// Cluster-robust analysis of per-task deltas (rounded to 1e-9) with one cluster label per task.
///
/// Needs C ≥ 2 clusters; a zero cluster-level spread gives [`NotComputable::ZeroVariance`].
pub fn cluster_robust<K: Eq + Hash>(
    deltas: &[f64],
    labels: &[K],
    level: f64,
) -> Stat<ClusterRobust> {
    check_level(level)?;
    check_same_length(deltas.len(), labels.len())?;
    let deltas = rounded_deltas(deltas)?;
    let (ids, clusters) = dense_cluster_ids(labels);
    check_count(2, clusters)?;
    let n = deltas.len();
    let mean = mean_of_finite(&deltas);
    let mut residual_sums = vec![0.0; clusters];
    for (d, &c) in deltas.iter().zip(&ids) {
        residual_sums[c] += d - mean;
    }
    let c = clusters as f64;
    let squares: f64 = residual_sums.iter().map(|s| s * s).sum();
    let se = (c / (c - 1.0) * squares).sqrt() / n as f64;
    if se == 0.0 {
        return Err(NotComputable::ZeroVariance);
    }
    let df = c - 1.0;
    let dist = StudentT::new(df)?;
    let t = mean / se;
    let critical = dist.quantile(0.5 + 0.5 * level)?;
    Ok(ClusterRobust {
        n,
        clusters,
        mean,
        se,
        df,
        t,
        p_value: dist.two_sided_p(t),
        interval: Interval::around(mean, critical * se, level),
    })
}

/// Dense ids `0..C` for cluster labels, numbered by first appearance; returns the ids and C.
pub(crate) fn dense_cluster_ids<K: Eq + Hash>(labels: &[K]) -> (Vec<usize>, usize) {
    // Labels are the caller's own data (category indices, task ids): the fast hasher fits.
    let mut seen: IdMap<&K, usize> = IdMap::default();
    let ids = labels
        .iter()
        .map(|label| {
            let next = seen.len();
            *seen.entry(label).or_insert(next)
        })
        .collect();
    (ids, seen.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_ids_by_first_appearance() {
        assert_eq!(
            dense_cluster_ids(&["b", "a", "b", "c"]),
            (vec![0, 1, 0, 2], 3)
        );
    }

    #[test]
    fn hand_computed_case() {
        // d = [1, 0 | 1, 2], mean 1; residual sums: -1, 1 → Σ² = 2; SE = sqrt(2·2)/4 = 0.5.
        let r = cluster_robust(&[1.0, 0.0, 1.0, 2.0], &[1, 1, 2, 2], 0.95).unwrap();
        assert_eq!((r.n, r.clusters, r.df), (4, 2, 1.0));
        assert!((r.se - 0.5).abs() < 1e-15);
        assert!((r.t - 2.0).abs() < 1e-15);
        assert!(r.interval.contains(r.mean));
    }

    #[test]
    fn degenerate_clusterings() {
        assert_eq!(
            cluster_robust(&[1.0, 0.0], &["x", "x"], 0.95),
            Err(NotComputable::NotEnoughData { needed: 2, got: 1 })
        );
        assert_eq!(
            cluster_robust(&[0.5, 0.5, 0.5], &[1, 2, 3], 0.95),
            Err(NotComputable::ZeroVariance)
        );
        assert!(cluster_robust(&[0.5], &[1, 2], 0.95).is_err());
    }
}
