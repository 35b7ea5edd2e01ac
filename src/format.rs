//! Plain-text formatting of API values for display.

use eval_compare_core::api::{EvalRun, EvalRunStatus};
use eval_compare_core::text::{self, count, plural};

/// Shown where a value is absent.
pub use eval_compare_core::text::MISSING;

/// A reward mean with three decimals, or [`MISSING`].
pub fn reward_mean(mean: Option<f64>) -> String {
    match mean {
        Some(value) if value.is_finite() => text::mean(value),
        _ => MISSING.to_owned(),
    }
}

/// An RFC 3339 timestamp as `YYYY-MM-DD HH:MM` (UTC when the offset is `Z`); anything that does
/// not look like RFC 3339 is shown unchanged.
pub fn timestamp(rfc3339: &str) -> String {
    let bytes = rfc3339.as_bytes();
    let looks_valid = bytes.len() >= 16
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && matches!(bytes[10], b'T' | b't' | b' ')
        && bytes[13] == b':';
    if !looks_valid {
        return rfc3339.to_owned();
    }
    let (date, time) = (&rfc3339[..10], &rfc3339[11..16]);
    let utc = rfc3339.ends_with('Z') || rfc3339.ends_with("+00:00");
    if utc {
        format!("{date} {time} UTC")
    } else {
        format!("{date} {time}")
    }
}

/// What a run evaluated: the checkpoint step of a training run, or the base model.
pub fn evaluated_model(run: &EvalRun) -> String {
    match (run.step, run.base_model_slug.as_deref()) {
        (Some(step), _) => format!("checkpoint, step {step}"),
        (None, Some(slug)) => slug.to_owned(),
        (None, None) => MISSING.to_owned(),
    }
}

/// Planned samples (rollouts) of a run, or [`MISSING`].
pub fn rollouts(run: &EvalRun) -> String {
    run.total_rollouts.map_or_else(
        || MISSING.to_owned(),
        // With thousands separators, as every count of the report; a negative count (a bad
        // record) is shown as it is.
        |rollouts| u64::try_from(rollouts).map_or_else(|_| rollouts.to_string(), count),
    )
}

/// The number of tasks selected for a run, e.g. `403 tasks`, when recorded.
pub fn task_count(run: &EvalRun) -> Option<String> {
    run.task_selection
        .as_ref()
        .map(|selection| plural(selection.selected_task_count, "task", "tasks"))
}

/// The run's display name, falling back to its id for legacy rows.
pub fn run_name(run: &EvalRun) -> &str {
    run.display_name
        .as_deref()
        .filter(|name| !name.trim().is_empty())
        .unwrap_or(&run.eval_run_id)
}

/// Label and CSS modifier of a run status; unknown statuses keep their name.
pub fn status_label(status: Option<&EvalRunStatus>) -> (String, &'static str) {
    match status {
        None => ("unknown".to_owned(), "status-unknown"),
        Some(EvalRunStatus::Pending | EvalRunStatus::Registered) => {
            ("queued".to_owned(), "status-queued")
        }
        Some(EvalRunStatus::Running) => ("running".to_owned(), "status-running"),
        Some(EvalRunStatus::Completed) => ("completed".to_owned(), "status-completed"),
        Some(EvalRunStatus::Failed) => ("failed".to_owned(), "status-failed"),
        Some(EvalRunStatus::Cancelled) => ("cancelled".to_owned(), "status-cancelled"),
        Some(EvalRunStatus::Other(name)) => (name.clone(), "status-unknown"),
    }
}

/// Share of finished rollouts in percent (0–100), when the total is known and positive.
pub fn percent_done(terminal: i64, total: i64) -> Option<f64> {
    (total > 0).then(|| (terminal.clamp(0, total) as f64) * 100.0 / total as f64)
}

/// `text` with its first letter in upper case, to read as a sentence. Only ASCII letters change:
/// the texts are the app's own English messages, and Unicode case tables would cost download size.
pub fn capitalized(text: &str) -> String {
    let mut text = text.to_owned();
    if let Some(first) = text.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    text
}

/// A duration given in milliseconds, as people read it: `850 ms`, `12.3 s`, `4 min 05 s`,
/// `2 h 03 min` (rounded to the unit shown).
pub fn duration_ms(ms: u64) -> String {
    if ms < 1_000 {
        return format!("{ms} ms");
    }
    let tenths = ms.saturating_add(50) / 100;
    if tenths < 600 {
        return format!("{}.{} s", tenths / 10, tenths % 10);
    }
    let seconds = ms.saturating_add(500) / 1_000;
    if seconds < 3_600 {
        return format!("{} min {:02} s", seconds / 60, seconds % 60);
    }
    let minutes = ms.saturating_add(30_000) / 60_000;
    format!("{} h {:02} min", minutes / 60, minutes % 60)
}

/// A name or label from the data as a heading or cell shows it: cut to
/// [`text::SHOWN_NAME_CHARS`] characters ([`text::shorten`]), with the whole of it for the
/// element's `title` when it was cut (else `None`).
pub fn shown_name(name: &str) -> (String, Option<String>) {
    match text::shorten(name, text::SHOWN_NAME_CHARS) {
        std::borrow::Cow::Borrowed(_) => (name.to_owned(), None),
        std::borrow::Cow::Owned(short) => (short, Some(name.to_owned())),
    }
}

/// A size in bytes ([`eval_compare_core::text::byte_size`]).
pub use eval_compare_core::text::byte_size;
