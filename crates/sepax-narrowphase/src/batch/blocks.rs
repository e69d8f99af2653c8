//! Array-of-structures-of-arrays OBB batches: blocks of `LANES` boxes, each block holding every
//! field of its boxes contiguously (512 bytes, eight cache lines, 64-byte aligned).
//!
//! Why: a one-vs-N pass over an [`ObbSoa`](super::ObbSoa) reads its sixteen field arrays as
//! sixteen concurrent streams, more than the hardware prefetchers follow, so a batch larger
//! than the caches runs at the latency of its misses rather than at the memory bandwidth.
//! A pass over [`ObbBlocks`] is one sequential stream whose every cache line is used whole.
//!
//! ```text
//! block b (boxes 8b .. 8b+8):
//!   field  0..3   centre x, y, z           one [Real; LANES] each: lane k = box LANES*b + k
//!   field  3..12  axes[i][c], i-major      (component c of box axis i)
//!   field 12..15  half-extents
//!   field 15      axes_error
//! ```

use super::lanes::{arr3, Lane256, LANES};
use super::soa::{Batch, ObbLanes, ObbSoa};
use sepax_shapes::math::{Matrix3, Real, Vector3};
use sepax_shapes::Obb;

/// Scalar fields per box: centre (3), axes (9), half-extents (3), axes' defect bound (1).
const FIELDS: usize = 16;
const CENTER: usize = 0;
const AXES: usize = 3;
const HALF: usize = 12;
const AXES_ERROR: usize = 15;

/// `LANES` boxes, field-major: `f[field][lane]`. Lanes past the end of the batch are zero.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C, align(64))]
struct Block {
    f: [[Real; LANES]; FIELDS],
}

// A block is eight cache lines in f32 (8 × 4 bytes per field), sixteen in f64.
const _: () = assert!(core::mem::size_of::<Block>() == 16 * LANES * core::mem::size_of::<Real>());
const _: () = assert!(core::mem::align_of::<Block>() == 64);

impl Block {
    const ZERO: Block = Block {
        f: [[0.0; LANES]; FIELDS],
    };
}

/// Oriented boxes in blocks of [`LANES`] (8): each block stores the sixteen
/// fields of its boxes (centre, the nine axis entries, half-extents and [`Obb::axes_error`])
/// contiguously, so a pass over the batch reads one sequential stream. Same contents and
/// answers as [`ObbSoa`](super::ObbSoa); prefer it for one-vs-N passes over batches larger
/// than the caches.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObbBlocks {
    blocks: Vec<Block>,
    len: usize,
}

impl ObbBlocks {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }
    /// The boxes of `boxes`, in order.
    pub fn from_slice(boxes: &[Obb]) -> Self {
        let mut s = Self::default();
        s.extend(boxes);
        s
    }
    /// Appends one box.
    pub fn push(&mut self, b: &Obb) {
        let lane = self.len % LANES;
        if lane == 0 {
            self.blocks.push(Block::ZERO);
        }
        let blk = self.blocks.last_mut().expect("a block was pushed");
        let (c, a, h) = (b.center(), b.axes(), b.half_extents());
        for k in 0..3 {
            blk.f[CENTER + k][lane] = c[k];
            blk.f[HALF + k][lane] = h[k];
            for i in 0..3 {
                blk.f[AXES + 3 * i + k][lane] = a[(k, i)];
            }
        }
        blk.f[AXES_ERROR][lane] = b.axes_error();
        self.len += 1;
    }
    /// Appends every box of `boxes`.
    pub fn extend(&mut self, boxes: &[Obb]) {
        let want = (self.len + boxes.len()).div_ceil(LANES);
        self.blocks.reserve(want.saturating_sub(self.blocks.len()));
        for b in boxes {
            self.push(b);
        }
    }
    /// Removes every box (keeps the allocation).
    pub fn clear(&mut self) {
        self.blocks.clear();
        self.len = 0;
    }
    /// Number of boxes.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether there are no boxes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Box `i`, equal (bit for bit, `axes_error` included) to the one pushed; panics when out
    /// of range.
    pub fn get(&self, i: usize) -> Obb {
        assert!(i < self.len, "box {i} out of range (len {})", self.len);
        let (blk, lane) = (&self.blocks[i / LANES], i % LANES);
        let v = |f: usize| Vector3::new(blk.f[f][lane], blk.f[f + 1][lane], blk.f[f + 2][lane]);
        let axes = Matrix3::from_columns(&[v(AXES), v(AXES + 3), v(AXES + 6)]);
        // The defect bound is a deterministic function of the axes, so it is recomputed equal.
        Obb::new_unchecked(v(CENTER).into(), axes, v(HALF))
    }
}

/// Field `f` of the boxes `at[k]` (block, lane) into lane `k`.
#[inline(always)]
fn gather_field<L: Lane256>(at: &[(&Block, usize); LANES], f: usize) -> L {
    let mut r = [0.0 as Real; LANES];
    for k in 0..LANES {
        r[k] = at[k].0.f[f][at[k].1];
    }
    L::from_array(r)
}

impl Batch for ObbBlocks {
    type Item = Obb;
    type Lanes<L: Lane256> = ObbLanes<L>;
    #[inline(always)]
    fn count(&self) -> usize {
        self.len
    }
    #[inline]
    fn item(&self, i: usize) -> Obb {
        self.get(i)
    }
    /// One block: `start` is a multiple of `LANES` (as in every driver), lanes past the end are
    /// the block's zero padding.
    #[inline(always)]
    fn load<L: Lane256>(&self, start: usize) -> ObbLanes<L> {
        debug_assert!(
            start.is_multiple_of(LANES),
            "unaligned block load at {start}"
        );
        let f = &self.blocks[start / LANES].f;
        ObbLanes {
            center: arr3!(k => L::from_array(f[CENTER + k])),
            axes: arr3!(i => arr3!(c => L::from_array(f[AXES + 3 * i + c]))),
            half: arr3!(k => L::from_array(f[HALF + k])),
            axes_error: L::from_array(f[AXES_ERROR]),
        }
    }
    #[inline(always)]
    fn gather<L: Lane256>(&self, idx: &[usize; LANES]) -> ObbLanes<L> {
        // Each index once into (block, lane); the field loop then only reads.
        let mut at = [(&Block::ZERO, 0usize); LANES];
        for k in 0..LANES {
            at[k] = (&self.blocks[idx[k] / LANES], idx[k] % LANES);
        }
        ObbLanes {
            center: arr3!(k => gather_field::<L>(&at, CENTER + k)),
            axes: arr3!(i => arr3!(c => gather_field::<L>(&at, AXES + 3 * i + c))),
            half: arr3!(k => gather_field::<L>(&at, HALF + k)),
            axes_error: gather_field::<L>(&at, AXES_ERROR),
        }
    }
    #[inline(always)]
    fn splat<L: Lane256>(b: &Obb) -> ObbLanes<L> {
        <ObbSoa as Batch>::splat(b)
    }
    #[inline(always)]
    fn splat_at<L: Lane256>(&self, i: usize) -> ObbLanes<L> {
        debug_assert!(i < self.len);
        let (f, lane) = (&self.blocks[i / LANES].f, i % LANES);
        ObbLanes {
            center: arr3!(k => L::splat(f[CENTER + k][lane])),
            axes: arr3!(a => arr3!(c => L::splat(f[AXES + 3 * a + c][lane]))),
            half: arr3!(k => L::splat(f[HALF + k][lane])),
            axes_error: L::splat(f[AXES_ERROR][lane]),
        }
    }
}
