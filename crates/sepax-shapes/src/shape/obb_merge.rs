//! A box containing two oriented boxes.

use crate::math::{Matrix3, Point3, Real, UnitQuaternion, Vector3};
use crate::scale;
use crate::shape::{Aabb, Obb};
use crate::tolerance::gamma;

impl Obb {
    /// A box containing both `self` and `other` (a good fit, not the smallest).
    ///
    /// ```text
    /// frames = { halfway (slerp at 1/2) between the two rotations, each box's own rotation }
    /// for each frame R: map the 16 corners p to l = R^T (p - c0); box = [min l, max l], padded
    /// result = the smallest-volume candidate, the merged world AABB included
    /// ```
    /// Containment is guaranteed: a box is convex, so holding all 16 corners means holding both
    /// boxes, and the padding covers every rounding of the corner projections and of the new
    /// centre. Including the merged world AABB as a candidate bounds the result's volume by
    /// that box's. Mirrored axes are handled by flipping the third axis (a box is symmetric).
    pub fn merge(&self, other: &Obb) -> Obb {
        let aabb = padded_aabb(&self.world_aabb().merge(&other.world_aabb()));
        let qa = rotation_of(self.axes());
        let mut qb = rotation_of(other.axes()).into_inner();
        if qa.coords.dot(&qb.coords) < 0.0 {
            qb = -qb;
        }
        // Halfway between two unit quaternions with a non-negative dot: the normalised sum (the
        // slerp at t = 1/2). The sum has norm >= sqrt(2), so normalising is safe.
        let half = UnitQuaternion::new_normalize(qa.into_inner() + qb);
        let corners: Vec<Point3> = self.corners().into_iter().chain(other.corners()).collect();
        if corners
            .iter()
            .any(|p| p.coords.iter().any(|v| !v.is_finite()))
        {
            return aabb;
        }
        let c0 = |s: Real| self.center().coords / s * 0.5 + other.center().coords / s * 0.5;
        [half, qa, UnitQuaternion::new_normalize(qb)]
            .into_iter()
            .filter_map(|q| fit(&corners, c0, &q.to_rotation_matrix().into_inner()))
            .chain(core::iter::once(aabb))
            .min_by(|x, y| {
                let key = |o: &Obb| (o.volume(), o.half_extents().sum());
                key(x)
                    .partial_cmp(&key(y))
                    .unwrap_or(core::cmp::Ordering::Equal)
            })
            .unwrap_or(aabb)
    }
}

/// The AABB as an OBB whose half-extents are padded by the rounding of its centre and
/// half-extents (`Obb::from_aabb` rounds them) and of the containment check, so that it holds
/// the AABB for `contains_point`. Unpadded only when padding would leave the finite range.
fn padded_aabb(b: &Aabb) -> Obb {
    let o = Obb::from_aabb(b);
    let pad = (o.center().coords.abs() + o.half_extents()) * gamma(4);
    Obb::new(o.center(), Matrix3::identity(), o.half_extents() + pad).unwrap_or(o)
}

/// The box with axes `r` holding every point of `corners`, padded by its rounding allowance;
/// `None` when it does not fit in the finite range. `c0(s)` is the base point divided by `s`.
fn fit(corners: &[Point3], c0: impl Fn(Real) -> Vector3, r: &Matrix3) -> Option<Obb> {
    let s = scale::scale_of(corners);
    let c0 = c0(s);
    let mut lo = Vector3::repeat(Real::INFINITY);
    let mut hi = Vector3::repeat(Real::NEG_INFINITY);
    for p in corners {
        let l = r.tr_mul(&(p.coords / s - c0));
        lo = lo.inf(&l);
        hi = hi.sup(&l);
    }
    // Scaled coordinates are below 2 in magnitude, so |p - c0| < 4 sqrt(3) < 8 and every local
    // coordinate is below 8. The corner projection (one subtraction, a 3-term dot), the centre
    // c0 + R mid (a 3-term dot, one addition) and the containment check of the result (the same
    // again) each err by at most gamma(4) * 8; gamma(32) * 8 covers their sum.
    let pad = gamma(32) * 8.0;
    let mid = lo * 0.5 + hi * 0.5;
    let half = (hi * 0.5 - lo * 0.5).add_scalar(pad);
    let center = Point3::from((c0 + r * mid) * s);
    Obb::new(center, *r, half * s).ok()
}

/// The rotation whose matrix is `axes`, after flipping the third axis of a mirrored frame.
fn rotation_of(axes: &Matrix3) -> UnitQuaternion {
    let mut m = *axes;
    if m.determinant() < 0.0 {
        m.set_column(2, &-m.column(2));
    }
    let q = UnitQuaternion::from_rotation_matrix(&nalgebra::Rotation3::from_matrix_unchecked(m));
    UnitQuaternion::new_normalize(q.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_contains_both() {
        let a = Obb::from_rotation(
            Point3::new(1.0, 2.0, 3.0),
            UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1),
            Vector3::new(1.0, 0.5, 0.25),
        )
        .unwrap();
        let b = Obb::from_rotation(
            Point3::new(-2.0, 0.0, 1.0),
            UnitQuaternion::from_euler_angles(-1.0, 2.0, 0.5),
            Vector3::new(0.1, 2.0, 0.0),
        )
        .unwrap();
        let m = a.merge(&b);
        for p in a.corners().iter().chain(b.corners().iter()) {
            assert!(m.contains_point(p), "{p:?} not in {m:?}");
        }
        let same = a.merge(&a);
        assert!((same.half_extents() - a.half_extents()).amax() < 1e-4);
    }

    #[test]
    fn mirrored_axes() {
        let axes = Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0);
        let a = Obb::new(Point3::origin(), axes, Vector3::new(1.0, 2.0, 3.0)).unwrap();
        let m = a.merge(&a);
        for p in a.corners() {
            assert!(m.contains_point(&p));
        }
    }
}
