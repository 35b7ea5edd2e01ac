//! What is fetched of one trial on request: the action asking for its detail ("Load details",
//! its progress, Retry) and the row under the trial showing the detail, or the failed request
//! with Retry.

use eval_compare_core::client::ClientConfig;
use eval_compare_core::text::visible;
use leptos::prelude::*;

use super::detail_view::TrialDetailView;
use super::details::{TrialDetailLoader, TrialDetailState};
use crate::components::api_error::ApiErrorPanel;
use crate::report::task_panel::on_demand::{load_action, shown_base};
use crate::report::task_panel::rows::{LoadAction, WideRow};

/// One trial's detail request: which trial, where to fetch it and how it stands.
#[derive(Clone)]
pub struct TrialRequest {
    /// The trial.
    pub id: String,
    /// Its job, when the run's id names it; nothing is fetched without.
    pub job_id: Option<String>,
    /// Where to fetch it; nothing is fetched without.
    pub client: Signal<Option<ClientConfig>>,
    /// Where its detail stands (reactive).
    pub state: Memo<Option<TrialDetailState>>,
    /// The panel's trial reads.
    pub loader: TrialDetailLoader,
}

impl TrialRequest {
    /// Fetches the detail with `config` (again after a failure); nothing without a job.
    fn load(&self, config: ClientConfig) {
        if let Some(job_id) = self.job_id.clone() {
            self.loader.load(config, job_id, self.id.clone());
        }
    }
}

/// "Load details" (or its progress, or Retry) until the trial's detail is loaded; nothing
/// without a client or a job.
#[component]
pub fn TrialAction(request: TrialRequest) -> impl IntoView {
    move || {
        let config = request.client.get()?;
        request.job_id.as_ref()?;
        let action = request.state.with(|state| load_action(state.as_ref()))?;
        let what = format!("trial {}", visible(&request.id));
        let request = request.clone();
        let on_load = Callback::new(move |()| request.load(config.clone()));
        Some(view! { <LoadAction class="link-button" action what on_load/> })
    }
}

/// The trial's detail once fetched, or the failed request with Retry.
#[component]
pub fn TrialDetailRow(request: TrialRequest) -> impl IntoView {
    move || {
        let body = match request.state.get()? {
            TrialDetailState::Loading => return None,
            TrialDetailState::Loaded(detail) => {
                view! { <TrialDetailView detail=(*detail).clone()/> }.into_any()
            }
            TrialDetailState::Failed(error) => {
                let config = request.client.get()?;
                let base_url = shown_base(&config);
                let context = format!("Trial {} — its detail", visible(&request.id));
                request.job_id.as_ref()?;
                let request = request.clone();
                let on_retry = Callback::new(move |()| request.load(config.clone()));
                view! { <ApiErrorPanel error base_url on_retry context/> }.into_any()
            }
        };
        Some(view! { <WideRow class="details-row trial-detail-row" columns=4>{body}</WideRow> })
    }
}
