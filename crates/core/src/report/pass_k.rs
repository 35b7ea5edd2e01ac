//! pass@k beside pass^k for the same k, as table cells for the page and the markdown.

use crate::stats::{PairedEstimate, PassAtK, Stat};
use crate::text::{count, interval_points, mean, signed_points, StatText};

use super::paired_analysis::PassAtKComparison;

/// The column headings of [`pass_k_cells`].
pub const PASS_K_COLUMNS: [&str; 6] = [
    "k",
    "Tasks (left out: n < k)",
    "pass@k (baseline → candidate)",
    "Δ pass@k (points, t interval)",
    "pass^k (baseline → candidate)",
    "Δ pass^k (points, t interval)",
];

/// The cells of one k's row: the tasks it covers, each run's pass@k and pass^k, and their
/// paired differences with the t interval.
pub fn pass_k_cells(pk: &PassAtKComparison) -> [String; 6] {
    let mean_of = |stat: &Stat<PassAtK>| {
        StatText::and_then(stat, |p| StatText::of(&p.mean, |m| mean(*m))).text()
    };
    let difference = |stat: &Stat<PairedEstimate>| {
        StatText::of(stat, |e| match &e.t_interval {
            Ok(interval) => format!("{} ({})", signed_points(e.delta), interval_points(interval)),
            Err(_) => signed_points(e.delta),
        })
        .text()
    };
    [
        pk.k.to_string(),
        format!(
            "{} ({})",
            count(pk.tasks as u64),
            count(pk.tasks_excluded as u64)
        ),
        format!("{} → {}", mean_of(&pk.baseline), mean_of(&pk.candidate)),
        difference(&pk.difference),
        format!(
            "{} → {}",
            mean_of(&pk.baseline_pass_hat),
            mean_of(&pk.candidate_pass_hat)
        ),
        difference(&pk.pass_hat_difference),
    ]
}
