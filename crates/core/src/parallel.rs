//! Work on the machine's cores for independent inputs (the CLI's run folders read and parsed
//! side by side, the runs' id matching of a join, the bootstrap's segments), results kept in
//! input order. In the browser (wasm32, one thread) the same calls work through the inputs one
//! after another.

use std::num::NonZeroUsize;

/// How many inputs are worked on at once: the machine's cores (1 in wasm32).
pub fn cores() -> usize {
    if cfg!(target_arch = "wasm32") {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// `work` applied to each of `inputs`, each on its own thread (the caller's for a single
/// input, or where there is one core), the results in the order of `inputs`. A panic in
/// `work` is raised again here.
pub fn map_in_parallel<'a, I: Sync, O: Send>(
    inputs: &'a [I],
    work: impl Fn(&'a I) -> O + Sync,
) -> Vec<O> {
    let mut slots: Vec<(&'a I, Option<O>)> = inputs.iter().map(|input| (input, None)).collect();
    for_each_in_parallel(&mut slots, |(input, output)| *output = Some(work(input)));
    // Every slot was filled: `for_each_in_parallel` works on each item or raises its panic.
    slots.into_iter().filter_map(|(_, output)| output).collect()
}

/// `work` applied to each of `items` in place, each on its own thread (the caller's for a
/// single item, or where there is one core). A panic in `work` is raised again here.
pub fn for_each_in_parallel<I: Send>(items: &mut [I], work: impl Fn(&mut I) + Sync) {
    if items.len() < 2 || cores() < 2 {
        items.iter_mut().for_each(work);
        return;
    }
    std::thread::scope(|scope| {
        let work = &work;
        let running: Vec<_> = items
            .iter_mut()
            .map(|item| scope.spawn(move || work(item)))
            .collect();
        for thread in running {
            thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
    });
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
    fn each_item_is_worked_on_in_place() {
        let mut items: Vec<u64> = (0..5).collect();
        for_each_in_parallel(&mut items, |n| *n *= 10);
        assert_eq!(items, [0, 10, 20, 30, 40]);
        let mut one = [1u8];
        for_each_in_parallel(&mut one, |n| *n += 1);
        assert_eq!(one, [2]);
    }

    #[test]
    #[should_panic(expected = "input 3")]
    fn a_panic_is_raised_in_the_caller() {
        map_in_parallel(&[1, 2, 3], |n| {
            assert_ne!(*n, 3, "input {n}");
        });
    }
}
