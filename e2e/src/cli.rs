//! `eval-compare report --format json` run against a server, and the viewer's number formats,
//! written here independently of the viewer so a test compares what the page shows with what
//! the CLI computed.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::{configured_path, require, BoxError};

/// The CLI binary: `EVAL_COMPARE_CLI_BIN`, else `target/debug/eval-compare`.
pub fn cli_bin() -> Result<std::path::PathBuf, BoxError> {
    require(
        configured_path("EVAL_COMPARE_CLI_BIN", "target/debug/eval-compare"),
        "the CLI binary",
        "build it with `cargo build -p eval-compare-cli` or set EVAL_COMPARE_CLI_BIN",
    )
}

/// Runs `eval-compare report --server BASE_URL --format json -q EXTRA... BASELINE CANDIDATES...`
/// with `TRAJECTORY_API_KEY` set to `api_key` (or unset), and returns its stdout, parsed and
/// as text.
pub fn cli_report_json(
    base_url: &str,
    baseline: &str,
    candidates: &[String],
    extra_args: &[&str],
    api_key: Option<&str>,
) -> Result<(Value, String), BoxError> {
    let bin = cli_bin()?;
    let mut command = Command::new(&bin);
    command
        .args(["report", "--server", base_url, "--format", "json", "-q"])
        .args(extra_args)
        .arg(baseline)
        .args(candidates)
        .stdin(Stdio::null());
    match api_key {
        Some(key) => command.env("TRAJECTORY_API_KEY", key),
        None => command.env_remove("TRAJECTORY_API_KEY"),
    };
    let output = command
        .output()
        .map_err(|error| format!("could not run {}: {error}", bin.display()))?;
    if !output.status.success() {
        return Err(format!(
            "`eval-compare report` exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    let text = String::from_utf8(output.stdout)?;
    let value = serde_json::from_str(&text)
        .map_err(|error| format!("the CLI's output is not JSON: {error}"))?;
    Ok((value, text))
}

/// Runs `eval-compare report --server BASE_URL --format html --link-base BASE_URL -q EXTRA...
/// BASELINE CANDIDATES...` without a key, and returns the document it prints.
pub fn cli_report_html(
    base_url: &str,
    baseline: &str,
    candidates: &[String],
    extra_args: &[&str],
) -> Result<String, BoxError> {
    let bin = cli_bin()?;
    let output = Command::new(&bin)
        .args(["report", "--server", base_url, "--format", "html", "-q"])
        .args(["--link-base", base_url])
        .args(extra_args)
        .arg(baseline)
        .args(candidates)
        .env_remove("TRAJECTORY_API_KEY")
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("could not run {}: {error}", bin.display()))?;
    if !output.status.success() {
        return Err(format!(
            "`eval-compare report --format html` exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(String::from_utf8(output.stdout)?)
}

/// The value at a JSON pointer (`/candidates/0/primary`), or an error naming the pointer.
pub fn at<'a>(value: &'a Value, pointer: &str) -> Result<&'a Value, BoxError> {
    value
        .pointer(pointer)
        .ok_or_else(|| format!("the report has no `{pointer}`").into())
}

/// A statistic of the report (`{"Ok": value}`), or an error with its `Err` reason.
pub fn ok<'a>(value: &'a Value, pointer: &str) -> Result<&'a Value, BoxError> {
    let stat = at(value, pointer)?;
    match (stat.get("Ok"), stat.get("Err")) {
        (Some(ok), _) => Ok(ok),
        (None, Some(reason)) => {
            Err(format!("`{pointer}` was not computed in the CLI's report: {reason}").into())
        }
        (None, None) => Err(format!("`{pointer}` is not a statistic: {stat}").into()),
    }
}

/// A number at a JSON pointer.
pub fn number(value: &Value, pointer: &str) -> Result<f64, BoxError> {
    at(value, pointer)?
        .as_f64()
        .ok_or_else(|| format!("`{pointer}` is not a number").into())
}

/// A string at a JSON pointer.
pub fn string<'a>(value: &'a Value, pointer: &str) -> Result<&'a str, BoxError> {
    at(value, pointer)?
        .as_str()
        .ok_or_else(|| format!("`{pointer}` is not a string").into())
}

/// A reward difference in points (reward × 100) with one decimal, signed with `+` or U+2212,
/// `0.0` for zero: `+4.1`, `−2.0`.
pub fn signed_points(delta: f64) -> String {
    let points = delta * 100.0;
    let rounded = (points * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "0.0".to_owned()
    } else if rounded < 0.0 {
        format!("\u{2212}{:.1}", -rounded)
    } else {
        format!("+{rounded:.1}")
    }
}

/// An interval in points: `+2.0 to +6.2`.
pub fn interval_points(interval: &Value) -> Result<String, BoxError> {
    Ok(format!(
        "{} to {}",
        signed_points(number(interval, "/lower")?),
        signed_points(number(interval, "/upper")?)
    ))
}

/// A p-value: four decimals, `< 0.0001` below that.
pub fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "< 0.0001".to_owned()
    } else {
        format!("{p:.4}")
    }
}

/// A mean reward with three decimals.
pub fn mean(value: f64) -> String {
    format!("{value:.3}")
}

/// A count with thousands separators: `12,345`.
pub fn count(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_the_viewer() {
        assert_eq!(signed_points(0.0158), "+1.6");
        assert_eq!(signed_points(-0.0103), "\u{2212}1.0");
        assert_eq!(signed_points(-0.0004), "0.0");
        assert_eq!(p_value(0.234_714), "0.2347");
        assert_eq!(p_value(3e-7), "< 0.0001");
        assert_eq!(count(1401), "1,401");
        assert_eq!(count(403), "403");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(mean(0.483_218), "0.483");
    }
}
