//! The run set of the comparison on screen, built from the loader's store a slice at a time.
//!
//! A comparison of two runs of 100,000 tasks × 8 samples joins 3.2 million listed items: built
//! at once, that froze the page for seconds. Here the core's step-by-step build
//! ([`eval_compare_core::load::RunSetBuild`]) runs for about [`SLICE_MS`] at a time, the page
//! painting and handling input in between, with its progress shown. A small comparison (the
//! demo's) is built within its first slice, at once, as before. When the loaded data change (a
//! refresh of a running run), the run set shown stays until the new one is ready; another
//! comparison clears it at once.

use eval_compare_core::load::{BuildStep, RunSetBuild};
use eval_compare_core::model::{ModelError, RunSet};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::loader::{LoadPlan, Loader, RunSetStart};
use super::report::{now_ms, SLICE_MS};
use super::shared::Shared;

/// Items one step walks between clock readings: a millisecond's worth or so.
const ITEMS_PER_STEP: usize = 20_000;

/// A run set as shown: built, or why the runs could not be combined.
pub type BuiltRunSet = Option<Result<Shared<RunSet>, ModelError>>;

/// The run set of the comparison on screen, and how far the build of the next one is.
#[derive(Debug, Clone, Copy)]
pub struct RunSetState {
    /// The latest run set built (`None` while the first is being built, or not ready).
    pub built: RwSignal<BuiltRunSet>,
    /// The share of the build in progress done, while one is.
    pub progress: RwSignal<Option<f64>>,
}

/// What one slice of a build ended with.
enum Slice {
    /// Time is up; more slices are needed.
    Paused,
    /// The build ended.
    Ended(Option<Result<RunSet, ModelError>>),
}

/// Steps `build` for about [`SLICE_MS`].
fn build_slice(loader: Loader, build: &mut RunSetBuild) -> Slice {
    let started = now_ms();
    loop {
        match loader.advance_run_set(build, ITEMS_PER_STEP) {
            Some(BuildStep::Working) => {}
            Some(BuildStep::Built(result)) => return Slice::Ended(Some(result)),
            Some(BuildStep::NotReady) | None => return Slice::Ended(None),
        }
        if now_ms() - started >= SLICE_MS {
            return Slice::Paused;
        }
    }
}

/// Builds the run set of `plan` whenever the loaded data settle or change; nothing while
/// `hold` (the comparison cannot be built: jobs without trials).
pub fn use_run_set(loader: Loader, plan: Memo<Option<LoadPlan>>, hold: Memo<bool>) -> RunSetState {
    let state = RunSetState {
        built: RwSignal::new(None),
        progress: RwSignal::new(None),
    };
    let latest = StoredValue::new(0u64);
    let built_for = StoredValue::new(None::<LoadPlan>);
    Effect::new(move |_| {
        latest.update_value(|count| *count += 1);
        let this = latest.get_value();
        let plan = plan.get().filter(|_| !hold.get());
        if built_for.get_value() != plan {
            // Another comparison: what was shown belongs to the previous one.
            state.built.set(None);
            built_for.set_value(None);
        }
        let Some(plan) = plan else {
            state.progress.set(None);
            return;
        };
        let finish = move |result: Option<Result<RunSet, ModelError>>, plan: LoadPlan| {
            built_for.set_value(result.is_some().then_some(plan));
            state
                .built
                .try_set(result.map(|built| built.map(Shared::new)));
            state.progress.try_set(None);
        };
        let mut build = match loader.start_run_set(&plan) {
            None => return finish(None, plan),
            Some(RunSetStart::Built(result)) => return finish(Some(result), plan),
            Some(RunSetStart::Steps(build)) => build,
        };
        if let Slice::Ended(result) = build_slice(loader, &mut build) {
            return finish(result, plan);
        }
        state.progress.set(Some(build.progress()));
        spawn_local(async move {
            loop {
                // Let the page paint and handle input before the next slice.
                TimeoutFuture::new(0).await;
                if latest.try_get_value() != Some(this) {
                    return;
                }
                match build_slice(loader, &mut build) {
                    Slice::Paused => {
                        state.progress.try_set(Some(build.progress()));
                    }
                    Slice::Ended(result) => {
                        // Shown in a task of its own: what follows it (the report's first
                        // slice) does not lengthen the build's last slice.
                        TimeoutFuture::new(0).await;
                        if latest.try_get_value() == Some(this) {
                            finish(result, plan);
                        }
                        return;
                    }
                }
            }
        });
    });
    state
}
