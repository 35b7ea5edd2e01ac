//! Putting a run's rows in task order in place when only a short tail is out of order: the
//! rows a join adds after the rewarded ones (trajectories listed without a reward) follow rows
//! already in task order. The tail is sorted by task (stably), and each of its rows is moved
//! in just after the sorted rows of its task, the sorted rows between two insertions moving
//! up as one block: the stable order by task, with no second copy of the run's columns.

/// Where each tail row goes: the plan every column of a run follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TailPlan {
    /// Rows before the tail (in task order).
    pub(crate) prefix: usize,
    /// The tail's rows (indices into the columns), in their new order: stably by task.
    pub(crate) tail: Vec<usize>,
    /// For each row of `tail`, the count of sorted rows that come before it (those of lower
    /// or equal task): non-decreasing.
    pub(crate) insert_at: Vec<usize>,
    /// For each tail row in its old order (row `prefix + i`), its place in `tail`.
    rank: Vec<usize>,
}

impl TailPlan {
    /// The plan for `tasks` whose first `prefix` rows are in task order (`NONE_U32`, past
    /// every task, last).
    pub(crate) fn new(tasks: &[u32], prefix: usize) -> Self {
        let (sorted, rest) = tasks.split_at(prefix.min(tasks.len()));
        let mut tail: Vec<usize> = (prefix..prefix + rest.len()).collect();
        tail.sort_by_key(|&row| tasks[row]);
        let insert_at = tail
            .iter()
            .map(|&row| sorted.partition_point(|&task| task <= tasks[row]))
            .collect();
        let mut rank = vec![0; tail.len()];
        for (j, &row) in tail.iter().enumerate() {
            rank[row - prefix] = j;
        }
        TailPlan {
            prefix,
            tail,
            insert_at,
            rank,
        }
    }

    /// The sorted rows that move up past the tail's row `j` and no further: from where row
    /// `j` goes in to where row `j + 1` does.
    pub(crate) fn block(&self, j: usize) -> std::ops::Range<usize> {
        let end = self.insert_at.get(j + 1).copied().unwrap_or(self.prefix);
        self.insert_at[j]..end
    }

    /// The new index of row `row`.
    pub(crate) fn new_row(&self, row: usize) -> usize {
        if row < self.prefix {
            row + self.insert_at.partition_point(|&at| at <= row)
        } else {
            let j = self.rank.get(row - self.prefix).copied().unwrap_or(0);
            self.insert_at.get(j).map_or(row, |&at| at + j)
        }
    }

    /// `column` put in the new order, in place.
    pub(crate) fn apply<X: Copy>(&self, column: &mut [X]) {
        if column.len() != self.prefix + self.tail.len() {
            return;
        }
        let saved: Vec<X> = self.tail.iter().map(|&row| column[row]).collect();
        for (j, &value) in saved.iter().enumerate().rev() {
            let block = self.block(j);
            let start = block.start;
            column.copy_within(block, start + j + 1);
            column[start + j] = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Rows `0..n` by task, stably: what the plan must give.
    fn stable_order(tasks: &[u32]) -> Vec<usize> {
        let mut rows: Vec<usize> = (0..tasks.len()).collect();
        rows.sort_by_key(|&row| tasks[row]);
        rows
    }

    proptest! {
        /// Sorted rows followed by any tail end up stably sorted by task, and `new_row` says
        /// where each row went.
        #[test]
        fn a_tail_is_merged_into_the_sorted_rows_stably(
            mut sorted in prop::collection::vec(0u32..6, 0..30),
            tail in prop::collection::vec(prop::sample::select(vec![0u32, 2, 3, 5, u32::MAX]), 0..10),
        ) {
            sorted.sort();
            let prefix = sorted.len();
            let tasks: Vec<u32> = sorted.into_iter().chain(tail).collect();
            let plan = TailPlan::new(&tasks, prefix);
            let mut rows: Vec<usize> = (0..tasks.len()).collect();
            plan.apply(&mut rows);
            prop_assert_eq!(&rows, &stable_order(&tasks));
            for (new, &old) in rows.iter().enumerate() {
                prop_assert_eq!(plan.new_row(old), new);
            }
        }
    }
}
