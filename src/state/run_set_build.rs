//! The run set of the comparison on screen, built a slice at a time: from the loader's store
//! ([`use_run_set`]), or from anything else that builds one in steps ([`use_stepped_run_set`]:
//! the Files page's opened folders).
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
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::loader::{LoadPlan, Loader, RunSetStart};
use super::report::{now_ms, SLICE_MS};
use super::shared::Shared;
use crate::yield_to_page::yield_to_page;

/// Items one step walks between clock readings: a millisecond's worth or so.
pub(crate) const ITEMS_PER_STEP: usize = 20_000;

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

/// How a build starts: with nothing to build (yet), already built, or a step at a time.
pub enum BuildStart<B> {
    /// Nothing to build until what it reads is ready.
    Nothing,
    /// Built at once (or refused).
    Built(Result<RunSet, ModelError>),
    /// A build to step.
    Steps(B),
}

/// A run set's build, stepped by [`use_stepped_run_set`].
pub trait SteppedBuild: 'static {
    /// One step of about a millisecond: `None` while more are needed; `Some(None)` when there
    /// is nothing to build after all (what it reads is no longer ready); `Some(Some(result))`
    /// once built or refused.
    fn step(&mut self) -> Option<Option<Result<RunSet, ModelError>>>;
    /// The share of the build done, from 0 to 1.
    fn progress(&self) -> f64;
}

/// The loader's build over its store.
struct LoaderBuild {
    loader: Loader,
    build: RunSetBuild,
}

impl SteppedBuild for LoaderBuild {
    fn step(&mut self) -> Option<Option<Result<RunSet, ModelError>>> {
        match self.loader.advance_run_set(&mut self.build, ITEMS_PER_STEP) {
            Some(BuildStep::Working) => None,
            Some(BuildStep::Built(result)) => Some(Some(result)),
            Some(BuildStep::NotReady) | None => Some(None),
        }
    }

    fn progress(&self) -> f64 {
        self.build.progress()
    }
}

/// What one slice of a build ended with.
enum Slice {
    /// Time is up; more slices are needed.
    Paused,
    /// The build ended.
    Ended(Option<Result<RunSet, ModelError>>),
}

/// Steps `build` for about [`SLICE_MS`].
fn build_slice(build: &mut impl SteppedBuild) -> Slice {
    let started = now_ms();
    loop {
        if let Some(ended) = build.step() {
            return Slice::Ended(ended);
        }
        if now_ms() - started >= SLICE_MS {
            return Slice::Paused;
        }
    }
}

/// Builds the run set of `plan` whenever the loaded data settle or change; nothing while
/// `hold` (the comparison cannot be built: jobs without trials).
pub fn use_run_set(loader: Loader, plan: Memo<Option<LoadPlan>>, hold: Memo<bool>) -> RunSetState {
    let key = Memo::new(move |_| plan.get().filter(|_| !hold.get()));
    use_stepped_run_set(key, move |plan| match loader.start_run_set(plan) {
        None => BuildStart::Nothing,
        Some(RunSetStart::Built(result)) => BuildStart::Built(result),
        Some(RunSetStart::Steps(build)) => BuildStart::Steps(LoaderBuild { loader, build }),
    })
}

/// Builds the run set of `key` whenever it, or what `start` reads (tracked), changes: in its
/// first slice when that is enough, else a slice at a time between paints with its progress
/// shown. The run set shown stays while the same key's is rebuilt; another key clears it.
pub fn use_stepped_run_set<K, B>(
    key: Memo<Option<K>>,
    start: impl Fn(&K) -> BuildStart<B> + 'static,
) -> RunSetState
where
    K: Clone + PartialEq + Send + Sync + 'static,
    B: SteppedBuild,
{
    let state = RunSetState {
        built: RwSignal::new(None),
        progress: RwSignal::new(None),
    };
    let latest = StoredValue::new(0u64);
    let built_for = StoredValue::new(None::<K>);
    Effect::new(move |_| {
        latest.update_value(|count| *count += 1);
        let this = latest.get_value();
        let key = key.get();
        if built_for.with_value(|built| *built != key) {
            // Another comparison: what was shown belongs to the previous one.
            state.built.set(None);
            built_for.set_value(None);
        }
        let Some(key) = key else {
            state.progress.set(None);
            return;
        };
        let finish = move |result: Option<Result<RunSet, ModelError>>, key: K| {
            built_for.set_value(result.is_some().then_some(key));
            state
                .built
                .try_set(result.map(|built| built.map(Shared::new)));
            state.progress.try_set(None);
        };
        let mut build = match start(&key) {
            BuildStart::Nothing => return finish(None, key),
            BuildStart::Built(result) => return finish(Some(result), key),
            BuildStart::Steps(build) => build,
        };
        if let Slice::Ended(result) = build_slice(&mut build) {
            return finish(result, key);
        }
        state.progress.set(Some(build.progress()));
        spawn_local(async move {
            loop {
                // Let the page paint and handle input before the next slice.
                yield_to_page().await;
                if latest.try_get_value() != Some(this) {
                    return;
                }
                match build_slice(&mut build) {
                    Slice::Paused => {
                        state.progress.try_set(Some(build.progress()));
                    }
                    Slice::Ended(result) => {
                        // Shown in a task of its own: what follows it (the report's first
                        // slice) does not lengthen the build's last slice.
                        yield_to_page().await;
                        if latest.try_get_value() == Some(this) {
                            finish(result, key);
                        }
                        return;
                    }
                }
            }
        });
    });
    state
}
