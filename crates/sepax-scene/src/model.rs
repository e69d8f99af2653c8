//! The in-memory scene: validated shapes with their ids, and the optional pair filter.

use sepax_shapes::Shape;

/// One shape of a scene: its id (unique in the scene), the validated shape, and the optional
/// collision layer and mask of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneShape {
    /// The id as written in the file.
    pub id: String,
    /// The shape, built with the checked constructors.
    pub shape: Shape,
    /// Optional collision layer (bit set).
    pub layer: Option<u32>,
    /// Optional collision mask (bit set).
    pub mask: Option<u32>,
}

/// A scene: shapes in file order and, when the file lists `pairs`, the only pairs to test (as
/// indices into `shapes`, each pair in file order of its two ids as written).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// The shapes, in the order of the file.
    pub shapes: Vec<SceneShape>,
    /// The allowed pairs (indices into `shapes`), or `None` for all pairs.
    pub pairs: Option<Vec<(usize, usize)>>,
}
