//! What the task panel fetches on demand — a trajectory's details, a Chronicle trial's detail
//! — kept in one place: the state of each item (loading, loaded, failed), a session cache per
//! API address, a bound on requests in flight, and cancellation of every request when the panel
//! closes or shows another task.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::thread::LocalKey;

use eval_compare_core::client::ClientConfig;
use futures::future::{AbortHandle, Abortable};
use futures::StreamExt;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Where one item's fetch stands.
#[derive(Debug, PartialEq)]
pub enum Fetch<V, E> {
    /// A request is in flight.
    Loading,
    /// It arrived (or was cached).
    Loaded(Arc<V>),
    /// The request failed.
    Failed(E),
}

impl<V, E: Clone> Clone for Fetch<V, E> {
    fn clone(&self) -> Self {
        match self {
            Fetch::Loading => Fetch::Loading,
            Fetch::Loaded(value) => Fetch::Loaded(Arc::clone(value)),
            Fetch::Failed(error) => Fetch::Failed(error.clone()),
        }
    }
}

/// The action that asks for an item in `state`: its label and whether it waits on a request;
/// `None` once the item is loaded.
pub fn load_action<V, E>(state: Option<&Fetch<V, E>>) -> Option<(&'static str, bool)> {
    match state {
        None => Some(("Load details", false)),
        Some(Fetch::Loading) => Some(("Loading…", true)),
        Some(Fetch::Failed(_)) => Some(("Retry", false)),
        Some(Fetch::Loaded(_)) => None,
    }
}

/// Items fetched this session, by (API base URL, key): a `thread_local!` of the caller's.
pub type SessionCache<K, V> = LocalKey<RefCell<HashMap<(String, K), Arc<V>>>>;

/// The fetch states of one open panel, its requests in flight and the session cache it fills.
pub struct OnDemand<K: 'static, V: 'static, E: 'static> {
    states: RwSignal<HashMap<K, Fetch<V, E>>>,
    in_flight: StoredValue<Arc<Mutex<Vec<AbortHandle>>>>,
    cache: &'static SessionCache<K, V>,
}

impl<K, V, E> Clone for OnDemand<K, V, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, V, E> Copy for OnDemand<K, V, E> {}

impl<K, V, E> OnDemand<K, V, E>
where
    K: Clone + Eq + Hash + Send + Sync + 'static,
    V: Send + Sync + 'static,
    E: Clone + Send + Sync + 'static,
{
    /// A loader filling `cache`, whose requests are cancelled when the calling component is
    /// cleaned up.
    pub fn with_cleanup(cache: &'static SessionCache<K, V>) -> Self {
        let in_flight: Arc<Mutex<Vec<AbortHandle>>> = Arc::default();
        let on_close = Arc::clone(&in_flight);
        on_cleanup(move || {
            if let Ok(mut handles) = on_close.lock() {
                for handle in handles.drain(..) {
                    handle.abort();
                }
            }
        });
        Self {
            states: RwSignal::new(HashMap::new()),
            in_flight: StoredValue::new(in_flight),
            cache,
        }
    }

    /// The item fetched from `base_url` this session, if any.
    pub fn cached(&self, base_url: &str, key: &K) -> Option<Arc<V>> {
        self.cache.with(|cache| {
            cache
                .borrow()
                .get(&(base_url.to_owned(), key.clone()))
                .cloned()
        })
    }

    /// The state of one item, a cached one included (reactive).
    pub fn state(&self, config: Option<&ClientConfig>, key: &K) -> Option<Fetch<V, E>> {
        let current = self.states.with(|states| states.get(key).cloned());
        current.or_else(|| {
            config
                .and_then(|config| self.cached(&config.base_url, key))
                .map(Fetch::Loaded)
        })
    }

    /// Fetches the items of `keys` neither loaded nor loading (again after a failure) with
    /// `fetch`, at most `concurrency` at a time; what arrives is cached for the session.
    pub fn load<F, Fut>(&self, config: ClientConfig, keys: Vec<K>, concurrency: usize, fetch: F)
    where
        F: Fn(ClientConfig, K) -> Fut + 'static,
        Fut: Future<Output = Result<V, E>> + 'static,
    {
        let states = self.states;
        let mut wanted = Vec::new();
        for key in keys {
            if let Some(value) = self.cached(&config.base_url, &key) {
                states.update(|s| {
                    s.insert(key, Fetch::Loaded(value));
                });
                continue;
            }
            let busy = states
                .with_untracked(|s| matches!(s.get(&key), Some(Fetch::Loading | Fetch::Loaded(_))));
            if !busy && !wanted.contains(&key) {
                wanted.push(key);
            }
        }
        if wanted.is_empty() {
            return;
        }
        states.update(|s| {
            for key in &wanted {
                s.insert(key.clone(), Fetch::Loading);
            }
        });
        let (handle, registration) = AbortHandle::new_pair();
        if let Some(in_flight) = self.in_flight.try_get_value() {
            if let Ok(mut handles) = in_flight.lock() {
                handles.retain(|handle| !handle.is_aborted());
                handles.push(handle);
            }
        }
        let cache = self.cache;
        let fetch = Arc::new(fetch);
        let work =
            futures::stream::iter(wanted).for_each_concurrent(concurrency.max(1), move |key| {
                let config = config.clone();
                let fetch = Arc::clone(&fetch);
                async move {
                    let state = match fetch(config.clone(), key.clone()).await {
                        Ok(value) => {
                            let value = Arc::new(value);
                            cache.with(|cache| {
                                cache.borrow_mut().insert(
                                    (config.base_url.clone(), key.clone()),
                                    Arc::clone(&value),
                                );
                            });
                            Fetch::Loaded(value)
                        }
                        Err(error) => Fetch::Failed(error),
                    };
                    states.try_update(|s| {
                        s.insert(key, state);
                    });
                }
            });
        spawn_local(async move {
            // Aborted when the panel closes: the pending requests are dropped and cancelled.
            let _ = Abortable::new(work, registration).await;
        });
    }
}

/// The API address as people should read it: the page's origin when the base URL is relative.
pub fn shown_base(config: &ClientConfig) -> String {
    if config.base_url.starts_with("http://") || config.base_url.starts_with("https://") {
        config.base_url.clone()
    } else {
        let origin = web_sys::window()
            .and_then(|window| window.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", config.base_url)
    }
}
