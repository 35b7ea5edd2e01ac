//! Per-task scatter: each paired task's baseline mean (x) against the candidate's (y), with the
//! diagonal y = x.
//!
//! Rewards are often binary or take few values, so many tasks share a point: coincident tasks are
//! drawn as one marker whose area grows with their count. Above [`DISTINCT_POINT_LIMIT`]
//! distinct points (continuous rewards, large benchmarks) the tasks are counted in a
//! [`GRID`] × [`GRID`] grid instead and each cell is shaded by its count, so the SVG stays
//! under 1,600 shapes at any number of tasks.

use eval_compare_core::radix;
use eval_compare_core::stats::WinTieLoss;
use plotters::prelude::*;

use super::canvas::Canvas;
use super::common::{Chart, NoChart};
use super::focus::{ComparedRuns, Focused, PairedTasks};
use super::frame::{Axes, DrawResult, LegendEntry, Swatch};
use super::labels::{count_label, reward_tick, short_name, tasks_label};
use super::theme::Theme;

/// Most distinct points drawn one marker each; above it the tasks are counted in a grid.
pub const DISTINCT_POINT_LIMIT: usize = 1_000;
/// Cells per axis of the grid used above [`DISTINCT_POINT_LIMIT`].
pub const GRID: usize = 40;
/// Radius in pixels of the marker of the most common point.
const MAX_RADIUS: f64 = 14.0;
/// Smallest radius drawn, so a single task stays visible.
const MIN_RADIUS: f64 = 2.5;

/// One marker: a point (or grid cell centre) and the tasks at it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScatterMark {
    /// Baseline task mean (cell centre when binned).
    pub x: f64,
    /// Candidate task mean (cell centre when binned).
    pub y: f64,
    /// Tasks at this point or in this cell.
    pub count: u32,
}

/// What the scatter draws.
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterData {
    /// The runs compared.
    pub runs: ComparedRuns,
    /// Paired tasks plotted.
    pub tasks: usize,
    /// Distinct (baseline, candidate) points among them.
    pub distinct: usize,
    /// Markers, most populous first (so smaller ones are drawn on top).
    pub marks: Vec<ScatterMark>,
    /// Cell width when the tasks are counted in a grid; `None` when every point is drawn.
    pub cell: Option<f64>,
    /// The largest count of a marker.
    pub max_count: u32,
    /// Wins, ties and losses of the candidate, as the report counted them.
    pub win_tie_loss: Option<WinTieLoss>,
}

/// The scatter of the candidate at `focus` against the baseline.
pub fn scatter_points(
    report: &eval_compare_core::report::Report,
    focus: usize,
) -> Result<ScatterData, NoChart> {
    scatter_points_of(report, focus, &PairedTasks::at(report, focus))
}

/// [`scatter_points`] from the candidate's paired tasks, read already.
pub fn scatter_points_of(
    report: &eval_compare_core::report::Report,
    focus: usize,
    paired: &PairedTasks,
) -> Result<ScatterData, NoChart> {
    let focused = Focused::of(report, focus)?;
    // Each task as one sortable key: the bits of its two means (non-negative after `+ 0.0`, which
    // also turns -0.0 into 0.0), so equal points end up adjacent.
    let mut keys: Vec<u128> = paired
        .tasks
        .iter()
        .map(|task| {
            let x = (task.baseline + 0.0).max(0.0).to_bits();
            let y = (task.candidate + 0.0).max(0.0).to_bits();
            (u128::from(x) << 64) | u128::from(y)
        })
        .collect();
    let tasks = keys.len();
    if tasks < 2 {
        return Err(NoChart::TooFewTasks { tasks });
    }
    radix::sort(&mut keys);
    let mut points: Vec<ScatterMark> = Vec::new();
    for key in keys {
        let x = f64::from_bits((key >> 64) as u64);
        let y = f64::from_bits(key as u64);
        match points.last_mut() {
            Some(last) if last.x == x && last.y == y => last.count += 1,
            _ => points.push(ScatterMark { x, y, count: 1 }),
        }
    }
    let distinct = points.len();
    let (marks, cell) = if distinct <= DISTINCT_POINT_LIMIT {
        (points, None)
    } else {
        (grid_marks(&points), Some(1.0 / GRID as f64))
    };
    // Most populous first, so smaller markers are drawn over larger ones; ties keep their
    // ascending (x, y) order (the key's low bits are the position).
    let mut order: Vec<u128> = marks
        .iter()
        .enumerate()
        .map(|(position, mark)| (u128::from(u32::MAX - mark.count) << 64) | position as u128)
        .collect();
    radix::sort(&mut order);
    let marks: Vec<ScatterMark> = order
        .iter()
        .map(|key| marks[(*key as u64) as usize])
        .collect();
    let max_count = marks.first().map_or(0, |mark| mark.count);
    Ok(ScatterData {
        runs: focused.runs(),
        tasks,
        distinct,
        marks,
        cell,
        max_count,
        win_tie_loss: focused.win_tie_loss(),
    })
}

/// Counts of the points in a [`GRID`] × [`GRID`] grid over [0, 1]², one mark per non-empty cell
/// at its centre. Values outside [0, 1] fall in the edge cells.
fn grid_marks(points: &[ScatterMark]) -> Vec<ScatterMark> {
    let cell_of = |value: f64| -> usize {
        let scaled = (value * GRID as f64).floor();
        if scaled.is_nan() || scaled < 0.0 {
            0
        } else {
            (scaled as usize).min(GRID - 1)
        }
    };
    let mut counts = vec![0u32; GRID * GRID];
    for point in points {
        let index = cell_of(point.x) * GRID + cell_of(point.y);
        counts[index] = counts[index].saturating_add(point.count);
    }
    counts
        .iter()
        .enumerate()
        .filter(|(_, &count)| count > 0)
        .map(|(index, &count)| ScatterMark {
            x: ((index / GRID) as f64 + 0.5) / GRID as f64,
            y: ((index % GRID) as f64 + 0.5) / GRID as f64,
            count,
        })
        .collect()
}

impl ScatterData {
    /// Radius in pixels of a marker with `count` tasks: area proportional to the count.
    pub fn radius(&self, count: u32) -> f64 {
        if self.max_count <= 1 {
            return 3.5;
        }
        (MAX_RADIUS * (f64::from(count) / f64::from(self.max_count)).sqrt()).max(MIN_RADIUS)
    }

    /// Opacity of a grid cell with `count` tasks (logarithmic, so sparse cells stay visible).
    pub fn shade(&self, count: u32) -> f64 {
        if self.max_count <= 1 {
            return 1.0;
        }
        let share = f64::from(count).ln_1p() / f64::from(self.max_count).ln_1p();
        0.15 + 0.85 * share.clamp(0.0, 1.0)
    }
}

impl Chart for ScatterData {
    fn size(&self) -> (u32, u32) {
        (640, 580)
    }

    fn title(&self) -> String {
        format!("Per-task mean reward: {}", self.runs.shortened("vs", 28))
    }

    fn summary(&self) -> String {
        let mut text = format!(
            "{} scored by both runs, each placed at its mean reward under {} (x) and {} (y), \
             both from 0 to 1; points above the diagonal are tasks where {} scores higher.",
            tasks_label(self.tasks),
            self.runs.baseline,
            self.runs.candidate,
            self.runs.candidate
        );
        if let Some(wtl) = self.win_tie_loss {
            text.push_str(&format!(
                " Above the diagonal: {}; on it: {}; below it: {}.",
                tasks_label(wtl.wins),
                tasks_label(wtl.ties),
                tasks_label(wtl.losses)
            ));
        }
        if self.cell.is_some() {
            text.push_str(&format!(
                " The {} distinct points are counted in a {GRID} by {GRID} grid.",
                count_label(self.distinct as u64)
            ));
        }
        text
    }

    fn file_name(&self) -> String {
        self.runs.file_name("scatter")
    }

    fn legend(&self, theme: &Theme) -> Vec<LegendEntry> {
        let tasks = match self.cell {
            None if self.max_count <= 1 => {
                LegendEntry::new("one task per point", Swatch::Marker(theme.candidate))
            }
            None => LegendEntry::new(
                format!(
                    "tasks at a point (area ∝ count; largest {})",
                    count_label(u64::from(self.max_count))
                ),
                Swatch::Marker(theme.candidate),
            ),
            Some(_) => LegendEntry::new(
                format!(
                    "tasks per grid cell (shade ∝ log count; darkest {})",
                    count_label(u64::from(self.max_count))
                ),
                Swatch::Fill(theme.candidate, 0.7),
            ),
        };
        vec![
            tasks,
            LegendEntry::new("y = x: same score", Swatch::Dashed(theme.axis)),
        ]
    }

    fn axes(&self) -> Axes {
        let mut axes = Axes::new(-0.04..1.04, -0.04..1.04, reward_tick, reward_tick);
        axes.x_labels = 6;
        axes.x_desc = format!("{}: task mean reward", short_name(&self.runs.baseline, 36));
        axes.y_desc = format!("{}: task mean reward", short_name(&self.runs.candidate, 36));
        axes
    }

    fn draw_marks<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> DrawResult<(), DB> {
        let theme = canvas.theme;
        canvas.dashed((0.0, 0.0), (1.0, 1.0), theme.axis.stroke_width(1))?;
        let drawing = canvas.plotting_area();
        match self.cell {
            None => {
                for mark in &self.marks {
                    let radius = self.radius(mark.count);
                    let at = (mark.x, mark.y);
                    drawing.draw(&Circle::new(at, radius, theme.candidate.mix(0.45).filled()))?;
                    drawing.draw(&Circle::new(at, radius, theme.candidate.stroke_width(1)))?;
                }
            }
            Some(width) => {
                let half = width / 2.0;
                for mark in &self.marks {
                    canvas.rectangle(
                        (mark.x - half, mark.y - half),
                        (mark.x + half, mark.y + half),
                        theme.candidate.mix(self.shade(mark.count)).filled(),
                    )?;
                }
            }
        }
        Ok(())
    }
}
