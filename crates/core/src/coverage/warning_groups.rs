//! The coverage warnings grouped by code and ranked by what they can do to the comparison, so
//! the few that can change an answer are not buried under many similar lines (one per run).

use super::CoverageWarning;

/// The warnings of one code, with what the code means.
#[derive(Debug, Clone, PartialEq)]
pub struct WarningGroup<'a> {
    /// The code, e.g. `FAILURE_RATES_DIFFER`.
    pub code: &'a str,
    /// Its rank: 0 can void the comparison, higher only qualifies it (see [`rank_of`]).
    pub rank: u8,
    /// What the code means, in a phrase.
    pub summary: &'static str,
    /// Its warnings, in the order found.
    pub warnings: Vec<&'a CoverageWarning>,
}

impl WarningGroup<'_> {
    /// Whether it can change the answer (ranks 0–2): shown open.
    pub fn is_important(&self) -> bool {
        self.rank <= 2
    }
}

/// The rank and meaning of a code: 0 nothing can be compared; 1 the data are incomplete or
/// what is missing may depend on the outcome; 2 the runs differ in what they finished; 3
/// results that are not valid; 4 listings that disagree; 5 how some trajectories were scored;
/// 6 bookkeeping. A code this build does not know ranks 3, with its name as its meaning.
pub fn rank_of(code: &str) -> (u8, &'static str) {
    match code {
        "NO_PAIRED_TASKS" => (0, "no paired tasks: nothing can be compared"),
        "INCOMPLETE_LOAD" => (1, "a run was not read completely"),
        "INFORMATIVE_MISSINGNESS" => (1, "what is missing may depend on the outcome"),
        "FAILURE_RATES_DIFFER" => (2, "the runs left different shares of trajectories unscored"),
        "TASKS_NOT_ATTEMPTED" => (2, "selected tasks were never attempted"),
        "UNFINISHED_TRAJECTORIES" => (3, "trajectories have not finished"),
        "INVALID_REWARDS" => (3, "rewards that are not valid numbers"),
        "DUPLICATE_TRAJECTORY_CONFLICTS" => (4, "a trajectory listed twice with different values"),
        "JOIN_ISSUES" => (4, "rewards and trajectory listings disagree"),
        "TASK_LIST_CONFLICTS" => (4, "tasks listed twice with different details"),
        "CUT_OFF_WITH_POSITIVE_REWARD" => (5, "cut-off trajectories kept a positive reward"),
        "SCORED_ZERO_BY_PLATFORM_RULE" => (5, "trajectories scored 0 by the platform's rule"),
        "SCORED_ZERO_WITHOUT_GRADE" => (5, "trajectories without a grade scored 0"),
        "UNKNOWN_ENDINGS" => (6, "endings this build does not class"),
        "TRAJECTORIES_WITHOUT_TASK" => (6, "trajectories without a task"),
        "TEXT_CUT" => (6, "names or labels too long to show whole"),
        _ => (3, "a warning this build does not know"),
    }
}

/// The warnings grouped by code, most important first (by rank, then by how many warnings a
/// group holds, then in the order first found).
pub fn group_warnings(warnings: &[CoverageWarning]) -> Vec<WarningGroup<'_>> {
    let mut groups: Vec<WarningGroup<'_>> = Vec::new();
    for warning in warnings {
        match groups.iter_mut().find(|group| group.code == warning.code) {
            Some(group) => group.warnings.push(warning),
            None => {
                let (rank, summary) = rank_of(&warning.code);
                groups.push(WarningGroup {
                    code: &warning.code,
                    rank,
                    summary,
                    warnings: vec![warning],
                });
            }
        }
    }
    // Stable: equal groups keep the order found.
    groups.sort_by_key(|group| (group.rank, std::cmp::Reverse(group.warnings.len())));
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(code: &str, message: &str) -> CoverageWarning {
        CoverageWarning {
            code: code.to_owned(),
            runs: Vec::new(),
            message: message.to_owned(),
        }
    }

    #[test]
    fn warnings_are_grouped_by_code_and_ranked_by_what_they_can_change() {
        let warnings = [
            warning("UNKNOWN_ENDINGS", "base: 8"),
            warning("SCORED_ZERO_WITHOUT_GRADE", "base: 12"),
            warning("UNKNOWN_ENDINGS", "cand: 12"),
            warning("FAILURE_RATES_DIFFER", "8.4% vs 6.1%"),
            warning("SCORED_ZERO_WITHOUT_GRADE", "cand: 16"),
            warning("SCORED_ZERO_WITHOUT_GRADE", "s200: 3"),
            warning("FUTURE_CODE", "something new"),
        ];
        let groups = group_warnings(&warnings);
        let codes: Vec<(&str, usize)> = groups
            .iter()
            .map(|group| (group.code, group.warnings.len()))
            .collect();
        assert_eq!(
            codes,
            [
                ("FAILURE_RATES_DIFFER", 1),
                ("FUTURE_CODE", 1),
                ("SCORED_ZERO_WITHOUT_GRADE", 3),
                ("UNKNOWN_ENDINGS", 2),
            ]
        );
        assert!(groups[0].is_important() && !groups[2].is_important());
        assert_eq!(groups[1].summary, "a warning this build does not know");
        let messages: Vec<&str> = groups[2]
            .warnings
            .iter()
            .map(|w| w.message.as_str())
            .collect();
        assert_eq!(messages, ["base: 12", "cand: 16", "s200: 3"]);
        assert!(group_warnings(&[]).is_empty());
    }
}
