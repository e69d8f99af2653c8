//! AABB–AABB: interval overlap on each axis. Comparisons only, so the answer is exact.

use sepax_shapes::Aabb;

/// Whether the closed boxes share a point (exact).
#[inline]
pub fn intersects(a: &Aabb, b: &Aabb) -> bool {
    let (amin, amax, bmin, bmax) = (a.min(), a.max(), b.min(), b.max());
    amin.x <= bmax.x
        && bmin.x <= amax.x
        && amin.y <= bmax.y
        && bmin.y <= amax.y
        && amin.z <= bmax.z
        && bmin.z <= amax.z
}
