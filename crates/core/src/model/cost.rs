//! What a run cost, as the platform's billing says: cents by kind, or why it is not known.
//! An unknown cost is never 0: a key without billing access, a run billing does not list, a
//! failed read and a folder without the billing row each say so.

use serde::{Deserialize, Serialize};

use crate::api::BillingRunCost;

/// A run's costs in USD cents, split as the billing API splits them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CostCents {
    /// All kinds together, as billing totals them.
    pub total: f64,
    /// Training.
    pub training: f64,
    /// Inference (the policy's model calls).
    pub inference: f64,
    /// Grading.
    pub grading: f64,
    /// Sandboxes.
    pub sandbox: f64,
}

/// Why a run's cost is not known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum CostUnavailable {
    /// Nothing was read (the source has no billing, or the read has not run).
    NotRead,
    /// The API key may not read billing (403).
    Forbidden,
    /// Billing answered, but lists no row for the run (billing keeps the last 30 days).
    NotListed,
    /// The billing read failed: why.
    Failed(String),
    /// The billing row does not make sense: what is wrong with it.
    Invalid(String),
    /// The run folder holds no billing row.
    NotInFolder,
}

impl CostUnavailable {
    /// Why, in words ("the API key may not read billing").
    pub fn reason(&self) -> String {
        match self {
            Self::NotRead => "the cost was not read".to_owned(),
            Self::Forbidden => "the API key may not read billing".to_owned(),
            Self::NotListed => {
                "billing lists no cost for this run (it keeps the last 30 days)".to_owned()
            }
            Self::Failed(why) => format!("the billing read failed: {why}"),
            Self::Invalid(why) => format!("the billing row is not usable: {why}"),
            Self::NotInFolder => "the run folder holds no billing row".to_owned(),
        }
    }
}

/// A run's cost: known by kind, or unavailable with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunCost {
    /// Cents by kind.
    Known(CostCents),
    /// Not known, and why.
    Unavailable(CostUnavailable),
}

impl Default for RunCost {
    fn default() -> Self {
        Self::Unavailable(CostUnavailable::NotRead)
    }
}

impl RunCost {
    /// The cost a billing row gives; a row with a negative or non-finite amount is
    /// [`CostUnavailable::Invalid`], naming the field.
    pub fn from_billing(row: &BillingRunCost) -> Self {
        let fields = [
            ("cents", row.cents),
            ("training_cents", row.training_cents),
            ("inference_cents", row.inference_cents),
            ("grading_cents", row.grading_cents),
            ("sandbox_cents", row.sandbox_cents),
        ];
        if let Some((name, value)) = fields.iter().find(|(_, v)| !(v.is_finite() && *v >= 0.0)) {
            return Self::Unavailable(CostUnavailable::Invalid(format!("{name} is {value}")));
        }
        Self::Known(CostCents {
            total: row.cents,
            training: row.training_cents,
            inference: row.inference_cents,
            grading: row.grading_cents,
            sandbox: row.sandbox_cents,
        })
    }

    /// The cost of `run_id` among billing rows read whole: its row's, else not listed.
    pub fn of_run(rows: &[BillingRunCost], run_id: &str) -> Self {
        rows.iter().find(|row| row.run_id == run_id).map_or(
            Self::Unavailable(CostUnavailable::NotListed),
            Self::from_billing,
        )
    }

    /// The cents, when known.
    pub fn known(&self) -> Option<&CostCents> {
        match self {
            Self::Known(cents) => Some(cents),
            Self::Unavailable(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(run_id: &str, inference: f64) -> BillingRunCost {
        BillingRunCost {
            run_id: run_id.to_owned(),
            name: "a run".to_owned(),
            run_type: Some("eval".to_owned()),
            status: Some("completed".to_owned()),
            launch_at: None,
            cents: inference + 3.0,
            training_cents: 0.0,
            inference_cents: inference,
            grading_cents: 1.0,
            sandbox_cents: 2.0,
        }
    }

    #[test]
    fn a_run_not_listed_or_with_a_bad_row_is_unavailable_never_zero() {
        let rows = [row("a", 10.0), row("b", -1.0)];
        let known = RunCost::of_run(&rows, "a");
        assert_eq!(
            known.known().map(|c| (c.total, c.inference)),
            Some((13.0, 10.0))
        );
        assert_eq!(
            RunCost::of_run(&rows, "c"),
            RunCost::Unavailable(CostUnavailable::NotListed)
        );
        let bad = RunCost::of_run(&rows, "b");
        assert!(
            matches!(&bad, RunCost::Unavailable(CostUnavailable::Invalid(why)) if why.contains("inference_cents")),
            "{bad:?}"
        );
        assert_eq!(RunCost::default().known(), None);
        assert!(CostUnavailable::Forbidden
            .reason()
            .contains("may not read billing"));
    }
}
