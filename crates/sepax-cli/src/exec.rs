//! `--threads N`: the executor the world's update runs on. The world cuts its work into chunks
//! whose size does not depend on the thread count and merges them in order, so every `N` gives
//! the same output.

use crate::input::CliError;
use sepax_world::{Executor, RayonExecutor, Serial};

/// Most threads `--threads` accepts.
pub const MAX_THREADS: u64 = 256;

/// The serial executor for one thread, a rayon pool of its own for more.
pub enum Exec {
    /// On the calling thread.
    Serial(Serial),
    /// On a rayon pool.
    Rayon(RayonExecutor),
}

impl Exec {
    /// The executor for `threads` threads (1 to [`MAX_THREADS`], checked by the parser).
    pub fn new(threads: u64) -> Result<Self, CliError> {
        if threads <= 1 {
            return Ok(Self::Serial(Serial));
        }
        RayonExecutor::new(threads as usize)
            .map(Self::Rayon)
            .map_err(|e| CliError::new(format!("--threads {threads}: {e}")))
    }
}

impl Executor for Exec {
    fn run(&self, count: usize, job: &(dyn Fn(usize) + Sync)) {
        match self {
            Self::Serial(s) => s.run(count, job),
            Self::Rayon(r) => r.run(count, job),
        }
    }
}
