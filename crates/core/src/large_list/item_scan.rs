//! The plain scanner of a listed item's fields: a trajectory, its rollout or a trajectory
//! reward read from its plain form (see [`super`]) by its field table ([`super::facts`]), the
//! table the lean form follows too.
//!
//! Each table's reader is compiled on its own ([`scan_fields`] is inlined with the table a
//! constant): as fast as a reader written field by field, where one reader of any table, the
//! rollout's read by the trajectory's recursively, made the scanner a fifth slower.

use super::cursor::Cursor;
use super::facts::{reward_slot, slot, Read, Table, REWARD, ROLLOUT, TRAJECTORY};

/// What the scanner reads of a listed trajectory: its texts by [`slot`], its reward and its
/// step count.
pub(crate) type ScannedTrajectory<'a> = ([Option<&'a str>; slot::COUNT], Option<f64>, Option<i64>);

/// A listed trajectory's texts by [`slot`], its reward and its step count, in its plain form.
pub(crate) fn scan_trajectory<'a>(cursor: &mut Cursor<'a>) -> Option<ScannedTrajectory<'a>> {
    let mut texts = [None; slot::COUNT];
    let mut reward = None;
    let mut steps = None;
    let mut numbers = Numbers::new(&mut reward, &mut steps);
    scan_fields(cursor, &TRAJECTORY, &mut texts, &mut numbers, scan_rollout)?;
    Some((texts, reward, steps))
}

/// A trajectory's rollout (the cursor at its object), its texts put in `texts`.
fn scan_rollout<'a>(cursor: &mut Cursor<'a>, texts: &mut [Option<&'a str>]) -> Option<()> {
    scan_fields(
        cursor,
        &ROLLOUT,
        texts,
        &mut Numbers::new(&mut None, &mut None),
        |_, _| None,
    )
}

/// Where an item's kept numbers go: its number (the reward) and its integer (the step count).
struct Numbers<'n> {
    number: &'n mut Option<f64>,
    integer: &'n mut Option<i64>,
}

impl<'n> Numbers<'n> {
    /// Where the number and the integer go (a table that keeps neither is given places it
    /// never fills).
    fn new(number: &'n mut Option<f64>, integer: &'n mut Option<i64>) -> Self {
        Self { number, integer }
    }
}

/// A trajectory reward's texts by [`reward_slot`] and its reward.
pub(crate) fn scan_reward<'a>(
    cursor: &mut Cursor<'a>,
) -> Option<([Option<&'a str>; reward_slot::COUNT], f64)> {
    let mut texts = [None; reward_slot::COUNT];
    let mut reward = None;
    let mut unkept = None;
    let mut numbers = Numbers::new(&mut reward, &mut unkept);
    scan_fields(cursor, &REWARD, &mut texts, &mut numbers, |_, _| None)?;
    // Required: present whenever the table's required fields are.
    Some((texts, reward?))
}

/// An object in its plain form whose members are `table`'s fields (any other a scalar,
/// skipped): its kept strings put in `texts` by slot, its numbers in `numbers`, a rollout
/// object read by `rollout`. `None` when a member is not plain, not of its field's type, or twice, or
/// a required one is missing.
#[inline(always)]
fn scan_fields<'a>(
    cursor: &mut Cursor<'a>,
    table: &Table,
    texts: &mut [Option<&'a str>],
    numbers: &mut Numbers<'_>,
    mut rollout: impl FnMut(&mut Cursor<'a>, &mut [Option<&'a str>]) -> Option<()>,
) -> Option<()> {
    let mut seen = 0u32;
    let mut members = cursor.members()?;
    while let Some(key) = members.next_key(cursor)? {
        let Some(index) = table.index(key) else {
            cursor.skip_scalar()?;
            continue;
        };
        if seen & (1 << index) != 0 {
            return None;
        }
        seen |= 1 << index;
        match table.fields[index].1 {
            Read::Text(slot) => texts[slot] = Some(cursor.string()?),
            Read::OptionalText(slot) => texts[slot] = cursor.optional_string()?,
            Read::Number => *numbers.number = Some(cursor.f64()?),
            Read::OptionalNumber => *numbers.number = cursor.optional_f64()?,
            Read::OptionalInteger => *numbers.integer = cursor.optional_integer()?,
            Read::Rollout => {
                if !cursor.null() {
                    rollout(cursor, texts)?;
                }
            }
            Read::CheckText => cursor.string().map(drop)?,
            Read::CheckOptionalText => cursor.optional_string().map(drop)?,
            Read::CheckOptionalInteger => cursor.optional_i64()?,
            // Null-or-object: only null is plain.
            Read::CheckOptionalObject | Read::CheckOptionalDiagnostic => {
                cursor.null().then_some(())?
            }
        }
    }
    table.has_required(seen).then_some(())
}
