//! A training run's scorecard on the page: its sources read, planned, its runs loaded by the
//! one load engine (each once: [`ScorecardPlan::run_ids`] as the loader's [`LoadPlan`], so the
//! load panel's progress, Cancel and Retry are the comparison page's), then built a cell at a
//! time ([`ScorecardBuild`]): each cell's run set joined a slice at a time and its report
//! computed in slices ([`full_report_in_slices`]), the page painting between, the scorecard
//! shown as it fills. Each cell's report is the one `eval-compare report BASELINE CANDIDATE`
//! computes, so the page's exports equal `eval-compare scorecard`'s.
//!
//! The rule is not part of what is built: the page decides the built cells under the link's
//! rule ([`eval_compare_core::scorecard::Scorecard::with_rule`]), so changing a primary or a
//! guardrail recomputes nothing. A hand-picked baseline plans again from the same listed runs
//! (no second listing) and loads only the runs not read yet.
//!
//! Built again (a running evaluation refreshed, a baseline chosen by hand), the scorecard keeps
//! every comparison whose two runs did not change since it was made
//! ([`ScorecardBuild::keeping`], each run's [`RunVersion`] taken when a build starts) and
//! makes only the others, so the outcome is a full build's.

use eval_compare_core::client::ClientConfig;
use eval_compare_core::ledger::Ledger;
use std::collections::BTreeMap;

use eval_compare_core::load::{BuildStep, RunVersion, ScorecardSources};
use eval_compare_core::report::{Report, ReportSettings};
use eval_compare_core::scorecard::{
    baselines_by_hand, plan_scorecard, settings_of, unchanged, Rule, Scorecard, ScorecardBuild,
    ScorecardPlan,
};
use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::async_load::spawn_scoped;
use super::files::scorecard::{folder_pair_set, OpenFolders};
use super::loader::{LoadPlan, Loader, RunSetStart};
use super::report::{full_report_in_slices, now_ms, ReportKey, SLICE_MS};
use super::run_set_build::ITEMS_PER_STEP;
use super::shared::Shared;
use crate::yield_to_page::yield_to_page;

/// The sources of a scorecard as read: listed, or why they could not be.
pub type SourcesState = Option<Result<Shared<ScorecardSources>, String>>;

/// Where a scorecard's cells get their runs: the API's loader, or the run folders opened on the
/// Files page ([`super::files::scorecard`]).
#[derive(Clone)]
pub enum PairSource {
    /// Runs read from the API by the loader (boxed: a loader is many signals, a folder source
    /// one pointer).
    Api(Box<Loader>),
    /// Run folders opened in this browser.
    Folders(Shared<OpenFolders>),
}

/// A scorecard being loaded and built.
#[derive(Debug, Clone, Copy)]
pub struct ScorecardState {
    /// The training run's listed evaluations and baselines (`None` while being read).
    pub sources: RwSignal<SourcesState>,
    /// The plan: rows, columns, each cell's evaluation.
    pub plan: Memo<Option<ScorecardPlan>>,
    /// What the loader reads for it.
    pub load_plan: Memo<Option<LoadPlan>>,
    /// The scorecard as built so far (decided under no rule; see the module doc).
    pub built: RwSignal<Option<Shared<Scorecard>>>,
    /// Comparisons made and to make, while the build runs.
    pub progress: RwSignal<Option<(usize, usize)>>,
    /// Reads the sources again.
    pub retry_sources: Callback<()>,
}

/// Reads, loads and builds the scorecard `link` names with `config` (see the module doc).
pub fn use_scorecard(
    loader: Loader,
    config: Memo<Option<ClientConfig>>,
    link: Memo<ScorecardLink>,
) -> ScorecardState {
    let sources = RwSignal::new(None::<Result<Shared<ScorecardSources>, String>>);
    let training = Memo::new(move |_| link.with(|link| link.training_run.clone()));
    let attempt = RwSignal::new(0u32);
    Effect::new(move |_| {
        attempt.track();
        sources.set(None);
        let (Some(training), Some(config)) = (training.get(), config.get()) else {
            return;
        };
        spawn_scoped(async move {
            let read = loader.scorecard_sources(config, training).await;
            sources.try_set(Some(read.map(Shared::new).map_err(|e| e.to_string())));
        });
    });
    let by_hand = Memo::new(move |_| link.with(baselines_by_hand));
    let plan = Memo::new(move |_| {
        let training = training.get()?;
        sources.with(|sources| match sources {
            Some(Ok(sources)) => Some(plan_scorecard(&training, &sources.listed, &by_hand.get())),
            _ => None,
        })
    });
    let load_plan =
        Memo::new(move |_| plan.with(|p| p.as_ref().map(|p| LoadPlan::ScorecardRuns(p.run_ids()))));
    Effect::new(move |_| {
        if let (Some(plan), Some(config)) = (load_plan.get(), config.get()) {
            loader.ensure(&config, &plan);
            spawn_scoped(loader.refresh_loop(plan));
        }
    });
    let settings = Memo::new(move |_| link.with(settings_of));
    let state = ScorecardState {
        sources,
        plan,
        load_plan,
        built: RwSignal::new(None),
        progress: RwSignal::new(None),
        retry_sources: Callback::new(move |()| attempt.update(|n| *n += 1)),
    };
    let latest = StoredValue::new(0u64);
    let built_for = StoredValue::new(None::<(ScorecardPlan, ReportSettings)>);
    // The comparisons made so far, and the runs' versions they were made at.
    let kept = StoredValue::new(None::<(ScorecardBuild, BTreeMap<String, RunVersion>)>);
    Effect::new(move |_| {
        latest.update_value(|n| *n += 1);
        let this = latest.get_value();
        loader.settled();
        let loading = loader.is_loading();
        let (Some(plan), settings) = (plan.get(), settings.get()) else {
            state.built.set(None);
            state.progress.set(None);
            return;
        };
        if loading {
            return;
        }
        let key = (plan.clone(), settings.clone());
        // The same scorecard rebuilt (a running run refreshed): the one shown stays until done.
        let progressive = built_for.with_value(|built| built.as_ref() != Some(&key));
        if progressive {
            state.built.set(None);
        }
        built_for.set_value(Some(key));
        let versions = loader.run_versions(&plan.run_ids());
        let start = kept.with_value(|kept| match kept {
            Some((previous, before)) => {
                ScorecardBuild::keeping(plan.clone(), settings.clone(), previous, |run| {
                    unchanged(before, &versions, run)
                })
            }
            None => ScorecardBuild::new(plan.clone(), settings.clone()),
        });
        spawn_local(build_from(
            PairSource::Api(Box::new(loader)),
            start,
            progressive,
            state,
            move || latest.try_get_value() == Some(this),
            move |build: &ScorecardBuild| kept.set_value(Some((build.clone(), versions.clone()))),
        ));
    });
    state
}

/// Builds the scorecard of `build`'s plan and settings into `state` while `current` holds (the
/// comparisons `build` holds are not made again), showing it after each cell when
/// `progressive`, else once complete, and telling `made` the build after each comparison made.
pub(crate) async fn build_from(
    source: PairSource,
    mut build: ScorecardBuild,
    progressive: bool,
    state: ScorecardState,
    current: impl Fn() -> bool + Copy + 'static,
    made: impl Fn(&ScorecardBuild),
) {
    let settings = build.settings().clone();
    // A scorecard equal to the one shown (nothing changed) is not drawn again.
    let show = |build: &ScorecardBuild, state: ScorecardState| {
        let card = build.scorecard(&Rule::default());
        let same = state
            .built
            .with_untracked(|shown| shown.as_ref().is_some_and(|shown| **shown == card));
        if !same {
            state.built.try_set(Some(Shared::new(card)));
        }
        state.progress.try_set(Some(build.progress()));
    };
    if progressive {
        show(&build, state);
    }
    while let Some(pair) = build.next_pair().cloned() {
        let Some(report) =
            pair_report(&source, &pair.baseline, &pair.candidate, &settings, current).await
        else {
            return;
        };
        build.add_report(pair.cell, report.as_ref().map_err(Clone::clone));
        if current() {
            made(&build);
        }
        if progressive {
            // The page drawn in a task of its own, not after the report's last slice.
            yield_to_page().await;
            if !current() {
                return;
            }
            show(&build, state);
        } else {
            state.progress.try_set(Some(build.progress()));
        }
    }
    while let Some((index, previous)) = build.next_previous_pair() {
        let pair = previous.pair.clone();
        let Some(report) =
            pair_report(&source, &pair.baseline, &pair.candidate, &settings, current).await
        else {
            return;
        };
        build.add_previous_report(index, report.as_ref().map_err(Clone::clone));
        if current() {
            made(&build);
        }
        state.progress.try_set(Some(build.progress()));
    }
    yield_to_page().await;
    if !current() {
        return;
    }
    show(&build, state);
    state.progress.try_set(None);
}

/// The report of `baseline` against `candidate` (the two runs' set, baseline first, joined in
/// slices, then the report in slices), or why it could not be made; `None` once not `current`.
async fn pair_report(
    source: &PairSource,
    baseline: &str,
    candidate: &str,
    settings: &ReportSettings,
    current: impl Fn() -> bool + Copy,
) -> Option<Result<Report, String>> {
    let set = match source {
        PairSource::Api(loader) => loader_pair_set(**loader, baseline, candidate, current).await?,
        PairSource::Folders(folders) => {
            folder_pair_set(folders, baseline, candidate, current).await?
        }
    };
    let set = match set {
        Ok(set) => set,
        Err(error) => return Some(Err(error)),
    };
    let key = ReportKey {
        set: Shared::new(set),
        baseline: baseline.to_owned(),
        candidates: vec![candidate.to_owned()],
        settings: settings.clone(),
        as_of: None,
        ledger: Ledger::default(),
    };
    match full_report_in_slices(key, current).await {
        Ok(Some(report)) => Some(Ok(report)),
        Ok(None) => None,
        Err(error) => Some(Err(error.to_string())),
    }
}

/// The run set of `baseline` and `candidate` from the loader's store, joined in slices, or why
/// it could not be made; `None` once not `current`.
async fn loader_pair_set(
    loader: Loader,
    baseline: &str,
    candidate: &str,
    current: impl Fn() -> bool + Copy,
) -> Option<Result<eval_compare_core::model::RunSet, String>> {
    let ids = vec![baseline.to_owned(), candidate.to_owned()];
    let not_read = || {
        Some(Err(
            "the runs were not read completely; nothing to compare".to_owned()
        ))
    };
    let set = match untrack(|| loader.start_run_set(&LoadPlan::Runs(ids))) {
        None => return not_read(),
        Some(RunSetStart::Built(set)) => set,
        Some(RunSetStart::Steps(mut steps)) => loop {
            let started = now_ms();
            let step = loop {
                match loader.advance_run_set(&mut steps, ITEMS_PER_STEP) {
                    Some(BuildStep::Working) if now_ms() - started < SLICE_MS => continue,
                    other => break other,
                }
            };
            match step {
                Some(BuildStep::Working) => {
                    yield_to_page().await;
                    if !current() {
                        return None;
                    }
                }
                Some(BuildStep::Built(set)) => break set,
                Some(BuildStep::NotReady) | None => return not_read(),
            }
        },
    };
    Some(set.map_err(|error| error.to_string()))
}
