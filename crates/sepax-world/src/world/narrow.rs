//! The narrow phase of an update, one chunk of candidate pairs per job: boolean tests for
//! begin/end pairs, contact manifolds for the rest (OBB pairs through the batch kernel, eight
//! at a time), results reused for pairs whose colliders did not change.

use std::sync::Mutex;

use arrayvec::ArrayVec;
use slotmap::SlotMap;

use crate::collider::Collider;
use crate::id::{ColliderId, PairKey};
use sepax_narrowphase::contact::box_box;
use sepax_narrowphase::contact::{contact_manifold_shapes, ContactConfig, ContactManifold};
use sepax_narrowphase::intersect::intersects_shapes;
use sepax_shapes::{Obb, Shape};

/// Pairs per job. A constant, so that the cut (and so the output) does not depend on the
/// executor or its thread count.
pub(crate) const CHUNK: usize = 128;

/// Pairs per call of the batch manifold kernel (its widest lane group).
const BATCH: usize = 8;

/// What a pair needs from the narrow phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Touching or not.
    Bool,
    /// Touching, and the manifold when touching.
    Manifold,
}

/// One pair for the narrow phase.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Work {
    pub pair: PairKey,
    pub mode: Mode,
    /// The last update's result (touching, manifold index) when neither collider changed.
    pub reuse: Option<(bool, u32)>,
}

/// The result of one pair.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    pub touching: bool,
    pub manifold: Option<ContactManifold>,
}

/// One job's output, kept between updates so that warm frames allocate nothing.
#[derive(Debug, Default)]
pub(crate) struct ChunkOut {
    pub items: Vec<Outcome>,
    /// Positions (in `items`) of OBB pairs waiting for the batch kernel.
    boxes: Vec<u32>,
}

/// What every job reads.
pub(crate) struct Ctx<'a> {
    pub colliders: &'a SlotMap<ColliderId, Collider>,
    pub work: &'a [Work],
    pub prev: &'a [ContactManifold],
    pub config: &'a ContactConfig,
    pub chunks: &'a [Mutex<ChunkOut>],
}

impl Ctx<'_> {
    /// Runs job `i`: the pairs `work[i * CHUNK..]`, at most `CHUNK` of them.
    pub(crate) fn run(&self, i: usize) {
        let start = i * CHUNK;
        let end = (start + CHUNK).min(self.work.len());
        let mut guard = self.chunks[i].lock().unwrap_or_else(|e| e.into_inner());
        let out = &mut *guard;
        out.items.clear();
        out.boxes.clear();
        for w in &self.work[start..end] {
            if let Some((touching, m)) = w.reuse {
                let manifold = self.prev.get(m as usize).cloned();
                out.items.push(Outcome { touching, manifold });
                continue;
            }
            let a = &self.colliders[w.pair.0].world_shape;
            let b = &self.colliders[w.pair.1].world_shape;
            let touching = intersects_shapes(a, b);
            let mut manifold = None;
            if w.mode == Mode::Manifold && (touching || self.config.margin > 0.0) {
                if let (true, Shape::Obb(_), Shape::Obb(_)) = (touching, a, b) {
                    out.boxes.push(out.items.len() as u32);
                } else {
                    // Not touching: a speculative manifold when the gap is within the margin.
                    manifold =
                        contact_manifold_shapes(a, b, self.config).filter(|m| !m.points.is_empty());
                }
            }
            out.items.push(Outcome { touching, manifold });
        }
        self.batch_boxes(start, out);
    }

    /// The OBB pairs of a chunk, through the batch kernel (bit for bit the single-pair result).
    fn batch_boxes(&self, start: usize, out: &mut ChunkOut) {
        for group in out.boxes.chunks(BATCH) {
            let mut boxes: ArrayVec<(Obb, Obb), BATCH> = ArrayVec::new();
            for &k in group {
                let pair = self.work[start + k as usize].pair;
                let (a, b) = (
                    &self.colliders[pair.0].world_shape,
                    &self.colliders[pair.1].world_shape,
                );
                if let (Shape::Obb(x), Shape::Obb(y)) = (a, b) {
                    boxes.push((*x, *y));
                }
            }
            let refs: ArrayVec<(&Obb, &Obb), BATCH> = boxes.iter().map(|(x, y)| (x, y)).collect();
            let mut manifolds: [ContactManifold; BATCH] =
                core::array::from_fn(|_| ContactManifold::empty());
            let n = refs.len();
            box_box::manifolds_into(&refs, self.config, &mut manifolds[..n]);
            for (&k, m) in group.iter().zip(manifolds) {
                if !m.points.is_empty() {
                    out.items[k as usize].manifold = Some(m);
                }
            }
        }
    }
}
