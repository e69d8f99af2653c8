//! GJK (Gilbert, Johnson and Keerthi 1988) distance between two convex sets given by support
//! maps, with the signed-volume sub-algorithm of Montanari, Petrinic and Barbieri (ACM TOG 2017).
//!
//! GJK looks for the point `v` of the Minkowski difference `D = A - B` closest to the origin:
//! `|v|` is the distance and the barycentric weights of `v` in the final simplex give the
//! witness points on `A` and `B`.
//!
//! ```text
//! v = (a point of A) - (a point of B); simplex = { support_D(-v) }
//! loop:
//!     w = support_A(-v) - support_B(v)             (support of D in direction -v)
//!     if |v|^2 - v.w <= tol |v|  or  w already in the simplex: stop (|v| is within tol)
//!     simplex += w; (v, simplex) = signed-volume closest point of the simplex
//!     if the simplex is a tetrahedron containing the origin: intersecting, stop
//!     if |v| did not decrease: stop with the previous simplex
//! ```
//!
//! `|v| - v.w/|v|` is the gap between an upper and a lower bound of the distance, so the
//! stopping rule bounds the error by `tol` plus rounding. Everything runs relative to a base
//! point (the first shape's reference point), so shapes far from the origin lose nothing to
//! their absolute position. The loop allocates nothing.

mod simplex;
mod support;

#[cfg(feature = "bench-internals")]
#[doc(hidden)]
pub use simplex::{closest_on_simplex, Reduced};
#[cfg(not(feature = "bench-internals"))]
pub(crate) use simplex::{closest_on_simplex, Reduced};
pub(crate) use support::norm_safe;
pub use support::{ConvexCore, SupportMap};

use sepax_shapes::math::{Point3, Real, Vector3};

use sepax_shapes::tolerance::GJK_TOLERANCE;

/// Iteration cap. On polytopes GJK ends when a support point repeats (a few iterations for
/// boxes); the cap only guards against rounding-induced cycles.
pub const GJK_MAX_ITERATIONS: u32 = 64;

/// The outcome of [`gjk`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct GjkResult {
    /// Distance between the sets (0 when they intersect).
    pub distance: Real,
    /// Closest point on `A` (a common point when intersecting).
    pub point_a: Point3,
    /// Closest point on `B` (a common point when intersecting).
    pub point_b: Point3,
    /// `point_b - point_a` as computed relative to the base point (accurate in direction even
    /// where the two world points round to the same numbers).
    pub separation: Vector3,
    /// `distance` minus the best lower bound GJK proved (`v·w / |v|`, the support gap along
    /// the search direction): the exact distance lies in `[distance - slack, distance]` up to
    /// rounding. At most `GJK_TOLERANCE` times the scale when the search converged; larger
    /// if it stopped on a repeated support point or the iteration cap.
    pub slack: Real,
    /// Whether the origin was found inside `A - B` (the sets overlap).
    pub intersecting: bool,
    /// Iterations used.
    pub iterations: u32,
}

#[inline]
fn norm1(v: &Vector3) -> Real {
    v.x.abs() + v.y.abs() + v.z.abs()
}

/// Distance and closest points between two convex sets given by support maps.
pub fn gjk<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(a: &A, b: &B) -> GjkResult {
    gjk_with_hint(a, b, None)
}

/// [`gjk`] started from a guess of the direction from `B` to `A` (for instance minus the normal
/// of a previous query on nearby poses): repeated queries along a motion then converge in one
/// or two iterations. Any non-zero hint is valid; the answer does not depend on it beyond
/// rounding.
pub fn gjk_with_hint<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    hint: Option<&Vector3>,
) -> GjkResult {
    let base = a.reference_point();
    let mut dir = match hint {
        Some(h) if h.norm_squared() > 0.0 && h.norm_squared().is_finite() => *h,
        _ => base - b.reference_point(),
    };
    if !(dir.norm_squared() > 0.0 && dir.norm_squared().is_finite()) {
        dir = Vector3::x();
    }
    let mut ws = [Vector3::zeros(); 4];
    let mut sa = [Vector3::zeros(); 4];
    let mut sb = [Vector3::zeros(); 4];
    sa[0] = a.support(&base, &-dir);
    sb[0] = b.support(&base, &dir);
    ws[0] = sa[0] - sb[0];
    let mut len = 1;
    let mut red = closest_on_simplex(&ws, 1);
    let mut scale = norm1(&sa[0]) + norm1(&sb[0]);
    let mut iterations = 0;
    let mut intersecting = false;
    let mut lower: Real = 0.0;

    while iterations < GJK_MAX_ITERATIONS {
        let v = red.v;
        let vv = v.norm_squared();
        if vv == 0.0 {
            intersecting = true;
            break;
        }
        if !vv.is_finite() {
            break;
        }
        iterations += 1;
        let pa = a.support(&base, &-v);
        let pb = b.support(&base, &v);
        let w = pa - pb;
        scale = scale.max(norm1(&pa) + norm1(&pb));
        let tol = GJK_TOLERANCE * scale;
        let vw = v.dot(&w);
        lower = lower.max(vw / vv.sqrt());
        if vv - vw <= tol * vv.sqrt() {
            break;
        }
        if ws[..len].contains(&w) {
            break;
        }
        ws[len] = w;
        sa[len] = pa;
        sb[len] = pb;
        let cand = closest_on_simplex(&ws, len + 1);
        if cand.len < 4 && cand.v.norm_squared() >= vv {
            // No progress (rounding): keep the previous simplex and its answer.
            break;
        }
        // Compact the kept vertices to the front.
        let (ow, oa, ob) = (ws, sa, sb);
        for k in 0..cand.len {
            ws[k] = ow[cand.index[k]];
            sa[k] = oa[cand.index[k]];
            sb[k] = ob[cand.index[k]];
        }
        len = cand.len;
        red = Reduced {
            index: [0, 1, 2, 3],
            ..cand
        };
        if len == 4 {
            intersecting = true;
            // Weights of a nearly flat tetrahedron are inaccurate (the determinant cancels),
            // so `sum lambda a` and `sum lambda b` may drift apart. The origin is then close to
            // a face, whose weights are accurate: keep whichever representation of the origin
            // has the smaller residual `|sum lambda w|`.
            let residual = |r: &Reduced| {
                (0..r.len)
                    .fold(Vector3::zeros(), |acc, k| {
                        acc + ws[r.index[k]] * r.lambda[k]
                    })
                    .norm_squared()
            };
            let mut best = residual(&red);
            for (i, j, k) in [(1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2)] {
                let face = simplex::s2d(&ws, i, j, k);
                let r = residual(&face);
                if r < best {
                    best = r;
                    red = face;
                }
            }
            break;
        }
    }

    let mut pa = Vector3::zeros();
    let mut pb = Vector3::zeros();
    for k in 0..red.len {
        pa += sa[red.index[k]] * red.lambda[k];
        pb += sb[red.index[k]] * red.lambda[k];
    }
    GjkResult {
        distance: if intersecting { 0.0 } else { red.v.norm() },
        slack: if intersecting {
            0.0
        } else {
            (red.v.norm() - lower).max(0.0)
        },
        point_a: base + pa,
        point_b: base + pb,
        separation: -red.v,
        intersecting,
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::UnitQuaternion;
    use sepax_shapes::{Aabb, Obb, Sphere};

    #[test]
    fn separated_boxes() {
        let a = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
        let b = Aabb::new(Point3::new(3.0, 0.5, 0.5), Point3::new(4.0, 2.0, 2.0)).unwrap();
        let r = gjk(&a, &b);
        assert!(!r.intersecting);
        assert!((r.distance - 2.0).abs() < 1e-5, "{r:?}");
        assert!((r.point_a.x - 1.0).abs() < 1e-5 && (r.point_b.x - 3.0).abs() < 1e-5);
    }

    #[test]
    fn overlapping_boxes() {
        let a = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
        let b = Obb::from_rotation(
            Point3::new(1.2, 0.5, 0.5),
            UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1),
            Vector3::new(0.5, 0.5, 0.5),
        )
        .unwrap();
        let r = gjk(&a, &b);
        assert!(r.intersecting);
        assert_eq!(r.distance, 0.0);
        assert!(a.contains_point(&Point3::from(r.point_a.coords.map(|x| x.clamp(0.0, 1.0)))));
    }

    #[test]
    fn spheres_converge_to_the_tolerance() {
        let a = Sphere::new(Point3::new(0.0, 0.0, 0.0), 1.0).unwrap();
        let b = Sphere::new(Point3::new(3.0, 4.0, 0.0), 2.0).unwrap();
        let r = gjk(&a, &b);
        assert!((r.distance - 2.0).abs() < 1e-3, "{r:?}");
    }
}
