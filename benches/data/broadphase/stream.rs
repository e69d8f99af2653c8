//! The memory-bandwidth probe shared by `benches/batch.rs` (`memory/stream_sum`) and
//! `tools/src/bin/batch_profile.rs` (this crate's lib): the streamed batch figures are bounded by
//! how fast one core can read memory.

/// Sum of `v` with 32 independent accumulators (vectorised; bounded by memory, not adds).
#[inline(never)]
pub fn stream_sum(v: &[f32]) -> f32 {
    let mut acc = [0.0f32; 32];
    let chunks = v.chunks_exact(32);
    let tail: f32 = chunks.remainder().iter().sum();
    for c in chunks {
        for k in 0..32 {
            acc[k] += c[k];
        }
    }
    acc.iter().sum::<f32>() + tail
}
