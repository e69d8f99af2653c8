//! Parallel, deterministic pair finding: the pair search is cut into jobs whose number and
//! contents depend only on the tree (never on how many threads run them), each job writes into
//! its own buffer, and the buffers are merged and sorted afterwards. The reported pairs are
//! unique, so their sorted order is the same whatever order the jobs ran in; the tree itself is
//! only changed by the sequential parts (rebuilds, refits), so it is identical too.
//!
//! The crate knows no thread pool: the caller hands in a *runner*, a function that calls
//! `job(i)` for every `i` in `0..count` (on any threads, in any order) and returns when all have
//! run. The world's `Executor::run` has that shape; [`serial`] runs them in order on the calling
//! thread; a rayon user passes `&|n, job| (0..n).into_par_iter().for_each(job)`.

use crate::ProxyId;
use sepax_simd::LaneMask;
use std::sync::{Mutex, PoisonError};

/// A runner: calls `job(i)` for every `i` in `0..count`, on any threads and in any order, and
/// returns once every call has returned.
pub type Runner<'a> = &'a dyn Fn(usize, &(dyn Fn(usize) + Sync));

/// The runner that calls every job in order on the calling thread.
pub fn serial(count: usize, job: &(dyn Fn(usize) + Sync)) {
    (0..count).for_each(job);
}

/// One job's output and working memory, kept between frames so that a warm frame allocates
/// nothing.
#[derive(Debug, Default)]
pub(crate) struct ChunkBuf {
    /// Traversal stack of nodes and the packet lanes still descending (the incremental
    /// queries, `packet.rs`).
    pub stack: Vec<(u32, LaneMask)>,
    /// Pending node pairs (the whole-tree search).
    pub pair_stack: Vec<(u32, u32)>,
    /// Pairs found by the incremental queries.
    pub found: Vec<(ProxyId, ProxyId)>,
    /// Pairs found by the whole-tree search, as `(lower slot << 32) | higher slot`.
    pub keys: Vec<u64>,
}

impl ChunkBuf {
    /// Heap bytes held.
    fn memory_bytes(&self) -> usize {
        self.stack.capacity() * 8
            + self.pair_stack.capacity() * 8
            + self.found.capacity() * core::mem::size_of::<(ProxyId, ProxyId)>()
            + self.keys.capacity() * 8
    }
}

/// The per-job buffers. A mutex per job makes them writable from `Fn` jobs on any thread; each
/// is locked by one job only, so the locks never contend.
#[derive(Debug, Default)]
pub(crate) struct ChunkBufs(Vec<Mutex<ChunkBuf>>);

impl Clone for ChunkBufs {
    /// Scratch memory carries no state between frames: a clone starts with none.
    fn clone(&self) -> Self {
        ChunkBufs::default()
    }
}

impl ChunkBufs {
    /// Makes room for `count` jobs and clears the first `count` buffers' outputs.
    ///
    /// Which proxies a job gets changes from frame to frame, so each buffer is given the
    /// largest capacity any buffer has reached: a job then grows its buffer only when it finds
    /// more than any job ever did (as one shared buffer would), and warm frames allocate
    /// nothing.
    pub(crate) fn prepare(&mut self, count: usize) -> &[Mutex<ChunkBuf>] {
        if self.0.len() < count {
            self.0.resize_with(count, Default::default);
        }
        let mut most = [0usize; 4];
        for b in &mut self.0 {
            let b = b.get_mut().unwrap_or_else(PoisonError::into_inner);
            let caps = [
                b.stack.capacity(),
                b.pair_stack.capacity(),
                b.found.capacity(),
                b.keys.capacity(),
            ];
            for (m, c) in most.iter_mut().zip(caps) {
                *m = (*m).max(c);
            }
        }
        for b in &mut self.0[..count] {
            let b = b.get_mut().unwrap_or_else(PoisonError::into_inner);
            b.found.clear();
            b.keys.clear();
            b.stack.clear();
            b.pair_stack.clear();
            b.stack.reserve(most[0]);
            b.pair_stack.reserve(most[1]);
            b.found.reserve(most[2]);
            b.keys.reserve(most[3]);
        }
        &self.0[..count]
    }

    /// The buffer of job `i`, mutably (after the jobs ran).
    pub(crate) fn get_mut(&mut self, i: usize) -> &mut ChunkBuf {
        self.0[i].get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.0.capacity() * core::mem::size_of::<Mutex<ChunkBuf>>()
            + self.0.iter().map(|b| lock(b).memory_bytes()).sum::<usize>()
    }
}

/// Locks a job's buffer (a poisoned lock, left by a job that panicked, is taken over: the
/// buffer is cleared before each use).
pub(crate) fn lock(b: &Mutex<ChunkBuf>) -> std::sync::MutexGuard<'_, ChunkBuf> {
    b.lock().unwrap_or_else(PoisonError::into_inner)
}
