//! Trajectories: what a source hands the builder, and the compact per-run storage.

use super::id_map::IdMap;

use super::component::RewardComponent;
use super::outcome::{OutcomeClass, RewardState, Scoring};
use super::task::TaskIdx;

/// Facts about how a trajectory's data was put together from its sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TrajectoryFlags(u8);

impl TrajectoryFlags {
    /// No flag.
    pub const NONE: TrajectoryFlags = TrajectoryFlags(0);
    /// Listed in trajectory rewards but absent from trajectory metadata: its ending is unknown.
    pub const REWARD_WITHOUT_METADATA: TrajectoryFlags = TrajectoryFlags(1);
    /// Absent from trajectory rewards; the reward recorded on its metadata was used.
    pub const REWARD_FROM_METADATA: TrajectoryFlags = TrajectoryFlags(1 << 1);
    /// Metadata names another task than the reward item; the reward item's task was used.
    pub const TASK_CONFLICT: TrajectoryFlags = TrajectoryFlags(1 << 2);
    /// Metadata reward differs from the trajectory-rewards reward; the latter was used.
    pub const REWARD_MISMATCH: TrajectoryFlags = TrajectoryFlags(1 << 3);

    /// Every flag with its stable name.
    pub const NAMED: [(TrajectoryFlags, &'static str); 4] = [
        (Self::REWARD_WITHOUT_METADATA, "reward_without_metadata"),
        (Self::REWARD_FROM_METADATA, "reward_from_metadata"),
        (Self::TASK_CONFLICT, "task_conflict"),
        (Self::REWARD_MISMATCH, "reward_mismatch"),
    ];

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: TrajectoryFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets the flags of `other`.
    pub fn insert(&mut self, other: TrajectoryFlags) {
        self.0 |= other.0;
    }

    /// Whether no flag is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Stable names of the flags set.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Self::NAMED
            .into_iter()
            .filter(move |(flag, _)| self.contains(*flag))
            .map(|(_, name)| name)
    }
}

impl std::ops::BitOr for TrajectoryFlags {
    type Output = TrajectoryFlags;
    fn bitor(self, other: TrajectoryFlags) -> TrajectoryFlags {
        TrajectoryFlags(self.0 | other.0)
    }
}

/// One trajectory as a source adapter hands it to the [`RunSetBuilder`](super::RunSetBuilder).
#[derive(Debug, Clone, PartialEq)]
pub struct TrajectoryInput<'a> {
    /// Trajectory (or trial) identifier.
    pub id: &'a str,
    /// Benchmark task; `None` = counted, never paired.
    pub task: Option<&'a str>,
    /// Outcome class, from the source's ending and whether a reward was published.
    pub class: OutcomeClass,
    /// Effective reward as published, unvalidated (`None` = no reward).
    pub reward: Option<f64>,
    /// How it ended, kept by name: the termination reason, else the status, if any.
    pub ending: Option<&'a str>,
    /// How the record was put together.
    pub flags: TrajectoryFlags,
    /// When it was created (`created_at`), seconds since the Unix epoch; `None` when the source
    /// has no time or an unreadable one.
    pub created: Option<i64>,
    /// Reward components, when loaded.
    pub components: Option<Vec<RewardComponent>>,
}

/// A read-only view of one stored trajectory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trajectory<'a> {
    /// Trajectory identifier.
    pub id: &'a str,
    /// Task index, when the trajectory has a task.
    pub task: Option<TaskIdx>,
    /// Outcome class.
    pub class: OutcomeClass,
    /// Reward as published, unvalidated (may be NaN or out of bounds: see [`Self::reward_state`]).
    pub reward: Option<f64>,
    /// Ending kept by name (termination reason or status).
    pub ending: Option<&'a str>,
    /// Provenance flags.
    pub flags: TrajectoryFlags,
    /// When it was created, seconds since the Unix epoch, when known.
    pub created: Option<i64>,
    /// Reward components, when loaded.
    pub components: Option<&'a [RewardComponent]>,
    /// Steps (turns) it took, as recorded (`num_steps`); `None` when the source has none.
    pub steps: Option<i64>,
}

impl Trajectory<'_> {
    /// The reward after validation.
    pub fn reward_state(&self) -> RewardState {
        RewardState::from_reward(self.reward)
    }

    /// Values in the primary and sensitivity analyses.
    pub fn scoring(&self) -> Scoring {
        self.class.score(self.reward_state())
    }
}

/// Marker for "none" in the dense u32 columns.
pub(crate) const NONE_U32: u32 = u32::MAX;

/// Many strings in one buffer.
#[derive(Debug, Clone, Default)]
pub(crate) struct PackedStrings {
    buffer: String,
    ends: Vec<usize>,
}

impl PackedStrings {
    pub(crate) fn push(&mut self, value: &str) {
        self.buffer.push_str(value);
        self.ends.push(self.buffer.len());
    }

    pub(crate) fn get(&self, index: usize) -> &str {
        let end = self.ends.get(index).copied().unwrap_or(0);
        let start = match index {
            0 => 0,
            _ => self.ends.get(index - 1).copied().unwrap_or(end),
        };
        self.buffer.get(start..end).unwrap_or("")
    }

    /// Appends strings `range` of `other`, in one copy.
    fn push_range_of(&mut self, other: &PackedStrings, range: std::ops::Range<usize>) {
        let end_of = |index: usize| match index {
            0 => 0,
            _ => other.ends.get(index - 1).copied().unwrap_or(0),
        };
        let (from, to) = (end_of(range.start), end_of(range.end));
        let base = self.buffer.len();
        self.buffer
            .push_str(other.buffer.get(from..to).unwrap_or(""));
        let ends = other.ends.get(range).unwrap_or_default();
        self.ends.extend(ends.iter().map(|&end| end - from + base));
    }

    /// Room for `count` more strings of `bytes` in all, as far as it can be had (an estimate:
    /// what it falls short of grows as the strings come).
    pub(crate) fn reserve(&mut self, count: usize, bytes: usize) {
        let _ = self.buffer.try_reserve(bytes);
        let _ = self.ends.try_reserve(count);
    }

    fn with_capacity(count: usize, bytes: usize) -> Self {
        PackedStrings {
            buffer: String::with_capacity(bytes),
            ends: Vec::with_capacity(count),
        }
    }
}

/// A column of optional values: the values (a default where absent) and a bit per row
/// saying which are present; half the memory of a `Vec<Option<f64>>`, whose every value
/// takes 16 bytes for 8.
#[derive(Debug, Clone, Default)]
pub(crate) struct OptionalColumn<T> {
    values: Vec<T>,
    /// Bit `row % 64` of word `row / 64`: row `row` has a value.
    present: Vec<u64>,
}

impl<T: Copy + Default> OptionalColumn<T> {
    fn with_capacity(rows: usize) -> Self {
        OptionalColumn {
            values: Vec::with_capacity(rows),
            present: Vec::with_capacity(rows.div_ceil(64)),
        }
    }

    /// Room for `additional` more rows.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let rows = self.values.len().saturating_add(additional);
        self.values.reserve(additional);
        self.present
            .reserve(rows.div_ceil(64).saturating_sub(self.present.len()));
    }

    /// Appends a row.
    pub(crate) fn push(&mut self, value: Option<T>) {
        let row = self.values.len();
        if row.is_multiple_of(64) {
            self.present.push(0);
        }
        if let (Some(_), Some(word)) = (value, self.present.last_mut()) {
            *word |= 1 << (row % 64);
        }
        self.values.push(value.unwrap_or_default());
    }

    /// Appends rows `range` of `other`.
    fn push_range_of(&mut self, other: &OptionalColumn<T>, range: std::ops::Range<usize>) {
        let Some(values) = other.values.get(range.clone()) else {
            return;
        };
        let first_row = self.values.len();
        self.values.extend_from_slice(values);
        for (row, from) in (first_row..).zip(range) {
            if row.is_multiple_of(64) {
                self.present.push(0);
            }
            let present = other
                .present
                .get(from / 64)
                .is_some_and(|word| word >> (from % 64) & 1 == 1);
            if let (true, Some(word)) = (present, self.present.last_mut()) {
                *word |= 1 << (row % 64);
            }
        }
    }

    /// Row `row`'s value (`None` inside: absent); `None` past the last row.
    pub(crate) fn get(&self, row: usize) -> Option<Option<T>> {
        let value = *self.values.get(row)?;
        let word = self.present.get(row / 64)?;
        Some((word >> (row % 64) & 1 == 1).then_some(value))
    }

    /// The rows' values in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Option<T>> + '_ {
        (0..self.values.len()).filter_map(|row| self.get(row))
    }
}

/// Trajectories of one run, column by column.
#[derive(Debug, Clone, Default)]
pub(crate) struct TrajectoryColumns {
    pub(crate) ids: PackedStrings,
    /// Task index or [`NONE_U32`].
    pub(crate) task: Vec<u32>,
    pub(crate) class: Vec<OutcomeClass>,
    pub(crate) reward: OptionalColumn<f64>,
    /// Index into the run set's ending names or [`NONE_U32`].
    pub(crate) ending: Vec<u32>,
    pub(crate) flags: Vec<TrajectoryFlags>,
    /// Creation time (seconds since the epoch), when known.
    pub(crate) created: OptionalColumn<i64>,
    /// Steps (turns) taken, when recorded.
    pub(crate) steps: OptionalColumn<i64>,
    pub(crate) components: IdMap<u32, Vec<RewardComponent>>,
}

impl TrajectoryColumns {
    pub(crate) fn len(&self) -> usize {
        self.task.len()
    }

    /// Room for `additional` more rows, their ids `id_bytes` long in all.
    pub(crate) fn reserve(&mut self, additional: usize, id_bytes: usize) {
        self.ids.reserve(additional, id_bytes);
        self.task.reserve(additional);
        self.class.reserve(additional);
        self.reward.reserve(additional);
        self.ending.reserve(additional);
        self.flags.reserve(additional);
        self.created.reserve(additional);
        self.steps.reserve(additional);
    }

    /// Appends row `row` of `other`, all but its reward components (the caller moves or
    /// copies those, keyed by the new row).
    pub(crate) fn push_row_of(&mut self, other: &TrajectoryColumns, row: usize) {
        self.ids.push(other.ids.get(row));
        self.task.push(other.task[row]);
        self.class.push(other.class[row]);
        self.reward.push(other.reward.get(row).flatten());
        self.ending.push(other.ending[row]);
        self.flags.push(other.flags[row]);
        self.created.push(other.created.get(row).flatten());
        self.steps.push(other.steps.get(row).flatten());
    }

    /// Appends rows `rows` of `other` in that order, column by column (a tight loop a
    /// column, rather than every column a row), all but their reward components.
    fn push_rows_of(&mut self, other: &TrajectoryColumns, rows: &[u32]) {
        let rows = || rows.iter().map(|&row| row as usize);
        for row in rows() {
            self.ids.push(other.ids.get(row));
        }
        self.task.extend(rows().map(|row| other.task[row]));
        self.class.extend(rows().map(|row| other.class[row]));
        self.ending.extend(rows().map(|row| other.ending[row]));
        self.flags.extend(rows().map(|row| other.flags[row]));
        for row in rows() {
            self.reward.push(other.reward.get(row).flatten());
        }
        for row in rows() {
            self.created.push(other.created.get(row).flatten());
        }
        for row in rows() {
            self.steps.push(other.steps.get(row).flatten());
        }
    }

    /// Appends rows `range` of `other`, a copy a column, all but their reward components.
    fn push_range_of(&mut self, other: &TrajectoryColumns, range: std::ops::Range<usize>) {
        self.ids.push_range_of(&other.ids, range.clone());
        self.task
            .extend_from_slice(other.task.get(range.clone()).unwrap_or_default());
        self.ending
            .extend_from_slice(other.ending.get(range.clone()).unwrap_or_default());
        self.class
            .extend_from_slice(other.class.get(range.clone()).unwrap_or_default());
        self.flags
            .extend_from_slice(other.flags.get(range.clone()).unwrap_or_default());
        self.reward.push_range_of(&other.reward, range.clone());
        self.created.push_range_of(&other.created, range.clone());
        self.steps.push_range_of(&other.steps, range);
    }

    /// Rows `first..tail`, then those before `first`, then those from `tail` on (their
    /// reward components too).
    fn moved_first_to(mut self, first: usize, tail: usize) -> TrajectoryColumns {
        let len = self.len();
        let mut moved = TrajectoryColumns::with_capacity(len, self.ids.buffer.len());
        moved.push_range_of(&self, first..tail);
        moved.push_range_of(&self, 0..first);
        moved.push_range_of(&self, tail..len);
        let (first, tail) = (first as u32, tail as u32);
        for (row, parts) in self.components.drain() {
            let row = match row {
                row if row < first => row + (tail - first),
                row if row < tail => row - first,
                row => row,
            };
            moved.components.insert(row, parts);
        }
        moved
    }

    fn with_capacity(rows: usize, id_bytes: usize) -> TrajectoryColumns {
        TrajectoryColumns {
            ids: PackedStrings::with_capacity(rows, id_bytes),
            task: Vec::with_capacity(rows),
            class: Vec::with_capacity(rows),
            reward: OptionalColumn::with_capacity(rows),
            ending: Vec::with_capacity(rows),
            flags: Vec::with_capacity(rows),
            created: OptionalColumn::with_capacity(rows),
            steps: OptionalColumn::with_capacity(rows),
            components: IdMap::default(),
        }
    }

    /// The trajectories to reorder so that each task's are contiguous, tasks in index order
    /// and trajectories without a task last, the source order kept within a task; a number of
    /// rows a step ([`TaskGrouping::advance`]). The new order is found here (two passes over
    /// the task column); the steps copy the rows in that order.
    pub(crate) fn grouping_by_task(self, task_count: usize) -> TaskGrouping {
        let slot_of = |task: u32| {
            if task == NONE_U32 {
                task_count
            } else {
                task as usize
            }
        };
        let mut counts = vec![0u32; task_count + 1];
        for &task in &self.task {
            if let Some(count) = counts.get_mut(slot_of(task)) {
                *count += 1;
            }
        }
        let mut offsets = Vec::with_capacity(task_count + 2);
        let mut running = 0u32;
        offsets.push(0);
        for count in &counts {
            running += count;
            offsets.push(running);
        }
        let len = self.len();
        // Rows already in task order (sources list a task's samples together, tasks in the
        // order they were first met): the stable order is the rows' own, nothing to copy.
        // `NONE_U32` is past every task index, so rows without a task are last here too. The
        // Trajectory API lists the rewards without a task first: rows in task order after
        // those are put in order by a copy a column, the rows without a task kept in order.
        let first = self
            .task
            .iter()
            .take_while(|&&task| task == NONE_U32)
            .count();
        // Rows from `tail` on have no task either (they sort last).
        let tail = offsets[task_count] as usize + first;
        let in_order = self.task.get(first..).is_some_and(<[u32]>::is_sorted)
            && self
                .task
                .get(tail..)
                .is_some_and(|rest| rest.iter().all(|&task| task == NONE_U32));
        if in_order {
            return TaskGrouping {
                source: TrajectoryColumns::default(),
                order: Vec::new(),
                rows: len,
                offsets,
                sorted: match first {
                    0 => self,
                    first => self.moved_first_to(first, tail),
                },
            };
        }
        let mut next: Vec<u32> = offsets[..task_count + 1].to_vec();
        let mut order = vec![0u32; len];
        for (row, &task) in self.task.iter().enumerate() {
            if let Some(position) = next.get_mut(slot_of(task)) {
                if let Some(target) = order.get_mut(*position as usize) {
                    *target = row as u32;
                }
                *position += 1;
            }
        }
        let sorted = TrajectoryColumns::with_capacity(len, self.ids.buffer.len());
        TaskGrouping {
            source: self,
            order,
            rows: len,
            offsets,
            sorted,
        }
    }
}

/// Trajectories being put in task order, a number of rows a step
/// ([`TrajectoryColumns::grouping_by_task`]).
#[derive(Debug, Clone)]
pub(crate) struct TaskGrouping {
    source: TrajectoryColumns,
    /// The source row of each new row; empty when the rows were in task order already (then
    /// `sorted` holds them all from the start).
    order: Vec<u32>,
    /// Rows in all.
    rows: usize,
    offsets: Vec<u32>,
    sorted: TrajectoryColumns,
}

impl TaskGrouping {
    /// Rows copied so far and in all.
    pub(crate) fn progress(&self) -> (usize, usize) {
        (self.sorted.len(), self.rows)
    }

    /// Whether every row is copied.
    pub(crate) fn is_done(&self) -> bool {
        self.sorted.len() == self.rows
    }

    /// Copies up to `rows` more rows (at least one) in task order; true once all are.
    pub(crate) fn advance(&mut self, rows: usize) -> bool {
        let start = self.sorted.len();
        let end = self.rows.min(start.saturating_add(rows.max(1)));
        let (source, sorted) = (&mut self.source, &mut self.sorted);
        let order = self.order.get(start..end).unwrap_or_default();
        sorted.push_rows_of(source, order);
        if !source.components.is_empty() {
            for (new_row, old_row) in (start..).zip(order) {
                if let Some(parts) = source.components.remove(old_row) {
                    sorted.components.insert(new_row as u32, parts);
                }
            }
        }
        self.is_done()
    }

    /// The reordered columns and `task_count + 2` offsets: task `t` holds rows
    /// `offsets[t]..offsets[t + 1]`, and rows `offsets[task_count]..` have no task. The rows
    /// not copied yet are copied first.
    pub(crate) fn finish(mut self) -> (TrajectoryColumns, Vec<u32>) {
        while !self.advance(usize::MAX) {}
        (self.sorted, self.offsets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Columns of `tasks.len()` rows, row `r` of task `tasks[r]` (`None`: no task), its id,
    /// reward and time telling the row apart; row 1 has reward components.
    fn columns(tasks: &[Option<u32>]) -> TrajectoryColumns {
        let mut columns = TrajectoryColumns::default();
        for (row, task) in tasks.iter().enumerate() {
            columns.ids.push(&format!("t{row}"));
            columns.task.push(task.unwrap_or(NONE_U32));
            columns.class.push(OutcomeClass::Graded);
            columns.reward.push(Some(row as f64));
            columns.ending.push(NONE_U32);
            columns.flags.push(TrajectoryFlags::NONE);
            columns.created.push(Some(row as i64));
            columns.steps.push((row % 3 != 0).then_some(row as i64 * 2));
        }
        if tasks.len() > 1 {
            columns.components.insert(1, Vec::new());
        }
        columns
    }

    /// A row as (task, id, reward, time, has components, steps).
    type Row = (u32, String, Option<f64>, Option<i64>, bool, Option<i64>);

    /// The rows, in order.
    fn rows(columns: &TrajectoryColumns) -> Vec<Row> {
        (0..columns.len())
            .map(|row| {
                (
                    columns.task[row],
                    columns.ids.get(row).to_owned(),
                    columns.reward.get(row).flatten(),
                    columns.created.get(row).flatten(),
                    columns.components.contains_key(&(row as u32)),
                    columns.steps.get(row).flatten(),
                )
            })
            .collect()
    }

    /// Grouping by task (a few rows a step) gives the rows stably sorted by task, rows
    /// without a task last, and each task's range of rows; whether or not the rows were in
    /// task order already (then nothing is copied).
    fn groups_as_a_stable_sort(tasks: &[Option<u32>], task_count: usize) {
        // A few rows a step, and all in one (where runs in order are copied at once).
        for step in [3, usize::MAX] {
            groups_as_a_stable_sort_by(tasks, task_count, step);
        }
    }

    fn groups_as_a_stable_sort_by(tasks: &[Option<u32>], task_count: usize, step: usize) {
        let source = columns(tasks);
        let mut expected = rows(&source);
        expected.sort_by_key(|row| row.0);
        let mut grouping = source.grouping_by_task(task_count);
        while !grouping.advance(step) {}
        assert_eq!(grouping.progress(), (tasks.len(), tasks.len()));
        let (sorted, offsets) = grouping.finish();
        assert_eq!(rows(&sorted), expected);
        assert_eq!(offsets.len(), task_count + 2);
        for task in 0..=task_count {
            let range = offsets[task] as usize..offsets[task + 1] as usize;
            let want = if task == task_count {
                NONE_U32
            } else {
                task as u32
            };
            assert!(sorted.task[range].iter().all(|&row_task| row_task == want));
        }
        assert_eq!(offsets[task_count + 1] as usize, tasks.len());
    }

    #[test]
    fn rows_in_task_order_stay_as_they_are() {
        groups_as_a_stable_sort(&[Some(0), Some(0), Some(1), Some(2), Some(2), None], 3);
        groups_as_a_stable_sort(&[], 0);
        groups_as_a_stable_sort(&[None, None], 2);
    }

    #[test]
    fn rows_in_task_order_after_those_without_a_task_are_moved_at_once() {
        let tasks = [None, None, Some(0), Some(0), Some(1), Some(2), None];
        groups_as_a_stable_sort(&tasks, 3);
        let grouping = columns(&tasks).grouping_by_task(3);
        assert!(grouping.is_done());
    }

    #[test]
    fn rows_out_of_task_order_are_copied_in_order() {
        groups_as_a_stable_sort(&[Some(1), None, Some(0), Some(1), Some(0)], 2);
        // Long runs in order (copied a run at a time) around rows out of place.
        let mut tasks: Vec<Option<u32>> = (0..60).map(|row| Some(row / 10)).collect();
        tasks.insert(25, Some(0));
        tasks.insert(0, None);
        tasks.push(Some(3));
        groups_as_a_stable_sort(&tasks, 6);
    }

    proptest! {
        /// An optional column reads back as the `Vec<Option<_>>` it replaces, row for row,
        /// across its words of 64 rows; nothing past the last row.
        #[test]
        fn an_optional_column_reads_back_its_rows(
            rows in prop::collection::vec(prop::option::of(any::<i64>()), 0..200),
            reserved in 0usize..100,
        ) {
            let mut column = OptionalColumn::default();
            column.reserve(reserved);
            for &row in &rows {
                column.push(row);
            }
            prop_assert_eq!(column.iter().collect::<Vec<_>>(), rows.clone());
            for (index, &row) in rows.iter().enumerate() {
                prop_assert_eq!(column.get(index), Some(row));
            }
            prop_assert_eq!(column.get(rows.len()), None);
        }

        /// Rows appended as a range read back as those rows, whatever the offsets of the
        /// range and of the column appended to within their words of 64.
        #[test]
        fn an_optional_column_appends_a_range_of_another(
            rows in prop::collection::vec(prop::option::of(any::<i64>()), 0..300),
            before in prop::collection::vec(prop::option::of(any::<i64>()), 0..100),
            start in 0usize..300,
            length in 0usize..300,
        ) {
            let (mut source, mut column) = (OptionalColumn::default(), OptionalColumn::default());
            rows.iter().for_each(|&row| source.push(row));
            before.iter().for_each(|&row| column.push(row));
            let start = start.min(rows.len());
            let end = (start + length).min(rows.len());
            column.push_range_of(&source, start..end);
            let mut expected = before.clone();
            expected.extend_from_slice(&rows[start..end]);
            prop_assert_eq!(column.iter().collect::<Vec<_>>(), expected);
        }

        #[test]
        fn grouping_is_a_stable_sort_by_task(
            tasks in prop::collection::vec(prop::option::weighted(0.9, 0u32..5), 0..40),
            sort_first in any::<bool>(),
        ) {
            let mut tasks = tasks;
            if sort_first {
                tasks.sort_by_key(|task| task.unwrap_or(NONE_U32));
            }
            groups_as_a_stable_sort(&tasks, 5);
        }
    }
}
