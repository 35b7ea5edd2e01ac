//! The notice while Chronicle jobs of the comparison are queued or running, or no longer
//! followed.

use eval_compare_core::api::{ChronicleJob, JobStatus};
use leptos::prelude::*;

use super::live_notice::{LiveLines, LiveNotice};
use super::words::live_line;
use crate::state::loader::{LiveMode, REFRESH_MS};

/// While Chronicle jobs of the comparison are queued or running: each one's status and trials
/// finished of those scheduled, how it is watched (its progress stream, or polling), and that
/// the numbers below are partial.
#[component]
pub fn LiveJobsNotice(
    /// The comparison's jobs as last read.
    #[prop(into)]
    jobs: Signal<Vec<ChronicleJob>>,
    /// How the running jobs are watched (`None` when none is).
    #[prop(into)]
    mode: Signal<Option<LiveMode>>,
) -> impl IntoView {
    let live = move || {
        jobs.with(|jobs| {
            jobs.iter()
                .filter(|job| matches!(job.status, Some(JobStatus::Queued | JobStatus::Running)))
                .map(live_line)
                .collect::<Vec<_>>()
        })
    };
    move || {
        let lines = live();
        if lines.is_empty() {
            return None;
        }
        let how = match mode.get() {
            Some(LiveMode::Streaming) => "following its progress stream".to_owned(),
            Some(LiveMode::Polling) | None => {
                format!("checking every {} s or less often", REFRESH_MS / 1_000)
            }
            Some(LiveMode::Stopped(why)) => {
                return Some(view! {
                    <section class="notice notice-caution live-jobs" role="status">
                        <p class="live-jobs-stopped">
                            <strong>"Not followed any more"</strong>
                            {format!(
                                " — {why}. Reload the page to follow it again, or check the job \
                                 on the platform."
                            )}
                        </p>
                        <LiveLines lines/>
                    </section>
                }
                .into_any());
            }
        };
        Some(
            view! {
                <LiveNotice
                    how=format!("{how}; the report updates as trials finish.")
                    lines
                    note="The numbers below are partial: trials not finished yet are counted as \
                          such in the coverage ledger."
                />
            }
            .into_any(),
        )
    }
}
