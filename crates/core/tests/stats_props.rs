//! Property tests of the statistics engine: symmetries every paired statistic must respect,
//! intervals containing their estimates, p-values in [0, 1], seeded determinism, and the
//! multiple-testing adjustments' ordering.
#![allow(clippy::unwrap_used)]

use eval_compare_core::stats::{
    benjamini_hochberg, cluster_robust, clustered_paired_bootstrap, holm,
    minimum_detectable_effect, paired_bootstrap, paired_deltas, paired_estimate, paired_t_test,
    pass_at_k, pass_hat_k, sign_test, wilcoxon_signed_rank, win_tie_loss, BootstrapSettings,
    PassCounts, Stat, WilcoxonMethod, ZeroMethod,
};
use proptest::prelude::*;

/// Scores on a 1/8 grid (ties and zeros are common, sums are exact), paired per task.
fn paired_scores() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    prop::collection::vec((0u8..=8, 0u8..=8), 0..40).prop_map(|pairs| {
        pairs
            .into_iter()
            .map(|(a, b)| (f64::from(a) / 8.0, f64::from(b) / 8.0))
            .unzip()
    })
}

/// Every p-value the paired tests produce for these deltas, `None` where not computable.
fn p_values(deltas: &[f64]) -> Vec<Option<f64>> {
    let mut ps = vec![paired_t_test(deltas).ok().map(|t| t.p_value)];
    for zero_method in [ZeroMethod::Pratt, ZeroMethod::Wilcox] {
        for method in [
            WilcoxonMethod::Auto,
            WilcoxonMethod::ScipyAuto,
            WilcoxonMethod::Exact,
            WilcoxonMethod::Normal,
        ] {
            ps.push(
                wilcoxon_signed_rank(deltas, zero_method, method)
                    .ok()
                    .map(|w| w.p_value),
            );
        }
    }
    ps.push(sign_test(deltas).ok().map(|s| s.p_value));
    ps
}

fn same_ps(a: &[Option<f64>], b: &[Option<f64>]) -> bool {
    a.iter().zip(b).all(|(x, y)| match (x, y) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-12 * x.abs().max(1e-300),
        (None, None) => true,
        _ => false,
    })
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(1.0)
}

fn same_stat(a: &Stat<f64>, b: &Stat<f64>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => close(*x, *y),
        (Err(x), Err(y)) => x == y,
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn swapping_runs_negates_delta_and_keeps_p((base, cand) in paired_scores()) {
        let forward = paired_deltas(&base, &cand).unwrap();
        let backward = paired_deltas(&cand, &base).unwrap();
        prop_assert!(forward.iter().zip(&backward).all(|(f, b)| *f == -*b));
        if let (Ok(f), Ok(b)) = (paired_estimate(&base, &cand, 0.95), paired_estimate(&cand, &base, 0.95)) {
            prop_assert_eq!(f.delta, -b.delta);
            prop_assert!(same_stat(&f.se, &b.se));
        }
        prop_assert!(same_ps(&p_values(&forward), &p_values(&backward)));
    }

    #[test]
    fn adding_a_constant_to_both_runs_changes_nothing(
        (base, cand) in paired_scores(),
        shift in -16i32..=16,
    ) {
        let shift = f64::from(shift) / 8.0;
        let shifted_base: Vec<f64> = base.iter().map(|v| v + shift).collect();
        let shifted_cand: Vec<f64> = cand.iter().map(|v| v + shift).collect();
        let d = paired_deltas(&base, &cand).unwrap();
        let shifted = paired_deltas(&shifted_base, &shifted_cand).unwrap();
        prop_assert_eq!(&d, &shifted);
        if let (Ok(a), Ok(b)) = (paired_estimate(&base, &cand, 0.95), paired_estimate(&shifted_base, &shifted_cand, 0.95)) {
            prop_assert_eq!(a.delta, b.delta);
            prop_assert!(same_stat(&a.correlation, &b.correlation));
        }
        prop_assert!(same_ps(&p_values(&d), &p_values(&shifted)));
    }

    #[test]
    fn permuting_tasks_changes_nothing(
        (base, cand, order) in paired_scores().prop_flat_map(|(b, c)| {
            let n = b.len();
            (Just(b), Just(c), Just((0..n).collect::<Vec<usize>>()).prop_shuffle())
        }),
    ) {
        let permute = |v: &[f64]| order.iter().map(|&i| v[i]).collect::<Vec<f64>>();
        let (pb, pc) = (permute(&base), permute(&cand));
        let d = paired_deltas(&base, &cand).unwrap();
        let pd = paired_deltas(&pb, &pc).unwrap();
        match (paired_estimate(&base, &cand, 0.95), paired_estimate(&pb, &pc, 0.95)) {
            (Ok(a), Ok(b)) => {
                prop_assert!(close(a.delta, b.delta));
                prop_assert!(same_stat(&a.sd, &b.sd));
                prop_assert!(same_stat(&a.correlation, &b.correlation));
            }
            (a, b) => prop_assert_eq!(a.is_err(), b.is_err()),
        }
        prop_assert!(same_ps(&p_values(&d), &p_values(&pd)));
        let labels: Vec<usize> = (0..d.len()).map(|i| i % 3).collect();
        let plabels: Vec<usize> = order.iter().map(|&i| labels[i]).collect();
        let c = cluster_robust(&d, &labels, 0.95).map(|r| r.p_value);
        let pc_ = cluster_robust(&pd, &plabels, 0.95).map(|r| r.p_value);
        prop_assert!(same_stat(&c, &pc_));
    }

    #[test]
    fn intervals_contain_their_estimates_and_p_values_are_probabilities(
        (base, cand) in paired_scores(),
        level in 0.5f64..0.999,
    ) {
        let d = paired_deltas(&base, &cand).unwrap();
        if let Ok(e) = paired_estimate(&base, &cand, level) {
            for interval in [&e.t_interval, &e.z_interval].into_iter().flatten() {
                prop_assert!(interval.contains(e.delta));
                prop_assert_eq!(interval.level, level);
            }
        }
        let labels: Vec<usize> = (0..d.len()).map(|i| i % 4).collect();
        if let Ok(c) = cluster_robust(&d, &labels, level) {
            prop_assert!(c.interval.contains(c.mean));
            prop_assert!((0.0..=1.0).contains(&c.p_value));
        }
        for p in p_values(&d).into_iter().flatten() {
            prop_assert!((0.0..=1.0).contains(&p), "p = {}", p);
        }
        let settings = BootstrapSettings { resamples: 999, seed: 3, level };
        if let Ok(b) = paired_bootstrap(&d, &settings) {
            let slack = 1e-12;
            prop_assert!(b.percentile.lower <= b.estimate + slack && b.estimate <= b.percentile.upper + slack);
            if let Ok(bca) = b.bca {
                prop_assert!(bca.lower <= b.estimate + slack && b.estimate <= bca.upper + slack);
            }
        }
    }

    #[test]
    fn same_seed_same_bootstrap(
        deltas in prop::collection::vec(-1.0f64..1.0, 2..60),
        seed in any::<u64>(),
    ) {
        let settings = BootstrapSettings { resamples: 500, seed, level: 0.95 };
        prop_assert_eq!(paired_bootstrap(&deltas, &settings), paired_bootstrap(&deltas, &settings));
    }

    #[test]
    fn holm_and_bh_are_monotone_adjustments(p in prop::collection::vec(0.0f64..=1.0, 0..30)) {
        let holm = holm(&p).unwrap();
        let bh = benjamini_hochberg(&p).unwrap();
        let mut order: Vec<usize> = (0..p.len()).collect();
        order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
        for (rank, &i) in order.iter().enumerate() {
            prop_assert!(holm[i] >= p[i] && holm[i] <= 1.0);
            prop_assert!(bh[i] >= p[i] && bh[i] <= 1.0);
            prop_assert!(bh[i] <= holm[i]);
            if rank > 0 {
                let prev = order[rank - 1];
                prop_assert!(holm[i] >= holm[prev]);
                prop_assert!(bh[i] >= bh[prev]);
            }
        }
    }
}

proptest! {
    /// pass^k ≤ pass@k per task and on average; pass^1 = pass@1 = the mean pass rate; tasks
    /// with fewer than k samples are left out of both alike.
    #[test]
    fn pass_hat_k_never_exceeds_pass_at_k(
        tasks in prop::collection::vec((1u64..40).prop_flat_map(|n| (Just(n), 0..=n)), 1..30),
        k in 1u64..12,
    ) {
        let counts: Vec<PassCounts> = tasks
            .iter()
            .map(|&(samples, passes)| PassCounts { samples, passes })
            .collect();
        let at = pass_at_k(&counts, k).unwrap();
        let hat = pass_hat_k(&counts, k).unwrap();
        prop_assert_eq!((at.included, at.excluded), (hat.included, hat.excluded));
        for (a, h) in at.per_task.iter().zip(&hat.per_task) {
            prop_assert_eq!(a.is_some(), h.is_some());
            if let (Some(a), Some(h)) = (a, h) {
                prop_assert!(*h <= *a + 1e-15 && *h >= 0.0 && *a <= 1.0);
            }
        }
        if let (Ok(a), Ok(h)) = (&at.mean, &hat.mean) {
            prop_assert!(*h <= *a + 1e-15);
        }
        let rate = tasks.iter().map(|&(n, c)| c as f64 / n as f64).sum::<f64>() / tasks.len() as f64;
        let one_at = pass_at_k(&counts, 1).unwrap().mean.unwrap();
        let one_hat = pass_hat_k(&counts, 1).unwrap().mean.unwrap();
        prop_assert!((one_at - rate).abs() <= 1e-12 && (one_hat - rate).abs() <= 1e-12);
    }
}

/// Finite values from 1e-12 to 1e100 in magnitude, either sign.
fn wide_values() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec((-1.0f64..1.0, -12i32..=99), 0..30).prop_map(|v| {
        v.into_iter()
            .map(|(mantissa, exponent)| mantissa * 10f64.powi(exponent))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn no_nan_or_infinity_reaches_a_result(base in wide_values(), cand in wide_values()) {
        let n = base.len().min(cand.len());
        let (base, cand) = (&base[..n], &cand[..n]);
        let d = paired_deltas(base, cand);
        let deltas = d.clone().unwrap_or_default();
        let labels: Vec<usize> = (0..deltas.len()).map(|i| i % 3).collect();
        let settings = BootstrapSettings { resamples: 50, seed: 1, level: 0.95 };
        let rendered = format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            d,
            paired_estimate(base, cand, 0.95),
            paired_t_test(&deltas),
            p_values(&deltas),
            cluster_robust(&deltas, &labels, 0.95),
            paired_bootstrap(&deltas, &settings),
            clustered_paired_bootstrap(&deltas, &labels, &settings),
            minimum_detectable_effect(&deltas),
            win_tie_loss(&deltas),
            holm(&[]),
        );
        prop_assert!(!rendered.contains("NaN") && !rendered.contains("inf"), "{}", rendered);
    }
}
