//! View frustum.

use crate::error::{check_finite, check_finite_slice, ShapeError};
use crate::math::{Matrix4, Point3, Real, Vector3, Vector4};
use crate::scale;
use crate::shape::triangle::closest_on_triangle;
use crate::shape::{Aabb, Plane};

/// A view frustum: the convex solid bounded by six planes whose normals face *inward* (the
/// inside is each plane's front, `n . x >= d`), together with its eight corners.
///
/// Planes are ordered left, right, bottom, top, near, far ([`Frustum::LEFT`] ...). Corners are
/// indexed like clip-space signs: bit 0 selects right (1) or left (0), bit 1 top or bottom,
/// bit 2 far or near. The planes serve the classic culling test; the corners serve the exact
/// mode and closest points. Closed: points on the boundary are inside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frustum {
    planes: [Plane; 6],
    corners: [Point3; 8],
}

/// The faces as corner indices in cyclic order, in plane order.
pub(crate) const FACES: [[usize; 4]; 6] = [
    [0, 2, 6, 4],
    [1, 3, 7, 5],
    [0, 1, 5, 4],
    [2, 3, 7, 6],
    [0, 1, 3, 2],
    [4, 5, 7, 6],
];

/// The twelve edges as corner index pairs.
pub(crate) const EDGES: [[usize; 2]; 12] = [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
    [0, 2],
    [1, 3],
    [4, 6],
    [5, 7],
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
];

fn degenerate(field: &'static str, reason: &'static str) -> ShapeError {
    ShapeError::Degenerate {
        shape: "Frustum",
        field,
        reason,
    }
}

impl Frustum {
    /// Index of the left plane.
    pub const LEFT: usize = 0;
    /// Index of the right plane.
    pub const RIGHT: usize = 1;
    /// Index of the bottom plane.
    pub const BOTTOM: usize = 2;
    /// Index of the top plane.
    pub const TOP: usize = 3;
    /// Index of the near plane.
    pub const NEAR: usize = 4;
    /// Index of the far plane.
    pub const FAR: usize = 5;

    /// The frustum of a view-projection matrix `M` (projection times view) in the **OpenGL
    /// convention**: a world point `x` is visible when its clip coordinates `(X, Y, Z, W) = M (x, 1)`
    /// satisfy `-W <= X, Y, Z <= W` (depth in `[-1, 1]`, column vectors). Direct3D/Vulkan
    /// `0 <= Z <= W` matrices must be converted first.
    ///
    /// Planes by Gribb & Hartmann 2001 ("Fast extraction of viewing frustum planes from the
    /// world-view-projection matrix"): left = row 3 + row 0, right = row 3 - row 0, and so on.
    /// Corners by un-projecting the cube `[-1, 1]^3` through `M^-1`. Errors on non-finite
    /// entries, a singular matrix, corners at or behind the eye (`w <= 0`) or not finite, and
    /// planes with a zero normal.
    pub fn from_view_projection(m: &Matrix4) -> Result<Self, ShapeError> {
        check_finite_slice("Frustum", "view_projection", m.as_slice())?;
        let inv = m
            .try_inverse()
            .filter(|i| i.iter().all(|v| v.is_finite()))
            .ok_or_else(|| degenerate("view_projection", "the matrix is singular"))?;
        let row = |i: usize| m.row(i).transpose();
        let coeffs = [
            row(3) + row(0),
            row(3) - row(0),
            row(3) + row(1),
            row(3) - row(1),
            row(3) + row(2),
            row(3) - row(2),
        ];
        let plane = |c: &Vector4| {
            Plane::new(Vector3::new(c[0], c[1], c[2]), -c[3])
                .map_err(|_| degenerate("view_projection", "a clip plane is degenerate"))
        };
        let planes = [
            plane(&coeffs[0])?,
            plane(&coeffs[1])?,
            plane(&coeffs[2])?,
            plane(&coeffs[3])?,
            plane(&coeffs[4])?,
            plane(&coeffs[5])?,
        ];
        // The inverse only validates (every corner in front of the eye, w > 0); the corners
        // themselves are the intersections of three planes, which agree with the planes to a few
        // roundoffs, whereas un-projecting through an ill-conditioned inverse would not.
        for i in 0..8 {
            let sign = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
            let h = inv * Vector4::new(sign(1), sign(2), sign(4), 1.0);
            if h.w.is_nan() || h.w <= 0.0 {
                return Err(degenerate(
                    "view_projection",
                    "a corner lies at or behind the eye",
                ));
            }
        }
        let mut corners = [Point3::origin(); 8];
        for (i, corner) in corners.iter_mut().enumerate() {
            let pick = |bit: usize, lo: usize, hi: usize| if i & bit != 0 { hi } else { lo };
            *corner = intersect3(
                &planes[pick(1, Self::LEFT, Self::RIGHT)],
                &planes[pick(2, Self::BOTTOM, Self::TOP)],
                &planes[pick(4, Self::NEAR, Self::FAR)],
            )
            .ok_or_else(|| degenerate("view_projection", "a corner is not finite"))?;
        }
        Ok(Self { planes, corners })
    }

    /// A perspective frustum from a camera: `eye`, view direction `forward`, `up` (any non-zero
    /// vector not parallel to `forward`; it is re-orthogonalised), the full vertical field of
    /// view in radians, in `(0, pi)`, the width/height `aspect > 0`, and the clip distances
    /// `0 < near < far` measured along `forward`. Built directly in world space (no matrix
    /// inverse), so it is as accurate as its inputs.
    pub fn from_camera(
        eye: Point3,
        forward: Vector3,
        up: Vector3,
        vertical_fov_radians: Real,
        aspect: Real,
        near: Real,
        far: Real,
    ) -> Result<Self, ShapeError> {
        check_finite_slice("Frustum", "eye", eye.coords.as_slice())?;
        check_finite_slice("Frustum", "forward", forward.as_slice())?;
        check_finite_slice("Frustum", "up", up.as_slice())?;
        for (field, v) in [
            ("vertical_fov_radians", vertical_fov_radians),
            ("aspect", aspect),
        ] {
            check_finite("Frustum", field, None, v)?;
        }
        check_finite("Frustum", "near", None, near)?;
        check_finite("Frustum", "far", None, far)?;
        let pi = core::f64::consts::PI as Real;
        if !(vertical_fov_radians > 0.0 && vertical_fov_radians < pi) {
            return Err(degenerate("vertical_fov_radians", "must lie in (0, pi)"));
        }
        if aspect <= 0.0 {
            return Err(degenerate("aspect", "must be > 0"));
        }
        if near <= 0.0 {
            return Err(degenerate("near", "must be > 0"));
        }
        if far <= near {
            return Err(degenerate("far", "must be > near"));
        }
        if forward.amax() == 0.0 {
            return Err(degenerate("forward", "zero length"));
        }
        if up.amax() == 0.0 {
            return Err(degenerate("up", "zero length"));
        }
        let f = (forward / scale::pow2_scale(forward.amax())).normalize();
        let u0 = (up / scale::pow2_scale(up.amax())).normalize();
        let r = f.cross(&u0);
        // |f x u| = sin(angle); below the axes tolerance the basis would be noise.
        if r.norm() <= crate::tolerance::AXES_TOLERANCE {
            return Err(degenerate("up", "parallel to forward"));
        }
        let r = r.normalize();
        let u = r.cross(&f);
        let th = (vertical_fov_radians * 0.5).tan();
        let tw = th * aspect;
        let mut corners = [Point3::origin(); 8];
        for (i, corner) in corners.iter_mut().enumerate() {
            let dist = if i & 4 != 0 { far } else { near };
            let sx = if i & 1 != 0 { 1.0 } else { -1.0 };
            let sy = if i & 2 != 0 { 1.0 } else { -1.0 };
            *corner = eye + (f + r * (sx * tw) + u * (sy * th)) * dist;
            if corner.coords.iter().any(|v| !v.is_finite()) {
                return Err(degenerate(
                    "far",
                    "the far corners overflow the finite range",
                ));
            }
        }
        let side = |n: Vector3| Plane::from_point_normal(eye, n);
        let planes = [
            side(r + f * tw)?,
            side(-r + f * tw)?,
            side(u + f * th)?,
            side(-u + f * th)?,
            Plane::from_point_normal(eye + f * near, f)?,
            Plane::from_point_normal(eye + f * far, -f)?,
        ];
        Ok(Self { planes, corners })
    }

    /// The six planes (inward normals), in the order left, right, bottom, top, near, far.
    #[inline]
    pub fn planes(&self) -> &[Plane; 6] {
        &self.planes
    }

    /// The eight corners (bit 0: right, bit 1: top, bit 2: far).
    #[inline]
    pub fn corners(&self) -> &[Point3; 8] {
        &self.corners
    }

    /// Whether `p` is inside or on the frustum: in front of or on every plane (evaluated in
    /// floating point, no tolerance).
    pub fn contains_point(&self, p: &Point3) -> bool {
        self.planes.iter().all(|pl| plane_side(pl, p) >= 0.0)
    }

    /// The point of the frustum closest to `p`: `p` itself inside, otherwise the nearest point
    /// of the boundary (its six faces, each split into two triangles).
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        if self.contains_point(p) {
            return *p;
        }
        let s = scale::pow2_scale(scale::max_abs(&self.corners).max(p.coords.amax()));
        let c = self.corners.map(|q| scale::down(&q, s));
        let ps = scale::down(p, s);
        let mut best = c[0];
        let mut best_d = Real::INFINITY;
        for f in FACES {
            for t in [[f[0], f[1], f[2]], [f[0], f[2], f[3]]] {
                let q = closest_on_triangle(&c[t[0]], &c[t[1]], &c[t[2]], &ps);
                let d = (q - ps).norm_squared();
                if d < best_d {
                    best_d = d;
                    best = q;
                }
            }
        }
        Point3::from(best.coords * s)
    }

    /// Euclidean distance from `p` to the frustum (0 inside).
    pub fn distance_to_point(&self, p: &Point3) -> Real {
        scale::distance(p, &self.closest_point(p))
    }

    /// The world AABB of the eight corners (exact).
    pub fn world_aabb(&self) -> Aabb {
        let (mut lo, mut hi) = (self.corners[0], self.corners[0]);
        for c in &self.corners[1..] {
            lo = lo.inf(c);
            hi = hi.sup(c);
        }
        Aabb::new_unchecked(lo, hi)
    }
}

/// The point on three planes: `(d1 n2 x n3 + d2 n3 x n1 + d3 n1 x n2) / (n1 . n2 x n3)`
/// (Goldman, *Graphics Gems* I, "Intersection of three planes"); `None` when not finite.
fn intersect3(p1: &Plane, p2: &Plane, p3: &Plane) -> Option<Point3> {
    let (n1, n2, n3) = (p1.normal(), p2.normal(), p3.normal());
    let det = n1.dot(&n2.cross(&n3));
    let p = (n2.cross(&n3) * p1.d() + n3.cross(&n1) * p2.d() + n1.cross(&n2) * p3.d()) / det;
    p.iter().all(|v| v.is_finite()).then(|| Point3::from(p))
}

/// `n . p - d` on rescaled numbers (no overflow of the products); only the sign is used.
pub(crate) fn plane_side(pl: &Plane, p: &Point3) -> Real {
    let s = scale::pow2_scale(p.coords.amax().max(pl.d().abs()));
    pl.normal().dot(&(p.coords / s)) - pl.d() / s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera() -> Frustum {
        Frustum::from_camera(
            Point3::origin(),
            -Vector3::z(),
            Vector3::y(),
            1.2,
            1.5,
            0.5,
            50.0,
        )
        .unwrap()
    }

    /// OpenGL `gluPerspective` times `gluLookAt` for the same camera.
    fn matrix() -> Matrix4 {
        let proj = Matrix4::new_perspective(1.5, 1.2, 0.5, 50.0);
        let view = Matrix4::look_at_rh(
            &Point3::origin(),
            &Point3::new(0.0, 0.0, -1.0),
            &Vector3::y(),
        );
        proj * view
    }

    #[test]
    fn camera_and_matrix_agree() {
        let a = camera();
        let b = Frustum::from_view_projection(&matrix()).unwrap();
        for (p, q) in a.corners().iter().zip(b.corners().iter()) {
            assert!(
                (p - q).norm() < 1e-3 * (1.0 + p.coords.norm()),
                "{p:?} vs {q:?}"
            );
        }
        for (p, q) in a.planes().iter().zip(b.planes().iter()) {
            assert!((p.normal() - q.normal()).norm() < 1e-4, "{p:?} vs {q:?}");
            assert!((p.d() - q.d()).abs() < 1e-3, "{p:?} vs {q:?}");
        }
        assert!(a.contains_point(&Point3::new(0.0, 0.0, -1.0)));
        assert!(!a.contains_point(&Point3::new(0.0, 0.0, 1.0)));
        assert!(!a.contains_point(&Point3::new(0.0, 0.0, -60.0)));
    }

    #[test]
    fn closest_point_outside() {
        let f = camera();
        let p = Point3::new(0.0, 0.0, 1.0);
        let q = f.closest_point(&p);
        assert!((q.z + 0.5).abs() < 1e-5, "{q:?}");
        assert!((f.distance_to_point(&p) - 1.5).abs() < 1e-5);
        assert_eq!(
            f.closest_point(&Point3::new(0.0, 0.0, -3.0)),
            Point3::new(0.0, 0.0, -3.0)
        );
    }

    #[test]
    fn rejects_bad_input() {
        let msg = |r: Result<Frustum, ShapeError>| r.unwrap_err().to_string();
        assert!(msg(Frustum::from_view_projection(&Matrix4::zeros())).contains("singular"));
        let o = Point3::origin();
        let (f, u) = (-Vector3::z(), Vector3::y());
        assert!(msg(Frustum::from_camera(o, f, f, 1.0, 1.0, 1.0, 2.0)).contains("parallel"));
        assert!(msg(Frustum::from_camera(o, f, u, 4.0, 1.0, 1.0, 2.0)).contains("vertical_fov"));
        assert!(msg(Frustum::from_camera(o, f, u, 1.0, 0.0, 1.0, 2.0)).contains("aspect"));
        assert!(msg(Frustum::from_camera(o, f, u, 1.0, 1.0, 0.0, 2.0)).contains("near"));
        assert!(msg(Frustum::from_camera(o, f, u, 1.0, 1.0, 2.0, 2.0)).contains("far"));
        assert!(msg(Frustum::from_camera(
            o,
            Vector3::zeros(),
            u,
            1.0,
            1.0,
            1.0,
            2.0
        ))
        .contains("forward"));
        assert!(msg(Frustum::from_camera(o, f, u, Real::NAN, 1.0, 1.0, 2.0)).contains("not finite"));
    }
}
