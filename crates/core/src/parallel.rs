//! Work on the machine's cores for the CLI's independent inputs (run folders read and parsed
//! side by side), results kept in input order.

use std::num::NonZeroUsize;

/// How many inputs are worked on at once: the machine's cores.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// `work` applied to each of `inputs`, each on its own thread (the caller's for a single
/// input), the results in the order of `inputs`. A panic in `work` is raised again here.
pub fn map_in_parallel<'a, I: Sync, O: Send>(
    inputs: &'a [I],
    work: impl Fn(&'a I) -> O + Sync,
) -> Vec<O> {
    if let [only] = inputs {
        return vec![work(only)];
    }
    std::thread::scope(|scope| {
        let work = &work;
        let running: Vec<_> = inputs
            .iter()
            .map(|input| scope.spawn(move || work(input)))
            .collect();
        running
            .into_iter()
            .map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order() {
        let inputs: Vec<u64> = (0..9).collect();
        let squares = map_in_parallel(&inputs, |n| {
            // The later inputs finish first.
            std::thread::sleep(std::time::Duration::from_millis(9 - n));
            n * n
        });
        assert_eq!(squares, [0, 1, 4, 9, 16, 25, 36, 49, 64]);
        assert_eq!(map_in_parallel(&[7u8], |n| n + 1), [8]);
        assert!(map_in_parallel(&[] as &[u8], |n| *n).is_empty());
    }

    #[test]
    #[should_panic(expected = "input 3")]
    fn a_panic_is_raised_in_the_caller() {
        map_in_parallel(&[1, 2, 3], |n| {
            assert_ne!(*n, 3, "input {n}");
        });
    }
}
