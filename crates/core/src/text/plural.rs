//! Plurals of the report's nouns (English: one, or many).

use super::numbers::count;

/// `one` for exactly 1, else `many`: `noun(3, "task", "tasks")` is `tasks`. For a number that
/// is written as it is (without thousands separators) beside the noun.
pub fn noun<'a>(value: u64, one: &'a str, many: &'a str) -> &'a str {
    if value == 1 {
        one
    } else {
        many
    }
}

/// A count with its noun: `1 task`, `3 tasks`, `1,403 tasks` (see [`count`]).
pub fn plural(value: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(value), noun(value, one, many))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(noun(1, "page", "pages"), "page");
        assert_eq!(noun(0, "page", "pages"), "pages");
        assert_eq!(noun(2, "page", "pages"), "pages");
        assert_eq!(plural(1, "task", "tasks"), "1 task");
        assert_eq!(plural(0, "task", "tasks"), "0 tasks");
        assert_eq!(
            plural(1403, "graded task", "graded tasks"),
            "1,403 graded tasks"
        );
    }
}
