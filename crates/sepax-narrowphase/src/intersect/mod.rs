//! Boolean overlap tests. One file per shape pair; [`intersects_shapes`] dispatches a pair of
//! [`sepax_shapes::Shape`]s of any kinds to them.

mod aabb_aabb;
mod obb_obb;

// --- pair modules for spheres, capsules and triangles (one file per pair) ---
mod capsule_aabb;
mod capsule_capsule;
mod capsule_obb;
mod capsule_triangle;
mod sphere_aabb;
mod sphere_capsule;
mod sphere_obb;
mod sphere_sphere;
mod sphere_triangle;
mod triangle_aabb;
mod triangle_obb;
mod triangle_triangle;
// --- end of pair modules ---

mod dispatch;

pub use crate::sat::{Classification, SatAxis};
pub use dispatch::intersects_shapes;
pub use obb_obb::{classify, explain, BoxRef, BoxShape, BoxWitness};

use sepax_shapes::math::{Point3, Real};
use sepax_shapes::{Aabb, Capsule, Obb, Sphere, Triangle};

/// A shape type that has an overlap test against `B`. Implemented for every ordered pair of
/// [`Aabb`], [`Obb`], [`Sphere`], [`Capsule`] and [`Triangle`]; reversed pairs call the same
/// kernel with the arguments swapped, so the answer never depends on argument order.
pub trait Intersects<B: ?Sized> {
    /// Whether the two closed shapes share a point (touching counts).
    fn intersects(&self, other: &B) -> bool;
}

/// Whether two shapes intersect (closed sets: touching counts).
///
/// Box pairs (AABB, OBB) are certified: an intersecting pair is never reported as separated, and
/// a pair reported as intersecting that is not lies within the band of docs/tolerance.md. The
/// other pairs follow the same contract with the bands documented in their files.
#[inline(always)]
pub fn intersects<A: Intersects<B> + ?Sized, B: ?Sized>(a: &A, b: &B) -> bool {
    a.intersects(b)
}

/// Shapes whose coordinates reach `Real::MAX / 256` are first shrunk by the exact factor `1/256`
/// ([`Shrink`]): the kernels take differences of coordinates and sums of a dozen of them, which
/// must not overflow. The answer of an overlap test is invariant under scaling (exact for a
/// power of two; components that become subnormal are negligible against such magnitudes).
pub(crate) trait Shrink: Sized {
    /// The largest absolute coordinate, half-extent or radius.
    fn magnitude(&self) -> Real;
    /// Every length multiplied by `1/256`.
    fn shrunk(&self) -> Self;
}

/// Magnitudes from which [`Shrink`] applies.
const SHRINK_FROM: Real = Real::MAX / 256.0;
const SHRINK: Real = 1.0 / 256.0;

impl Shrink for Aabb {
    fn magnitude(&self) -> Real {
        self.min().coords.amax().max(self.max().coords.amax())
    }
    fn shrunk(&self) -> Self {
        Aabb::new_unchecked(
            Point3::from(self.min().coords * SHRINK),
            Point3::from(self.max().coords * SHRINK),
        )
    }
}
impl Shrink for Obb {
    fn magnitude(&self) -> Real {
        self.center().coords.amax().max(self.half_extents().amax())
    }
    fn shrunk(&self) -> Self {
        Obb::new_unchecked(
            Point3::from(self.center().coords * SHRINK),
            *self.axes(),
            self.half_extents() * SHRINK,
        )
    }
}
impl Shrink for Sphere {
    fn magnitude(&self) -> Real {
        self.center().coords.amax().max(self.radius())
    }
    fn shrunk(&self) -> Self {
        Sphere::new_unchecked(
            Point3::from(self.center().coords * SHRINK),
            self.radius() * SHRINK,
        )
    }
}
impl Shrink for Capsule {
    fn magnitude(&self) -> Real {
        self.p0()
            .coords
            .amax()
            .max(self.p1().coords.amax())
            .max(self.radius())
    }
    fn shrunk(&self) -> Self {
        Capsule::new_unchecked(
            Point3::from(self.p0().coords * SHRINK),
            Point3::from(self.p1().coords * SHRINK),
            self.radius() * SHRINK,
        )
    }
}
impl Shrink for Triangle {
    fn magnitude(&self) -> Real {
        let [a, b, c] = self.vertices();
        a.coords.amax().max(b.coords.amax()).max(c.coords.amax())
    }
    fn shrunk(&self) -> Self {
        let [a, b, c] = self.vertices().map(|p| Point3::from(p.coords * SHRINK));
        Triangle::new_unchecked(a, b, c)
    }
}

/// `f(a, b)`, on the shrunk shapes when either reaches [`SHRINK_FROM`].
#[inline(always)]
fn guarded<A: Shrink, B: Shrink>(a: &A, b: &B, f: impl Fn(&A, &B) -> bool) -> bool {
    if a.magnitude() >= SHRINK_FROM || b.magnitude() >= SHRINK_FROM {
        f(&a.shrunk(), &b.shrunk())
    } else {
        f(a, b)
    }
}

macro_rules! pair {
    ($A:ty, $B:ty, $f:path, guarded) => {
        impl Intersects<$B> for $A {
            #[inline(always)]
            fn intersects(&self, other: &$B) -> bool {
                guarded(self, other, $f)
            }
        }
    };
    ($A:ty, $B:ty, $f:path, guarded swapped) => {
        impl Intersects<$B> for $A {
            #[inline(always)]
            fn intersects(&self, other: &$B) -> bool {
                guarded(other, self, $f)
            }
        }
    };
    ($A:ty, $B:ty, $f:path) => {
        impl Intersects<$B> for $A {
            #[inline(always)]
            fn intersects(&self, other: &$B) -> bool {
                $f(self, other)
            }
        }
    };
    ($A:ty, $B:ty, $f:path, swapped) => {
        impl Intersects<$B> for $A {
            #[inline(always)]
            fn intersects(&self, other: &$B) -> bool {
                $f(other, self)
            }
        }
    };
}

// Boxes.
pair!(Aabb, Aabb, aabb_aabb::intersects);
pair!(Aabb, Obb, obb_obb::intersects);
pair!(Obb, Aabb, obb_obb::intersects);
pair!(Obb, Obb, obb_obb::intersects);
// Spheres.
pair!(Sphere, Sphere, sphere_sphere::intersects, guarded);
pair!(Sphere, Aabb, sphere_aabb::intersects, guarded);
pair!(Aabb, Sphere, sphere_aabb::intersects, guarded swapped);
pair!(Sphere, Obb, sphere_obb::intersects, guarded);
pair!(Obb, Sphere, sphere_obb::intersects, guarded swapped);
pair!(Sphere, Capsule, sphere_capsule::intersects, guarded);
pair!(Capsule, Sphere, sphere_capsule::intersects, guarded swapped);
pair!(Sphere, Triangle, sphere_triangle::intersects, guarded);
pair!(Triangle, Sphere, sphere_triangle::intersects, guarded swapped);
// Capsules.
pair!(Capsule, Capsule, capsule_capsule::intersects, guarded);
pair!(Capsule, Aabb, capsule_aabb::intersects, guarded);
pair!(Aabb, Capsule, capsule_aabb::intersects, guarded swapped);
pair!(Capsule, Obb, capsule_obb::intersects, guarded);
pair!(Obb, Capsule, capsule_obb::intersects, guarded swapped);
pair!(Capsule, Triangle, capsule_triangle::intersects, guarded);
pair!(Triangle, Capsule, capsule_triangle::intersects, guarded swapped);
// Triangles.
pair!(Triangle, Triangle, triangle_triangle::intersects, guarded);
pair!(Triangle, Aabb, triangle_aabb::intersects, guarded);
pair!(Aabb, Triangle, triangle_aabb::intersects, guarded swapped);
pair!(Triangle, Obb, triangle_obb::intersects, guarded);
pair!(Obb, Triangle, triangle_obb::intersects, guarded swapped);
