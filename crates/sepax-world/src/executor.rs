//! Executors: who runs the update's chunks of narrow-phase work.
//!
//! The world cuts its work into chunks whose size does not depend on the executor or its
//! thread count, and joins the chunks' outputs in chunk order, so every executor gives the
//! same events and manifolds bit for bit.

/// Runs jobs `0..count`, each exactly once, in any order and on any threads, and returns when
/// all are done. An engine plugs in its own job system by implementing this.
pub trait Executor: Sync {
    /// Calls `job(i)` for every `i` in `0..count`.
    fn run(&self, count: usize, job: &(dyn Fn(usize) + Sync));
}

/// Runs every job on the calling thread, in order.
#[derive(Debug, Clone, Copy, Default)]
pub struct Serial;

impl Executor for Serial {
    fn run(&self, count: usize, job: &(dyn Fn(usize) + Sync)) {
        for i in 0..count {
            job(i);
        }
    }
}

/// Runs jobs on a rayon thread pool of its own.
#[cfg(feature = "parallel")]
#[derive(Debug)]
pub struct RayonExecutor {
    pool: rayon::ThreadPool,
}

#[cfg(feature = "parallel")]
impl RayonExecutor {
    /// A pool of `threads` threads (0: rayon's default, one per core).
    pub fn new(threads: usize) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        Ok(Self { pool })
    }

    /// The number of threads of the pool.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }
}

#[cfg(feature = "parallel")]
impl Executor for RayonExecutor {
    fn run(&self, count: usize, job: &(dyn Fn(usize) + Sync)) {
        use rayon::prelude::*;
        self.pool
            .install(|| (0..count).into_par_iter().for_each(job));
    }
}
