//! Culling: which side of a plane a shape lies on, and whether it is visible in a frustum.

mod frustum;
mod plane;

/// Where a shape lies relative to a plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlaneSide {
    /// Entirely in front (`n . x > d` for every point, by more than the rounding allowance).
    Front,
    /// Entirely behind.
    Back,
    /// Crossing or touching the plane (touching is straddling: the shapes are closed), or within
    /// the rounding allowance of it.
    Straddling,
}

/// Where a shape lies relative to a frustum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Visibility {
    /// Certainly disjoint from the frustum.
    Outside,
    /// Certainly entirely inside.
    Inside,
    /// Possibly overlapping the boundary (in [`CullMode::Exact`]: overlapping, up to rounding).
    Intersecting,
}

/// How hard frustum culling works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CullMode {
    /// The classic six-plane test: conservative, it may report `Intersecting` for a shape that is
    /// outside near a frustum edge or corner (outside two planes' intersection, yet not entirely
    /// behind any single plane).
    #[default]
    Planes,
    /// The plane test, then a full separating-axis test for boxes (frustum face normals, box
    /// axes, and cross products of box axes with frustum edges) and the exact centre-to-frustum
    /// distance for spheres: `Outside` whenever the shape is disjoint beyond rounding.
    Exact,
}
