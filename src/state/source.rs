//! Where the viewer reads the Trajectory API, and with which key.
//!
//! By default the API is the page's own origin: eval-compare-server serves the viewer and either
//! simulates the API or proxies it, so no CORS is needed. The user may type an API key: it is
//! kept in `sessionStorage` (gone when the tab closes), or in `localStorage` when they tick
//! "remember on this device", and it is only ever sent as the `X-API-Key` header through
//! [`ClientConfig::with_api_key`]. It never enters a URL, a link, a log line or a message
//! ([`ApiKey`] prints as `***`). The optional organization key (used to build links to the
//! platform; not a secret) lives in `localStorage`.

use eval_compare_core::client::{ApiError, ApiKey, ClientConfig, InvalidApiKey};
use leptos::prelude::*;
use web_sys::Storage;

/// Storage entry of the API key (in sessionStorage or localStorage).
pub const API_KEY_ENTRY: &str = "eval-compare.api-key";
/// localStorage entry of the organization key.
pub const ORG_KEY_ENTRY: &str = "eval-compare.org-key";
/// localStorage entry of the platform's web address (for links to its pages; not a secret).
pub const PLATFORM_ENTRY: &str = "eval-compare.platform-url";
/// localStorage entry of an API address other than the page's origin.
pub const BASE_URL_ENTRY: &str = "eval-compare.api-base-url";

/// Where the API key is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyPersistence {
    /// `sessionStorage`: this tab only, gone when it closes (the default).
    #[default]
    Tab,
    /// `localStorage`: remembered on this device until the user forgets it.
    Device,
}

/// Why a setting could not be saved. Never contains the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// The typed key is not usable.
    #[error(transparent)]
    Key(#[from] InvalidApiKey),
    /// The typed API address is not usable.
    #[error("{0}")]
    Address(String),
    /// The browser refused to store the value (storage disabled or full).
    #[error("the browser refused to store it ({0}); it is used on this page until you reload")]
    Storage(&'static str),
}

/// The browser's sessionStorage, when available.
fn session_storage() -> Option<Storage> {
    web_sys::window().and_then(|window| window.session_storage().ok().flatten())
}

/// The browser's localStorage, when available.
fn local_storage() -> Option<Storage> {
    web_sys::window().and_then(|window| window.local_storage().ok().flatten())
}

fn storage_of(persistence: KeyPersistence) -> Option<Storage> {
    match persistence {
        KeyPersistence::Tab => session_storage(),
        KeyPersistence::Device => local_storage(),
    }
}

fn read(storage: Option<Storage>, entry: &str) -> Option<String> {
    storage
        .and_then(|storage| storage.get_item(entry).ok().flatten())
        .filter(|value| !value.trim().is_empty())
}

fn remove(storage: Option<Storage>, entry: &str) {
    if let Some(storage) = storage {
        // A storage that cannot remove has nothing stored either.
        let _ = storage.remove_item(entry);
    }
}

fn write(storage: Option<Storage>, entry: &str, value: &str) -> Result<(), SettingError> {
    let storage = storage.ok_or(SettingError::Storage("storage is unavailable"))?;
    storage
        .set_item(entry, value)
        .map_err(|_| SettingError::Storage("storage is full or disabled"))
}

/// The stored API key and where it was found (this tab first, then this device). A stored value
/// that is not a usable key is removed.
pub fn stored_key() -> Option<(ApiKey, KeyPersistence)> {
    for persistence in [KeyPersistence::Tab, KeyPersistence::Device] {
        if let Some(raw) = read(storage_of(persistence), API_KEY_ENTRY) {
            match ApiKey::new(&raw) {
                Ok(key) => return Some((key, persistence)),
                Err(_) => remove(storage_of(persistence), API_KEY_ENTRY),
            }
        }
    }
    None
}

/// Stores the key in one place only: the tab's storage, or this device's (removing it from the
/// other, so unticking "remember" takes it off the device).
pub fn store_key(key: &ApiKey, persistence: KeyPersistence) -> Result<(), SettingError> {
    let other = match persistence {
        KeyPersistence::Tab => KeyPersistence::Device,
        KeyPersistence::Device => KeyPersistence::Tab,
    };
    remove(storage_of(other), API_KEY_ENTRY);
    write(storage_of(persistence), API_KEY_ENTRY, key.expose())
}

/// Removes the key from both storages.
pub fn remove_stored_key() {
    remove(session_storage(), API_KEY_ENTRY);
    remove(local_storage(), API_KEY_ENTRY);
}

/// The page's own origin (e.g. `http://127.0.0.1:8080`); empty when it cannot be read.
pub fn page_origin() -> String {
    web_sys::window()
        .and_then(|window| window.location().origin().ok())
        .unwrap_or_default()
}

/// Where and how to read the API, shared by every page through context.
#[derive(Debug, Clone, Copy)]
pub struct SourceSettings {
    /// Whether changes are written to the browser's storage (false for a detached instance).
    persist: bool,
    /// The page's origin, shown as "this server".
    origin: StoredValue<String>,
    /// Another API address typed by the user; empty for the page's origin.
    base_url: RwSignal<String>,
    key: RwSignal<Option<ApiKey>>,
    persistence: RwSignal<KeyPersistence>,
    org_key: RwSignal<Option<String>>,
    /// The platform's web address (`https://…`), for links to its pages; never this server.
    platform_url: RwSignal<Option<String>>,
    panel_open: RwSignal<bool>,
    focus_key_requests: RwSignal<u32>,
}

impl SourceSettings {
    /// The settings saved in this browser: the API address, the key (this tab's, else this
    /// device's) and the org key. Changes are saved back.
    pub fn from_storage() -> Self {
        let settings = Self::with_base_url(
            &read(local_storage(), BASE_URL_ENTRY).unwrap_or_default(),
            true,
        );
        if let Some((key, persistence)) = stored_key() {
            settings.key.set(Some(key));
            settings.persistence.set(persistence);
        }
        settings
            .org_key
            .set(read(local_storage(), ORG_KEY_ENTRY).map(|org| org.trim().to_owned()));
        if let Some(url) = read(local_storage(), PLATFORM_ENTRY) {
            // A stored address that is no longer acceptable is dropped, not used.
            let _ = settings.set_platform_url(&url);
        }
        settings
    }

    /// Settings for `base_url` (empty: the page's origin) that are never stored: for a view
    /// mounted outside the app, such as a test.
    pub fn detached(base_url: &str) -> Self {
        Self::with_base_url(base_url, false)
    }

    fn with_base_url(base_url: &str, persist: bool) -> Self {
        let origin = page_origin();
        let base_url = base_url.trim();
        let base_url = if base_url == origin { "" } else { base_url };
        Self {
            persist,
            origin: StoredValue::new(origin),
            base_url: RwSignal::new(base_url.to_owned()),
            key: RwSignal::new(None),
            persistence: RwSignal::new(KeyPersistence::Tab),
            org_key: RwSignal::new(None),
            platform_url: RwSignal::new(None),
            panel_open: RwSignal::new(false),
            focus_key_requests: RwSignal::new(0),
        }
    }

    /// The API address (tracked): the typed one, else the page's origin.
    pub fn base_url(&self) -> String {
        let typed = self.base_url.get();
        if typed.is_empty() {
            self.origin.get_value()
        } else {
            typed
        }
    }

    /// Whether the API is the page's own origin (tracked).
    pub fn is_same_origin(&self) -> bool {
        self.base_url.with(String::is_empty)
    }

    /// The page's origin.
    pub fn origin(&self) -> String {
        self.origin.get_value()
    }

    /// The key (tracked). Show only whether it is set, never the key.
    pub fn api_key(&self) -> Option<ApiKey> {
        self.key.get()
    }

    /// Whether a key is set (tracked).
    pub fn has_key(&self) -> bool {
        self.key.with(Option::is_some)
    }

    /// Where the key is kept (tracked).
    pub fn key_persistence(&self) -> KeyPersistence {
        self.persistence.get()
    }

    /// The organization key (tracked).
    pub fn org_key(&self) -> Option<String> {
        self.org_key.get()
    }

    /// The platform's web address, for links to its pages (tracked).
    pub fn platform_url(&self) -> Option<String> {
        self.platform_url.get()
    }

    /// Sets (or with an empty string clears) the platform's web address: an absolute `http(s)`
    /// address of another origin than this page's (a link to the platform must never lead to
    /// this server's own pages).
    pub fn set_platform_url(&self, raw: &str) -> Result<(), SettingError> {
        let url = raw.trim().trim_end_matches('/');
        if url.is_empty() {
            if self.persist {
                remove(local_storage(), PLATFORM_ENTRY);
            }
            self.platform_url.set(None);
            return Ok(());
        }
        let origin = self.origin.get_value();
        if !is_other_origin(url, &origin) {
            return Err(SettingError::Address(format!(
                "the platform's address must be an absolute http(s) address of another server than this one ({origin})"
            )));
        }
        let stored = if self.persist {
            write(local_storage(), PLATFORM_ENTRY, url)
        } else {
            Ok(())
        };
        self.platform_url.set(Some(url.to_owned()));
        stored
    }

    /// The client configuration for the current address and key (tracked).
    pub fn config(&self) -> Result<ClientConfig, ApiError> {
        let config = ClientConfig::new(&self.base_url())?;
        Ok(match self.api_key() {
            Some(key) => config.with_api_key(key),
            None => config,
        })
    }

    /// Uses `raw` as the API key, kept for this tab or remembered on this device.
    ///
    /// The key is used even when the browser refuses to store it; the error says so.
    pub fn save_key(&self, raw: &str, persistence: KeyPersistence) -> Result<(), SettingError> {
        let key = ApiKey::new(raw)?;
        let stored = if self.persist {
            store_key(&key, persistence)
        } else {
            Ok(())
        };
        self.key.set(Some(key));
        self.persistence.set(persistence);
        stored
    }

    /// Moves the key between this tab and this device; unticking "remember" removes it from
    /// the device. Without a key it only records the choice for the next key.
    pub fn set_persistence(&self, persistence: KeyPersistence) -> Result<(), SettingError> {
        self.persistence.set(persistence);
        match (self.persist, self.key.get_untracked()) {
            (true, Some(key)) => store_key(&key, persistence),
            _ => Ok(()),
        }
    }

    /// Forgets the key: removed from this page and from both storages.
    pub fn forget_key(&self) {
        if self.persist {
            remove_stored_key();
        }
        self.key.set(None);
    }

    /// Sets (or with an empty string clears) the organization key.
    pub fn set_org_key(&self, raw: &str) -> Result<(), SettingError> {
        let org = raw.trim();
        let value = (!org.is_empty()).then(|| org.to_owned());
        let stored = match (&value, self.persist) {
            (Some(org), true) => write(local_storage(), ORG_KEY_ENTRY, org),
            (None, true) => {
                remove(local_storage(), ORG_KEY_ENTRY);
                Ok(())
            }
            (_, false) => Ok(()),
        };
        self.org_key.set(value);
        stored
    }

    /// Reads the API at `raw` instead of the page's origin; an empty string (or the origin
    /// itself) goes back to the page's origin.
    pub fn set_base_url(&self, raw: &str) -> Result<(), SettingError> {
        let raw = raw.trim().trim_end_matches('/');
        let origin = self.origin.get_value();
        if raw.is_empty() || raw == origin {
            if self.persist {
                remove(local_storage(), BASE_URL_ENTRY);
            }
            self.base_url.set(String::new());
            return Ok(());
        }
        let config =
            ClientConfig::new(raw).map_err(|error| SettingError::Address(error.to_string()))?;
        if self.persist {
            write(local_storage(), BASE_URL_ENTRY, &config.base_url)?;
        }
        self.base_url.set(config.base_url);
        Ok(())
    }

    /// Whether the settings panel is open (tracked).
    pub fn panel_open(&self) -> bool {
        self.panel_open.get()
    }

    /// Opens or closes the settings panel.
    pub fn set_panel_open(&self, open: bool) {
        self.panel_open.set(open);
    }

    /// Opens the panel and asks it to focus the key field (after a 401 or 403).
    pub fn open_key_field(&self) {
        self.panel_open.set(true);
        self.focus_key_requests
            .update(|count| *count = count.wrapping_add(1));
    }

    /// Counts requests to focus the key field (tracked), for the panel to react to.
    pub fn focus_key_requests(&self) -> u32 {
        self.focus_key_requests.get()
    }
}

/// Whether `url` is an absolute http(s) address on another origin than `page_origin` (the rule
/// of every link out of the viewer, [`crate::links`]).
pub fn is_other_origin(url: &str, page_origin: &str) -> bool {
    crate::links::other_origin(url, page_origin)
}

/// The settings in context, or detached same-origin settings when the view is mounted alone.
pub fn use_source_settings() -> SourceSettings {
    use_context::<SourceSettings>().unwrap_or_else(|| SourceSettings::detached(""))
}
