//! The source settings in a real browser: the API key in sessionStorage unless remembered in
//! localStorage, moved and removed as the user asks, sent only as a header, never in a URL.
#![cfg(target_arch = "wasm32")]

use eval_compare_core::client::{TrajectoryClient, API_KEY_HEADER};
use eval_compare_core::view_state::ViewState;
use eval_compare_viewer::route::{ReportPage, Route};
use eval_compare_viewer::state::source::{
    stored_key, KeyPersistence, SettingError, SourceSettings, API_KEY_ENTRY, ORG_KEY_ENTRY,
    PLATFORM_ENTRY,
};
use eval_compare_viewer::state::url::UrlState;
use eval_compare_viewer::transport::FetchTransport;
use leptos::prelude::*;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::Storage;

wasm_bindgen_test_configure!(run_in_browser);

const KEY: &str = "sk-test-0123456789";

fn session() -> Storage {
    web_sys::window()
        .and_then(|window| window.session_storage().ok().flatten())
        .expect("sessionStorage")
}

fn local() -> Storage {
    web_sys::window()
        .and_then(|window| window.local_storage().ok().flatten())
        .expect("localStorage")
}

fn entry(storage: &Storage, name: &str) -> Option<String> {
    storage.get_item(name).expect("readable storage")
}

fn clean() {
    for storage in [session(), local()] {
        storage.remove_item(API_KEY_ENTRY).expect("removable");
        storage.remove_item(ORG_KEY_ENTRY).expect("removable");
        storage.remove_item(PLATFORM_ENTRY).expect("removable");
    }
}

/// Runs `test` inside a reactive owner (signals need one).
fn with_owner<T>(test: impl FnOnce() -> T) -> T {
    let owner = Owner::new();
    owner.with(test)
}

#[wasm_bindgen_test]
fn a_key_stays_in_the_tab_unless_remembered_and_forget_removes_it() {
    clean();
    with_owner(|| {
        let settings = SourceSettings::from_storage();
        assert!(!settings.has_key());

        settings
            .save_key(&format!("  {KEY}  "), KeyPersistence::Tab)
            .expect("a valid key");
        assert!(settings.has_key());
        assert_eq!(
            entry(&session(), API_KEY_ENTRY).as_deref(),
            Some(KEY),
            "trimmed"
        );
        assert_eq!(entry(&local(), API_KEY_ENTRY), None, "not on the device");

        settings
            .set_persistence(KeyPersistence::Device)
            .expect("storable");
        assert_eq!(entry(&local(), API_KEY_ENTRY).as_deref(), Some(KEY));
        assert_eq!(entry(&session(), API_KEY_ENTRY), None, "kept in one place");

        settings
            .set_persistence(KeyPersistence::Tab)
            .expect("storable");
        assert_eq!(entry(&local(), API_KEY_ENTRY), None, "unticking removes it");
        assert_eq!(entry(&session(), API_KEY_ENTRY).as_deref(), Some(KEY));

        settings.forget_key();
        assert!(!settings.has_key());
        assert_eq!(entry(&session(), API_KEY_ENTRY), None);
        assert_eq!(entry(&local(), API_KEY_ENTRY), None);
    });
}

#[wasm_bindgen_test]
fn a_remembered_key_is_found_after_a_reload() {
    clean();
    local().set_item(API_KEY_ENTRY, KEY).expect("storable");
    let (key, persistence) = stored_key().expect("the stored key");
    assert_eq!(key.expose(), KEY);
    assert_eq!(persistence, KeyPersistence::Device);
    with_owner(|| {
        let settings = SourceSettings::from_storage();
        assert!(settings.has_key());
        assert_eq!(settings.key_persistence(), KeyPersistence::Device);
    });
    clean();
}

#[wasm_bindgen_test]
fn an_unusable_key_is_refused_without_echoing_it() {
    clean();
    with_owner(|| {
        let settings = SourceSettings::from_storage();
        let error = settings
            .save_key("secret value\u{7}", KeyPersistence::Tab)
            .expect_err("a control character");
        assert!(matches!(error, SettingError::Key(_)));
        assert!(!error.to_string().contains("secret"), "{error}");
        assert!(!settings.has_key());
        assert_eq!(entry(&session(), API_KEY_ENTRY), None);
        assert!(settings.save_key("   ", KeyPersistence::Tab).is_err());
    });
}

#[wasm_bindgen_test]
fn the_key_goes_only_into_the_request_header() {
    clean();
    with_owner(|| {
        let settings = SourceSettings::detached("http://127.0.0.1:9");
        settings
            .save_key(KEY, KeyPersistence::Tab)
            .expect("a valid key");
        assert_eq!(
            entry(&session(), API_KEY_ENTRY),
            None,
            "detached settings never store"
        );
        let config = settings.config().expect("a valid address");
        assert!(
            !format!("{config:?}").contains(KEY),
            "Debug redacts the key"
        );
        let client = TrajectoryClient::new(config, FetchTransport::default());
        let request = client.request("/api/v1/agents?limit=200");
        assert_eq!(request.header(API_KEY_HEADER), Some(KEY));
        assert!(!request.url.contains(KEY));
        assert!(!format!("{request:?}").contains(KEY));

        // Navigating never writes the key into an address.
        let (url, log) = UrlState::in_memory("/", "");
        let view = ViewState {
            baseline: Some("base".to_owned()),
            candidates: vec!["cand".to_owned()],
            ..ViewState::default()
        };
        url.push(Route::Report(ReportPage::Compare), &view);
        url.replace(&view);
        for navigation in log.get_untracked() {
            assert!(!navigation.href.contains(KEY), "{navigation:?}");
        }
        let href = web_sys::window()
            .and_then(|window| window.location().href().ok())
            .unwrap_or_default();
        assert!(!href.contains(KEY));
    });
}

#[wasm_bindgen_test]
fn the_platform_address_is_another_server_kept_on_the_device() {
    clean();
    with_owner(|| {
        let settings = SourceSettings::from_storage();
        settings
            .set_platform_url(" https://app.example.com/ ")
            .expect("storable");
        assert_eq!(
            settings.platform_url().as_deref(),
            Some("https://app.example.com")
        );
        assert_eq!(
            entry(&local(), PLATFORM_ENTRY).as_deref(),
            Some("https://app.example.com")
        );
        let own = settings.origin();
        for refused in [own.as_str(), "javascript:alert(1)", "app.example.com", "/x"] {
            assert!(settings.set_platform_url(refused).is_err(), "{refused}");
        }
        assert_eq!(
            settings.platform_url().as_deref(),
            Some("https://app.example.com"),
            "a refused address leaves the one before"
        );
        settings.set_platform_url("").expect("storable");
        assert_eq!(settings.platform_url(), None);
        assert_eq!(entry(&local(), PLATFORM_ENTRY), None);
    });
}

#[wasm_bindgen_test]
fn the_org_key_is_kept_on_the_device_and_cleared_when_emptied() {
    clean();
    with_owner(|| {
        let settings = SourceSettings::from_storage();
        settings.set_org_key(" org_demo ").expect("storable");
        assert_eq!(settings.org_key().as_deref(), Some("org_demo"));
        assert_eq!(entry(&local(), ORG_KEY_ENTRY).as_deref(), Some("org_demo"));
        settings.set_org_key("").expect("storable");
        assert_eq!(settings.org_key(), None);
        assert_eq!(entry(&local(), ORG_KEY_ENTRY), None);
    });
}

#[wasm_bindgen_test]
fn another_api_address_is_checked_and_the_origin_restores_the_default() {
    with_owner(|| {
        let settings = SourceSettings::detached("");
        assert!(settings.is_same_origin());
        assert!(matches!(
            settings.set_base_url("ftp://example.test"),
            Err(SettingError::Address(_))
        ));
        settings
            .set_base_url("https://api.example.test/")
            .expect("a valid address");
        assert_eq!(settings.base_url(), "https://api.example.test");
        assert!(!settings.is_same_origin());
        settings
            .set_base_url(&settings.origin())
            .expect("the origin");
        assert!(settings.is_same_origin());
    });
}
