//! What the scorecard of run folders says on the Files page and on its own page: each training
//! run the opened folders offer a scorecard of, and what the page needs when the folders its
//! link names are not open. Plain functions, natively tested; the components lay them out.

use eval_compare_core::scorecard::{FolderOffer, FOLDERS_SCORECARD_PAGE_PATH};
use eval_compare_core::text::{count, noun, visible};
use eval_compare_core::view_state::ScorecardLink;

/// What the scorecard of a page of run folders says of its link, always: the link keeps the
/// view, not the data.
pub const LINK_KEEPS_NO_DATA: &str =
    "Computed in this browser from the run folders opened here, with no API. \
     Its link keeps the rule, the baselines chosen by hand and the settings, not the data: \
     whoever opens it opens the same folders to see it.";

/// The address of the scorecard of `training_run_id` from the opened folders.
pub fn offer_href(training_run_id: &str) -> String {
    let link = ScorecardLink {
        training_run: Some(training_run_id.to_owned()),
        ..ScorecardLink::default()
    };
    format!("{FOLDERS_SCORECARD_PAGE_PATH}?{}", link.to_query())
}

/// An offer in one sentence: "Training run t1: 2 benchmark versions × 3 checkpoint steps,
/// 5 comparisons."
pub fn offer_text(offer: &FolderOffer) -> String {
    let (benches, steps, pairs) = (
        offer.benches as u64,
        offer.steps as u64,
        offer.comparisons as u64,
    );
    format!(
        "Training run {}: {} {} × {} {}, {} {}.",
        visible(&offer.training_run_id),
        count(benches),
        noun(benches, "benchmark version", "benchmark versions"),
        count(steps),
        noun(steps, "checkpoint step", "checkpoint steps"),
        count(pairs),
        noun(pairs, "comparison", "comparisons")
    )
}

/// What an offer lacks: the benchmark versions with no base-model evaluation open (their rows
/// compare nothing); `None` when every row has a baseline.
pub fn offer_gap(offer: &FolderOffer) -> Option<String> {
    if offer.without_baseline.is_empty() {
        return None;
    }
    let benches: Vec<String> = offer
        .without_baseline
        .iter()
        .map(|bench| visible(bench).into_owned())
        .collect();
    Some(if offer.comparisons == 0 {
        format!(
            "No base-model evaluation of {} is open: open one to compare its checkpoints with.",
            benches.join(", ")
        )
    } else {
        format!(
            "No base-model evaluation of {} is open: {}.",
            benches.join(", "),
            noun(
                benches.len() as u64,
                "its row compares nothing",
                "their rows compare nothing"
            )
        )
    })
}

/// What the scorecard's page needs to be shown, when it cannot be: no folder open, what the
/// folders lack (the core's words), or the runs a baseline chosen by hand needs.
pub fn folders_needed(opened: usize, problem: Option<&str>, missing: &[String]) -> String {
    if !missing.is_empty() {
        let runs: Vec<String> = missing.iter().map(|id| visible(id).into_owned()).collect();
        return format!(
            "Open the same folders to see it; still missing: {} (chosen by hand as a baseline).",
            runs.join(", ")
        );
    }
    match (opened, problem) {
        (0, _) | (_, None) => {
            "Open the same folders to see it: no run folder is open in this browser yet.".to_owned()
        }
        (_, Some(problem)) => format!("Open the same folders to see it: {problem}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(comparisons: usize, without: &[&str]) -> FolderOffer {
        FolderOffer {
            training_run_id: "train_1".into(),
            benches: 2,
            steps: 1,
            comparisons,
            without_baseline: without.iter().map(|b| (*b).to_owned()).collect(),
        }
    }

    #[test]
    fn an_offer_says_what_its_scorecard_compares_and_lacks() {
        assert_eq!(
            offer_text(&offer(2, &[])),
            "Training run train_1: 2 benchmark versions × 1 checkpoint step, 2 comparisons."
        );
        assert_eq!(offer_gap(&offer(2, &[])), None);
        assert_eq!(
            offer_gap(&offer(1, &["bench_b"])).as_deref(),
            Some("No base-model evaluation of bench_b is open: its row compares nothing.")
        );
        assert!(offer_gap(&offer(0, &["a", "b"]))
            .is_some_and(|gap| gap.contains("a, b") && gap.contains("open one")));
        assert_eq!(offer_href("train_1"), "/files/scorecard?training=train_1");
    }

    #[test]
    fn the_page_says_which_folders_it_needs() {
        assert!(folders_needed(0, Some("x"), &[]).contains("no run folder is open"));
        assert_eq!(
            folders_needed(
                3,
                Some("training run t has no checkpoint evaluations here"),
                &[]
            ),
            "Open the same folders to see it: training run t has no checkpoint evaluations here."
        );
        assert!(folders_needed(3, None, &["er_b".into()]).contains("still missing: er_b"));
    }
}
