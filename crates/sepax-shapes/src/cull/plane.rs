//! Plane classification of boxes and spheres (Assarsson & Möller 2000, "Optimized view frustum
//! culling algorithms for bounding boxes", p/n-vertices; Ericson, *Real-Time Collision
//! Detection*, §5.2.3).

use super::PlaneSide;
use crate::math::{Real, Vector3};
use crate::scale::pow2_scale;
use crate::shape::{Aabb, Obb, Plane, Sphere};
use crate::tolerance::SEPARATION_TOLERANCE;

/// The side from the signed distances of the nearest (`lo`) and farthest (`hi`) points along the
/// normal, in units where the inputs are below `m` in magnitude. A rounding allowance of
/// `SEPARATION_TOLERANCE * m` makes the answer conservative: near-touching is `Straddling`.
fn side(lo: Real, hi: Real, m: Real) -> PlaneSide {
    let tol = SEPARATION_TOLERANCE * m;
    if lo > tol {
        PlaneSide::Front
    } else if hi < -tol {
        PlaneSide::Back
    } else {
        PlaneSide::Straddling
    }
}

impl Plane {
    /// Classifies an AABB with its n-vertex (the corner least along the normal) and p-vertex
    /// (most along it): `Front` if the n-vertex is in front, `Back` if the p-vertex is behind,
    /// else `Straddling` (touching included).
    pub fn classify_aabb(&self, b: &Aabb) -> PlaneSide {
        let n = self.normal();
        let (lo, hi) = (b.min().coords, b.max().coords);
        let pv = Vector3::from_fn(|k, _| if n[k] >= 0.0 { hi[k] } else { lo[k] });
        let nv = Vector3::from_fn(|k, _| if n[k] >= 0.0 { lo[k] } else { hi[k] });
        let s = pow2_scale(lo.amax().max(hi.amax()).max(self.d().abs()));
        let dist = |v: &Vector3| n.dot(&(v / s)) - self.d() / s;
        side(dist(&nv), dist(&pv), 4.0)
    }

    /// Classifies an OBB by its centre's signed distance and its projected radius
    /// `sum_i h_i |n . a_i|` (the p/n-vertex distances without visiting corners).
    pub fn classify_obb(&self, b: &Obb) -> PlaneSide {
        let n = self.normal();
        let c = b.center().coords;
        let reach = (c.abs() + b.axes().abs() * b.half_extents()).amax();
        let s = pow2_scale(reach.max(self.d().abs()));
        let h = b.half_extents() / s;
        let r: Real = (0..3).map(|i| h[i] * n.dot(&b.axis(i)).abs()).sum();
        let sc = n.dot(&(c / s)) - self.d() / s;
        side(sc - r, sc + r, 8.0)
    }

    /// Classifies a sphere by its centre's signed distance against the radius.
    pub fn classify_sphere(&self, sp: &Sphere) -> PlaneSide {
        let n = self.normal();
        let c = sp.center().coords;
        let s = pow2_scale(c.amax().max(sp.radius()).max(self.d().abs()));
        let r = sp.radius() / s;
        let sc = n.dot(&(c / s)) - self.d() / s;
        side(sc - r, sc + r, 8.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    #[test]
    fn sides() {
        let pl = Plane::from_point_normal(Point3::origin(), Vector3::y()).unwrap();
        let b = |y0: Real, y1: Real| {
            Aabb::new(Point3::new(-1.0, y0, -1.0), Point3::new(1.0, y1, 1.0)).unwrap()
        };
        assert_eq!(pl.classify_aabb(&b(1.0, 2.0)), PlaneSide::Front);
        assert_eq!(pl.classify_aabb(&b(-2.0, -1.0)), PlaneSide::Back);
        assert_eq!(pl.classify_aabb(&b(-1.0, 1.0)), PlaneSide::Straddling);
        assert_eq!(
            pl.classify_aabb(&b(0.0, 1.0)),
            PlaneSide::Straddling,
            "touching"
        );
        assert_eq!(
            pl.classify_obb(&Obb::from_aabb(&b(1.0, 2.0))),
            PlaneSide::Front
        );
        assert_eq!(
            pl.classify_obb(&Obb::from_aabb(&b(-1.0, 0.0))),
            PlaneSide::Straddling
        );
        let s = |y: Real| Sphere::new(Point3::new(3.0, y, 0.0), 1.0).unwrap();
        assert_eq!(pl.classify_sphere(&s(2.0)), PlaneSide::Front);
        assert_eq!(
            pl.classify_sphere(&s(-1.0)),
            PlaneSide::Straddling,
            "touching"
        );
        assert_eq!(pl.classify_sphere(&s(-1.5)), PlaneSide::Back);
    }
}
