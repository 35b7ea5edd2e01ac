//! The anytime-valid confidence sequence of Δ against Howard's `confseq` package
//! (`predmix_empbern_twosided_cs`, v0.0.11), run by
//! `scripts/reference/confidence_sequence_reference.py` into
//! `tests/data/confidence_sequence_reference.json`: every bound after every task of nine
//! sequences (binary and continuous deltas, levels 90–99%), the width against the t interval,
//! and the simulated rate of ever missing the truth when looking after every task.
//!
//! Tolerance: 1e-9 absolute on bounds in [−1, 1].
#![allow(clippy::unwrap_used)]

use eval_compare_core::stats::{confidence_sequence, confidence_sequence_path};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    cases: Vec<Case>,
    width_ratios: WidthRatios,
    simulation: Simulation,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    level: f64,
    deltas: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
}

#[derive(Deserialize)]
struct WidthRatios {
    rows: Vec<WidthRow>,
}

#[derive(Deserialize)]
struct WidthRow {
    n: usize,
    cs_width: f64,
    t_width: f64,
}

#[derive(Deserialize)]
struct Simulation {
    level: f64,
    cs_ever_missed: f64,
    t_ever_missed: f64,
}

fn reference() -> Reference {
    serde_json::from_str(include_str!("data/confidence_sequence_reference.json")).unwrap()
}

#[test]
fn every_bound_after_every_task_matches_confseq() {
    let reference = reference();
    assert!(reference.cases.len() >= 9);
    for case in &reference.cases {
        let path = confidence_sequence_path(&case.deltas, case.level).unwrap();
        assert_eq!(path.len(), case.deltas.len(), "{}", case.name);
        for (t, ci) in path.iter().enumerate() {
            let (lower, upper) = (case.lower[t], case.upper[t]);
            assert!(
                (ci.lower - lower).abs() < 1e-9 && (ci.upper - upper).abs() < 1e-9,
                "{} after {} tasks: got [{}, {}], confseq [{lower}, {upper}]",
                case.name,
                t + 1,
                ci.lower,
                ci.upper
            );
        }
        let last = confidence_sequence(&case.deltas, case.level).unwrap();
        assert_eq!(last.interval, *path.last().unwrap());
        assert_eq!(last.tasks, case.deltas.len());
    }
}

#[test]
fn the_reference_shows_the_price_and_the_reason() {
    let reference = reference();
    // The price: wider than the fixed-n t interval at every n, by less than 2.5 times from 50
    // tasks on.
    for row in &reference.width_ratios.rows {
        let ratio = row.cs_width / row.t_width;
        assert!((1.0..2.5).contains(&ratio), "n = {}: ratio {ratio}", row.n);
    }
    // The reason: looking after every task, the t interval misses the truth at some n far more
    // often than 1 − level; the confidence sequence does not.
    let simulation = &reference.simulation;
    assert!(simulation.cs_ever_missed <= 1.0 - simulation.level);
    assert!(simulation.t_ever_missed > 0.2);
}
