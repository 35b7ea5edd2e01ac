//! The link's pass threshold (`pass`) and the checkpoint every step is compared with
//! (`versus`): written only when set, read back to the same state, bad values refused with a
//! reason, and carried into the report's settings.
#![allow(clippy::unwrap_used)]

use eval_compare_core::report::ReportSettings;
use eval_compare_core::view_state::ViewState;

#[test]
fn the_pass_threshold_and_the_versus_step_round_trip() {
    let q = "base=b&cand=s1,s2&pass=0.75&versus=300";
    let parsed = ViewState::from_query(q);
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    assert_eq!(parsed.state.pass_thousandths, Some(750));
    assert_eq!(parsed.state.versus_step, Some(300));
    assert_eq!(parsed.state.to_query(), q);
    let settings = ReportSettings::from_view(&parsed.state);
    assert_eq!(settings.pass_threshold, Some(0.75));
    assert_eq!(settings.versus_step, Some(300));
    for (query, written) in [
        ("pass=1.0", "pass=1"),
        ("pass=.5", "pass=0.5"),
        ("pass=0.001", "pass=0.001"),
    ] {
        assert_eq!(ViewState::from_query(query).state.to_query(), written);
    }
}

#[test]
fn unset_they_change_nothing() {
    let plain = ViewState::from_query("base=b&cand=c");
    assert_eq!(plain.state.pass_thousandths, None);
    assert_eq!(plain.state.versus_step, None);
    assert_eq!(plain.state.to_query(), "base=b&cand=c");
    let settings = ReportSettings::from_view(&plain.state);
    assert_eq!(settings, ReportSettings::default());
    let json = serde_json::to_string(&settings).unwrap();
    assert!(
        !json.contains("pass_threshold") && !json.contains("versus_step"),
        "{json}"
    );
}

#[test]
fn bad_values_are_issues_and_keep_the_default() {
    for bad in [
        "pass=0",
        "pass=1.5",
        "pass=-0.5",
        "pass=0.0001",
        "pass=x",
        "versus=-1",
        "versus=abc",
        "versus=1.5",
    ] {
        let parsed = ViewState::from_query(bad);
        assert_eq!(parsed.issues.len(), 1, "{bad}: {:?}", parsed.issues);
        assert_eq!(parsed.state, ViewState::default(), "{bad}");
    }
    let issue = &ViewState::from_query("pass=2").issues[0];
    assert_eq!(issue.param, "pass");
    assert!(issue.reason.contains("0.001 to 1"), "{}", issue.reason);
}
