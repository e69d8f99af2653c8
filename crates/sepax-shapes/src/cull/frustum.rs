//! Frustum culling of boxes and spheres.

use super::{CullMode, PlaneSide, Visibility};
use crate::math::{Matrix3, Real, Vector3};
use crate::scale;
use crate::shape::frustum::EDGES;
use crate::shape::{Aabb, Frustum, Obb, Sphere};
use crate::tolerance::{FLAT_CONTAINMENT_TOLERANCE, SEPARATION_TOLERANCE};

/// Combines the six plane verdicts: any `Back` is outside, all `Front` is inside.
fn combine(sides: impl Iterator<Item = PlaneSide>) -> Visibility {
    let mut all_front = true;
    for s in sides {
        match s {
            PlaneSide::Back => return Visibility::Outside,
            PlaneSide::Straddling => all_front = false,
            PlaneSide::Front => {}
        }
    }
    if all_front {
        Visibility::Inside
    } else {
        Visibility::Intersecting
    }
}

impl Frustum {
    /// Culls an AABB: six planes (p/n-vertex), then, in [`CullMode::Exact`], the box SAT of
    /// [`Frustum::cull_obb`].
    pub fn cull_aabb(&self, b: &Aabb, mode: CullMode) -> Visibility {
        let v = combine(self.planes().iter().map(|p| p.classify_aabb(b)));
        if v != Visibility::Intersecting || mode == CullMode::Planes {
            return v;
        }
        self.exact_box(&Obb::from_aabb(b))
    }

    /// Culls an OBB: six planes, then, in [`CullMode::Exact`], a separating-axis test between
    /// the box and the frustum (a convex polyhedron). See [`Frustum::cull_aabb`].
    pub fn cull_obb(&self, b: &Obb, mode: CullMode) -> Visibility {
        let v = combine(self.planes().iter().map(|p| p.classify_obb(b)));
        if v != Visibility::Intersecting || mode == CullMode::Planes {
            return v;
        }
        self.exact_box(b)
    }

    /// Culls a sphere: six planes, then, in [`CullMode::Exact`], the distance from the centre to
    /// the frustum ([`Frustum::distance_to_point`]) against the radius, which removes the false
    /// positives near edges and corners.
    pub fn cull_sphere(&self, sp: &Sphere, mode: CullMode) -> Visibility {
        let v = combine(self.planes().iter().map(|p| p.classify_sphere(sp)));
        if v != Visibility::Intersecting || mode == CullMode::Planes {
            return v;
        }
        let m = scale::max_abs(self.corners())
            .max(scale::max_abs(&[sp.center()]))
            .max(sp.radius());
        let gap = self.distance_to_point(&sp.center()) - sp.radius();
        if gap > FLAT_CONTAINMENT_TOLERANCE * m {
            Visibility::Outside
        } else {
            Visibility::Intersecting
        }
    }

    /// Separating-axis test between a box and the frustum, after the planes found no
    /// separation (Ericson, *Real-Time Collision Detection*, §5.2.1 and §4.4; Gottschalk et al.
    /// 1996). Two convex polyhedra are disjoint iff one of these axes separates them: the face
    /// normals of each (frustum planes, box axes) and the cross products of an edge direction of
    /// each (box axes x the 12 frustum edges; parallel frustum edges repeat axes, harmlessly).
    ///
    /// ```text
    /// work relative to the box centre, rescaled by a power of two
    /// for each axis L: frustum interval = [min, max] of L . corner; box radius r = sum h_i |L . a_i|
    ///                  separated if min > r + tol or max < -r - tol
    /// ```
    /// Cross products are never normalised: a near-parallel pair gives a short `L`, and the
    /// allowance `tol = SEPARATION_TOLERANCE * |a| |e| * m` is stated in the factors' lengths, so
    /// such an axis cannot separate on rounding noise. Non-finite projections never separate.
    fn exact_box(&self, b: &Obb) -> Visibility {
        let reach = (b.center().coords.abs() + b.axes().abs() * b.half_extents()).amax();
        let s = scale::pow2_scale(scale::max_abs(self.corners()).max(reach));
        let c = b.center().coords / s;
        let f: [Vector3; 8] = self.corners().map(|p| p.coords / s - c);
        let h = b.half_extents() / s;
        let axes: &Matrix3 = b.axes();
        let m = f.iter().fold(h.sum(), |m, v| m.max(v.amax() + h.sum()));
        let separates = |l: &Vector3, len: Real| {
            let (lo, hi) = f
                .iter()
                .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), v| {
                    let x = l.dot(v);
                    (lo.min(x), hi.max(x))
                });
            let r: Real = (0..3).map(|i| h[i] * l.dot(&axes.column(i)).abs()).sum();
            let tol = SEPARATION_TOLERANCE * 4.0 * len * m;
            lo - r > tol || -r - hi > tol
        };
        let box_axes = (0..3).map(|i| axes.column(i).into_owned());
        for l in box_axes.clone() {
            if separates(&l, l.norm()) {
                return Visibility::Outside;
            }
        }
        for pl in self.planes() {
            if separates(&pl.normal(), 1.0) {
                return Visibility::Outside;
            }
        }
        for [i, j] in EDGES {
            let e = f[j] - f[i];
            for a in box_axes.clone() {
                if separates(&a.cross(&e), a.norm() * e.norm()) {
                    return Visibility::Outside;
                }
            }
        }
        Visibility::Intersecting
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    fn frustum() -> Frustum {
        Frustum::from_camera(
            Point3::origin(),
            -Vector3::z(),
            Vector3::y(),
            1.0,
            1.0,
            1.0,
            100.0,
        )
        .unwrap()
    }

    #[test]
    fn inside_outside_intersecting() {
        let f = frustum();
        let b = |c: [Real; 3], h: Real| {
            Aabb::from_center_half_extents(Point3::from(c), Vector3::repeat(h)).unwrap()
        };
        for mode in [CullMode::Planes, CullMode::Exact] {
            assert_eq!(
                f.cull_aabb(&b([0.0, 0.0, -10.0], 1.0), mode),
                Visibility::Inside
            );
            assert_eq!(
                f.cull_aabb(&b([0.0, 0.0, 10.0], 1.0), mode),
                Visibility::Outside
            );
            assert_eq!(
                f.cull_aabb(&b([0.0, 0.0, -1.0], 1.0), mode),
                Visibility::Intersecting
            );
        }
    }

    /// The classic false positive: a box just beyond the far-right edge. It reaches in front of
    /// the far plane (where the frustum ends at x = 54.6) and in front of the right plane (behind
    /// the far plane, where the frustum would be wider), yet misses the frustum.
    #[test]
    fn corner_false_positive() {
        let f = frustum();
        let c = f.corners()[5]; // far, right, bottom: (54.6, -54.6, -100)
        let out = Vector3::new(c.x + 1.0, 0.0, c.z - 0.5);
        let b =
            Aabb::from_center_half_extents(Point3::from(out), Vector3::new(0.5, 1.0, 1.0)).unwrap();
        assert_eq!(f.cull_aabb(&b, CullMode::Planes), Visibility::Intersecting);
        assert_eq!(f.cull_aabb(&b, CullMode::Exact), Visibility::Outside);
        assert_eq!(
            f.cull_obb(&Obb::from_aabb(&b), CullMode::Exact),
            Visibility::Outside
        );
        let s = Sphere::new(Point3::from(out), 0.7).unwrap();
        assert_eq!(
            f.cull_sphere(&s, CullMode::Planes),
            Visibility::Intersecting
        );
        assert_eq!(f.cull_sphere(&s, CullMode::Exact), Visibility::Outside);
    }
}
