//! Multiple-testing adjustments for several checkpoints against one baseline (statistics.md §4).

use super::outcome::Stat;
use super::validate::check_probability;

/// Holm step-down adjusted p-values (family-wise error), in input order.
///
/// Sorted ascending, `adj₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎)`: monotone, never below the
/// raw p, capped at 1. This is plain Holm (statsmodels `multipletests(method='holm')`), not the
/// Holm–Šidák variant that `multipletests` uses by default.
pub fn holm(p_values: &[f64]) -> Stat<Vec<f64>> {
    let order = ascending_order(p_values)?;
    let m = p_values.len() as f64;
    let mut adjusted = vec![0.0; p_values.len()];
    let mut running_max = 0.0_f64;
    for (rank, &i) in order.iter().enumerate() {
        running_max = running_max.max(((m - rank as f64) * p_values[i]).min(1.0));
        adjusted[i] = running_max;
    }
    Ok(adjusted)
}

/// Benjamini–Hochberg adjusted p-values (false discovery rate), in input order.
///
/// Sorted ascending, `adj₍ᵢ₎ = min_{j ≥ i} min(1, m/j·p₍ⱼ₎)` (scipy
/// `false_discovery_control(method='bh')`, statsmodels `fdr_bh`).
pub fn benjamini_hochberg(p_values: &[f64]) -> Stat<Vec<f64>> {
    let order = ascending_order(p_values)?;
    let m = p_values.len() as f64;
    let mut adjusted = vec![0.0; p_values.len()];
    let mut running_min = 1.0_f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        running_min = running_min.min(m / (rank + 1) as f64 * p_values[i]);
        adjusted[i] = running_min;
    }
    Ok(adjusted)
}

/// Validates every p lies in [0, 1] and returns indices sorted by p (stable).
fn ascending_order(p_values: &[f64]) -> Stat<Vec<usize>> {
    for &p in p_values {
        check_probability("p_values", p)?;
    }
    let mut order: Vec<usize> = (0..p_values.len()).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_small_family() {
        let adj = holm(&[0.01, 0.04, 0.03]).unwrap();
        // sorted 0.01, 0.03, 0.04 → 0.03, 0.06, max(0.06, 0.04) = 0.06
        assert_eq!(adj, vec![0.03, 0.06, 0.06]);
        assert_eq!(holm(&[0.9, 0.8]).unwrap(), vec![1.0, 1.0]);
    }

    #[test]
    fn bh_small_family() {
        let adj = benjamini_hochberg(&[0.01, 0.04, 0.03]).unwrap();
        // sorted 0.01·3, 0.03·3/2, 0.04 → 0.03, 0.04, 0.04
        assert!((adj[0] - 0.03).abs() < 1e-15);
        assert!((adj[1] - 0.04).abs() < 1e-15 && (adj[2] - 0.04).abs() < 1e-15);
    }

    #[test]
    fn empty_and_invalid() {
        assert_eq!(holm(&[]), Ok(vec![]));
        assert!(benjamini_hochberg(&[0.5, f64::NAN]).is_err());
        assert!(holm(&[1.5]).is_err());
    }
}
