//! Test support shared by the CLI's test modules: running a future to its end on a fresh
//! runtime, and id lists.

/// Runs `future` to its end on a current-thread tokio runtime (timers and IO enabled).
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

/// Owned ids.
pub fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| (*id).to_owned()).collect()
}
