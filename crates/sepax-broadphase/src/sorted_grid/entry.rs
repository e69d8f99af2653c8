//! The entries of the sorted arrays: a regular proxy's box, slot and key, laid out for the
//! pair search's four-lane loads.

use sepax_shapes::math::Point3;
use sepax_shapes::Aabb;

/// Four lanes of `Real`s (SSE2 on a baseline x86-64 build).
#[cfg(not(feature = "f64"))]
pub(super) type R4 = wide::f32x4;
/// Four lanes of `Real`s (SSE2 on a baseline x86-64 build).
#[cfg(feature = "f64")]
pub(super) type R4 = wide::f64x4;

/// A regular proxy in the sorted arrays: its box (copied, so the pair loop reads memory in
/// order), slot and key. In `f32`, two four-lane corners: `lo` is the lower corner with the
/// slot's bits in lane 3, `hi` the upper corner with the key's bits in lane 3, so that the pair
/// test loads each corner as one vector and compares lanes 0 to 2 (32 bytes, aligned to 32 so
/// that no entry straddles two cache lines: the re-keying stores into the entries in slot
/// order, one line each).
#[cfg(not(feature = "f64"))]
#[derive(Debug, Clone, Copy)]
#[repr(align(32))]
pub(super) struct Entry {
    lo: R4,
    hi: R4,
}

/// A regular proxy in the sorted arrays (see the `f32` version). In `f64` the box, slot and
/// key as fields (56 bytes): the four-lane corners would take 64, and the extra memory traffic
/// cost more time than the corner loads saved (measured: `update_pairs` +9% at 100k moving).
#[cfg(feature = "f64")]
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    aabb: Aabb,
    slot: u32,
    key: u32,
}

/// A `u32` carried in an `f32` lane: bit copies only, never arithmetic (copies through SSE or
/// NEON registers keep every bit pattern, NaNs included; only an x87-only 32-bit target could
/// quiet a signalling-NaN pattern, a slot or key of at least `0x7F80_0001`).
#[cfg(not(feature = "f64"))]
#[inline(always)]
fn from_bits(x: u32) -> f32 {
    f32::from_bits(x)
}

#[cfg(not(feature = "f64"))]
impl Entry {
    /// The entry of box `b` with its slot and key.
    #[inline(always)]
    pub(super) fn new(b: &Aabb, slot: u32, key: u32) -> Self {
        let (lo, hi) = (b.min(), b.max());
        Entry {
            lo: R4::new([lo.x, lo.y, lo.z, from_bits(slot)]),
            hi: R4::new([hi.x, hi.y, hi.z, from_bits(key)]),
        }
    }

    /// The slot.
    #[inline(always)]
    pub(super) fn slot(&self) -> u32 {
        self.lo.as_array()[3].to_bits()
    }

    /// Dense key or hash bucket of the home cell in the last build's layout.
    #[inline(always)]
    pub(super) fn key(&self) -> u32 {
        self.hi.as_array()[3].to_bits()
    }

    /// Sets the key.
    #[inline(always)]
    pub(super) fn set_key(&mut self, key: u32) {
        self.hi.as_mut_array()[3] = from_bits(key);
    }

    /// The box.
    #[inline(always)]
    pub(super) fn aabb(&self) -> Aabb {
        let (l, h) = (self.lo.as_array(), self.hi.as_array());
        Aabb::new_unchecked(Point3::new(l[0], l[1], l[2]), Point3::new(h[0], h[1], h[2]))
    }

    /// The corners in four lanes (lane 3 carries other bits: only lanes 0 to 2 are
    /// coordinates).
    #[inline(always)]
    pub(super) fn corners(&self) -> (R4, R4) {
        (self.lo, self.hi)
    }
}

#[cfg(feature = "f64")]
impl Entry {
    /// The entry of box `b` with its slot and key.
    #[inline(always)]
    pub(super) fn new(b: &Aabb, slot: u32, key: u32) -> Self {
        Entry {
            aabb: *b,
            slot,
            key,
        }
    }

    /// The slot.
    #[inline(always)]
    pub(super) fn slot(&self) -> u32 {
        self.slot
    }

    /// Dense key or hash bucket of the home cell in the last build's layout.
    #[inline(always)]
    pub(super) fn key(&self) -> u32 {
        self.key
    }

    /// Sets the key.
    #[inline(always)]
    pub(super) fn set_key(&mut self, key: u32) {
        self.key = key;
    }

    /// The box.
    #[inline(always)]
    pub(super) fn aabb(&self) -> Aabb {
        self.aabb
    }

    /// The corners in four lanes (only lanes 0 to 2 are coordinates).
    #[inline(always)]
    pub(super) fn corners(&self) -> (R4, R4) {
        let v = |p: Point3| R4::new([p.x, p.y, p.z, 0.0]);
        (v(self.aabb.min()), v(self.aabb.max()))
    }
}

/// A placeholder entry.
pub(super) fn empty_entry() -> Entry {
    Entry::new(
        &Aabb::new_unchecked(Default::default(), Default::default()),
        0,
        0,
    )
}
