//! The argument order of the box–box queries, and the mirror of their results.
//!
//! Every box pair is evaluated in one *canonical* order, whichever order the call gives, and
//! the result is mirrored when the call's order is the other one; so `(b, a)` gives exactly the
//! mirror of `(a, b)`, bit for bit ([`mirror`], [`mirror_id`]). The order (`a` first unless
//! [`swapped`]):
//!
//! 1. an AABB before an OBB (an axis-aligned `A` takes the cheaper frame);
//! 2. between boxes of one kind, by the bit patterns of the half-extents (x, then y, then z;
//!    for non-negative numbers the larger first): sizes do not change while bodies move, so a
//!    pair of different boxes keeps its order every frame;
//! 3. between boxes of equal sizes, by the direction between their centres: along the world
//!    axis `k` of largest `|c_b - c_a|` (the first of equal ones), the box of smaller
//!    coordinate first. Resting stacks and rows of equal boxes keep their order under jitter
//!    (it changes only where two of the offset's components are equal in size, or the centres
//!    coincide);
//! 4. otherwise (equal sizes, equal centres) by the bit patterns of all the box's numbers.
//!
//! The offsets of step 3 are formed so that swapping the boxes negates them exactly (IEEE
//! subtraction and addition are symmetric under negation) and cannot overflow; boxes equal in
//! every bit are evaluated as given (the call is then its own swap).

use super::*;
use core::cmp::Ordering;
use sepax_shapes::Aabb;

/// `a` against `b` by their numbers' bit patterns, in order (`Less`: `a` first).
#[inline(always)]
fn by_bits(a: &[Real], b: &[Real]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (x.to_bits(), y.to_bits());
        if x != y {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

/// Step 2: the larger half-extents' bits first.
#[inline(always)]
fn by_size(ha: &Vector3, hb: &Vector3) -> Ordering {
    // The first component decides almost every pair of different boxes.
    let (x, y) = (ha.x.to_bits(), hb.x.to_bits());
    if x != y {
        return y.cmp(&x);
    }
    by_bits(hb.as_slice(), ha.as_slice())
}

/// Step 3 from an offset `d` (from `a` toward `b`) that swapping the boxes negates exactly.
#[inline(always)]
fn by_direction(d: [Real; 3]) -> Ordering {
    let ad = d.map(Real::abs);
    let k = if ad[1] > ad[0] { 1 } else { 0 };
    let k = if ad[2] > ad[k] { 2 } else { k };
    if d[k] > 0.0 {
        Ordering::Less
    } else if d[k] < 0.0 {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// Whether the OBB pair `(a, b)` is evaluated as `(b, a)`.
#[inline(always)]
pub(super) fn obb_swapped(a: &Obb, b: &Obb) -> bool {
    let o = by_size(&a.half_extents(), &b.half_extents()).then_with(|| {
        let (ca, cb) = (a.center(), b.center());
        // Halves: at most `MAX` in size, no overflow.
        by_direction([0, 1, 2].map(|k| 0.5 * cb[k] - 0.5 * ca[k])).then_with(|| {
            by_bits(ca.coords.as_slice(), cb.coords.as_slice())
                .then_with(|| by_bits(a.axes().as_slice(), b.axes().as_slice()))
        })
    });
    o == Ordering::Greater
}

/// Whether the AABB pair `(a, b)` is evaluated as `(b, a)`.
#[inline(always)]
pub(super) fn aabb_swapped(a: &Aabb, b: &Aabb) -> bool {
    let size = |x: &Aabb| x.max() - x.min();
    let o = by_size(&size(a), &size(b)).then_with(|| {
        let (amin, amax, bmin, bmax) = (a.min(), a.max(), b.min(), b.max());
        // Twice the centres' offset, in quarters: each term at most `MAX / 2`.
        let d = [0, 1, 2]
            .map(|k| (0.25 * bmin[k] - 0.25 * amin[k]) + (0.25 * bmax[k] - 0.25 * amax[k]));
        by_direction(d).then_with(|| {
            by_bits(amin.coords.as_slice(), bmin.coords.as_slice())
                .then_with(|| by_bits(amax.coords.as_slice(), bmax.coords.as_slice()))
        })
    });
    o == Ordering::Greater
}

/// The feature id of a box–box contact point as the swapped call names it.
///
/// A box–box id names the touching features by the boxes' roles: a face contact's id holds the
/// reference face (its axis and side, and bit 3: set when the reference box is `B`), the
/// incident face and the clipped point's features on them; an edge contact's id holds `A`'s
/// edge and `B`'s edge (bits 11..16 and 16..21). Mirroring gives the reference box the other
/// role (bit 3 toggled), or swaps the two edges. It is an involution.
#[inline]
#[must_use]
pub fn mirror_id(id: FeatureId) -> FeatureId {
    let w = id.0;
    if (w >> 8) & 7 == KIND_EDGE_EDGE {
        let (ea, eb) = ((w >> 11) & 31, (w >> 16) & 31);
        FeatureId((w & !(0x3ff << 11)) | (eb << 11) | (ea << 16))
    } else {
        FeatureId(w ^ 8)
    }
}

/// The box–box manifold `m` of `(a, b)` as `(b, a)` gives it: normal negated, the two surface
/// points of each contact swapped, feature ids mirrored ([`mirror_id`]); depths unchanged.
#[inline]
pub fn mirror(m: &mut ContactManifold) {
    m.normal = -m.normal;
    for p in &mut m.points {
        core::mem::swap(&mut p.point_a, &mut p.point_b);
        p.id = mirror_id(p.id);
    }
}

/// [`penetration`]'s result of `(a, b)` as `(b, a)` gives it: normal negated, the axis's faces
/// exchanged (`FaceA(i)` and `FaceB(i)`, `Edge(i, j)` and `Edge(j, i)`).
#[inline(always)]
pub(super) fn mirror_penetration(p: BoxPenetration) -> BoxPenetration {
    BoxPenetration {
        normal: -p.normal,
        depth: p.depth,
        axis: match p.axis {
            SatAxis::FaceA(i) => SatAxis::FaceB(i),
            SatAxis::FaceB(j) => SatAxis::FaceA(j),
            SatAxis::Edge(i, j) => SatAxis::Edge(j, i),
        },
    }
}

/// The pairs `(a[p], b[p])` in their canonical order, and the mask of the swapped ones.
#[inline(always)]
pub(super) fn order_obbs<'o, const N: usize>(
    a: [&'o Obb; N],
    b: [&'o Obb; N],
) -> ([&'o Obb; N], [&'o Obb; N], u32) {
    let (mut x, mut y) = (a, b);
    let mut mask = 0;
    for p in 0..N {
        let s = obb_swapped(a[p], b[p]);
        (x[p], y[p]) = if s { (b[p], a[p]) } else { (a[p], b[p]) };
        mask |= u32::from(s) << p;
    }
    (x, y, mask)
}
