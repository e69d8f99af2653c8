//! Oriented box.

use crate::error::{check_finite_slice, check_size_slice, ShapeError};
use crate::math::{Isometry3, Matrix3, Point3, Quaternion, Real, UnitQuaternion, Vector3};
use crate::shape::Aabb;
use crate::tolerance::{AXES_TOLERANCE, QUATERNION_TOLERANCE};

/// An oriented box: a centre, three axes and three half-extents. As a set it is
/// `{ c + sum_i s_i h_i a_i : |s_i| <= 1 }`, the parallelepiped spanned by the axes exactly as
/// stored; touching counts as intersecting.
///
/// Invariants: every number finite; half-extents `>= 0` (zero extents give flat, needle and point
/// boxes, all legal); the axes orthonormal within [`AXES_TOLERANCE`] (either handedness). Each box
/// stores an upper bound on its axes' measured defect `max |a_i . a_j - delta_ij|`
/// ([`Obb::axes_error`]); the certified overlap tests use it in their error bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb {
    center: Point3,
    axes: Matrix3,
    half_extents: Vector3,
    axes_error: Real,
}

impl Obb {
    /// A box from its centre, its axes (the *columns* of `axes` are the local x, y, z axes in world
    /// space) and its half-extents. Errors name the field: NaN/infinite numbers, negative
    /// half-extents, axes not unit or not orthogonal within [`AXES_TOLERANCE`].
    pub fn new(center: Point3, axes: Matrix3, half_extents: Vector3) -> Result<Self, ShapeError> {
        check_finite_slice("Obb", "center", center.coords.as_slice())?;
        for i in 0..3 {
            let col = axes.column(i);
            for k in 0..3 {
                crate::error::check_finite("Obb", "axes", Some(i), col[k])?;
            }
        }
        check_size_slice("Obb", "half_extents", half_extents.as_slice())?;
        for i in 0..3 {
            let n = axes.column(i).norm_squared();
            if (n - 1.0).abs() > AXES_TOLERANCE {
                return Err(ShapeError::NonUnitAxis {
                    shape: "Obb",
                    field: "axes",
                    index: i,
                    norm_sq: n as f64,
                    tolerance: AXES_TOLERANCE as f64,
                });
            }
        }
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            let d = axes.column(i).dot(&axes.column(j));
            if d.abs() > AXES_TOLERANCE {
                return Err(ShapeError::NonOrthogonalAxes {
                    shape: "Obb",
                    field: "axes",
                    i,
                    j,
                    dot: d as f64,
                    tolerance: AXES_TOLERANCE as f64,
                });
            }
        }
        check_reach(&center, &axes, &half_extents)?;
        Ok(Self {
            center,
            axes,
            half_extents,
            axes_error: axes_defect_bound(&axes),
        })
    }

    /// A box from values the caller guarantees valid (debug-asserted). Still measures the axes'
    /// defect, which the certified tests need.
    #[inline]
    pub fn new_unchecked(center: Point3, axes: Matrix3, half_extents: Vector3) -> Self {
        debug_assert!(
            Self::new(center, axes, half_extents).is_ok(),
            "invalid Obb: {:?}",
            Self::new(center, axes, half_extents)
        );
        Self {
            center,
            axes,
            half_extents,
            axes_error: axes_defect_bound(&axes),
        }
    }

    /// A box from a centre, a rotation and half-extents.
    ///
    /// A typed rotation is trusted to be a rotation: a `UnitQuaternion` that has drifted off
    /// unit length (one multiplied by a small rotation every frame does) is renormalised first
    /// (when its squared norm is off 1 by more than `16 u`; a unit one keeps its bits), so only
    /// a zero or non-finite quaternion is an error.
    /// [`AXES_TOLERANCE`] and [`QUATERNION_TOLERANCE`] apply to raw axes ([`Obb::new`]) and raw
    /// quaternions ([`Obb::from_quaternion`]), as read from files.
    pub fn from_rotation(
        center: Point3,
        rotation: UnitQuaternion,
        half_extents: Vector3,
    ) -> Result<Self, ShapeError> {
        let rotation = renormalized(&rotation)?;
        Self::new(
            center,
            rotation.to_rotation_matrix().into_inner(),
            half_extents,
        )
    }

    /// A box from a centre, a quaternion as read from a file (`[w, x, y, z]` order in nalgebra's
    /// `Quaternion::new(w, x, y, z)`), checked to be unit within [`QUATERNION_TOLERANCE`] and then
    /// normalised, and half-extents.
    pub fn from_quaternion(
        center: Point3,
        q: Quaternion,
        half_extents: Vector3,
    ) -> Result<Self, ShapeError> {
        // Components reported in the file order [w, x, y, z] (nalgebra stores [x, y, z, w]).
        check_finite_slice("Obb", "rotation", &[q.w, q.i, q.j, q.k])?;
        let norm = q.norm();
        if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
            return Err(ShapeError::NonUnitQuaternion {
                shape: "Obb",
                field: "rotation",
                norm: norm as f64,
                tolerance: QUATERNION_TOLERANCE as f64,
            });
        }
        Self::from_rotation(center, UnitQuaternion::new_normalize(q), half_extents)
    }

    /// The box with local half-extents `half_extents` placed by `pose` (its centre at the pose's
    /// translation). The pose's rotation is renormalised as in [`Obb::from_rotation`].
    pub fn from_isometry(pose: &Isometry3, half_extents: Vector3) -> Result<Self, ShapeError> {
        check_finite_slice(
            "Obb",
            "pose.translation",
            pose.translation.vector.as_slice(),
        )?;
        Self::from_rotation(pose.translation.vector.into(), pose.rotation, half_extents)
    }

    /// The box that a local AABB becomes under `pose` after a *local* non-uniform `scale`
    /// (applied in the box's own frame first, so the result stays a box; negative factors mirror
    /// and are taken by absolute value). This is the usual "scaled, rotated, translated" mesh
    /// bound.
    pub fn from_transformed_aabb(
        local: &Aabb,
        pose: &Isometry3,
        scale: &Vector3,
    ) -> Result<Self, ShapeError> {
        check_finite_slice("Obb", "scale", scale.as_slice())?;
        let c_local = local.center().coords.component_mul(scale);
        let half = local.half_extents().component_mul(&scale.abs());
        let center = pose * Point3::from(c_local);
        Self::from_rotation(center, pose.rotation, half)
    }

    /// The AABB `aabb` seen as an OBB (identity axes, exact).
    #[inline]
    pub fn from_aabb(aabb: &Aabb) -> Self {
        Self {
            center: aabb.center(),
            axes: Matrix3::identity(),
            half_extents: aabb.half_extents(),
            axes_error: 0.0,
        }
    }

    /// The centre.
    #[inline]
    pub fn center(&self) -> Point3 {
        self.center
    }

    /// The axes as the columns of a matrix (local x, y, z in world space).
    #[inline]
    pub fn axes(&self) -> &Matrix3 {
        &self.axes
    }

    /// Axis `i` (0 = local x) in world space.
    #[inline]
    pub fn axis(&self, i: usize) -> Vector3 {
        self.axes.column(i).into_owned()
    }

    /// The half-extents (each `>= 0`).
    #[inline]
    pub fn half_extents(&self) -> Vector3 {
        self.half_extents
    }

    /// An upper bound on `max_ij |a_i . a_j - delta_ij|` for the stored axes (0 for axes that are
    /// exactly orthonormal, such as an AABB's).
    #[inline]
    pub fn axes_error(&self) -> Real {
        self.axes_error
    }

    /// Volume.
    #[inline]
    pub fn volume(&self) -> Real {
        8.0 * self.half_extents.x * self.half_extents.y * self.half_extents.z
    }

    /// The world AABB, `c ± |R| e` (Arvo 1990): no corner loop; conservative by a few ulps.
    #[inline]
    pub fn world_aabb(&self) -> Aabb {
        Aabb::enclosing_rotated(&self.center, &self.axes, &self.half_extents)
    }

    /// The eight corners; bit `k` of the index selects `+h_k` (1) or `-h_k` (0) along axis `k`.
    pub fn corners(&self) -> [Point3; 8] {
        let a = [
            self.axis(0) * self.half_extents.x,
            self.axis(1) * self.half_extents.y,
            self.axis(2) * self.half_extents.z,
        ];
        core::array::from_fn(|i| {
            let mut p = self.center;
            for (k, ak) in a.iter().enumerate() {
                if i & (1 << k) != 0 {
                    p += ak;
                } else {
                    p -= ak;
                }
            }
            p
        })
    }

    /// Coordinates of `p` in the box frame (`A^T (p - c)`), computed on rescaled numbers so that a
    /// far point gives infinite coordinates rather than NaN (`0 * inf`).
    #[inline]
    pub fn to_local(&self, p: &Point3) -> Vector3 {
        let s = crate::scale::scale_of(&[*p, self.center]);
        self.axes.tr_mul(&(p.coords / s - self.center.coords / s)) * s
    }

    /// The point of the box closest to `p`: `p` itself when inside, else a clamp in the box frame.
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        let l = self.to_local(p);
        let h = self.half_extents;
        if (0..3).all(|k| l[k].abs() <= h[k]) {
            return *p; // inside: exactly p, consistent with contains_point
        }
        let c = Vector3::new(
            l.x.clamp(-h.x, h.x),
            l.y.clamp(-h.y, h.y),
            l.z.clamp(-h.z, h.z),
        );
        self.center + self.axes * c
    }

    /// Euclidean distance from `p` to the box (0 inside).
    pub fn distance_to_point(&self, p: &Point3) -> Real {
        let l = self.to_local(p);
        let h = self.half_extents;
        let d = Vector3::new(
            (l.x.abs() - h.x).max(0.0),
            (l.y.abs() - h.y).max(0.0),
            (l.z.abs() - h.z).max(0.0),
        );
        d.norm()
    }

    /// Whether `p` lies in the closed box (in the box frame, |l_i| <= h_i).
    pub fn contains_point(&self, p: &Point3) -> bool {
        let l = self.to_local(p);
        (0..3).all(|k| l[k].abs() <= self.half_extents[k])
    }

    /// The box moved by `offset`.
    pub fn translate(&self, offset: &Vector3) -> Result<Obb, ShapeError> {
        check_finite_slice("Obb", "offset", offset.as_slice())?;
        let center = self.center + offset;
        check_finite_slice("Obb", "center", center.coords.as_slice())?;
        check_reach(&center, &self.axes, &self.half_extents)?;
        Ok(Obb { center, ..*self })
    }

    /// The box grown by `margin` on every side (a negative margin shrinks it, clamped at zero
    /// extent).
    pub fn inflate(&self, margin: Real) -> Result<Obb, ShapeError> {
        crate::error::check_finite("Obb", "margin", None, margin)?;
        let h = (self.half_extents + Vector3::repeat(margin)).sup(&Vector3::zeros());
        check_finite_slice("Obb", "half_extents", h.as_slice())?;
        check_reach(&self.center, &self.axes, &h)?;
        Ok(Obb {
            half_extents: h,
            ..*self
        })
    }

    /// The box rotated by `rotation` (renormalised as in [`Obb::from_rotation`]) about its own
    /// centre.
    pub fn rotate_about_center(&self, rotation: &UnitQuaternion) -> Result<Obb, ShapeError> {
        let rotation = renormalized(rotation)?;
        let axes = rotation.to_rotation_matrix().into_inner() * self.axes;
        Obb::new(self.center, axes, self.half_extents)
    }

    /// The box rotated by `rotation` (renormalised as in [`Obb::from_rotation`]) about the world
    /// point `pivot`.
    pub fn rotate_about_point(
        &self,
        rotation: &UnitQuaternion,
        pivot: &Point3,
    ) -> Result<Obb, ShapeError> {
        check_finite_slice("Obb", "pivot", pivot.coords.as_slice())?;
        let rotation = &renormalized(rotation)?;
        let rotated = self.rotate_about_center(rotation)?;
        let center = pivot + rotation * (self.center - pivot);
        check_finite_slice("Obb", "center", center.coords.as_slice())?;
        Ok(Obb { center, ..rotated })
    }
}

/// A typed unit quaternion as a rotation: itself when its squared norm is within rounding of 1
/// (`|q|^2 - 1| <= 16 u`, so unit quaternions keep their bits), otherwise renormalised, scaled
/// by its largest component first so that the norm neither overflows nor underflows. Errors:
/// a non-finite component, or the zero quaternion (which is no rotation).
fn renormalized(rotation: &UnitQuaternion) -> Result<UnitQuaternion, ShapeError> {
    let q = rotation.quaternion();
    // Components reported in the file order [w, x, y, z].
    check_finite_slice("Obb", "rotation", &[q.w, q.i, q.j, q.k])?;
    let n2 = q.norm_squared();
    if (n2 - 1.0).abs() <= 16.0 * crate::tolerance::UNIT_ROUNDOFF {
        return Ok(*rotation);
    }
    let m = q.coords.amax();
    if m == 0.0 {
        return Err(ShapeError::NonUnitQuaternion {
            shape: "Obb",
            field: "rotation",
            norm: 0.0,
            tolerance: QUATERNION_TOLERANCE as f64,
        });
    }
    Ok(UnitQuaternion::new_normalize(Quaternion::from(
        q.coords / m,
    )))
}

/// An upper bound on `max_ij |a_i . a_j - delta_ij|` for the columns of `axes`, computed in f64
/// (exact products for f32 inputs) and rounded up into `Real`.
fn axes_defect_bound(axes: &Matrix3) -> Real {
    let col = |i: usize| -> [f64; 3] {
        let c = axes.column(i);
        [c[0] as f64, c[1] as f64, c[2] as f64]
    };
    let cols = [col(0), col(1), col(2)];
    let mut worst = 0.0f64;
    for i in 0..3 {
        for j in i..3 {
            let d = cols[i][0] * cols[j][0] + cols[i][1] * cols[j][1] + cols[i][2] * cols[j][2];
            let target = if i == j { 1.0 } else { 0.0 };
            worst = worst.max((d - target).abs());
        }
    }
    if worst == 0.0 && is_signed_permutation(axes) {
        return 0.0;
    }
    // The f64 dot of unit-ish vectors is off by at most gamma_3(f64) * 1.0002 < 4 eps(f64); the
    // subtraction adds one more rounding. Pad by 8 eps and round up into Real.
    let bound = worst + 8.0 * f64::EPSILON;
    let r = bound as Real;
    if (r as f64) < bound {
        crate::scale::next_up(r)
    } else {
        r
    }
}

/// Axes made of 0 and ±1 only: exactly orthonormal, so the defect is exactly 0.
fn is_signed_permutation(axes: &Matrix3) -> bool {
    axes.iter().all(|v| *v == 0.0 || v.abs() == 1.0)
}

/// The box must fit in the finite range (so that its corners and world AABB are finite).
fn check_reach(center: &Point3, axes: &Matrix3, half_extents: &Vector3) -> Result<(), ShapeError> {
    let w = axes.abs() * half_extents;
    let reach = center.coords.abs() + w;
    if reach.iter().all(|v| v.is_finite()) && w.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(ShapeError::Degenerate {
            shape: "Obb",
            field: "half_extents",
            reason: "center ± half_extents overflows the finite range",
        })
    }
}
