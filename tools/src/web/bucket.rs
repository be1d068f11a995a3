//! A token bucket: a burst of tokens, refilled at a rate. It bounds a page's commands a second
//! (session.rs) and a client's WebSockets a minute (clients.rs).

use std::time::Instant;

pub struct Bucket {
    burst: f64,
    per_second: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket of `burst` tokens as of `now`, refilled at `per_second`.
    pub fn new(burst: f64, per_second: f64, now: Instant) -> Bucket {
        Bucket { burst, per_second, tokens: burst, at: now }
    }

    /// The tokens held at `now`: those left, and those gained since, up to the burst.
    fn held(&self, now: Instant) -> f64 {
        let gained = now.saturating_duration_since(self.at).as_secs_f64() * self.per_second;
        (self.tokens + gained).min(self.burst)
    }

    /// Takes one token if there is one at `now`.
    pub fn take(&mut self, now: Instant) -> bool {
        self.tokens = self.held(now);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket is full again at `now`, as if never used.
    pub fn is_full(&self, now: Instant) -> bool {
        self.held(now) >= self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_bucket_allows_a_burst_then_its_rate() {
        let start = Instant::now();
        let mut b = Bucket::new(5.0, 5.0, start);
        assert!((0..5).all(|_| b.take(start)), "a burst of 5");
        assert!(!b.take(start), "the sixth at once is over");
        assert!(!b.take(start + Duration::from_millis(100)), "half a token");
        assert!(b.take(start + Duration::from_millis(200)), "one token after 200 ms");
        assert!(!b.take(start + Duration::from_millis(200)));
        // A long pause refills to the burst, no more.
        let later = start + Duration::from_secs(60);
        assert!(b.is_full(later));
        assert!((0..5).all(|_| b.take(later)));
        assert!(!b.take(later));
        assert!(!b.is_full(later));
    }
}
