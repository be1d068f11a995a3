//! Independent tasks (seeded games) run on several threads, their results in order.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    let mut results = Vec::with_capacity(count);
    in_order(0..count, jobs, work, |_, result| {
        results.push(result);
        done();
        true
    });
    results
}

/// Runs `work(i)` for every `i` in `tasks` on `jobs` threads (at least one, at most one a task)
/// and hands each result to `emit` in the order of `i`, as soon as every task before it is done:
/// a stream of results that is the same whatever the threads. When `emit` returns `false` no new
/// task starts and no result is emitted after it; `in_order` then returns `false` (the tasks
/// already running finish first).
pub fn in_order<T: Send>(
    tasks: Range<usize>,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
    emit: impl FnMut(usize, T) -> bool + Send,
) -> bool {
    let next = AtomicUsize::new(tasks.start);
    let stopped = AtomicBool::new(false);
    // The next index to emit, the results that wait for an earlier one, and the sink.
    let pending: Mutex<(usize, BTreeMap<usize, T>, _)> = Mutex::new((tasks.start, BTreeMap::new(), emit));
    std::thread::scope(|s| {
        for _ in 0..jobs.min(tasks.len()).max(1) {
            s.spawn(|| loop {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= tasks.end {
                    break;
                }
                let result = work(i);
                let mut guard = pending.lock().unwrap_or_else(|e| e.into_inner());
                let (first, waiting, emit) = &mut *guard;
                waiting.insert(i, result);
                while let Some(result) = waiting.remove(first) {
                    if stopped.load(Ordering::Relaxed) || !emit(*first, result) {
                        stopped.store(true, Ordering::Relaxed);
                        waiting.clear();
                        break;
                    }
                    *first += 1;
                }
            });
        }
    });
    !stopped.load(Ordering::Relaxed)
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

    /// A sink that refuses the result with index 12 gets 5..=12 in order and nothing after it.
    #[test]
    fn a_refusing_sink_stops_the_stream() {
        let mut seen = Vec::new();
        let slow_first = |i: usize| {
            std::thread::sleep(std::time::Duration::from_micros(((40 - i as u64) % 7) * 100));
            i
        };
        let finished = in_order(5..40, 3, slow_first, |i, r| {
            assert_eq!(i, r);
            seen.push(i);
            i != 12
        });
        assert!(!finished);
        assert_eq!(seen, (5..=12).collect::<Vec<_>>());
        let mut all = Vec::new();
        assert!(in_order(
            3..9,
            2,
            |i| i,
            |_, r| {
                all.push(r);
                true
            }
        ));
        assert_eq!(all, (3..9).collect::<Vec<_>>());
    }
}
