//! Ray and segment casts against single shapes, one file per shape.
//!
//! Convention (every shape): casts are **solid-aware**. A ray whose origin lies inside a solid
//! shape (or on it: shapes are closed) hits at distance 0 with `point = origin` and a zero
//! `normal`, because there is no entry surface. Otherwise the hit is the first point of the shape
//! along the ray, with `distance <= max_distance`, and `normal` is the unit outward normal of
//! the surface there. Zero-volume shapes (flat boxes, triangles, planes) count as solids for
//! this rule. Hits farther than `Real::MAX` are not reported.
//!
//! A segment cast is a ray from `a` toward `b` limited to `|b - a|`; a degenerate segment
//! (`a == b`) is a point containment test.

mod aabb;
mod capsule;
mod obb;
mod plane;
mod sphere;
mod triangle;

use crate::math::{Point3, Real, Vector3};
use crate::scale;
use crate::shape::{Ray, Segment};

/// Where a ray or segment first meets a shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// Distance from the origin along the unit direction (0 when the origin is inside).
    pub distance: Real,
    /// The hit point (the origin when it is inside).
    pub point: Point3,
    /// Unit outward normal at the hit, or the zero vector when the origin is inside.
    pub normal: Vector3,
}

impl RayHit {
    /// The hit of a ray starting inside a solid.
    #[inline]
    pub(crate) fn inside(origin: Point3) -> Self {
        Self {
            distance: 0.0,
            point: origin,
            normal: Vector3::zeros(),
        }
    }
}

/// The outward normal `n` of an entry point, made consistent with the ray direction `d`: an
/// entry normal never faces along the ray, so a component along `d` can only be rounding noise
/// (a tangent hit, or a radius tiny against the coordinates) and is removed; a zero radius or
/// nothing left gives `-d`.
pub(crate) fn entry_normal(n: Option<Vector3>, d: &Vector3, radius: Real) -> Vector3 {
    let Some(n) = n.filter(|_| radius > 0.0) else {
        return -d;
    };
    let along = n.dot(d);
    if along <= 0.0 {
        return n;
    }
    let m = n - d * along;
    let len = m.norm();
    if len > 0.0 {
        m / len
    } else {
        -d
    }
}

/// What a segment is for a cast: a ray (direction and length), or a point.
pub(crate) enum SegmentCast {
    /// `a != b`: the ray from `a` toward `b`, limited to `|b - a|`.
    Ray(Ray),
    /// `a == b`.
    Point(Point3),
}

/// The ray of a segment (normalised on rescaled numbers, so extreme segments do not overflow).
pub(crate) fn segment_cast(seg: &Segment) -> SegmentCast {
    let (a, b) = (seg.a(), seg.b());
    let len = scale::distance(&a, &b);
    match scale::unit_from_to(&a, &b) {
        Some(dir) if len > 0.0 => match Ray::new(a, dir, len) {
            Ok(r) => SegmentCast::Ray(r),
            Err(_) => SegmentCast::Point(a),
        },
        _ => SegmentCast::Point(a),
    }
}

/// Implements `cast_segment` from `cast_ray` and `contains_point`.
macro_rules! impl_cast_segment {
    ($t:ty) => {
        impl $t {
            /// Casts the segment `a -> b`: the ray from `a` toward `b` limited to `|b - a|`;
            /// a degenerate segment hits (at distance 0) exactly when the shape contains `a`.
            #[must_use]
            pub fn cast_segment(&self, seg: &crate::shape::Segment) -> Option<RayHit> {
                match crate::cast::segment_cast(seg) {
                    crate::cast::SegmentCast::Ray(r) => self.cast_ray(&r),
                    crate::cast::SegmentCast::Point(p) => {
                        self.contains_point(&p).then(|| RayHit::inside(p))
                    }
                }
            }
        }
    };
}
pub(crate) use impl_cast_segment;
