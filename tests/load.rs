//! Loads started from components: state, Retry, and cancellation of the attempt in flight.
#![cfg(target_arch = "wasm32")]

mod support;

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

use eval_compare_viewer::state::async_load::{use_load, LoadState};
use futures::channel::oneshot;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use support::mount_point;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

type Answer = Result<u32, String>;
type Handles = (ReadSignal<LoadState<u32, String>>, Callback<()>);

/// Mounts a component that starts `fetch` with [`use_load`]; returns its state, its Retry, and
/// the mount handle (dropping it unmounts the component).
fn mount_load<F, Fut>(fetch: F) -> (Handles, impl Sized)
where
    F: Fn() -> Fut + 'static,
    Fut: Future<Output = Answer> + 'static,
{
    let handles: Rc<RefCell<Option<Handles>>> = Rc::default();
    let slot = Rc::clone(&handles);
    let fetch = RefCell::new(Some(fetch));
    let mount = leptos::mount::mount_to(mount_point(), move || {
        if let Some(fetch) = fetch.borrow_mut().take() {
            *slot.borrow_mut() = Some(use_load(fetch));
        }
    });
    let handles = handles.borrow_mut().take().expect("the component ran");
    (handles, mount)
}

/// Lets the spawned tasks and effects run.
async fn settle() {
    TimeoutFuture::new(10).await;
}

#[wasm_bindgen_test]
async fn retry_cancels_the_attempt_in_flight_and_unmounting_cancels_the_last() {
    let senders: Rc<RefCell<Vec<oneshot::Sender<Answer>>>> = Rc::default();
    let record = Rc::clone(&senders);
    let ((state, retry), mount) = mount_load(move || {
        let (sender, receiver) = oneshot::channel::<Answer>();
        record.borrow_mut().push(sender);
        async move {
            receiver
                .await
                .unwrap_or_else(|_| Err("never answered".to_owned()))
        }
    });
    assert_eq!(state.get_untracked(), LoadState::Loading);
    assert_eq!(senders.borrow().len(), 1, "started at once");

    retry.run(());
    settle().await;
    assert_eq!(senders.borrow().len(), 2);
    assert!(
        senders.borrow()[0].is_canceled(),
        "the first attempt was dropped"
    );

    let second = senders.borrow_mut().remove(1);
    assert!(second.send(Ok(7)).is_ok());
    settle().await;
    assert_eq!(state.get_untracked(), LoadState::Loaded(7));

    retry.run(());
    settle().await;
    assert_eq!(state.get_untracked(), LoadState::Loading);
    drop(mount);
    settle().await;
    assert!(
        senders
            .borrow()
            .last()
            .is_some_and(oneshot::Sender::is_canceled),
        "unmounting dropped the attempt in flight"
    );
}

#[wasm_bindgen_test]
async fn a_failure_is_kept_until_retry_succeeds() {
    let answers: Rc<RefCell<Vec<Answer>>> =
        Rc::new(RefCell::new(vec![Ok(1), Err("HTTP 503".to_owned())]));
    let ((state, retry), _mount) = mount_load(move || {
        let answer = answers.borrow_mut().pop();
        async move { answer.unwrap_or_else(|| Err("no more answers".to_owned())) }
    });
    settle().await;
    assert_eq!(
        state.get_untracked(),
        LoadState::Failed("HTTP 503".to_owned())
    );
    retry.run(());
    settle().await;
    assert_eq!(state.get_untracked(), LoadState::Loaded(1));
}
