//! `eval-compare scorecard`: read the runs, build the core's scorecard (each cell the report of
//! its pair), print it, and apply `--fail-unless-deployable`.

use eval_compare_core::report::ReportSettings;
use eval_compare_core::scorecard::{
    build_scorecard, scorecard_address_on, Correction, Guardrail, Rule, Scorecard,
    FOLDERS_SCORECARD_PAGE_PATH, SCORECARD_PAGE_PATH,
};
use eval_compare_core::view_state::{ScorecardLink, ViewState};

use crate::args::Format;
use crate::error::CliError;
use crate::exit_code::Exit;
use crate::progress::Progress;
use crate::report_command::write_output;
use crate::scorecard_args::{CorrectionArg, ScorecardArgs};
use crate::scorecard_gate::deployable;
use crate::scorecard_inputs::load;

/// Writes the scorecard, then returns the gate's exit code (explained on stderr).
pub async fn scorecard(args: &ScorecardArgs, progress: &Progress) -> Result<Exit, CliError> {
    let (plan, pairs) = load(args, progress).await?;
    let scorecard = build_scorecard(plan, &settings(args), &rule(args), |b, c| {
        pairs.pair_set(b, c)
    });
    write_output(args.output.as_deref(), &render(&scorecard, args))?;
    if let Some(path) = &args.output {
        progress.note(&format!("scorecard written to {}", path.display()));
    }
    match args.fail_unless_deployable {
        Some(step) => {
            let gate = deployable(&scorecard, step);
            if gate.exit == Exit::Ok {
                progress.note(&gate.message);
            } else {
                progress.warn(&gate.message);
            }
            Ok(gate.exit)
        }
        None => Ok(Exit::Ok),
    }
}

/// The settings of every cell's report: `report`'s for the same flags.
pub fn settings(args: &ScorecardArgs) -> ReportSettings {
    args.statistics.settings()
}

/// The rule the flags set.
pub fn rule(args: &ScorecardArgs) -> Rule {
    Rule {
        primary: args.primary.clone(),
        guardrails: args
            .guardrail
            .iter()
            .map(|(bench_id, tenths)| Guardrail {
                bench_id: bench_id.clone(),
                margin_points: f64::from(*tenths) / 10.0,
            })
            .collect(),
        correction: match args.correction {
            CorrectionArg::Holm => Correction::Holm,
            CorrectionArg::None => Correction::None,
        },
    }
}

/// The viewer's link of the same scorecard: the training run, the baselines chosen by hand,
/// the rule and the settings, on the scorecard page of the API or, from run folders, of the
/// files pages; `None` when a setting cannot be written in a link.
pub fn link(scorecard: &Scorecard, args: &ScorecardArgs) -> Option<String> {
    let percent = (args.statistics.confidence * 100.0).round();
    if (percent / 100.0 - args.statistics.confidence).abs() > 1e-9
        || !(50.0..=99.0).contains(&percent)
    {
        return None;
    }
    let view = ViewState {
        seed: args.statistics.seed,
        resamples: u32::try_from(args.statistics.resamples)
            .ok()
            .filter(|b| *b > 0)?,
        confidence_percent: percent as u8,
        target_tenths: args.statistics.target_delta,
        project_samples: args.statistics.k_prime,
        ..ViewState::default()
    };
    let mut link = ScorecardLink {
        training_run: Some(scorecard.training_run_id.clone()),
        baselines: args.baseline.clone(),
        settings: view,
        ..ScorecardLink::default()
    };
    scorecard.rule.write_to(&mut link)?;
    let page = match args.server {
        Some(_) => SCORECARD_PAGE_PATH,
        None => FOLDERS_SCORECARD_PAGE_PATH,
    };
    Some(scorecard_address_on(&args.link_base, page, &link))
}

/// The scorecard in the chosen format, ending with a newline.
pub fn render(scorecard: &Scorecard, args: &ScorecardArgs) -> String {
    let mut text = match args.format {
        Format::Text => scorecard.to_markdown(),
        Format::Json => scorecard.to_json(),
        Format::Html => scorecard.to_html(link(scorecard, args).as_deref()),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}
