//! Debug drawing: the [`DebugDraw`] trait an engine (or the SVG writer of `sepax-scene`)
//! implements, the [`DebugRecorder`] that stores what was drawn, and
//! [`crate::World::debug_draw`], the world drawing itself (colliders, fat boxes, tree nodes by
//! depth, contact points and normals, separating axes, ccd hits).

mod recorder;
mod world;

pub use recorder::{DebugRecorder, Primitive};

use sepax_shapes::math::{Point3, Real};
use sepax_shapes::{Aabb, Obb};

/// An sRGB colour with alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha (255: opaque).
    pub a: u8,
}

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b, a: 255 }
    }
    /// The colour with alpha `a`.
    pub const fn with_alpha(self, a: u8) -> Self {
        Self { a, ..self }
    }
}

/// The tree a node belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tree {
    /// The kinematic and dynamic colliders' tree.
    Moving,
    /// The static colliders' tree.
    Static,
}

/// What a primitive shows, so that a tool can filter or style by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layer {
    /// A collider's placed shape.
    Collider,
    /// A collider's box in the broad phase (fat in the moving tree).
    FatAabb,
    /// A tree node's box (leaves included) at `depth` (the root is 0).
    TreeNode {
        /// Which tree.
        tree: Tree,
        /// Depth below the root.
        depth: u32,
    },
    /// A contact point of the last update's manifolds (halfway between the two surfaces).
    ContactPoint,
    /// A contact normal (from the point along the manifold normal).
    ContactNormal,
    /// The separation witness of a close pair that does not touch.
    SeparatingAxis,
    /// A ccd sweep's first contact.
    Ccd,
    /// A label.
    Label,
}

/// How a primitive is drawn: its colour and what it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Paint {
    /// The colour.
    pub color: Color,
    /// What it shows.
    pub layer: Layer,
}

/// A sink of debug primitives. `aabb`, `obb`, `triangle` and `capsule` default to lines and
/// spheres; an implementation overrides them to draw them natively.
pub trait DebugDraw {
    /// A segment.
    fn line(&mut self, a: Point3, b: Point3, paint: Paint);
    /// A sphere.
    fn sphere(&mut self, centre: Point3, radius: Real, paint: Paint);
    /// A point (a marker of fixed screen size).
    fn point(&mut self, at: Point3, paint: Paint);
    /// A text label anchored at `at`.
    fn text(&mut self, at: Point3, text: &str, paint: Paint);

    /// An axis-aligned box (default: its 12 edges).
    fn aabb(&mut self, aabb: &Aabb, paint: Paint) {
        box_edges(self, &aabb.corners(), paint);
    }
    /// An oriented box (default: its 12 edges).
    fn obb(&mut self, obb: &Obb, paint: Paint) {
        box_edges(self, &obb.corners(), paint);
    }
    /// A triangle (default: its 3 edges).
    fn triangle(&mut self, vertices: [Point3; 3], paint: Paint) {
        for k in 0..3 {
            self.line(vertices[k], vertices[(k + 1) % 3], paint);
        }
    }
    /// A capsule: the points within `radius` of the segment `a`–`b` (default: the segment and
    /// the two end spheres).
    fn capsule(&mut self, a: Point3, b: Point3, radius: Real, paint: Paint) {
        self.line(a, b, paint);
        self.sphere(a, radius, paint);
        self.sphere(b, radius, paint);
    }
}

/// The 12 edges of a box from its corners in the order of `Aabb::corners` and `Obb::corners`
/// (bit `k` of the corner's index: the upper side along axis `k`).
fn box_edges<D: DebugDraw + ?Sized>(d: &mut D, c: &[Point3; 8], paint: Paint) {
    for i in 0..8usize {
        for k in 0..3 {
            let j = i | (1 << k);
            if j != i {
                d.line(c[i], c[j], paint);
            }
        }
    }
}

/// What [`crate::World::debug_draw`] draws, with its colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DebugDrawOptions {
    /// Every enabled collider's placed shape (default on).
    pub colliders: bool,
    /// Every enabled collider's broad-phase box (default off).
    pub fat_aabbs: bool,
    /// The tree nodes of both trees, down to `max_depth` (default off).
    pub tree_nodes: bool,
    /// The deepest tree level drawn (the root is 0; default 4).
    pub max_depth: u32,
    /// The last update's contact points and normals (default on).
    pub contacts: bool,
    /// Length of a drawn contact normal (default 0.25).
    pub normal_length: Real,
    /// Separating axes of the pairs that pass the filter and do not touch at the current
    /// placements, with a gap up to `axis_gap` (default off): for two boxes the SAT witness of
    /// `sepax_narrowphase::intersect::explain`, for other pairs the closest points.
    pub separating_axes: bool,
    /// The largest gap of a pair whose separating axis is drawn (default 0.5).
    pub axis_gap: Real,
    /// The last update's ccd hits (default on).
    pub ccd: bool,
    /// A label with each collider's slot index (default off).
    pub labels: bool,
    /// Colours.
    pub palette: Palette,
}

impl Default for DebugDrawOptions {
    fn default() -> Self {
        Self {
            colliders: true,
            fat_aabbs: false,
            tree_nodes: false,
            max_depth: 4,
            contacts: true,
            normal_length: 0.25,
            separating_axes: false,
            axis_gap: 0.5,
            ccd: true,
            labels: false,
            palette: Palette::default(),
        }
    }
}

/// The colours of [`DebugDrawOptions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// A moving collider that touches nothing.
    pub collider: Color,
    /// A static collider.
    pub static_collider: Color,
    /// A collider in a touching pair.
    pub touching: Color,
    /// A sensor.
    pub sensor: Color,
    /// Broad-phase boxes.
    pub fat_aabb: Color,
    /// Tree nodes (made lighter with depth).
    pub node: Color,
    /// Contact points and normals.
    pub contact: Color,
    /// Separating axes.
    pub axis: Color,
    /// Ccd hits.
    pub ccd: Color,
    /// Labels.
    pub label: Color,
}

impl Default for Palette {
    fn default() -> Self {
        Self {
            collider: Color::rgb(0x1f, 0x77, 0xb4),
            static_collider: Color::rgb(0x9a, 0x9a, 0x9a),
            touching: Color::rgb(0xd6, 0x27, 0x28),
            sensor: Color::rgb(0x2c, 0xa0, 0x2c),
            fat_aabb: Color::rgb(0xbc, 0xbd, 0x22),
            node: Color::rgb(0x94, 0x67, 0xbd),
            contact: Color::rgb(0x11, 0x11, 0x11),
            axis: Color::rgb(0xff, 0x7f, 0x0e),
            ccd: Color::rgb(0x7b, 0x2c, 0xbf),
            label: Color::rgb(0x50, 0x50, 0x50),
        }
    }
}
