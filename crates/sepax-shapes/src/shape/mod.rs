//! The primitives. Each is a small `Copy` value whose invariants are stated on the type and
//! enforced by checked constructors (`new_unchecked` variants are debug-asserted).

mod aabb;
mod aabb2;
mod capsule;
pub(crate) mod frustum;
mod obb;
mod obb2;
mod obb_merge;
mod placed;
mod plane;
mod ray;
pub(crate) mod segment;
mod sphere;
pub(crate) mod triangle;

pub use aabb::Aabb;
pub use aabb2::Aabb2;
pub use capsule::Capsule;
pub use frustum::Frustum;
pub use obb::Obb;
pub use obb2::Obb2;
pub use plane::Plane;
pub use ray::Ray;
pub use segment::Segment;
pub use sphere::Sphere;
pub use triangle::Triangle;

/// The kinds of solid shape that pair queries dispatch over. The discriminants are the kinds'
/// positions in [`ShapeKind::ALL`], usable as array indices (per-kind tallies, say).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// [`Aabb`].
    Aabb = 0,
    /// [`Obb`].
    Obb = 1,
    /// [`Sphere`].
    Sphere = 2,
    /// [`Capsule`].
    Capsule = 3,
    /// [`Triangle`].
    Triangle = 4,
}

impl ShapeKind {
    /// Every kind, in discriminant order.
    pub const ALL: [ShapeKind; 5] = [
        ShapeKind::Aabb,
        ShapeKind::Obb,
        ShapeKind::Sphere,
        ShapeKind::Capsule,
        ShapeKind::Triangle,
    ];

    /// How many kinds there are (the length of [`ShapeKind::ALL`]).
    pub const COUNT: usize = 5;

    /// The kind's name as the scene format spells it.
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Aabb => "aabb",
            ShapeKind::Obb => "obb",
            ShapeKind::Sphere => "sphere",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Triangle => "triangle",
        }
    }
}

/// Any solid shape, by value: what heterogeneous collections and the `*_shapes` pair queries
/// of `sepax-narrowphase` take.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// An axis-aligned box.
    Aabb(Aabb),
    /// An oriented box.
    Obb(Obb),
    /// A sphere.
    Sphere(Sphere),
    /// A capsule.
    Capsule(Capsule),
    /// A triangle.
    Triangle(Triangle),
}

impl Shape {
    /// The shape's kind.
    #[inline]
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Aabb(_) => ShapeKind::Aabb,
            Shape::Obb(_) => ShapeKind::Obb,
            Shape::Sphere(_) => ShapeKind::Sphere,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Triangle(_) => ShapeKind::Triangle,
        }
    }
}

/// Calls the same method on whichever shape `self` holds.
macro_rules! each {
    ($self:ident, $s:ident => $e:expr) => {
        match $self {
            Shape::Aabb($s) => $e,
            Shape::Obb($s) => $e,
            Shape::Sphere($s) => $e,
            Shape::Capsule($s) => $e,
            Shape::Triangle($s) => $e,
        }
    };
}

impl Shape {
    /// The shape's world AABB.
    pub fn world_aabb(&self) -> Aabb {
        each!(self, s => s.world_aabb())
    }

    /// Whether the closed shape contains `p` (triangles: within their documented tolerance).
    pub fn contains_point(&self, p: &crate::math::Point3) -> bool {
        each!(self, s => s.contains_point(p))
    }

    /// The point of the shape closest to `p`.
    pub fn closest_point(&self, p: &crate::math::Point3) -> crate::math::Point3 {
        each!(self, s => s.closest_point(p))
    }

    /// Euclidean distance from `p` to the shape (0 inside).
    pub fn distance_to_point(&self, p: &crate::math::Point3) -> crate::math::Real {
        each!(self, s => s.distance_to_point(p))
    }

    /// The first hit of `ray` (solid-aware: see [`crate::cast`]).
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray) -> Option<crate::RayHit> {
        each!(self, s => s.cast_ray(ray))
    }

    /// [`Shape::cast_ray`]'s hit when its distance is at most `limit`, else `None` (a NaN
    /// `limit` is no limit). Boxes skip the hit point and normal of a hit beyond `limit`
    /// ([`Obb::cast_ray_within`]); the other shapes filter their `cast_ray`.
    #[must_use]
    #[inline]
    pub fn cast_ray_within(&self, ray: &Ray, limit: crate::math::Real) -> Option<crate::RayHit> {
        match self {
            Shape::Obb(s) => s.cast_ray_within(ray, limit),
            _ => {
                let limit = limit.min(ray.max_distance());
                self.cast_ray(ray).filter(|h| h.distance <= limit)
            }
        }
    }

    /// The first hit of the segment `a -> b` (see [`crate::cast`]).
    #[must_use]
    pub fn cast_segment(&self, seg: &Segment) -> Option<crate::RayHit> {
        each!(self, s => s.cast_segment(seg))
    }
}

macro_rules! impl_from_shape {
    ($($t:ident),*) => {$(
        impl From<$t> for Shape {
            #[inline]
            fn from(s: $t) -> Self {
                Shape::$t(s)
            }
        }
    )*};
}
impl_from_shape!(Aabb, Obb, Sphere, Capsule, Triangle);
