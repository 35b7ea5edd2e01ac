//! The longest common subsequence of two sequences of ids, bounded in cost: the common prefix
//! and suffix are matched first (linear), the rest by dynamic programming only when its table
//! stays within [`LCS_MAX_CELLS`]; beyond it the rest is paired by index.

/// The most cells (`(n + 1) × (m + 1)` for the n and m items left after the common prefix and
/// suffix) the dynamic program may fill: 2.25 million, 4.5 MB of 16-bit lengths. Beyond it the
/// items are paired by index instead.
pub const LCS_MAX_CELLS: usize = 2_250_000;

/// How a stretch was matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchMethod {
    /// A longest common subsequence.
    Lcs,
    /// Paired by index: the stretch was too long for the dynamic program.
    IndexPairs,
}

/// Pairs `(i, j)` with `left[i] == right[j]`, increasing in both, and the method used.
pub fn common_subsequence(left: &[u32], right: &[u32]) -> (Vec<(usize, usize)>, MatchMethod) {
    let prefix = left.iter().zip(right).take_while(|(a, b)| a == b).count();
    let suffix = left[prefix..]
        .iter()
        .rev()
        .zip(right[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let middle_left = &left[prefix..left.len() - suffix];
    let middle_right = &right[prefix..right.len() - suffix];
    let mut pairs: Vec<(usize, usize)> = (0..prefix).map(|i| (i, i)).collect();
    let method = match lcs_table(middle_left, middle_right) {
        Some(table) => {
            pairs.extend(
                backtrack(&table, middle_left, middle_right)
                    .into_iter()
                    .map(|(i, j)| (i + prefix, j + prefix)),
            );
            MatchMethod::Lcs
        }
        None => {
            pairs.extend(
                middle_left
                    .iter()
                    .zip(middle_right)
                    .enumerate()
                    .filter(|(_, (a, b))| a == b)
                    .map(|(k, _)| (k + prefix, k + prefix)),
            );
            MatchMethod::IndexPairs
        }
    };
    let (left_end, right_end) = (left.len() - suffix, right.len() - suffix);
    pairs.extend((0..suffix).map(|k| (left_end + k, right_end + k)));
    (pairs, method)
}

/// The table of LCS lengths, row-major `(n + 1) × (m + 1)`; `None` when over the cap.
fn lcs_table(left: &[u32], right: &[u32]) -> Option<Vec<u16>> {
    let width = right.len() + 1;
    let cells = (left.len() + 1).checked_mul(width)?;
    if cells > LCS_MAX_CELLS || left.len().min(right.len()) > usize::from(u16::MAX) {
        return None;
    }
    if left.is_empty() || right.is_empty() {
        return Some(vec![0; cells]);
    }
    let mut table = vec![0u16; cells];
    for (i, a) in left.iter().enumerate() {
        for (j, b) in right.iter().enumerate() {
            let value = if a == b {
                table[i * width + j] + 1
            } else {
                table[i * width + j + 1].max(table[(i + 1) * width + j])
            };
            table[(i + 1) * width + j + 1] = value;
        }
    }
    Some(table)
}

fn backtrack(table: &[u16], left: &[u32], right: &[u32]) -> Vec<(usize, usize)> {
    let width = right.len() + 1;
    let (mut i, mut j) = (left.len(), right.len());
    let mut pairs = Vec::new();
    while i > 0 && j > 0 {
        if left[i - 1] == right[j - 1] {
            pairs.push((i - 1, j - 1));
            i -= 1;
            j -= 1;
        } else if table[(i - 1) * width + j] >= table[i * width + j - 1] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    pairs.reverse();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_common_subsequence_is_found_between_a_common_prefix_and_suffix() {
        let (pairs, method) = common_subsequence(&[1, 2, 3, 4, 9, 5], &[1, 3, 7, 4, 5]);
        assert_eq!(method, MatchMethod::Lcs);
        assert_eq!(pairs, [(0, 0), (2, 1), (3, 3), (5, 4)]);
    }

    #[test]
    fn a_stretch_over_the_cap_is_paired_by_index() {
        let left: Vec<u32> = (0..2_000).collect();
        let mut right: Vec<u32> = (0..2_000).rev().collect();
        right[5] = 5;
        let (pairs, method) = common_subsequence(&left, &right);
        assert_eq!(method, MatchMethod::IndexPairs);
        assert_eq!(pairs, [(5, 5)]);
        // The same lengths with a long common prefix stay within the cap.
        let mut near: Vec<u32> = left.clone();
        near[1_990] = 77_777;
        let (pairs, method) = common_subsequence(&left, &near);
        assert_eq!(method, MatchMethod::Lcs);
        assert_eq!(pairs.len(), 1_999);
    }
}
