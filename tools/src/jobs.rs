//! Independent tasks (seeded games) run on several threads, their results in order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Runs `work(i)` for every `i` in `0..count` on `jobs` threads (at least one, and no more than
/// there are tasks: `--jobs 20000` for 20 games starts 20), calling `done` after each task, and
/// returns the results in the order of `i`: the same tasks give the same list whatever the threads.
pub fn map_indexed<T: Send>(
    count: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    done: impl Fn() + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|s| {
        for _ in 0..jobs.min(count).max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let result = work(i);
                results.lock().unwrap_or_else(|e| e.into_inner()).push((i, result));
                done();
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_index_order_whatever_the_threads() {
        let done = AtomicUsize::new(0);
        let squares = map_indexed(
            50,
            3,
            |i| {
                std::thread::sleep(std::time::Duration::from_micros((50 - i as u64) * 20));
                i * i
            },
            || {
                done.fetch_add(1, Ordering::Relaxed);
            },
        );
        assert_eq!(squares, (0..50).map(|i| i * i).collect::<Vec<_>>());
        assert_eq!(done.load(Ordering::Relaxed), 50);
        assert!(map_indexed(0, 2, |i| i, || {}).is_empty());
    }
}
