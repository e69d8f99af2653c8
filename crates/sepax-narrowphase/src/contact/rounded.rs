//! Contacts of the non-box pairs: every shape is a convex *core* grown by a radius
//! (sphere = point ⊕ ball, capsule = segment ⊕ ball, box and triangle with radius 0).
//!
//! ```text
//! if the cores are disjoint (closest points qa, qb at distance d > 0):     analytic
//!     n = (qb - qa) / d,  depth = ra + rb - d
//!     point_a = qa + ra n,  point_b = qb - rb n
//! else (the cores overlap, or neither has a radius):                       SAT over the cores
//!     axes = face normals of both cores (triangles also their in-plane edge normals)
//!            + cross products of their edge directions
//!     depth = ra + rb + min over axes of the overlap of the projections
//!     point_b = deepest point of B along -n (centre of the supporting feature) - rb n
//!     point_a = point_b + depth n
//! ```
//!
//! The penetration of core ⊕ ball equals the cores' penetration plus the radii (the Minkowski
//! difference grows by a ball), and the cores' penetration is attained on one of the SAT axes
//! because the cores are polytopes. Closest points between disjoint cores come from
//! [`crate::geometry`]: segment–box and segment–triangle reduce to end points and edges
//! (Ericson, *Real-Time Collision Detection*, §5.1.9–5.1.10).
//!
//! Capsules lying on a box face or along another capsule get two points (the end points of the
//! overlap of the segment with the supporting face or segment), so that they do not rock.
//!
//! Robustness (docs/tolerance.md §5.1):
//! - the pair is rescaled by a power of two when its magnitude leaves `2^-16 .. 2^16`
//!   ([`SCALE_WINDOW`]), so squared distances, cross products and normals neither overflow
//!   nor underflow (spheres at 1e20 or 1e-25 in `f32`, triangles spanning `±3e38`); the
//!   results are scaled back exactly, a depth beyond the range saturating at `Real::MAX`;
//! - degenerate cores are replaced by what they are (a point capsule by its point, a collinear
//!   triangle by its longest edge or its point), which have closed forms and complete axes;
//! - a core distance within rounding of 0 ([`CLOSEST_NOISE`]) has no direction: such pairs
//!   (a sphere centred on a face, an edge or a corner of a rotated box) take the SAT, whose axes
//!   are the shapes' own directions;
//! - near the margin the pair's overlap test decides ([`DECISION_BAND`]): with margin 0 a
//!   manifold exists exactly when [`crate::intersect`] reports an intersection.

mod cores;
mod points;

use arrayvec::ArrayVec;
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Obb;

use super::{single, ContactConfig, ContactManifold, ContactPoint, FeatureId};
use crate::geometry::robust::{pow2_scale, unscale};
use crate::geometry::{
    closest_point_on_segment, closest_point_on_triangle, cross_accurate, segment_crosses_triangle,
    segment_obb_distance_squared, segment_segment_closest,
};
use cores::Dirs;
pub(crate) use cores::{Core, Rounded};
use points::{feature_contact, reduce, two_point_capsule, Raw};

/// Unit `v`, or `None` when `v` is zero (exactly parallel edges, degenerate triangles).
fn unit(v: &Vector3) -> Option<Vector3> {
    let n = v.norm();
    (n > 0.0 && n.is_finite()).then(|| v / n)
}

/// SAT over the cores: the least-penetration axis (depth of the cores, before radii) with the
/// normal from A toward B, faces first, then edge crosses; strict improvement replaces.
fn sat(a: &Core, b: &Core) -> (Real, Vector3, u32) {
    let (mut fa, mut ea, mut fb, mut eb) = (Dirs::new(), Dirs::new(), Dirs::new(), Dirs::new());
    a.directions(&mut fa, &mut ea);
    b.directions(&mut fb, &mut eb);
    let mut best: Option<(Real, Vector3, u32)> = None;
    let mut consider = |l: Vector3, code: u32| {
        let (a0, a1) = a.interval(&l);
        let (b0, b1) = b.interval(&l);
        let (up, down) = (a1 - b0, b1 - a0);
        let (d, n) = if up <= down { (up, l) } else { (down, -l) };
        if best.is_none_or(|(bd, _, _)| d < bd) {
            best = Some((d, n, code));
        }
    };
    for (k, f) in fa.iter().chain(fb.iter()).enumerate() {
        if let Some(l) = unit(f) {
            consider(l, k as u32);
        }
    }
    for (i, x) in ea.iter().enumerate() {
        for (j, y) in eb.iter().enumerate() {
            if let Some(l) = unit(&cross_accurate(x, y)) {
                consider(l, 16 + (i * 8 + j) as u32);
            }
        }
    }
    best.unwrap_or_else(|| {
        // No direction at all (points, or collinear segments): any axis perpendicular to the
        // segments; the overlap there is 0 or the cores are disjoint along it.
        let base = ea
            .iter()
            .chain(eb.iter())
            .find(|e| **e != Vector3::zeros())
            .copied();
        let Some(base) = base else {
            // Two equal points (unequal ones have the closed form): every direction is a
            // minimum translation.
            let l = Vector3::z();
            let (a0, a1) = a.interval(&l);
            let (b0, b1) = b.interval(&l);
            let (up, down) = (a1 - b0, b1 - a0);
            return if up <= down {
                (up, l, 15)
            } else {
                (down, -l, 15)
            };
        };
        let helper = if base.x.abs() <= base.y.abs() && base.x.abs() <= base.z.abs() {
            Vector3::x()
        } else if base.y.abs() <= base.z.abs() {
            Vector3::y()
        } else {
            Vector3::z()
        };
        let l = base.cross(&helper).normalize();
        let (a0, a1) = a.interval(&l);
        let (b0, b1) = b.interval(&l);
        let (up, down) = (a1 - b0, b1 - a0);
        if up <= down {
            (up, l, 15)
        } else {
            (down, -l, 15)
        }
    })
}

/// Closest points `(on a, on b, feature code)` of two cores that are disjoint; `None` when they
/// meet (or when neither has a closed form here: box–box, box–triangle, triangle–triangle).
fn closest(a: &Core, b: &Core) -> Option<(Point3, Point3, u32)> {
    let swap = |r: Option<(Point3, Point3, u32)>| r.map(|(p, q, c)| (q, p, c));
    let found = |p: Point3, q: Point3, c: u32| (p != q).then_some((p, q, c));
    match (a, b) {
        (Core::Point(p), Core::Point(q)) => found(*p, *q, 0),
        (Core::Point(p), Core::Segment(s0, s1)) => {
            let (t, q) = closest_point_on_segment(p, s0, s1);
            found(*p, q, seg_code(t))
        }
        (Core::Point(p), Core::Box(bx)) => found(*p, bx.closest_point(p), 0),
        (Core::Point(p), Core::Triangle(v)) => {
            found(*p, closest_point_on_triangle(p, &v[0], &v[1], &v[2]), 0)
        }
        (Core::Segment(p0, p1), Core::Segment(q0, q1)) => {
            let c = segment_segment_closest(p0, p1, q0, q1);
            found(c.point_a, c.point_b, seg_code(c.s) * 4 + seg_code(c.t))
        }
        (Core::Segment(p0, p1), Core::Box(bx)) => segment_box(p0, p1, bx),
        (Core::Segment(p0, p1), Core::Triangle(v)) => segment_triangle(p0, p1, v),
        (Core::Segment(..) | Core::Box(_) | Core::Triangle(_), Core::Point(_))
        | (Core::Box(_) | Core::Triangle(_), Core::Segment(..)) => swap(closest(b, a)),
        (Core::Box(_) | Core::Triangle(_), Core::Box(_) | Core::Triangle(_)) => None,
    }
}

/// 1 at the start of a segment, 2 at its end, 3 inside.
fn seg_code(t: Real) -> u32 {
    if t <= 0.0 {
        1
    } else if t >= 1.0 {
        2
    } else {
        3
    }
}

/// Keeps the closer of two candidates.
fn keep_closer(
    best: &mut Option<(Point3, Point3, u32)>,
    best_d: &mut Real,
    p: Point3,
    q: Point3,
    c: u32,
) {
    let d = (p - q).norm_squared();
    if d < *best_d {
        *best_d = d;
        *best = Some((p, q, c));
    }
}

/// Disjoint segment and box: end points against the box, the segment against the 12 edges.
fn segment_box(p0: &Point3, p1: &Point3, bx: &Obb) -> Option<(Point3, Point3, u32)> {
    if segment_obb_distance_squared(p0, p1, bx) == 0.0 {
        return None;
    }
    let (mut best, mut best_d) = (None, Real::INFINITY);
    keep_closer(&mut best, &mut best_d, *p0, bx.closest_point(p0), 1);
    keep_closer(&mut best, &mut best_d, *p1, bx.closest_point(p1), 2);
    let c = bx.corners();
    // Edges join corners that differ in one bit.
    for i in 0..8usize {
        for k in 0..3 {
            let j = i | (1 << k);
            if j != i {
                let e = segment_segment_closest(p0, p1, &c[i], &c[j]);
                keep_closer(
                    &mut best,
                    &mut best_d,
                    e.point_a,
                    e.point_b,
                    8 + (i * 3 + k) as u32,
                );
            }
        }
    }
    best.filter(|_| best_d > 0.0)
}

/// Disjoint segment and triangle: end points against the triangle, the segment against the edges.
fn segment_triangle(p0: &Point3, p1: &Point3, v: &[Point3; 3]) -> Option<(Point3, Point3, u32)> {
    if segment_crosses_triangle(p0, p1, &v[0], &v[1], &v[2]) {
        return None;
    }
    let (mut best, mut best_d) = (None, Real::INFINITY);
    for (p, c) in [(p0, 1), (p1, 2)] {
        let q = closest_point_on_triangle(p, &v[0], &v[1], &v[2]);
        keep_closer(&mut best, &mut best_d, *p, q, c);
    }
    for k in 0..3 {
        let e = segment_segment_closest(p0, p1, &v[k], &v[(k + 1) % 3]);
        keep_closer(&mut best, &mut best_d, e.point_a, e.point_b, 4 + k as u32);
    }
    best.filter(|_| best_d > 0.0)
}

use sepax_shapes::tolerance::CONTACT_SCALE_WINDOW as SCALE_WINDOW;

use sepax_shapes::tolerance::CONTACT_CLOSEST_NOISE as CLOSEST_NOISE;
use sepax_shapes::tolerance::CONTACT_CLOSEST_NOISE_DEFECT as CLOSEST_NOISE_DEFECT;

use sepax_shapes::tolerance::CONTACT_DECISION_BAND as DECISION_BAND;

/// The contact manifold of two rounded cores (see the module docs). `meets` is the overlap
/// test of the pair ([`crate::intersect`]); it is called only when the computed depth lies in
/// the rounding band of the margin, so that with margin 0 a manifold exists exactly when the
/// overlap test reports an intersection.
///
/// Depths beyond the range of `Real` (shapes spanning most of it, penetrating by more than
/// `Real::MAX`) are reported as `Real::MAX`; points are always finite.
pub(crate) fn manifold(
    a: &Rounded,
    b: &Rounded,
    config: &ContactConfig,
    meets: impl FnOnce() -> bool,
) -> Option<ContactManifold> {
    let k = pow2_scale(a.magnitude().max(b.magnitude()), SCALE_WINDOW);
    let (sa, sb) = (a.scaled(k).simplified(), b.scaled(k).simplified());
    let mag = sa.magnitude().max(sb.magnitude());
    let defect = sa.defect() + sb.defect();
    let noise = (CLOSEST_NOISE + CLOSEST_NOISE_DEFECT * defect) * mag;
    let band = (DECISION_BAND + 32.0 * defect) * mag;
    let margin = config.effective_margin() * k;
    let m = manifold_scaled(&sa, &sb, margin + band, noise)?;
    let keep = if margin > 0.0 {
        m.depth >= -margin
    } else {
        m.depth > band
    };
    if !keep && !meets() {
        return None;
    }
    Some(unscaled(m, k))
}

/// `m` computed on a pair scaled by `k`, in world units: lengths divided by `k` (exact; a depth
/// beyond the range saturates at `Real::MAX`).
fn unscaled(mut m: ContactManifold, k: Real) -> ContactManifold {
    if k == 1.0 {
        return m;
    }
    let back = |x: Real| unscale(x, k);
    let p = |q: &Point3| Point3::new(back(q.x), back(q.y), back(q.z));
    m.depth = back(m.depth);
    for c in &mut m.points {
        c.point_a = p(&c.point_a);
        c.point_b = p(&c.point_b);
        c.depth = back(c.depth);
    }
    m
}

/// [`manifold`] on scaled numbers, keeping pairs whose depth is at least `-margin`; core
/// distances up to `noise` take the SAT path (see [`CLOSEST_NOISE`]), except between two points,
/// whose difference vector is exact to a relative `u`.
fn manifold_scaled(a: &Rounded, b: &Rounded, margin: Real, noise: Real) -> Option<ContactManifold> {
    let rsum = a.radius + b.radius;
    if let Some((qa, qb, code)) = closest(&a.core, &b.core) {
        let diff = qb - qa;
        let d = diff.norm();
        let points = matches!((&a.core, &b.core), (Core::Point(_), Core::Point(_)));
        if d > 0.0 && d.is_finite() && (points || d > noise) {
            let depth = rsum - d;
            if depth.is_nan() || depth < -margin {
                return None;
            }
            let n = diff / d;
            let mut m = single(n, depth, qa + n * a.radius, qb - n * b.radius, code);
            two_point_capsule(a, b, &mut m, margin);
            return Some(m);
        }
    }
    let (core_depth, n, code) = sat(&a.core, &b.core);
    let depth = core_depth + rsum;
    if depth.is_nan() || depth < -margin {
        return None;
    }
    let fa = a.core.feature(&n);
    let fb = b.core.feature(&-n);
    let mut raw = Raw::new();
    feature_contact(&fa, &fb, &n, margin + rsum, &mut raw);
    if raw.is_empty() {
        return None;
    }
    if raw.len() > 4 {
        reduce(&mut raw, &n);
    }
    let mut points = ArrayVec::<ContactPoint, 4>::new();
    for (pa, pb, d, id) in raw {
        points.push(ContactPoint {
            point_a: pa + n * a.radius,
            point_b: pb - n * b.radius,
            depth: d + rsum,
            id: FeatureId(0x8000_0000 | (code << 12) | id),
        });
    }
    Some(ContactManifold {
        normal: n,
        depth,
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::{Aabb, Capsule, Sphere};

    fn p(x: Real, y: Real, z: Real) -> Point3 {
        Point3::new(x, y, z)
    }

    #[test]
    fn sphere_inside_box_uses_nearest_face() {
        let b = Rounded::from(&Aabb::new(p(-1.0, -1.0, -1.0), p(1.0, 1.0, 1.0)).unwrap());
        let s = Rounded::from(&Sphere::new(p(0.0, 0.8, 0.1), 0.5).unwrap());
        let m = manifold(&b, &s, &ContactConfig::default(), || true).unwrap();
        assert!((m.normal - Vector3::y()).norm() < 1e-6);
        assert!((m.depth - 0.7).abs() < 1e-5);
    }

    #[test]
    fn capsule_on_box_gets_two_points() {
        let b = Rounded::from(&Aabb::new(p(-2.0, -1.0, -2.0), p(2.0, 0.0, 2.0)).unwrap());
        let c = Rounded::from(&Capsule::new(p(-1.0, 0.45, 0.0), p(1.0, 0.45, 0.0), 0.5).unwrap());
        let m = manifold(&b, &c, &ContactConfig::default(), || true).unwrap();
        assert_eq!(m.points.len(), 2);
        for q in &m.points {
            assert!((q.depth - 0.05).abs() < 1e-5, "{q:?}");
            assert!(q.point_a.y.abs() < 1e-5);
        }
        let m = manifold(&c, &b, &ContactConfig::default(), || true).unwrap();
        assert_eq!(m.points.len(), 2);
        assert!((m.normal + Vector3::y()).norm() < 1e-6);
        for q in &m.points {
            assert!((q.depth - 0.05).abs() < 1e-5, "{q:?}");
            assert!(q.point_b.y.abs() < 1e-5);
        }
    }
}
