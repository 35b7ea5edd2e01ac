//! Statistics for paired run comparison, as specified in `design/statistics.md`.
//!
//! Pure functions over plain slices of per-task values (no IO, no clock, no global state).
//! Every statistic returns a [`Stat`]: either a value or an explicit [`NotComputable`] reason
//! (too little data, zero variance, non-finite input, bad parameter); results never contain
//! NaN and nothing panics. Functions that take deltas round them to 1e-9 first
//! ([`round_delta`]), so zeros and ties are not broken by float noise.
//!
//! Map of the module:
//! * [`describe`] — mean, sd, SE (ddof 1), Pearson correlation;
//! * [`paired`] — Δ with SE, t and z intervals, correlation; the paired t-test;
//! * [`wilcoxon`] — signed-rank test (Pratt / Wilcox zeros, exact or normal);
//! * [`mod@win_tie_loss`] — win/tie/loss counts and the sign test; [`mod@mcnemar`] — exact
//!   and mid-p; [`paired_binary`] — Tango's score interval for a paired difference of
//!   proportions;
//! * [`mod@confidence_sequence`] — an anytime-valid confidence sequence of Δ for running runs
//!   (predictable plug-in empirical Bernstein);
//! * [`bootstrap`] — seeded paired bootstrap (tasks or clusters), percentile and BCa;
//! * [`cluster`] — cluster-robust SE; [`power`] — MDE, tasks needed, K′ projection;
//! * [`mod@pass_at_k`] — unbiased pass@k and τ-bench's pass^k; [`multiplicity`] — Holm and Benjamini–Hochberg;
//! * [`dist`] — normal, Student t and binomial distributions written for this crate.

pub mod bootstrap;
pub mod cluster;
pub mod confidence_sequence;
mod delta_tests;
pub mod describe;
pub mod dist;
pub mod interval;
pub mod mcnemar;
pub mod multiplicity;
pub mod outcome;
pub mod paired;
pub mod paired_binary;
pub mod pass_at_k;
pub mod power;
pub mod validate;
pub mod wilcoxon;
pub mod win_tie_loss;

pub use bootstrap::{
    bootstrap_means, clustered_paired_bootstrap, paired_bootstrap, BootstrapResult, BootstrapRun,
    BootstrapSettings, Xoshiro256, DEFAULT_RESAMPLES,
};
pub use cluster::{cluster_robust, ClusterRobust};
pub use confidence_sequence::{confidence_sequence, confidence_sequence_path, ConfidenceSequence};
pub(crate) use delta_tests::delta_tests;
pub use describe::{
    mean, pearson_correlation, sample_sd, sample_variance, standard_error, summarize, Summary,
};
pub use interval::Interval;
pub use mcnemar::{mcnemar, mcnemar_from_outcomes, McNemar};
pub use multiplicity::{benjamini_hochberg, holm};
pub use outcome::{NotComputable, Stat};
pub use paired::{paired_estimate, paired_t_test, PairedEstimate, TTest};
pub use paired_binary::{tango_interval, tango_statistic};
pub use pass_at_k::{pass_at_k, pass_at_k_task, pass_hat_k, pass_hat_k_task, PassAtK, PassCounts};
pub use power::{
    minimum_detectable_effect, project_from_moments, project_samples_per_task, tasks_needed,
    MinimumDetectableEffect, SampleProjection, TaskMoments, MDE_MULTIPLIER,
};
pub use validate::{paired_deltas, round_delta, rounded_deltas, DEFAULT_LEVEL, DELTA_RESOLUTION};
pub use wilcoxon::{wilcoxon_signed_rank, PValueMethod, Wilcoxon, WilcoxonMethod, ZeroMethod};
pub use win_tie_loss::{sign_test, win_tie_loss, SignTest, WinTieLoss};
