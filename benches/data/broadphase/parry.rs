//! parry3d's view of the broad-phase scene (kept out of sepax-testkit, which holds no peer).

use sepax_testkit::scene::Scene;

/// Box `i` of a scene as parry3d's AABB.
pub trait ParryAabb {
    /// Box `i` as parry3d's AABB (the same `f32` numbers).
    fn parry_aabb(&self, i: usize) -> parry3d::bounding_volume::Aabb;
}

impl ParryAabb for Scene {
    fn parry_aabb(&self, i: usize) -> parry3d::bounding_volume::Aabb {
        use parry3d::math::Vector as PVec;
        let (c, h) = (self.center[i], self.half[i]);
        parry3d::bounding_volume::Aabb::new(
            PVec::new(c[0] - h[0], c[1] - h[1], c[2] - h[2]),
            PVec::new(c[0] + h[0], c[1] + h[1], c[2] + h[2]),
        )
    }
}
