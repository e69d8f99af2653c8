//! AABB–AABB: interval overlap on each axis. Comparisons only, so the answer is exact.

use sepax_shapes::Aabb;

/// Whether the closed boxes share a point (exact): [`Aabb::intersects`].
#[inline]
pub fn intersects(a: &Aabb, b: &Aabb) -> bool {
    a.intersects(b)
}
