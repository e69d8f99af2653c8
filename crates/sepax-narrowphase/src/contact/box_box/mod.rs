//! Box–box (AABB and OBB in any mix) penetration and contact manifold.
//!
//! Everything runs in `A`'s frame (`R = A^T B`, `t = A^T (c_B - c_A)`), like the overlap test.
//!
//! **Axis.** The depth along a SAT axis `L` is `(r_A(L) + r_B(L) - |t . L|) / |L|`; the smallest
//! over the 15 axes (3 faces of A, 3 of B, 9 edge crosses `a_i x b_j`) is the exact penetration
//! depth of the two boxes (the distance from `t` to the boundary of their Minkowski difference,
//! whose facet normals are among those axes), and when negative, minus the largest SAT gap.
//! Edge axes of nearly parallel edges (`|a_i x b_j| < 1/20`) are evaluated from world-space data
//! in `f64` with an accurate cross product; exactly parallel edges have no axis.
//! The tie-break, so that the same configuration gives the same axis every frame:
//!
//! ```text
//! fa = first argmin over A's faces,  fb = first argmin over B's faces,  e = first argmin over edges
//! face = fb if d(fb) < d(fa) - tol(fa, fb) else fa
//! axis = e  if d(e)  < d(face) - tol(face, e) else face
//! tol(x, y) = CONTACT_AXIS_PREFERENCE * s   when x and y are nearly parallel
//!             (sine below CONTACT_PREFERENCE_SINE), else 0
//! s = min(max h_A, max h_B)
//! ```
//!
//! Nearly parallel axes have nearly equal depths (they differ by at most the sine times the
//! boxes' size), and they are exactly what jitter makes compete in a resting contact; axes far
//! apart compete by depth alone, so the depth is then the exact minimum.
//!
//! **Order.** Every pair is evaluated in one canonical order, whichever order the call gives
//! (an AABB first, then by size, then by the direction between the centres; see `order`), and
//! the result is mirrored ([`mirror`], [`mirror_id`]) when the call's order is the other one:
//! swapping the arguments gives exactly the mirrored manifold and penetration.
//!
//! **Range.** Pairs whose scale is too large for the direct arithmetic (products of four
//! lengths) are computed scaled by a power of two and scaled back (see `huge`): every number in
//! the result is finite.
//!
//! **Face contact** (reference/incident faces, as in Gregorius' GDC 2013/2015 talks and most
//! physics engines): the reference face is the chosen face, the incident face is the other box's
//! face most anti-parallel to it. The incident face's quad is clipped against the reference face's
//! four side planes (Sutherland–Hodgman, planes widened by `tol` so that jittering vertices keep
//! their ids); points deeper than `-margin` are kept, projected onto the reference face for the
//! reference box's point. More than 4 points are reduced to 4: the deepest, the farthest from it,
//! and the two spanning the largest triangles on either side of that diagonal.
//!
//! **Edge contact**: the two supporting edges along the axis; one point from their closest points.
//!
//! **Implementation.** The pair is put in `A`'s frame with four-lane arithmetic (columns and rows
//! of `R`, `t` in both frames); the 3 + 3 face depths and the 9 edge depths are computed three
//! at a time, the edge depths with one vector square root and division per three axes; the
//! first minimum of the edges is found from lane masks, of the faces by select chains, and the
//! edge's unit normal (lane selects from a stored column of `R`) is computed only when the edge
//! can win. An edge axis of nearly parallel edges is evaluated
//! accurately only if the fast closed form, widened by the SAT filter's error bound
//! (`sat/fast.rs`, doubled), could put it below the chosen face's depth: such axes are
//! deep (the resting case: the two vertical axes), and the skip leaves every result unchanged.
//! The incident face is clipped in the reference face's coordinates `(f1, f2)` with the normal
//! coordinate carried alongside, in fixed arrays, and a quad inside all four side planes skips
//! the clipping. Otherwise the four Sutherland–Hodgman passes are computed per line rather than
//! per point: each of the polygon's lines (the quad's edges, then the side segments the passes
//! add) keeps the segment it has left, a pass compares all lines at once (lanes) and splices one
//! side segment between the one leaving and the one entering line, and the polygon is walked
//! once at the end; the crossings use the passes' arithmetic on the same segments, so points,
//! order and feature ids are theirs bit for bit (degenerate cases, a point exactly on a side
//! plane, run the passes themselves). The reduction finds its picks with the up to 8 points in
//! two lane groups (each pick the first lane holding the extreme value, as the loops' strict
//! comparisons select; a NaN hands over to the loops). The (at most 4) points go back to world
//! space four at a time (lanes = points, with the reference box's own axes read in place), are
//! transposed into `ContactPoint`s and stored whole into the result, the depth filter of an
//! unclipped quad folded into that store. [`manifold_into`] writes the result in place;
//! [`manifold`] returns it (one copy into the caller's slot, unless inlined). An OBB is
//! read in place (`LeanBox`), not copied into a [`BoxFrame`] whose zero low parts would cost
//! additions LLVM cannot fold.
//!
//! **Batch.** [`manifolds_into`] computes many manifolds, bit for bit as
//! [`manifold_into`] does. In the `f32` build, groups of four OBB–OBB pairs run the
//! axis selection together with one pair per lane (structure of arrays: each of the 15 axes is
//! a few full-width lane operations for four pairs, the argmins compare-select chains, the
//! tie-break lane selects, no horizontal operations), then each pair's values go back to the
//! per-pair layout by 4x4 transposes and the face/edge contact is the single path's own code
//! (`finish_into`). Pairs with an AABB, the last `len % 4` pairs, pairs whose nearly
//! parallel edges the lane test does not rule out (the accurate edge path), and every pair in
//! the `f64` build (where the lane groups measured slower) take the single-pair path. On an
//! x86-64 processor with AVX2 (detected at run time) the batch runs the same code compiled for
//! AVX2 (three-operand instructions, one-instruction lane selects; no FMA, same bits), and in
//! `f32` the selection of eight pairs at a time in 256-bit lanes.

use arrayvec::ArrayVec;
use sepax_shapes::math::{Matrix3, Point3, Real, Vector3};
use sepax_shapes::tolerance::{
    CONTACT_AXIS_PREFERENCE, CONTACT_PREFERENCE_SINE, SEPARATION_TOLERANCE,
};
use sepax_shapes::Obb;

use super::{ContactConfig, ContactManifold, ContactPoint, FeatureId, Penetration};
#[cfg(feature = "f64")]
use crate::geometry::cross_accurate;
use crate::geometry::segment_segment_closest;
use crate::intersect::{BoxRef, BoxShape};
use crate::sat::axes;
use crate::sat::{BoxFrame, SatAxis};
use sepax_simd::V4;

mod axis;
mod batch;
mod clip;
mod edge;
mod face;
mod huge;
mod lean;
mod order;
mod poly;
mod reduce;
use axis::*;
pub use batch::manifolds_into;
#[cfg(feature = "bench-internals")]
#[doc(hidden)]
pub use batch::manifolds_into_portable;
use clip::*;
use edge::*;
use face::*;
use lean::*;
pub use order::{mirror, mirror_id};
use poly::*;
use reduce::*;

/// The least-penetration axis of a box pair (see the module docs for the tie-break).
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct BoxPenetration {
    /// Unit normal from `A` toward `B` (world space).
    pub normal: Vector3,
    /// The least depth over the 15 axes: the penetration depth (`> 0`), or minus the largest SAT
    /// gap (`< 0`). The depth along `normal` itself exceeds it by at most the tie-break preference
    /// (0 unless a nearly parallel axis was preferred).
    pub depth: Real,
    /// Which SAT axis gave it.
    pub axis: SatAxis,
}

impl BoxPenetration {
    /// As a plain [`Penetration`].
    #[inline]
    pub fn penetration(&self) -> Penetration {
        Penetration {
            normal: self.normal,
            depth: self.depth,
        }
    }
}

/// `min` and `max` for operands that are not NaN (one `minss`/`maxss`, where `Real::min` also
/// handles NaN).
#[inline(always)]
fn min_nn(a: Real, b: Real) -> Real {
    if b < a {
        b
    } else {
        a
    }
}

#[inline(always)]
fn max_nn(a: Real, b: Real) -> Real {
    if b > a {
        b
    } else {
        a
    }
}

/// `(k + 1) % 3` and `(k + 2) % 3` without divisions.
const NEXT: [usize; 3] = [1, 2, 0];
const PREV: [usize; 3] = [2, 0, 1];
/// The same, padded to 4 entries for indices masked with `& 3`.
const NEXT4: [usize; 4] = [1, 2, 0, 0];
const PREV4: [usize; 4] = [2, 0, 1, 0];

/// Runs `$body` with `$x`, `$y` bound to the two boxes as [`LeanBox`]es in their canonical
/// order ([`order`]): an OBB by reference, an AABB through its frame (the kinds are known at
/// compile time once `as_box` is inlined); `$flip` is set when the call's order is the other
/// one (the body then gives the mirrored result).
macro_rules! with_ordered {
    ($a:expr, $b:expr, |$x:ident, $y:ident, $flip:ident| $body:expr) => {
        match ($a.as_box(), $b.as_box()) {
            (BoxRef::Obb(p), BoxRef::Obb(q)) => {
                let $flip = order::obb_swapped(p, q);
                // One body on the selected references (no second copy of it).
                let ($x, $y) = if $flip { (q, p) } else { (p, q) };
                $body
            }
            (BoxRef::Aabb(p), BoxRef::Aabb(q)) => {
                let $flip = order::aabb_swapped(p, q);
                let (p, q) = if $flip { (q, p) } else { (p, q) };
                let ($x, $y) = (&BoxFrame::from(p), &BoxFrame::from(q));
                $body
            }
            (BoxRef::Aabb(p), BoxRef::Obb($y)) => {
                let ($x, $flip) = (&BoxFrame::from(p), false);
                $body
            }
            (BoxRef::Obb(q), BoxRef::Aabb(p)) => {
                let ($x, $y, $flip) = (&BoxFrame::from(p), q, true);
                $body
            }
        }
    };
}

/// The least-penetration axis of two boxes: depth (`< 0` when separated: minus the largest SAT
/// gap) and the unit normal from `a` toward `b`, with the stable tie-break of the module docs.
///
/// Symmetric: `least_penetration(b, a)` is `least_penetration(a, b)` with the normal negated and the axis's
/// roles exchanged (`FaceA(i)` for `FaceB(i)`, `Edge(j, i)` for `Edge(i, j)`), bit for bit (the
/// pair is evaluated in one canonical order, see [`mirror_id`]). A depth beyond the largest
/// finite number (two boxes of size `3e38` overlapping) is reported as `Real::MAX`.
#[inline]
pub fn least_penetration<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(
    a: &A,
    b: &B,
) -> BoxPenetration {
    with_ordered!(a, b, |fa, fb, flip| {
        let p = penetration_lean(fa, fb);
        if flip {
            order::mirror_penetration(p)
        } else {
            p
        }
    })
}

/// [`penetration`] of two boxes in their canonical order.
#[inline(always)]
fn penetration_lean<A: LeanBox, B: LeanBox>(fa: &A, fb: &B) -> BoxPenetration {
    let l = Local::new(fa, fb);
    if !l.fits {
        return huge::penetration(fa, fb);
    }
    let c = l.axis();
    BoxPenetration {
        normal: world_normal(fa, fb, &c),
        depth: c.least,
        axis: c.axis,
    }
}

/// The contact manifold of two boxes: `None` when they are farther apart than `config.margin`
/// along the best SAT axis (plus the rounding allowance `SEPARATION_TOLERANCE` times the pair's
/// scale, so that touching pairs always get a manifold). Points are in world space; see the
/// module docs for the method.
///
/// Symmetric: `manifold(b, a)` is [`mirror`] of `manifold(a, b)` bit for bit
/// (normal negated, surface points swapped, feature ids mirrored by [`mirror_id`]); the pair is
/// evaluated in one canonical order (an AABB first, then by size, then by the direction between
/// the centres; see `docs/tolerance.md`). Every number is finite: pairs near the ends of the
/// range are computed scaled by a power of two, and a depth beyond the largest finite number is
/// reported as `Real::MAX`.
#[inline]
pub fn manifold<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(
    a: &A,
    b: &B,
    config: &ContactConfig,
) -> Option<ContactManifold> {
    let mut m = ContactManifold::empty();
    if manifold_into(a, b, config, &mut m) {
        Some(m)
    } else {
        None
    }
}

/// [`manifold`] written into `out` (normal, depth and points overwritten in place, no
/// copy of the manifold): returns `true` when the pair has a manifold (the same as
/// `manifold` returns in its `Some`), `false` when it does not, and then `out.points`
/// is empty and `out.normal`, `out.depth` are left as they were. Symmetric under the swap of
/// `a` and `b` as `manifold` is.
#[inline]
pub fn manifold_into<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(
    a: &A,
    b: &B,
    config: &ContactConfig,
    out: &mut ContactManifold,
) -> bool {
    with_ordered!(a, b, |fa, fb, flip| manifold_into_lean(
        fa, fb, config, out, flip
    ))
}

/// The manifold of two boxes given as SAT frames, written into `out` (see
/// [`manifold_into`]); mirrored ([`mirror`]) when `flip` is set.
#[inline(always)]
fn manifold_into_lean<A: LeanBox, B: LeanBox>(
    fa: &A,
    fb: &B,
    config: &ContactConfig,
    out: &mut ContactManifold,
    flip: bool,
) -> bool {
    let l = Local::new(fa, fb);
    if !l.fits {
        return huge::manifold_into(fa, fb, config, out, flip);
    }
    let choice = l.axis();
    finish_into(&l, &choice, config, out, flip)
}

/// The manifold from the pair in `A`'s frame and its chosen axis, written into `out` as
/// [`manifold_into`] documents it (shared by the single path and the batch of
/// [`manifolds_into`]); mirrored ([`mirror`]) when `flip` is set: the mirror is built
/// into the points as they are written (the roles of the surface points and the ids' role bits
/// exchanged), not applied afterwards.
#[inline(always)]
fn finish_into<A: LeanBox, B: LeanBox>(
    l: &Local<'_, A, B>,
    choice: &Choice,
    config: &ContactConfig,
    out: &mut ContactManifold,
    flip: bool,
) -> bool {
    out.points.clear();
    match manifold_finish(l, choice, config, &mut out.points, flip) {
        Some((normal, depth)) => {
            out.normal = normal;
            out.depth = depth;
            true
        }
        None => false,
    }
}

/// The manifold's normal and depth from the pair in `A`'s frame and its chosen axis (the part
/// after the axis selection, for [`finish_into`]), its points written into `points` (empty on
/// entry); `None` when the pair is separated beyond the margin or no point is left.
#[inline(always)]
fn manifold_finish<A: LeanBox, B: LeanBox>(
    l: &Local<'_, A, B>,
    choice: &Choice,
    config: &ContactConfig,
    points: &mut ArrayVec<ContactPoint, 4>,
    flip: bool,
) -> Option<(Vector3, Real)> {
    let (fa, fb) = (l.fa, l.fb);
    // Touching pairs whose computed depth came out a rounding error below 0 still get their
    // manifold: the margin is widened by the separation allowance of the overlap tests.
    let margin = config.effective_margin() + SEPARATION_TOLERANCE * l.scale;
    let depth = choice.least;
    if depth.is_nan() || depth < -margin {
        return None;
    }
    let normal = world_normal(fa, fb, choice);
    let normal = if flip { -normal } else { normal };
    match choice.axis {
        SatAxis::FaceA(_) | SatAxis::FaceB(_) => {
            // Reference frame: the box whose face it is; the other box's centre and axes in it.
            let (f, sf, ref_is_b) = match choice.axis {
                SatAxis::FaceA(i) => (i as usize, choice.n[i as usize], false),
                // The reference normal points from B toward A: -s b_j.
                SatAxis::FaceB(j) => (j as usize, -choice.sign_b, true),
                SatAxis::Edge(..) => unreachable!(),
            };
            // (`ri` by reference: A's columns are read in place, not moved through a tuple.)
            let rows;
            let (hr, hi, ti, ri, frame) = if ref_is_b {
                let tb = (-l.tb).lanes();
                rows = [l.rr[0].lanes(), l.rr[1].lanes(), l.rr[2].lanes()];
                (&l.hb, &l.ha, tb, &rows, WorldFrame::new(fb))
            } else {
                (&l.ha, &l.hb, l.t.lanes(), &l.rcl, WorldFrame::new(fa))
            };
            // The reference box's role in the result (the other one when mirrored).
            let ref_b = ref_is_b ^ flip;
            let base = (f as u32) * 2 + u32::from(sf > 0.0) + if ref_b { 8 } else { 0 };
            face_contact(
                hr, &ti, ri, hi, f, sf, l.tol, margin, &frame, ref_b, base, points,
            );
        }
        SatAxis::Edge(i, j) => edge_contact(l, choice, (i, j), depth, flip, points),
    }
    if points.is_empty() {
        return None;
    }
    Some((normal, depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::UnitQuaternion;
    use sepax_shapes::{Aabb, Obb};

    #[test]
    fn resting_cube_gives_four_face_points() {
        let floor = Aabb::new(Point3::new(-5.0, -1.0, -5.0), Point3::new(5.0, 0.0, 5.0)).unwrap();
        let cube = Obb::from_rotation(
            Point3::new(0.0, 0.49, 0.0),
            UnitQuaternion::from_euler_angles(0.0, 0.3, 0.0),
            Vector3::new(0.5, 0.5, 0.5),
        )
        .unwrap();
        let m = manifold(&floor, &cube, &ContactConfig::default()).unwrap();
        assert_eq!(m.points.len(), 4);
        assert!((m.normal - Vector3::y()).norm() < 1e-6);
        assert!((m.depth - 0.01).abs() < 1e-5);
        for p in &m.points {
            assert!((p.depth - 0.01).abs() < 1e-5);
            assert!(p.point_a.y.abs() < 1e-6);
            assert!((p.point_b.y + 0.01).abs() < 1e-5);
        }
        // Swapped order: B's face is the reference now, same points, opposite normal.
        let m2 = manifold(&cube, &floor, &ContactConfig::default()).unwrap();
        assert!((m2.normal + Vector3::y()).norm() < 1e-6);
        assert_eq!(m2.points.len(), 4);
    }

    #[test]
    fn crossed_edges_give_one_point() {
        // Two long bars crossing at right angles, edge on edge.
        let q = UnitQuaternion::from_euler_angles(core::f64::consts::FRAC_PI_4 as Real, 0.0, 0.0);
        let a = Obb::from_rotation(Point3::origin(), q, Vector3::new(2.0, 0.5, 0.5)).unwrap();
        let q2 = UnitQuaternion::from_euler_angles(0.0, 0.0, core::f64::consts::FRAC_PI_4 as Real);
        let s2 = (2.0 as Real).sqrt();
        let b = Obb::from_rotation(
            Point3::new(0.0, s2 - 0.1, 0.0),
            q2,
            Vector3::new(0.5, 0.5, 2.0),
        )
        .unwrap();
        let m = manifold(&a, &b, &ContactConfig::default()).unwrap();
        assert!(matches!(least_penetration(&a, &b).axis, SatAxis::Edge(..)));
        assert_eq!(m.points.len(), 1);
        assert!((m.depth - 0.1).abs() < 1e-4, "{}", m.depth);
        assert!((m.normal - Vector3::y()).norm() < 1e-4);
    }

    #[test]
    fn speculative_contact_within_margin() {
        let a = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
        let b = Aabb::new(Point3::new(0.2, 1.05, 0.2), Point3::new(0.8, 2.0, 0.8)).unwrap();
        assert!(manifold(&a, &b, &ContactConfig::default()).is_none());
        let m = manifold(&a, &b, &ContactConfig::with_margin(0.1)).unwrap();
        assert_eq!(m.points.len(), 4);
        assert!((m.depth + 0.05).abs() < 1e-6);
        assert!(m.points.iter().all(|p| (p.depth + 0.05).abs() < 1e-6));
    }
}
