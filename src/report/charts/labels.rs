//! The words and numbers a chart writes: tick labels, counts, shortened names, confidence
//! levels and file names. Numbers go through core's text layer (`eval_compare_core::text`);
//! what is here only adds the charts' own tick forms.

/// A whole count with thousands separators: 12345 → "12,345".
pub use eval_compare_core::text::count as count_label;
/// A reward difference in points with its sign, as the cards write it ("+4.1", "−2.0").
pub use eval_compare_core::text::signed_points;

/// A tick label for a value in points: integers without decimals, others with one.
pub fn points_tick(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "0".to_owned()
    } else if rounded.fract() == 0.0 {
        format!("{rounded:+.0}")
    } else {
        format!("{rounded:+.1}")
    }
}

/// A tick label for a reward in [0, 1].
pub fn reward_tick(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        "0".to_owned()
    } else if (rounded * 10.0).fract() == 0.0 {
        format!("{rounded:.1}")
    } else {
        format!("{rounded:.2}")
    }
}

/// A count tick label (axis values are whole numbers of tasks or trajectories).
pub fn count_tick(value: f64) -> String {
    if value.fract() == 0.0 && value >= 0.0 {
        count_label(value as u64)
    } else {
        String::new()
    }
}

/// A tick label of a training step: whole steps only.
pub fn step_tick(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        String::new()
    }
}

/// A confidence level as a percentage: 0.95 → "95%", 0.995 → "99.5%".
pub fn level_label(level: f64) -> String {
    let percent = (level * 1000.0).round() / 10.0;
    if percent.fract() == 0.0 {
        format!("{percent:.0}%")
    } else {
        format!("{percent:.1}%")
    }
}

/// `name` shortened to at most `max` characters, with "…" when cut
/// ([`eval_compare_core::text::shorten`]).
pub fn short_name(name: &str, max: usize) -> String {
    eval_compare_core::text::shorten(name, max).into_owned()
}

/// "1 task" / "12 tasks" / "1,403 tasks".
pub fn tasks_label(count: usize) -> String {
    eval_compare_core::text::plural(count as u64, "task", "tasks")
}

/// A file-name-safe version of a run id or name.
pub fn file_safe(text: &str) -> String {
    let safe: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let trimmed = safe.trim_matches('-');
    if trimmed.is_empty() {
        "run".to_owned()
    } else {
        trimmed.chars().take(60).collect()
    }
}
