//! The in-memory scene: validated shapes with their ids, the optional pair filter, and the
//! optional frames (later placements of the shapes that move).

use sepax_shapes::math::Real;
use sepax_shapes::Shape;
use sepax_world::ColliderDesc;

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
    /// Version 2: the shape as a world collider (its local shape, pose, kind, filter, user
    /// value, flags). When present, `shape` is the local shape placed by the pose.
    pub collider: Option<ColliderDesc>,
}

/// Version 2: the world settings of a scene (`world` in the file).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SceneWorld {
    /// Test static–static pairs too.
    pub all_pairs: bool,
    /// The speculative contact margin (`>= 0`).
    pub margin: Real,
}

/// One entry of the file's `frames`: the new placements of the shapes that move in it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frame {
    /// `(index into Scene::shapes, the shape at its new placement)`, sorted by index, each index
    /// at most once. The new shape has the same type and size as the scene's shape.
    pub poses: Vec<(usize, Shape)>,
}

/// A scene: shapes in file order and, when the file lists `pairs`, the only pairs to test (as
/// indices into `shapes`, each pair in file order of its two ids as written), and the frames.
///
/// Frame 0 is the scene as written (`shapes`); frame `k >= 1` is frame `k - 1` with the
/// placements of `frames[k - 1]` applied, so a shape not named in a frame keeps its placement.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// The shapes, in the order of the file.
    pub shapes: Vec<SceneShape>,
    /// The allowed pairs (indices into `shapes`), or `None` for all pairs.
    pub pairs: Option<Vec<(usize, usize)>>,
    /// Frames 1, 2, ... (empty when the file has no `frames`).
    pub frames: Vec<Frame>,
    /// Version 2: explicit pair entries of the world (`allowed`): `(a, b, may collide)` as
    /// indices into `shapes`, in file order.
    pub allowed: Vec<(usize, usize, bool)>,
    /// Version 2: the world settings (`world`), when the file has them.
    pub world: Option<SceneWorld>,
}

impl Scene {
    /// Whether the scene uses a version-2 field (and so is written as version 2).
    pub fn is_version2(&self) -> bool {
        self.world.is_some()
            || !self.allowed.is_empty()
            || self.shapes.iter().any(|s| s.collider.is_some())
    }
}

impl Scene {
    /// How many frames the scene has: 1 (the scene as written) plus the entries of `frames`.
    pub fn frame_count(&self) -> usize {
        1 + self.frames.len()
    }

    /// Every shape's placement at `frame` (0 is the scene as written), in the order of `shapes`;
    /// `None` when `frame >= frame_count()`. Costs the shapes plus the poses of frames
    /// `1..=frame`; to walk every frame, [`Scene::placements`] is cheaper.
    pub fn placements_at(&self, frame: usize) -> Option<Vec<Shape>> {
        if frame >= self.frame_count() {
            return None;
        }
        let mut shapes: Vec<Shape> = self.shapes.iter().map(|s| s.shape).collect();
        for f in &self.frames[..frame] {
            apply(&mut shapes, f);
        }
        Some(shapes)
    }

    /// The placements of frames 0, 1, ..., applied cumulatively (each step costs the shapes,
    /// to copy them, plus that frame's poses).
    pub fn placements(&self) -> Placements<'_> {
        Placements {
            scene: self,
            next: 0,
            current: Vec::new(),
        }
    }
}

/// Applies one frame's poses (indices outside `shapes` are ignored: a reader never makes them).
fn apply(shapes: &mut [Shape], frame: &Frame) {
    for &(i, shape) in &frame.poses {
        if let Some(slot) = shapes.get_mut(i) {
            *slot = shape;
        }
    }
}

/// Iterator over every frame's placements, from [`Scene::placements`]: yields
/// `(frame, shapes)` for frames `0..frame_count()`.
#[derive(Debug, Clone)]
pub struct Placements<'a> {
    scene: &'a Scene,
    next: usize,
    current: Vec<Shape>,
}

impl Iterator for Placements<'_> {
    type Item = (usize, Vec<Shape>);

    fn next(&mut self) -> Option<Self::Item> {
        let frame = self.next;
        if frame == 0 {
            self.current = self.scene.shapes.iter().map(|s| s.shape).collect();
        } else {
            apply(&mut self.current, self.scene.frames.get(frame - 1)?);
        }
        self.next += 1;
        Some((frame, self.current.clone()))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.scene.frame_count().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Placements<'_> {}
