//! A Chronicle trial's detail as the panel shows it: its steps (kind, name, status, duration),
//! its artifacts (name, media type, size, and a link only where the rule of
//! [`artifact_href`] allows one) and whether its instruction is long enough to fold. Plain
//! functions, tested natively.

use eval_compare_core::api::{TrialArtifact, TrialStep};
use eval_compare_core::text::{count, visible};

use crate::format;
use crate::report::task_panel::link::artifact_href;

/// An instruction longer than this many characters starts folded.
pub const FOLD_CHARS: usize = 600;
/// An instruction of more lines than this starts folded.
pub const FOLD_LINES: usize = 12;

/// Whether an instruction is long enough to show folded (a summary line to open it).
pub fn folds(instruction: &str) -> bool {
    instruction.chars().count() > FOLD_CHARS || instruction.lines().count() > FOLD_LINES
}

/// One step of a trial, as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct StepLine {
    /// The kind in words: `setup`, `agent`, `tool call`, `scoring`, or an unknown kind by name.
    pub kind: String,
    /// A CSS-friendly name of the kind (`other` for an unknown one).
    pub kind_slug: &'static str,
    /// What the step did, or [`format::MISSING`].
    pub name: String,
    /// Its status by name, or [`format::MISSING`].
    pub status: String,
    /// Its duration (`850 ms`, `12.3 s`), or [`format::MISSING`].
    pub duration: String,
}

impl StepLine {
    /// The line of a step.
    pub fn of(step: &TrialStep) -> Self {
        let (kind, kind_slug) = match step.kind.as_str() {
            "setup" => ("setup".to_owned(), "setup"),
            "agent" => ("agent".to_owned(), "agent"),
            "tool_call" => ("tool call".to_owned(), "tool-call"),
            "scoring" => ("scoring".to_owned(), "scoring"),
            "" => (format::MISSING.to_owned(), "other"),
            other => (visible(other).into_owned(), "other"),
        };
        Self {
            kind,
            kind_slug,
            name: shown(step.name.as_deref()),
            status: shown(step.status.as_deref()),
            duration: step
                .duration_ms
                .map_or_else(|| format::MISSING.to_owned(), format::duration_ms),
        }
    }
}

/// One artifact of a trial, as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct ArtifactLine {
    /// File name.
    pub name: String,
    /// Media type, or [`format::MISSING`].
    pub media_type: String,
    /// Size (`1.5 KiB`), or [`format::MISSING`].
    pub size: String,
    /// The exact size in bytes, for a tooltip.
    pub size_title: Option<String>,
    /// Where to link the name; `None`: shown by name only.
    pub href: Option<String>,
}

impl ArtifactLine {
    /// The line of an artifact, linked only to an external http(s) address (`page_origin` is
    /// the viewer's own origin).
    pub fn of(artifact: &TrialArtifact, page_origin: &str) -> Self {
        Self {
            name: visible(&artifact.name).into_owned(),
            media_type: shown(artifact.media_type.as_deref()),
            size: artifact
                .size_bytes
                .map_or_else(|| format::MISSING.to_owned(), format::byte_size),
            size_title: artifact
                .size_bytes
                .map(|bytes| format!("{} bytes", count(bytes))),
            href: artifact
                .url
                .as_deref()
                .and_then(|url| artifact_href(url, page_origin)),
        }
    }
}

/// A text from the API made visible, or [`format::MISSING`] when absent or blank.
fn shown(text: Option<&str>) -> String {
    text.filter(|text| !text.trim().is_empty()).map_or_else(
        || format::MISSING.to_owned(),
        |text| visible(text).into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(kind: &str, name: Option<&str>, status: Option<&str>, ms: Option<u64>) -> TrialStep {
        TrialStep {
            kind: kind.to_owned(),
            name: name.map(str::to_owned),
            status: status.map(str::to_owned),
            duration_ms: ms,
        }
    }

    #[test]
    fn steps_name_their_kind_and_format_their_duration() {
        let lines: Vec<(String, &str, String, String, String)> = [
            step("setup", Some("clone repo"), Some("succeeded"), Some(850)),
            step("agent", Some("turn 1"), Some("succeeded"), Some(12_340)),
            step("tool_call", Some("bash"), Some("failed"), Some(245_000)),
            step("scoring", Some("tests_pass"), None, None),
            step("reflection", None, Some("skipped"), Some(0)),
        ]
        .iter()
        .map(StepLine::of)
        .map(|s| (s.kind, s.kind_slug, s.name, s.status, s.duration))
        .collect();
        let expected = [
            ("setup", "setup", "clone repo", "succeeded", "850 ms"),
            ("agent", "agent", "turn 1", "succeeded", "12.3 s"),
            ("tool call", "tool-call", "bash", "failed", "4 min 05 s"),
            ("scoring", "scoring", "tests_pass", "—", "—"),
            ("reflection", "other", "—", "skipped", "0 ms"),
        ];
        assert_eq!(lines.len(), expected.len());
        for (line, want) in lines.iter().zip(expected) {
            assert_eq!(
                (
                    line.0.as_str(),
                    line.1,
                    line.2.as_str(),
                    line.3.as_str(),
                    line.4.as_str()
                ),
                want
            );
        }
    }

    #[test]
    fn hidden_characters_in_step_texts_are_made_visible() {
        let line = StepLine::of(&step("tool\u{202e}call", Some("a\u{200b}b"), None, None));
        assert!(!line.kind.contains('\u{202e}'), "{}", line.kind);
        assert!(!line.name.contains('\u{200b}'), "{}", line.name);
    }

    #[test]
    fn artifacts_are_linked_only_to_other_servers() {
        let page = "http://127.0.0.1:8080";
        let artifact = |url: Option<&str>| TrialArtifact {
            name: "patch.diff".to_owned(),
            media_type: Some("text/x-diff".to_owned()),
            size_bytes: Some(1_536),
            url: url.map(str::to_owned),
        };
        let external = ArtifactLine::of(&artifact(Some("https://cdn.example.com/p.diff")), page);
        assert_eq!(
            external.href.as_deref(),
            Some("https://cdn.example.com/p.diff")
        );
        assert_eq!(
            (external.media_type.as_str(), external.size.as_str()),
            ("text/x-diff", "1.5 KiB")
        );
        assert_eq!(external.size_title.as_deref(), Some("1,536 bytes"));
        for url in [
            None,
            Some("http://127.0.0.1:8080/#/files"),
            Some("javascript:alert(1)"),
        ] {
            assert_eq!(ArtifactLine::of(&artifact(url), page).href, None, "{url:?}");
        }
        let bare = ArtifactLine::of(
            &TrialArtifact {
                name: "out.log".to_owned(),
                media_type: None,
                size_bytes: None,
                url: None,
            },
            page,
        );
        assert_eq!((bare.media_type.as_str(), bare.size.as_str()), ("—", "—"));
        assert_eq!(bare.size_title, None);
    }

    #[test]
    fn long_instructions_fold() {
        assert!(!folds("Fix the failing test."));
        assert!(folds(&"x".repeat(FOLD_CHARS + 1)));
        assert!(!folds(&"x".repeat(FOLD_CHARS)));
        assert!(folds(&"line\n".repeat(FOLD_LINES + 1)));
    }
}
