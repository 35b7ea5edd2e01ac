//! Paired bootstrap throughput. Target (statistics brief): 100 000 tasks with B = 2000 in at
//! most 1 s on the project's 2-core machine, release build.

use criterion::{criterion_group, criterion_main, Criterion};
use eval_compare_core::stats::{paired_bootstrap, BootstrapSettings, Xoshiro256};
use std::hint::black_box;

/// Deltas of 100 000 tasks on a 1/4 grid in [−1, 1], like task means of 4 binary samples.
fn deltas(n: usize) -> Vec<f64> {
    let mut rng = Xoshiro256::from_seed(99);
    (0..n).map(|_| (rng.below(9) as f64 - 4.0) / 4.0).collect()
}

/// Deltas of 100 000 tasks between means of 7 and of 8 binary samples (a sample lost on one
/// side): on no grid once rounded to 1e-9, so the bootstrap looks their values up.
fn mixed_deltas(n: usize) -> Vec<f64> {
    let mut rng = Xoshiro256::from_seed(98);
    (0..n)
        .map(|_| rng.below(8) as f64 / 7.0 - rng.below(9) as f64 / 8.0)
        .collect()
}

fn bootstrap_100k_tasks(c: &mut Criterion) {
    let d = deltas(100_000);
    let settings = BootstrapSettings {
        resamples: 2000,
        seed: 7,
        level: 0.95,
    };
    let mut group = c.benchmark_group("paired_bootstrap");
    group.sample_size(10);
    group.bench_function("n=100000, B=2000, percentile+BCa", |b| {
        b.iter(|| paired_bootstrap(black_box(&d), black_box(&settings)))
    });
    let mixed = mixed_deltas(100_000);
    group.bench_function("n=100000, B=2000, deltas of 7 and 8 samples", |b| {
        b.iter(|| paired_bootstrap(black_box(&mixed), black_box(&settings)))
    });
    group.finish();
}

criterion_group!(benches, bootstrap_100k_tasks);
criterion_main!(benches);
