//! What the load panel says under a load that stopped early: that what was read is kept, or,
//! when nothing was read, that there is nothing to keep. A plain function, tested natively.

use eval_compare_core::load::RunProgress;

/// The note under a stopped load: what happens to what was read, and what Retry does.
pub fn stopped_note(runs: &[RunProgress]) -> &'static str {
    let read_any = runs
        .iter()
        .any(|run| run.lists.iter().any(|list| list.items > 0));
    if read_any {
        "What was read is kept: the report uses it, and the coverage ledger marks these runs as \
         incomplete. Retry continues each list from where it stopped."
    } else {
        "Nothing was read, so there is no report yet. Retry reads the runs from the start."
    }
}

#[cfg(test)]
mod tests {
    use eval_compare_core::client::{ApiError, HttpError};
    use eval_compare_core::load::{ListKind, ListProgress, Phase};

    use super::*;

    fn run(lists: Vec<ListProgress>, record: Phase) -> RunProgress {
        RunProgress {
            run_id: "eval_base_v2".to_owned(),
            name: None,
            record,
            running: false,
            rollouts: None,
            lists,
            settings_reads: Vec::new(),
            refresh_error: None,
        }
    }

    fn refused() -> Phase {
        Phase::Failed(ApiError::from(HttpError {
            service: Default::default(),
            status: 401,
            code: None,
            error_type: None,
            message: "missing or invalid API key".to_owned(),
            param: None,
            request_id: None,
            retry_after_ms: None,
            key_sent: false,
        }))
    }

    #[test]
    fn a_load_refused_before_anything_was_read_keeps_nothing() {
        let note = stopped_note(&[run(Vec::new(), refused()), run(Vec::new(), refused())]);
        assert!(note.starts_with("Nothing was read"), "{note}");
        assert!(!note.contains("kept"), "{note}");
    }

    #[test]
    fn a_load_that_read_items_keeps_them() {
        let list = ListProgress {
            kind: ListKind::Rewards,
            pages: 1,
            items: 200,
            total: Some(400),
            phase: refused(),
        };
        let note = stopped_note(&[run(vec![list], Phase::Complete), run(Vec::new(), refused())]);
        assert!(note.starts_with("What was read is kept"), "{note}");
    }
}
