//! Property tests of the text layer's number formats.
#![allow(clippy::unwrap_used)]

use eval_compare_core::text::{count, p_value, points, signed_points};
use proptest::prelude::*;

proptest! {
    /// Thousands separators round-trip: without the commas the text is the number, and every
    /// group after the first has three digits.
    #[test]
    fn counts_round_trip_through_their_separators(value in any::<u64>()) {
        let text = count(value);
        prop_assert_eq!(text.replace(',', "").parse::<u64>().unwrap(), value);
        let groups: Vec<&str> = text.split(',').collect();
        let leading = groups[0];
        prop_assert!((1..=3).contains(&leading.len()));
        prop_assert!(value == 0 || !leading.starts_with('0'));
        prop_assert!(groups[1..].iter().all(|group| group.len() == 3));
    }

    /// The signed form is the plain form with its sign written out: `+` above zero, the minus
    /// sign U+2212 below, none for a difference that rounds to zero.
    #[test]
    fn signed_points_are_points_with_their_sign(delta in -2.0f64..2.0) {
        let plain = points(delta);
        let signed = signed_points(delta);
        let magnitude = plain.trim_start_matches('-');
        if plain == "0.0" {
            prop_assert_eq!(signed, "0.0");
        } else if plain.starts_with('-') {
            prop_assert_eq!(signed, format!("\u{2212}{magnitude}"));
        } else {
            prop_assert_eq!(signed, format!("+{magnitude}"));
        }
        prop_assert!(plain != "-0.0");
    }

    /// A p-value never reads as zero, and otherwise is within rounding of the value.
    #[test]
    fn p_values_never_read_as_zero(p in 0.0f64..=1.0) {
        let text = p_value(p);
        if text == "< 0.0001" {
            prop_assert!(p < 1e-4);
        } else {
            let shown: f64 = text.parse().unwrap();
            prop_assert!(shown >= 1e-4 && (shown - p).abs() <= 5e-5 + 1e-12);
        }
    }
}
