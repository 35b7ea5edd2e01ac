//! Reading a trajectory's transcript and its steps: methods of the client
//! ([`TrajectoryClient::transcript`], [`TrajectoryClient::step_summaries`]) written here, on
//! its steps list ([`TrajectoryClient::trajectory_steps`]), its paginator and its one page
//! guard, so the client knows nothing of transcripts.

use crate::client::{segment, ApiError, PageCap, PageProgress, TrajectoryClient, Transport};

use super::model::Transcript;
use super::steps::{StepSummaries, StepSummary, STEP_PAGE_LIMIT};

impl<T: Transport> TrajectoryClient<T> {
    /// The transcript of a trajectory with `num_steps` steps, read the guide's way: each step
    /// holds the conversation so far, so the last step is the whole transcript
    /// (`GET …/steps?start_step_index={num_steps - 1}&limit=1`, one request). With no step
    /// nothing is sent: the transcript says the trajectory failed before its first model call.
    /// A page without that step, or with another step, is an error.
    pub async fn transcript(
        &self,
        trajectory_id: &str,
        num_steps: u64,
    ) -> Result<Transcript, ApiError> {
        segment("trajectory id", trajectory_id)?;
        let Some(last) = num_steps.checked_sub(1) else {
            return Ok(Transcript::no_steps(trajectory_id));
        };
        let mut pages = self
            .trajectory_steps(trajectory_id, Some(last))?
            .with_limit(1)?;
        let page = match pages.next_page().await {
            Some(page) => page?,
            None => return Err(missing_last_step(trajectory_id, last, "no page")),
        };
        let more_steps_after = page.has_more;
        let Some(step) = page.items.into_iter().next() else {
            return Err(missing_last_step(trajectory_id, last, "no step"));
        };
        if u64::try_from(step.step_index).ok() != Some(last) {
            return Err(missing_last_step(
                trajectory_id,
                last,
                &format!("step {}", step.step_index),
            ));
        }
        Ok(Transcript::from_last_step(
            trajectory_id,
            num_steps,
            &step,
            more_steps_after,
        ))
    }

    /// Every step's reward and `has_error`, paging through the steps (pages of
    /// [`STEP_PAGE_LIMIT`], at most the pages `num_steps` steps fill with headroom, see
    /// [`PageCap`]); `on_page` after each page. Only the summaries are kept. A failed page
    /// keeps what was read: pass the result back as `previous` to continue at the failed page
    /// (`StepSummaries::default()` for a fresh read; a complete `previous` is returned as it is).
    /// With no step nothing is sent.
    pub async fn step_summaries(
        &self,
        trajectory_id: &str,
        num_steps: u64,
        previous: StepSummaries,
        mut on_page: impl FnMut(PageProgress),
    ) -> StepSummaries {
        let mut read = previous;
        if read.is_complete() && read.pages_read > 0 {
            return read;
        }
        read.error = None;
        if num_steps == 0 && read.pages_read == 0 {
            if let Err(error) = segment("trajectory id", trajectory_id) {
                read.error = Some(error);
            }
            return read;
        }
        let pages = self
            .trajectory_steps(trajectory_id, None)
            .and_then(|pages| pages.with_limit(STEP_PAGE_LIMIT));
        let mut pages = match pages {
            Ok(pages) => pages
                .with_cap(PageCap::expected(
                    num_steps,
                    format!("trajectory {trajectory_id}'s num_steps"),
                ))
                .continuing(
                    read.resume_cursor.clone(),
                    read.pages_read,
                    read.steps.len(),
                )
                .with_guard(std::mem::take(&mut read.guard)),
            Err(error) => {
                read.error = Some(error);
                return read;
            }
        };
        loop {
            match pages.next_page().await {
                None => {
                    read.resume_cursor = None;
                    break;
                }
                Some(Ok(page)) => {
                    read.pages_read += 1;
                    read.steps.extend(page.items.iter().map(StepSummary::of));
                    on_page(PageProgress {
                        pages_read: read.pages_read,
                        items_read: read.steps.len(),
                        has_more: !pages.is_finished(),
                    });
                }
                Some(Err(error)) => {
                    read.resume_cursor = pages.cursor().map(str::to_owned);
                    read.error = Some(error);
                    break;
                }
            }
        }
        read.guard = pages.take_guard();
        read
    }
}

/// The last step of a trajectory was not where the steps endpoint should have it.
fn missing_last_step(trajectory_id: &str, last: u64, found: &str) -> ApiError {
    ApiError::UnexpectedResponse {
        message: format!(
            "the steps of trajectory {trajectory_id} from index {last} (its last, by its num_steps) gave {found} instead of step {last}"
        ),
        request_id: None,
    }
}
