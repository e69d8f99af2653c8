//! A [`DebugDraw`] that stores every primitive, for tests and tools.

use super::{DebugDraw, Layer, Paint};
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::{Aabb, Obb};

/// One recorded primitive.
#[derive(Debug, Clone, PartialEq)]
pub enum Primitive {
    /// [`DebugDraw::line`].
    Line {
        /// One end.
        a: Point3,
        /// The other end.
        b: Point3,
        /// Colour and layer.
        paint: Paint,
    },
    /// [`DebugDraw::aabb`].
    Aabb {
        /// The box.
        aabb: Aabb,
        /// Colour and layer.
        paint: Paint,
    },
    /// [`DebugDraw::obb`].
    Obb {
        /// The box.
        obb: Obb,
        /// Colour and layer.
        paint: Paint,
    },
    /// [`DebugDraw::sphere`].
    Sphere {
        /// The centre.
        centre: Point3,
        /// The radius.
        radius: Real,
        /// Colour and layer.
        paint: Paint,
    },
    /// [`DebugDraw::capsule`].
    Capsule {
        /// One end of the core segment.
        a: Point3,
        /// The other end.
        b: Point3,
        /// The radius.
        radius: Real,
        /// Colour and layer.
        paint: Paint,
    },
    /// [`DebugDraw::triangle`].
    Triangle {
        /// The corners.
        vertices: [Point3; 3],
        /// Colour and layer.
        paint: Paint,
    },
    /// [`DebugDraw::point`].
    Point {
        /// Where.
        at: Point3,
        /// Colour and layer.
        paint: Paint,
    },
    /// [`DebugDraw::text`].
    Text {
        /// The anchor.
        at: Point3,
        /// The text.
        text: String,
        /// Colour and layer.
        paint: Paint,
    },
}

impl Primitive {
    /// Its colour and layer.
    pub fn paint(&self) -> Paint {
        match self {
            Primitive::Line { paint, .. }
            | Primitive::Aabb { paint, .. }
            | Primitive::Obb { paint, .. }
            | Primitive::Sphere { paint, .. }
            | Primitive::Capsule { paint, .. }
            | Primitive::Triangle { paint, .. }
            | Primitive::Point { paint, .. }
            | Primitive::Text { paint, .. } => *paint,
        }
    }

    /// Its layer.
    pub fn layer(&self) -> Layer {
        self.paint().layer
    }

    /// The points that bound it: `(min, max)` corners of a box containing it (text: its anchor).
    pub fn bounds(&self) -> (Point3, Point3) {
        let grow = |a: Point3, b: Point3, r: Real| {
            let lo = a.coords.inf(&b.coords).add_scalar(-r);
            let hi = a.coords.sup(&b.coords).add_scalar(r);
            (Point3::from(lo), Point3::from(hi))
        };
        match self {
            Primitive::Line { a, b, .. } => grow(*a, *b, 0.0),
            Primitive::Aabb { aabb, .. } => (aabb.min(), aabb.max()),
            Primitive::Obb { obb, .. } => {
                let b = obb.world_aabb();
                (b.min(), b.max())
            }
            Primitive::Sphere { centre, radius, .. } => grow(*centre, *centre, *radius),
            Primitive::Capsule { a, b, radius, .. } => grow(*a, *b, *radius),
            Primitive::Triangle { vertices: v, .. } => {
                let lo = v[0].coords.inf(&v[1].coords).inf(&v[2].coords);
                let hi = v[0].coords.sup(&v[1].coords).sup(&v[2].coords);
                (Point3::from(lo), Point3::from(hi))
            }
            Primitive::Point { at, .. } | Primitive::Text { at, .. } => (*at, *at),
        }
    }
}

/// Stores every primitive drawn into it, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DebugRecorder {
    /// What was drawn, in order.
    pub primitives: Vec<Primitive>,
}

impl DebugRecorder {
    /// An empty recorder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything drawn.
    pub fn clear(&mut self) {
        self.primitives.clear();
    }

    /// How many primitives of `layer` were drawn.
    pub fn count(&self, layer: Layer) -> usize {
        self.primitives
            .iter()
            .filter(|p| p.layer() == layer)
            .count()
    }

    /// Replays every primitive into `other`.
    pub fn replay(&self, other: &mut dyn DebugDraw) {
        for p in &self.primitives {
            match p {
                Primitive::Line { a, b, paint } => other.line(*a, *b, *paint),
                Primitive::Aabb { aabb, paint } => other.aabb(aabb, *paint),
                Primitive::Obb { obb, paint } => other.obb(obb, *paint),
                Primitive::Sphere {
                    centre,
                    radius,
                    paint,
                } => other.sphere(*centre, *radius, *paint),
                Primitive::Capsule {
                    a,
                    b,
                    radius,
                    paint,
                } => other.capsule(*a, *b, *radius, *paint),
                Primitive::Triangle { vertices, paint } => other.triangle(*vertices, *paint),
                Primitive::Point { at, paint } => other.point(*at, *paint),
                Primitive::Text { at, text, paint } => other.text(*at, text, *paint),
            }
        }
    }
}

impl DebugDraw for DebugRecorder {
    fn line(&mut self, a: Point3, b: Point3, paint: Paint) {
        self.primitives.push(Primitive::Line { a, b, paint });
    }
    fn sphere(&mut self, centre: Point3, radius: Real, paint: Paint) {
        self.primitives.push(Primitive::Sphere {
            centre,
            radius,
            paint,
        });
    }
    fn point(&mut self, at: Point3, paint: Paint) {
        self.primitives.push(Primitive::Point { at, paint });
    }
    fn text(&mut self, at: Point3, text: &str, paint: Paint) {
        self.primitives.push(Primitive::Text {
            at,
            text: text.to_owned(),
            paint,
        });
    }
    fn aabb(&mut self, aabb: &Aabb, paint: Paint) {
        self.primitives.push(Primitive::Aabb { aabb: *aabb, paint });
    }
    fn obb(&mut self, obb: &Obb, paint: Paint) {
        self.primitives.push(Primitive::Obb { obb: *obb, paint });
    }
    fn triangle(&mut self, vertices: [Point3; 3], paint: Paint) {
        self.primitives
            .push(Primitive::Triangle { vertices, paint });
    }
    fn capsule(&mut self, a: Point3, b: Point3, radius: Real, paint: Paint) {
        self.primitives.push(Primitive::Capsule {
            a,
            b,
            radius,
            paint,
        });
    }
}
