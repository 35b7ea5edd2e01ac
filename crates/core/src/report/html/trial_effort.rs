//! The HTML of the Chronicle trials' steps and durations: the markdown's words, escaped and
//! laid out. Their line beside a verdict is `words::beside_delta`'s.

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    measure_sentence, measure_solved_failed, run_trial_effort_cells, DURATION,
    RUN_TRIAL_EFFORT_COLUMNS, STEPS, TRIAL_EFFORT_HEADING, TRIAL_EFFORT_INTRO,
};
use super::super::Report;
use super::sections::{head, shown, td, td_num, td_shown};

/// The trials' steps and durations; nothing when no trial detail was read.
pub fn section(out: &mut String, report: &Report) {
    let Some(section) = &report.trial_effort else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"trial-effort\"><h2>{}</h2><p>{}</p><div class=\"scroll\"><table>",
        html_text(TRIAL_EFFORT_HEADING),
        html_text(TRIAL_EFFORT_INTRO)
    );
    head(out, &RUN_TRIAL_EFFORT_COLUMNS);
    out.push_str("<tbody>");
    for (index, (run, summary)) in section.runs.iter().zip(&report.runs).enumerate() {
        out.push_str("<tr>");
        for (i, text) in run_trial_effort_cells(index, &summary.name, run)
            .iter()
            .enumerate()
        {
            match i {
                0 => td(out, text),
                1 => td_shown(out, text),
                _ => td_num(out, text),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    for candidate in &section.candidates {
        let Some(run) = report.runs.get(candidate.run) else {
            continue;
        };
        let (name, title) = shown(&run.name);
        let _ = write!(out, "<h3{title}>{name}</h3><ul>");
        for (delta, measure) in [(&candidate.steps, STEPS), (&candidate.duration, DURATION)] {
            let _ = write!(
                out,
                "<li>{}</li>",
                html_text(&measure_sentence(delta, measure))
            );
            if delta.n > 0 {
                let line = measure_solved_failed(delta, measure);
                let _ = write!(out, "<li>{}</li>", html_text(&line));
            }
        }
        out.push_str("</ul>");
    }
    out.push_str("</section>");
}
