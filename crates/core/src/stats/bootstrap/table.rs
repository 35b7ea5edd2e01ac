//! The per-task steps the bootstrap's fast path draws from, kept so that a draw costs as little
//! as it can: every table is padded to a power of two and indexed through a mask (an index below
//! the bound is unchanged by it), so no draw pays a bounds check; and when the steps take at most
//! 65,536 values, which per-task deltas nearly always do (a task's mean of k samples moves in
//! steps of 1/k), each task keeps a 16-bit code, a table half the size that stays in the cache:
//! the step's place on an evenly spaced grid (deltas of means of the same number of samples),
//! whose sum gives the steps' sum at once, else its place among the distinct values, looked up
//! in a small table of their own.

/// The steps a bounded draw looks up ([`HalfDraws::sum_of_draws`](super::HalfDraws)).
pub(super) trait StepTable: Copy + Send + Sync {
    /// How many steps draws choose from (at least 1).
    fn bound(&self) -> u32;

    /// The value at an index: any index is looked up without a bounds check, and one below
    /// the bound gives the value of that task's step ([`total`](Self::total) turns a sum of
    /// values into the steps' sum). Made once per summed run of draws, so that the compiler
    /// sees the table's length where it is indexed.
    fn lookup(&self) -> impl Fn(usize) -> i64 + '_;

    /// The sum of the steps whose `count` looked-up values sum to `looked_up`.
    fn total(&self, looked_up: i64, _count: usize) -> i64 {
        looked_up
    }
}

/// Steps as they are: one `i32` per task.
#[derive(Debug, Clone, Copy)]
pub(super) struct PlainTable<'a> {
    padded: &'a [i32],
    bound: u32,
}

impl<'a> PlainTable<'a> {
    /// The first `bound` steps of `padded`, whose length is a power of two of at least `bound`
    /// (see [`pad`]).
    pub(super) fn new(padded: &'a [i32], bound: u32) -> Self {
        assert!(
            padded.len().is_power_of_two() && bound as usize <= padded.len(),
            "a step table is padded to a power of two"
        );
        Self { padded, bound }
    }
}

impl StepTable for PlainTable<'_> {
    fn bound(&self) -> u32 {
        self.bound
    }

    #[inline(always)]
    fn lookup(&self) -> impl Fn(usize) -> i64 + '_ {
        let step = masked(self.padded);
        move |index| i64::from(step(index))
    }
}

/// Steps as a 16-bit code per task and the values the codes stand for.
#[derive(Debug, Clone, Copy)]
pub(super) struct CodedTable<'a> {
    codes: &'a [u16],
    /// A value for every code, so that a code is looked up without a check.
    values: &'a [i32; MAX_CODED_VALUES],
    bound: u32,
}

impl StepTable for CodedTable<'_> {
    fn bound(&self) -> u32 {
        self.bound
    }

    #[inline(always)]
    fn lookup(&self) -> impl Fn(usize) -> i64 + '_ {
        let code = masked(self.codes);
        let values = self.values;
        move |index| i64::from(values[usize::from(code(index))])
    }
}

/// Steps on an evenly spaced grid: each is `offset + spacing · code`, with a 16-bit code.
#[derive(Debug, Clone, Copy)]
pub(super) struct GridTable<'a> {
    codes: &'a [u16],
    bound: u32,
    offset: i64,
    spacing: i64,
}

impl StepTable for GridTable<'_> {
    fn bound(&self) -> u32 {
        self.bound
    }

    #[inline(always)]
    fn lookup(&self) -> impl Fn(usize) -> i64 + '_ {
        let code = masked(self.codes);
        move |index| i64::from(code(index))
    }

    /// Exact: the steps' own sum, which fits (at most 2³² steps below 2³¹).
    fn total(&self, looked_up: i64, count: usize) -> i64 {
        self.offset * count as i64 + self.spacing * looked_up
    }
}

/// The entry at an index of a table padded to a power of two, the index masked into it: the
/// table is sliced to `mask + 1` here, so that the compiler sees every masked index is in it
/// and checks none.
#[inline(always)]
fn masked<T: Copy>(padded: &[T]) -> impl Fn(usize) -> T + '_ {
    let mask = padded.len() - 1;
    let table = &padded[..=mask];
    move |index| table[index & mask]
}

/// `steps` padded with zeros to a power of two (the padding is never drawn).
pub(super) fn pad<T: Copy + Default>(mut steps: Vec<T>) -> Vec<T> {
    steps.resize(steps.len().next_power_of_two(), T::default());
    steps
}

/// The most values steps may take to be kept as codes.
const MAX_CODED_VALUES: usize = 1 << 16;

/// A run of per-task steps as the fast path keeps them.
#[derive(Debug, Clone)]
pub(super) enum CompactSteps {
    /// Steps on a grid of at most 65,536 points: each task's place on it, padded.
    Grid {
        codes: Vec<u16>,
        offset: i64,
        spacing: i64,
    },
    /// At most 65,536 values: each task's code, padded, and the values in ascending order,
    /// padded to one per code.
    Coded {
        codes: Vec<u16>,
        values: Box<[i32; MAX_CODED_VALUES]>,
    },
    /// More values than that: the steps themselves, padded.
    Plain(Vec<i32>),
}

impl CompactSteps {
    /// `steps` (at most `u32::MAX` of them) as codes when they take few enough values.
    pub(super) fn of(steps: Vec<i32>) -> Self {
        let mut values = steps.clone();
        values.sort_unstable();
        values.dedup();
        let (Some(&lowest), Some(&highest)) = (values.first(), values.last()) else {
            return Self::Plain(pad(steps));
        };
        if values.len() > MAX_CODED_VALUES {
            return Self::Plain(pad(steps));
        }
        let spacing = values
            .iter()
            .fold(0, |spacing, &value| gcd(spacing, value.abs_diff(lowest)))
            .max(1);
        if ((highest.abs_diff(lowest) / spacing) as usize) < MAX_CODED_VALUES {
            // Below 2¹⁶: the grid's points up to the highest step are that few.
            let codes = steps
                .iter()
                .map(|&step| (step.abs_diff(lowest) / spacing) as u16)
                .collect();
            return Self::Grid {
                codes: pad(codes),
                offset: i64::from(lowest),
                spacing: i64::from(spacing),
            };
        }
        // The position of each step among the distinct values: below 2¹⁶.
        let codes = steps
            .iter()
            .map(|&step| values.partition_point(|&value| value < step) as u16)
            .collect();
        values.resize(MAX_CODED_VALUES, 0);
        match values.into_boxed_slice().try_into() {
            Ok(values) => Self::Coded {
                codes: pad(codes),
                values,
            },
            // Not reached: the values were just resized to one per code.
            Err(_) => Self::Plain(pad(steps)),
        }
    }

    /// The table of the first `bound` steps (the task count).
    pub(super) fn table(&self, bound: u32) -> Table<'_> {
        match self {
            Self::Grid {
                codes,
                offset,
                spacing,
            } => {
                assert!(bound as usize <= codes.len(), "the bound is the task count");
                Table::Grid(GridTable {
                    codes,
                    bound,
                    offset: *offset,
                    spacing: *spacing,
                })
            }
            Self::Coded { codes, values } => {
                assert!(bound as usize <= codes.len(), "the bound is the task count");
                Table::Coded(CodedTable {
                    codes,
                    values,
                    bound,
                })
            }
            Self::Plain(steps) => Table::Plain(PlainTable::new(steps, bound)),
        }
    }
}

/// The greatest common divisor (0 with 0 is 0).
fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The table of [`CompactSteps`], of the form they are kept in.
#[derive(Debug, Clone, Copy)]
pub(super) enum Table<'a> {
    /// Places on a grid.
    Grid(GridTable<'a>),
    /// Codes and values.
    Coded(CodedTable<'a>),
    /// The steps themselves.
    Plain(PlainTable<'a>),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn looked_up(table: impl StepTable, count: usize) -> Vec<i64> {
        let lookup = table.lookup();
        (0..count).map(lookup).collect()
    }

    #[test]
    fn coded_steps_look_up_as_the_plain_ones() {
        let steps = vec![
            -250_000_000,
            0,
            125_000_000,
            1_000_000_000,
            0,
            333_333_333,
            -7,
        ];
        let coded = CompactSteps::of(steps.clone());
        let Table::Coded(table) = coded.table(7) else {
            panic!("seven values are coded");
        };
        let expected: Vec<i64> = steps.iter().map(|&s| i64::from(s)).collect();
        assert_eq!(looked_up(table, 7), expected);
        let plain = pad(steps);
        assert_eq!(plain.len(), 8);
        assert_eq!(looked_up(PlainTable::new(&plain, 7), 7), expected);
    }

    #[test]
    fn steps_on_a_grid_are_their_places_on_it() {
        let eighths = vec![-250_000_000, 0, 125_000_000, 1_000_000_000, -250_000_000];
        let kept = CompactSteps::of(eighths.clone());
        let Table::Grid(table) = kept.table(5) else {
            panic!("eighths are on a grid");
        };
        assert_eq!((table.offset, table.spacing), (-250_000_000, 125_000_000));
        assert_eq!(looked_up(table, 5), [0, 2, 3, 10, 0]);
        assert_eq!(
            table.total(15, 5),
            eighths.iter().map(|&s| i64::from(s)).sum::<i64>()
        );
        // The widest grid: 2¹⁶ points from the lowest step.
        let widest = CompactSteps::of(vec![-7, -4, 65_535 * 3 - 7]);
        assert!(matches!(
            widest.table(3),
            Table::Grid(GridTable { spacing: 3, .. })
        ));
        let wider = CompactSteps::of(vec![-7, 3 - 7, 65_536 * 3 - 7]);
        assert!(matches!(wider.table(3), Table::Coded(_)));
        assert!(matches!(
            CompactSteps::of(Vec::new()).table(0),
            Table::Plain(_)
        ));
        let equal = CompactSteps::of(vec![4, 4, 4]);
        let Table::Grid(table) = equal.table(3) else {
            panic!("equal steps are one point");
        };
        assert_eq!(table.total(0, 3), 12);
    }

    #[test]
    fn more_values_than_codes_stay_plain() {
        let many: Vec<i32> = (0..=MAX_CODED_VALUES as i32).collect();
        let kept = CompactSteps::of(many.clone());
        let Table::Plain(table) = kept.table(many.len() as u32) else {
            panic!("65,537 values are plain");
        };
        let expected: Vec<i64> = many.iter().map(|&s| i64::from(s)).collect();
        assert_eq!(looked_up(table, many.len()), expected);
        // Squares: no grid of 2¹⁶ points holds them, so their values are looked up.
        let few: Vec<i32> = (0..MAX_CODED_VALUES as i32)
            .rev()
            .map(|i| i * (i / 2))
            .collect();
        let coded = CompactSteps::of(few.clone());
        let Table::Coded(table) = coded.table(few.len() as u32) else {
            panic!("65,536 values are coded");
        };
        let expected: Vec<i64> = few.iter().map(|&s| i64::from(s)).collect();
        assert_eq!(looked_up(table, few.len()), expected);
    }
}
