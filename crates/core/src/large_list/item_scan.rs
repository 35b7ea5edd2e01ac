//! The plain scanner of a listed item's fields: a trajectory, its rollout or a trajectory
//! reward read from its plain form (see [`super`]) by its field table ([`super::facts`]), the
//! table the lean form follows too.

use super::cursor::Cursor;
use super::facts::{
    field_index, has_required, reward_slot, slot, Field, Read, TrajectoryFacts, REWARD, ROLLOUT,
    TRAJECTORY,
};

/// A listed trajectory's facts, in its plain form.
pub(crate) fn scan_trajectory<'a>(cursor: &mut Cursor<'a>) -> Option<TrajectoryFacts<'a>> {
    let mut texts = [None; slot::COUNT];
    let mut reward = None;
    scan_fields(cursor, TRAJECTORY, &mut texts, &mut reward)?;
    Some(TrajectoryFacts::from_texts(texts, reward))
}

/// A trajectory reward's id, reward and task.
pub(crate) fn scan_reward<'a>(cursor: &mut Cursor<'a>) -> Option<(&'a str, f64, Option<&'a str>)> {
    let mut texts = [None; reward_slot::COUNT];
    let mut reward = None;
    scan_fields(cursor, REWARD, &mut texts, &mut reward)?;
    Some((texts[reward_slot::ID]?, reward?, texts[reward_slot::TASK]))
}

/// An object in its plain form whose members are `fields` (any other a scalar, skipped): its
/// kept strings put in `texts` by slot, its number in `number`. `None` when a member is not
/// plain, not of its field's type, or twice, or a required one is missing.
fn scan_fields<'a>(
    cursor: &mut Cursor<'a>,
    fields: &[Field],
    texts: &mut [Option<&'a str>],
    number: &mut Option<f64>,
) -> Option<()> {
    let mut seen = 0u32;
    let mut next = 0;
    cursor.object(|key, cursor| {
        let Some(index) = field_index(fields, key, next) else {
            return cursor.skip_scalar();
        };
        if seen & (1 << index) != 0 {
            return None;
        }
        seen |= 1 << index;
        next = index + 1;
        match fields[index].1 {
            Read::Text(slot) => texts[slot] = Some(cursor.string()?),
            Read::OptionalText(slot) => texts[slot] = cursor.optional_string()?,
            Read::Number => *number = Some(cursor.f64()?),
            Read::OptionalNumber => *number = cursor.optional_f64()?,
            Read::Rollout => {
                if !cursor.null() {
                    scan_fields(cursor, ROLLOUT, texts, number)?;
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
        Some(())
    })?;
    has_required(fields, seen).then_some(())
}
