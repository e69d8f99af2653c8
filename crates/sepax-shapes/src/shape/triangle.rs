//! Triangle.

use crate::error::{check_finite_slice, ShapeError};
use crate::math::{Point3, Vector3};

/// A closed (solid, two-sided) triangle `a b c`. Degenerate triangles (collinear or coincident
/// vertices) are legal: they are segments or points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Triangle {
    a: Point3,
    b: Point3,
    c: Point3,
}

impl Triangle {
    /// A triangle; errors on NaN/infinite coordinates.
    pub fn new(a: Point3, b: Point3, c: Point3) -> Result<Self, ShapeError> {
        check_finite_slice("Triangle", "a", a.coords.as_slice())?;
        check_finite_slice("Triangle", "b", b.coords.as_slice())?;
        check_finite_slice("Triangle", "c", c.coords.as_slice())?;
        Ok(Self { a, b, c })
    }

    /// A triangle from values the caller guarantees finite (debug-asserted).
    #[inline]
    pub fn new_unchecked(a: Point3, b: Point3, c: Point3) -> Self {
        debug_assert!(Self::new(a, b, c).is_ok());
        Self { a, b, c }
    }

    /// Vertex a.
    #[inline]
    pub fn a(&self) -> Point3 {
        self.a
    }

    /// Vertex b.
    #[inline]
    pub fn b(&self) -> Point3 {
        self.b
    }

    /// Vertex c.
    #[inline]
    pub fn c(&self) -> Point3 {
        self.c
    }

    /// The three vertices.
    #[inline]
    pub fn vertices(&self) -> [Point3; 3] {
        [self.a, self.b, self.c]
    }

    /// The (unnormalised) normal `(b - a) x (c - a)`; zero for degenerate triangles.
    #[inline]
    pub fn scaled_normal(&self) -> Vector3 {
        (self.b - self.a).cross(&(self.c - self.a))
    }
}
