//! Distances and closest points for every ordered pair of {Aabb, Obb, Sphere, Capsule,
//! Triangle}, and from a point to any shape.
//!
//! Each shape is a polytope core plus a radius (a sphere is a point plus its radius, a capsule a
//! segment plus its radius, the others have radius 0; see [`ConvexCore`]). The cores' closest
//! points come from closed forms or GJK (table in `core.rs`), and the radii are then taken off
//! along the line between the core points:
//!
//! ```text
//! (ca, cb, d) = closest points of the cores
//! if d > ra + rb: distance = d - ra - rb, point_a = ca + ra n, point_b = cb - rb n   (n = (cb - ca) / d)
//! else:           distance = 0, point_a = point_b = ca + (cb - ca) ra / (ra + rb)    (in both shapes)
//! ```
//!
//! Contract (checked by `tests/distance_*.rs`): the distance is symmetric, invariant under rigid
//! motions up to rounding, 0 when the shapes touch or overlap; the witness points lie on the
//! shapes and `|point_b - point_a| = distance` when separated. Heterogeneous shapes go through
//! [`closest_points_shapes`], one exhaustive `match` on the pair of kinds.

mod core;

use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};

use crate::geometry::robust::unscale;
use crate::gjk::ConvexCore;
pub(crate) use core::CorePair;

/// Closest points of two shapes.
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct ClosestPoints {
    /// Euclidean distance between the shapes; 0 when they touch or overlap.
    pub distance: Real,
    /// The point of the first shape closest to the second (a common point when they meet).
    pub point_a: Point3,
    /// The point of the second shape closest to the first (a common point when they meet).
    pub point_b: Point3,
    /// Unit direction from the first shape to the second (zero when they meet). Computed in
    /// relative coordinates, so it stays right where `point_b - point_a` rounds to zero far
    /// from the origin.
    pub normal: Vector3,
}

impl ClosestPoints {
    /// Whether the shapes touch or overlap (`distance == 0`).
    #[inline]
    pub fn intersecting(&self) -> bool {
        self.distance == 0.0
    }

    /// The same answer with the roles of the shapes exchanged.
    #[inline]
    pub fn swapped(self) -> Self {
        ClosestPoints {
            distance: self.distance,
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
        }
    }
}

/// Takes the radii off core closest points (see the module docs).
pub(crate) fn with_radii(c: CorePair, ra: Real, rb: Real) -> ClosestPoints {
    let r = ra + rb;
    let len = c.delta.norm();
    if c.distance > r && len > 0.0 && len.is_finite() {
        let n = c.delta / len;
        ClosestPoints {
            distance: c.distance - r,
            point_a: c.point_a + n * ra,
            point_b: c.point_b - n * rb,
            normal: n,
        }
    } else {
        let p = if r > 0.0 {
            c.point_a + (c.point_b - c.point_a) * (ra / r)
        } else {
            c.point_a
        };
        ClosestPoints {
            distance: 0.0,
            point_a: p,
            point_b: p,
            normal: Vector3::zeros(),
        }
    }
}

use sepax_shapes::tolerance::TOUCH_SNAP;

/// A power of two `k` bringing a magnitude `m` into `[1/32, 1/16)` when `m` leaves
/// `2^-16 .. 2^16` (1 otherwise, and for zero or non-finite `m`). GJK's sub-algorithm forms
/// products of up to six coordinates (determinants with their rounding errors), so the window
/// is narrower than for squared distances: `2^(±16·6)` stays inside the normal range of `f32`.
fn pow2_unit(m: Real) -> Real {
    crate::geometry::robust::pow2_scale(m, 65536.0)
}

/// The local scale of a core pair: distance between the reference points plus the sizes.
fn pair_scale(ca: &ConvexCore, ra: Real, cb: &ConvexCore, rb: Real) -> Real {
    use crate::gjk::SupportMap;
    let (pa, pb) = (ca.reference_point(), cb.reference_point());
    (pb - pa).norm() + ca.reach_from(&pa) + cb.reach_from(&pb) + ra + rb
}

/// Core closest points with the radii taken off, and the pair's local scale, on numbers
/// rescaled by a power of two (exact) when their magnitude leaves `2^-16 .. 2^16` (see
/// [`pow2_unit`]), so that nothing in the kernels overflows or underflows.
fn rounded_closest(ca: &ConvexCore, ra: Real, cb: &ConvexCore, rb: Real) -> (ClosestPoints, Real) {
    let (c, scale, _) = rounded_closest_hint(ca, ra, cb, rb, None);
    (c, scale)
}

/// [`rounded_closest`] with a guess of the direction from `cb` to `ca` for the GJK pairs (the
/// time-of-impact loop passes the previous normal); also returns the slack of the distance
/// (how much it may exceed the exact one beyond rounding, see [`crate::gjk::GjkResult`]).
pub(crate) fn rounded_closest_hint(
    ca: &ConvexCore,
    ra: Real,
    cb: &ConvexCore,
    rb: Real,
    hint: Option<&Vector3>,
) -> (ClosestPoints, Real, Real) {
    let m = ca.magnitude().max(cb.magnitude()).max(ra).max(rb);
    let k = pow2_unit(m);
    if k == 1.0 {
        let core = core::core_closest_hint(ca, cb, hint);
        let slack = core.slack;
        let c = with_radii(core, ra, rb);
        let scale = if c.distance > 0.0 {
            pair_scale(ca, ra, cb, rb)
        } else {
            0.0
        };
        return (c, scale, slack);
    }
    let (sa, sb) = (ca.scaled(k), cb.scaled(k));
    let core = core::core_closest_hint(&sa, &sb, hint);
    let slack = core.slack;
    let c = with_radii(core, ra * k, rb * k);
    let scale = if c.distance > 0.0 {
        pair_scale(&sa, ra * k, &sb, rb * k)
    } else {
        0.0
    };
    let back = |x: Real| unscale(x, k);
    let c = ClosestPoints {
        distance: back(c.distance),
        point_a: c.point_a.map(back),
        point_b: c.point_b.map(back),
        normal: c.normal,
    };
    (c, back(scale), back(slack))
}

/// Closest points of two cores (no radii) on numbers rescaled as in [`rounded_closest_hint`],
/// without the distance's scale and slack: the witness points of the box sweep.
pub(crate) fn rounded_core_points(
    ca: &ConvexCore,
    cb: &ConvexCore,
    hint: Option<&Vector3>,
) -> (Point3, Point3) {
    let k = pow2_unit(ca.magnitude().max(cb.magnitude()));
    if k == 1.0 {
        let c = core::core_closest_hint(ca, cb, hint);
        return (c.point_a, c.point_b);
    }
    let c = core::core_closest_hint(&ca.scaled(k), &cb.scaled(k), hint);
    let back = |x: Real| unscale(x, k);
    (c.point_a.map(back), c.point_b.map(back))
}

/// Closest points of two shapes of any kinds (core closest points, then the radii).
fn shape_closest(a: &Shape, b: &Shape) -> ClosestPoints {
    let (ca, ra) = ConvexCore::of(a);
    let (cb, rb) = ConvexCore::of(b);
    let (c, scale) = rounded_closest(&ca, ra, &cb, rb);
    if c.distance > 0.0
        && c.distance <= TOUCH_SNAP * scale
        && crate::intersect::intersects_shapes(a, b)
    {
        let p = Point3::from(c.point_a.coords * 0.5 + c.point_b.coords * 0.5);
        return ClosestPoints {
            distance: 0.0,
            point_a: p,
            point_b: p,
            normal: Vector3::zeros(),
        };
    }
    c
}

/// Closest points between the point `p` and a shape (`point_a = p`; distance 0 and
/// `point_b = p` when `p` is in the shape).
pub fn point_closest_points(p: &Point3, shape: &Shape) -> ClosestPoints {
    let (c, r) = ConvexCore::of(shape);
    rounded_closest(&ConvexCore::Point(*p), 0.0, &c, r).0
}

/// A shape type with a closest-point query against `B`. Implemented for every ordered pair of
/// [`Aabb`], [`Obb`], [`Sphere`], [`Capsule`] and [`Triangle`]; reversed pairs give the same
/// answer with the points exchanged.
pub trait ClosestPointsTo<B: ?Sized> {
    /// Closest points between `self` and `other`.
    fn closest_points(&self, other: &B) -> ClosestPoints;
}

/// Closest points between two shapes (distance 0 when they touch or overlap).
#[inline]
pub fn closest_points<A: ClosestPointsTo<B> + ?Sized, B: ?Sized>(a: &A, b: &B) -> ClosestPoints {
    a.closest_points(b)
}

/// Euclidean distance between two shapes (0 when they touch or overlap).
#[inline]
pub fn distance<A: ClosestPointsTo<B> + ?Sized, B: ?Sized>(a: &A, b: &B) -> Real {
    a.closest_points(b).distance
}

macro_rules! typed_pair {
    ($($A:ident),*) => {
        typed_pair!(@rows [$($A),*] [$($A),*]);
    };
    (@rows [$($A:ident),*] $all:tt) => {
        $(typed_pair!(@row $A $all);)*
    };
    (@row $A:ident [$($B:ident),*]) => {
        $(
            impl ClosestPointsTo<$B> for $A {
                #[inline]
                fn closest_points(&self, other: &$B) -> ClosestPoints {
                    shape_closest(&Shape::$A(*self), &Shape::$B(*other))
                }
            }
        )*
    };
}
typed_pair!(Aabb, Obb, Sphere, Capsule, Triangle);

macro_rules! closest_pair {
    ($a:ident, $b:ident, $x:ident, $y:ident) => {
        ClosestPointsTo::closest_points($x, $y)
    };
}

/// Closest points between two shapes of any kinds: the typed [`ClosestPointsTo`] query of their
/// pair.
pub fn closest_points_shapes(a: &Shape, b: &Shape) -> ClosestPoints {
    kind_match!((a, b) => closest_pair())
}

/// Distance between two shapes of any kinds (0 when they touch or overlap).
pub fn distance_shapes(a: &Shape, b: &Shape) -> Real {
    closest_points_shapes(a, b).distance
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: Real, y: Real, z: Real) -> Point3 {
        Point3::new(x, y, z)
    }

    #[test]
    fn spheres() {
        let a = Sphere::new(p(0.0, 0.0, 0.0), 1.0).unwrap();
        let b = Sphere::new(p(5.0, 0.0, 0.0), 2.0).unwrap();
        let c = closest_points(&a, &b);
        assert_eq!(c.distance, 2.0);
        assert_eq!((c.point_a, c.point_b), (p(1.0, 0.0, 0.0), p(3.0, 0.0, 0.0)));
        assert_eq!(c.normal, Vector3::x());
        let b = Sphere::new(p(2.5, 0.0, 0.0), 2.0).unwrap();
        let c = closest_points(&a, &b);
        assert!(c.intersecting());
        assert!(a.contains_point(&c.point_a) && b.contains_point(&c.point_a));
    }

    #[test]
    fn capsule_and_box() {
        let b = Aabb::new(p(0.0, 0.0, 0.0), p(2.0, 2.0, 2.0)).unwrap();
        let c = Capsule::new(p(3.0, -1.0, 1.0), p(3.0, 5.0, 1.0), 0.5).unwrap();
        let r = closest_points(&c, &b);
        assert_eq!(r.distance, 0.5);
        assert_eq!(r.point_a.x, 2.5);
        assert_eq!(r.point_b.x, 2.0);
        let s = closest_points(&b, &c);
        assert_eq!(s, r.swapped());
    }

    #[test]
    fn triangle_and_obb_by_gjk() {
        let t = Triangle::new(p(0.0, 0.0, 3.0), p(4.0, 0.0, 3.0), p(0.0, 4.0, 3.0)).unwrap();
        let b = Obb::from_aabb(&Aabb::new(p(-1.0, -1.0, -1.0), p(1.0, 1.0, 1.0)).unwrap());
        let r = closest_points(&t, &b);
        assert!((r.distance - 2.0).abs() < 1e-5, "{r:?}");
    }

    #[test]
    fn point_queries() {
        let s = Shape::Aabb(Aabb::new(p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0)).unwrap());
        let r = point_closest_points(&p(0.5, 0.5, 3.0), &s);
        assert_eq!((r.distance, r.point_b), (2.0, p(0.5, 0.5, 1.0)));
        let r = point_closest_points(&p(0.5, 0.5, 0.5), &s);
        assert!(r.intersecting());
    }
}
