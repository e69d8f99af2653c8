//! How cells map to keys: the dense x-major layout (with its padding cells) or the hashed
//! buckets, and the classification of a box in a dense layout.

use sepax_shapes::math::Real;
use sepax_shapes::Aabb;

use super::cells::cells4;

/// How the entries are keyed.
#[derive(Debug, Clone, Copy)]
pub(super) enum Layout {
    /// Home cells in the box `origin .. origin + dims` (the occupied cells plus some slack),
    /// keyed in x-major order with one empty padding cell at the high end of y and z:
    /// `key = (rx * py + ry) * pz + rz` with `r = cell - origin`, `py = dims[1] + 1`,
    /// `pz = dims[2] + 1`. Entries are kept sorted by key across frames.
    Dense { origin: [i64; 3], dims: [i64; 3] },
    /// `hash(cell) & mask`; rebuilt from scratch every frame, with a bucket-start table.
    Hashed { mask: u32 },
}

/// What a box is in a dense layout.
pub(super) enum Class {
    /// Regular, with this key.
    Key(u32),
    /// Wider than one cell on some axis.
    Oversize,
    /// Regular, but its home cell lies outside the layout.
    Outside,
}

/// A dense layout prepared for classifying boxes four lanes at a time.
pub(super) struct DenseGeom {
    /// The lowest and highest home cell of the layout (lane 3: the whole range).
    first: wide::i32x4,
    last: wide::i32x4,
    /// The origin, wrapped to `i32` (`cell - origin` wraps back to the exact offset for every
    /// cell of the layout, as offsets are below `2^31`).
    origin: wide::i32x4,
    py: i32,
    pz: i32,
}

impl DenseGeom {
    pub(super) fn new(origin: [i64; 3], dims: [i64; 3]) -> Self {
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let first = [0, 1, 2].map(|k| clamp(origin[k]));
        let last = [0, 1, 2].map(|k| clamp(origin[k] + dims[k] - 1));
        DenseGeom {
            first: wide::i32x4::new([first[0], first[1], first[2], i32::MIN]),
            last: wide::i32x4::new([last[0], last[1], last[2], i32::MAX]),
            origin: wide::i32x4::new([origin[0] as i32, origin[1] as i32, origin[2] as i32, 0]),
            py: (dims[1] + 1) as i32,
            pz: (dims[2] + 1) as i32,
        }
    }

    /// A box's class in a dense layout (the same answers as [`SortedGrid::home`] and
    /// [`dense_key`], four lanes at a time).
    #[inline(always)]
    pub(super) fn classify(&self, inv: Real, b: &Aabb) -> Class {
        use wide::i32x4;
        let c = cells4(inv, b.min());
        let h = cells4(inv, b.max());
        // `h >= c` (monotone), so the wrapped difference is the true one: regular iff it is
        // 0 or 1 on every axis.
        let regular = ((h - c) & i32x4::splat(!1))
            .simd_eq(i32x4::splat(0))
            .to_bitmask();
        if regular != 0xF {
            return Class::Oversize;
        }
        let outside = (self.first.simd_gt(c) | c.simd_gt(self.last)).to_bitmask();
        if outside != 0 {
            return Class::Outside;
        }
        let r = (c - self.origin).to_array();
        Class::Key(((r[0] * self.py + r[1]) * self.pz + r[2]) as u32)
    }
}

/// The dense key of home cell `c`, or `None` outside the layout.
#[inline(always)]
pub(super) fn dense_key(c: [i32; 3], origin: [i64; 3], dims: [i64; 3]) -> Option<u32> {
    let r = [0, 1, 2].map(|k| i64::from(c[k]) - origin[k]);
    let inside = ((r[0] as u64) < dims[0] as u64)
        & ((r[1] as u64) < dims[1] as u64)
        & ((r[2] as u64) < dims[2] as u64);
    inside.then(|| ((r[0] * (dims[1] + 1) + r[1]) * (dims[2] + 1) + r[2]) as u32)
}

/// A dense layout holding home cells `lo ..= hi` with some slack around them (so that boxes
/// drifting out of the box of occupied cells rarely force a new layout), or `None` when its
/// keys, and the largest key bound the pair search forms, would not fit below `i32::MAX`.
pub(super) fn dense_layout(lo: [i32; 3], hi: [i32; 3]) -> Option<([i64; 3], [i64; 3])> {
    let extent = [0, 1, 2].map(|k| i64::from(hi[k]) - i64::from(lo[k]) + 1);
    [true, false].into_iter().find_map(|slack| {
        let s = extent.map(|e| if slack { (e / 4).max(2) } else { 0 });
        let origin = [0, 1, 2].map(|k| i64::from(lo[k]) - s[k]);
        let dims = [0, 1, 2].map(|k| extent[k] + 2 * s[k]);
        let (py, pz) = (dims[1] as u128 + 1, dims[2] as u128 + 1);
        let cells = dims[0] as u128 * py * pz;
        // Keys are below `cells`; the search bounds reach `key + py * pz + pz + 1`, and
        // `i32::MAX` is the sentinel above every bound.
        (cells + py * pz + pz + 1 < i32::MAX as u128).then_some((origin, dims))
    })
}
