//! A fixed hash of the world's state and of an update's output, for desync checks and
//! determinism tests. FNV-1a over 64-bit words: the same on every platform and build.

use super::World;
use crate::events::{Events, PairEvent};
use crate::phase::MovingPhase;
use sepax_narrowphase::contact::ContactManifold;
use sepax_shapes::math::Real;

/// FNV-1a, 64-bit, fed whole words (little-endian bytes).
#[derive(Debug, Clone, Copy)]
pub struct StateHasher(u64);

impl Default for StateHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl StateHasher {
    /// Feeds one word.
    pub fn word(&mut self, w: u64) {
        for byte in w.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Feeds a number's bits.
    pub fn real(&mut self, x: Real) {
        self.word(x.to_bits() as u64);
    }

    /// Feeds a manifold: normal, depth, then each point's positions, depth and feature id.
    pub fn manifold(&mut self, m: &ContactManifold) {
        for x in m.normal.iter() {
            self.real(*x);
        }
        self.real(m.depth);
        self.word(m.points.len() as u64);
        for p in &m.points {
            for x in p.point_a.coords.iter().chain(p.point_b.coords.iter()) {
                self.real(*x);
            }
            self.real(p.depth);
            self.word(u64::from(p.id.0));
        }
    }

    fn event(&mut self, e: &PairEvent) {
        self.word(e.pair.0.to_bits());
        self.word(e.pair.1.to_bits());
        self.word(e.user[0]);
        self.word(e.user[1]);
        self.word(u64::from(e.flags.0));
        self.word(u64::from(e.manifold));
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Events {
    /// A hash of the events and manifolds (not the statistics).
    pub fn digest(&self) -> u64 {
        let mut h = StateHasher::default();
        for list in [&self.begin, &self.persist, &self.end] {
            h.word(list.len() as u64);
            for e in list {
                h.event(e);
            }
        }
        h.word(self.manifolds.len() as u64);
        for m in &self.manifolds {
            h.manifold(m);
        }
        // Only when there are any, so that worlds without a margin keep their digests.
        if !self.speculative.is_empty() {
            h.word(self.speculative.len() as u64);
            for &(pair, index) in &self.speculative {
                h.word(pair.0.to_bits());
                h.word(pair.1.to_bits());
                h.word(u64::from(index));
            }
        }
        // Likewise only with ccd hits.
        if !self.ccd.is_empty() {
            h.word(self.ccd.len() as u64);
            for c in &self.ccd {
                h.word(c.pair.0.to_bits());
                h.word(c.pair.1.to_bits());
                h.real(c.time);
                for x in c.point.coords.iter().chain(c.normal.iter()) {
                    h.real(*x);
                }
            }
        }
        h.finish()
    }
}

impl<B: MovingPhase> World<B> {
    /// A hash of the state: every collider's id, pose bits and enabled flag in id order, then
    /// the touching pairs of the last update and their manifolds, then the speculative pairs
    /// and theirs. Equal worlds give equal
    /// hashes on every platform, build and thread count.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::default();
        for (id, c) in &self.colliders {
            h.word(id.to_bits());
            let t = c.desc.pose.translation.vector;
            let q = c.desc.pose.rotation.quaternion();
            for x in [t.x, t.y, t.z, q.w, q.i, q.j, q.k] {
                h.real(x);
            }
            h.word(u64::from(c.desc.enabled));
        }
        for t in self.tested.iter().filter(|t| t.touching) {
            h.word(t.pair.0.to_bits());
            h.word(t.pair.1.to_bits());
            match self.events.manifolds.get(t.manifold as usize) {
                Some(m) => h.manifold(m),
                None => h.word(u64::MAX),
            }
        }
        // Only when there are any, so that worlds without a margin keep their hashes.
        for &(pair, index) in &self.events.speculative {
            h.word(pair.0.to_bits());
            h.word(pair.1.to_bits());
            if let Some(m) = self.events.manifolds.get(index as usize) {
                h.manifold(m);
            }
        }
        // The pairs that touched only during the last sweep (none without ccd colliders).
        for p in &self.ccd.swept {
            h.word(p.0.to_bits());
            h.word(p.1.to_bits());
        }
        h.finish()
    }
}
