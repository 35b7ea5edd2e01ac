//! A training run's scorecard from the run folders opened on the Files page, with no API: the
//! core's [`ScorecardFolders`] over the opened Trajectory folders (Chronicle job folders left
//! out) offers each training run whose checkpoint evaluations are open, and plans the link's
//! one as `eval-compare scorecard --folders` does; the scorecard's own cell-by-cell build
//! ([`crate::state::scorecard`]) then makes each cell, its pair's run set joined from its two
//! folders a slice at a time ([`folder_pair_set`]), so the page's exports equal the CLI's.
//!
//! A link cannot carry the folders: opened elsewhere, the page asks for them
//! ([`FolderScorecard::missing`] names the runs a hand-picked baseline needs).

use std::sync::Arc;

use eval_compare_core::load::ScorecardSources;
use eval_compare_core::model::{RunSet, SourceKind};
use eval_compare_core::report::ReportSettings;
use eval_compare_core::run_folder::{Folder, FolderSetBuild, PackedFolder};
use eval_compare_core::scorecard::{
    baselines_by_hand, settings_of, FoldersError, ScorecardBuild, ScorecardFolders, ScorecardPlan,
};
use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::{FileRuns, OpenedRun};
use crate::state::report::{now_ms, SLICE_MS};
use crate::state::run_set_build::ITEMS_PER_STEP;
use crate::state::scorecard::{build_from, PairSource, ScorecardState};
use crate::state::shared::Shared;
use crate::yield_to_page::yield_to_page;

/// The opened folders as a scorecard's source.
pub type OpenFolders = ScorecardFolders<Arc<PackedFolder>>;

/// The opened Trajectory folders as a scorecard's source; an error only if the core refuses
/// them (the files pages never keep one run open twice).
pub fn scorecard_folders(runs: &[OpenedRun]) -> Result<OpenFolders, FoldersError> {
    ScorecardFolders::new(
        runs.iter()
            .filter(|opened| matches!(opened.run.as_ref(), Folder::Trajectory(_)))
            .map(|opened| (opened.folder.clone(), Arc::clone(&opened.run))),
    )
}

/// The run set of a pair from its two folders, baseline first, joined about [`SLICE_MS`] at a
/// time with the page painting between; `None` once not `current`.
pub async fn folder_pair_set(
    folders: &OpenFolders,
    baseline: &str,
    candidate: &str,
    current: impl Fn() -> bool,
) -> Option<Result<RunSet, String>> {
    let [base, cand] = match folders.pair_folders(baseline, candidate) {
        Ok(pair) => pair,
        Err(why) => return Some(Err(why)),
    };
    let mut steps =
        FolderSetBuild::new(vec![Arc::clone(base), Arc::clone(cand)], SourceKind::Files);
    loop {
        let started = now_ms();
        while now_ms() - started < SLICE_MS {
            if let Some(built) = steps.advance(ITEMS_PER_STEP) {
                return Some(built.map_err(|error| error.to_string()));
            }
        }
        yield_to_page().await;
        if !current() {
            return None;
        }
    }
}

/// A scorecard of opened folders being built: the scorecard page's state, and what stops it.
#[derive(Debug, Clone, Copy)]
pub struct FolderScorecard {
    /// The state the scorecard's body shows.
    pub state: ScorecardState,
    /// Why no scorecard can be planned from the opened folders (`None` when one is, or no
    /// folder is open).
    pub problem: Memo<Option<String>>,
    /// The runs the plan compares that no opened folder holds.
    pub missing: Memo<Vec<String>>,
}

/// Plans and builds the scorecard `link` names from the folders `file_runs` holds (see the
/// module doc); built again when the opened folders, the plan or the settings change.
pub fn use_folder_scorecard(file_runs: FileRuns, link: Memo<ScorecardLink>) -> FolderScorecard {
    let folders = Memo::new(move |_| {
        scorecard_folders(&file_runs.runs())
            .map(Shared::new)
            .map_err(|error| error.to_string())
    });
    let training = Memo::new(move |_| link.with(|link| link.training_run.clone()));
    let by_hand = Memo::new(move |_| link.with(baselines_by_hand));
    let planned = Memo::new(move |_| {
        let training = training.get()?;
        let folders = folders.get().ok()?;
        Some(
            by_hand
                .with(|by_hand| folders.plan(Some(&training), by_hand))
                .map_err(|error| error.to_string()),
        )
    });
    let plan = Memo::new(move |_| planned.get().and_then(Result::ok));
    let problem = Memo::new(move |_| match folders.get() {
        Err(why) => Some(why),
        Ok(_) => planned.get().and_then(Result::err),
    });
    let missing = Memo::new(move |_| {
        let (Some(plan), Ok(folders)) = (plan.get(), folders.get()) else {
            return Vec::new();
        };
        folders.missing(&plan)
    });
    let sources = RwSignal::new(None);
    Effect::new(move |_| {
        let listed = folders.with(|folders| {
            folders
                .as_ref()
                .map(|folders| folders.listed().to_vec())
                .unwrap_or_default()
        });
        sources.set(Some(Ok(Shared::new(ScorecardSources {
            agent_id: String::new(),
            listed,
        }))));
    });
    let state = ScorecardState {
        sources,
        plan,
        load_plan: Memo::new(|_| None),
        built: RwSignal::new(None),
        progress: RwSignal::new(None),
        retry_sources: Callback::new(|()| {}),
    };
    let settings = Memo::new(move |_| link.with(settings_of));
    start_builds(folders, plan, missing, settings, state);
    FolderScorecard {
        state,
        problem,
        missing,
    }
}

/// Builds the scorecard whenever the folders, the plan or the settings change (and no run is
/// missing), the scorecard shown as it fills when the plan or the settings changed. A comparison
/// of two runs whose folders are the same openings as when it was made is kept
/// ([`ScorecardBuild::keeping`]): opening one more folder makes only the cells it changes.
fn start_builds(
    folders: Memo<Result<Shared<OpenFolders>, String>>,
    plan: Memo<Option<ScorecardPlan>>,
    missing: Memo<Vec<String>>,
    settings: Memo<ReportSettings>,
    state: ScorecardState,
) {
    let latest = StoredValue::new(0u64);
    let built_for = StoredValue::new(None::<(ScorecardPlan, ReportSettings)>);
    // The comparisons made so far, and the folders they were made from.
    let kept = StoredValue::new(None::<(ScorecardBuild, Shared<OpenFolders>)>);
    Effect::new(move |_| {
        latest.update_value(|n| *n += 1);
        let this = latest.get_value();
        let (Ok(folders), Some(plan), true) =
            (folders.get(), plan.get(), missing.with(Vec::is_empty))
        else {
            state.built.set(None);
            state.progress.set(None);
            return;
        };
        let settings = settings.get();
        let key = (plan.clone(), settings.clone());
        let progressive = built_for.with_value(|built| built.as_ref() != Some(&key));
        if progressive {
            state.built.set(None);
        }
        built_for.set_value(Some(key));
        let start = kept.with_value(|kept| match kept {
            Some((previous, before)) => {
                ScorecardBuild::keeping(plan.clone(), settings.clone(), previous, |run| {
                    folders.same_folder(before, run)
                })
            }
            None => ScorecardBuild::new(plan, settings),
        });
        let made_from = folders.clone();
        spawn_local(build_from(
            PairSource::Folders(folders),
            start,
            progressive,
            state,
            move || latest.try_get_value() == Some(this),
            move |build: &ScorecardBuild| kept.set_value(Some((build.clone(), made_from.clone()))),
        ));
    });
}
