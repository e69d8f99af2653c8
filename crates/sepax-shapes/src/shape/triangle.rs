//! Triangle.

use crate::error::{check_finite_slice, ShapeError};
use crate::math::{Point3, Real, Vector3};
use crate::scale;
use crate::shape::segment::closest_on_segment;
use crate::shape::Aabb;
use crate::tolerance::FLAT_CONTAINMENT_TOLERANCE;

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

    /// The unit normal `(b - a) x (c - a) / |...|`, `None` for a degenerate triangle.
    pub fn normal(&self) -> Option<Vector3> {
        let s = scale::scale_of(&self.vertices());
        let (a, b, c) = (
            scale::down(&self.a, s),
            scale::down(&self.b, s),
            scale::down(&self.c, s),
        );
        let n = (b - a).cross(&(c - a));
        let len = n.norm();
        (len > 0.0).then(|| n / len)
    }

    /// The point of the triangle closest to `p` (Ericson, *Real-Time Collision Detection*,
    /// §5.1.5: Voronoi regions of vertices, then edges, then the face). Runs on rescaled
    /// coordinates; degenerate triangles fall back to their three edges.
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        let s = scale::scale_of(&[self.a, self.b, self.c, *p]);
        let d = |q: &Point3| scale::down(q, s);
        let q = closest_on_triangle(&d(&self.a), &d(&self.b), &d(&self.c), &d(p));
        Point3::from(q.coords * s)
    }

    /// Euclidean distance from `p` to the triangle.
    pub fn distance_to_point(&self, p: &Point3) -> Real {
        scale::distance(p, &self.closest_point(p))
    }

    /// Whether `p` lies on the triangle, within `FLAT_CONTAINMENT_TOLERANCE * m` where `m` is the
    /// largest absolute coordinate of the vertices and `p`. A zero-volume set needs a tolerance
    /// (see [`FLAT_CONTAINMENT_TOLERANCE`]); the test is on [`Triangle::distance_to_point`], so the
    /// two agree by construction.
    pub fn contains_point(&self, p: &Point3) -> bool {
        let m = scale::max_abs(&[self.a, self.b, self.c, *p]);
        self.distance_to_point(p) <= FLAT_CONTAINMENT_TOLERANCE * m
    }

    /// The world AABB (exact: componentwise min and max of the vertices).
    pub fn world_aabb(&self) -> Aabb {
        Aabb::new_unchecked(
            self.a.inf(&self.b).inf(&self.c),
            self.a.sup(&self.b).sup(&self.c),
        )
    }
}

/// `num / den` for a barycentric ratio with `0 <= num <= den`, 0 when `den` is 0.
fn ratio(num: Real, den: Real) -> Real {
    if den > 0.0 {
        (num / den).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Closest point of triangle `a b c` to `p`, for coordinates of moderate magnitude.
///
/// ```text
/// d1..d6 = dot products of the edges ab, ac with p - a, p - b, p - c
/// vertex regions: a, b, c by the signs of d1..d6
/// edge regions:   ab if vc <= 0, ac if vb <= 0, bc if va <= 0 (va, vb, vc barycentric areas)
/// face region:    project p onto the plane (more accurate than the barycentric combination)
/// ```
pub(crate) fn closest_on_triangle(a: &Point3, b: &Point3, c: &Point3, p: &Point3) -> Point3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * ratio(d1, d1 - d3);
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * ratio(d2, d2 - d6);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ratio(d4 - d3, (d4 - d3) + (d5 - d6));
    }
    let n = ab.cross(&ac);
    let nn = n.norm_squared();
    if nn > 0.0 {
        return p - n * (n.dot(&ap) / nn);
    }
    // Degenerate (collinear or coincident vertices): the nearest of the three edges.
    [
        closest_on_segment(a, b, p),
        closest_on_segment(b, c, p),
        closest_on_segment(c, a, p),
    ]
    .into_iter()
    .min_by(|x, y| (x - p).norm_squared().total_cmp(&(y - p).norm_squared()))
    .unwrap_or(*a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri() -> Triangle {
        Triangle::new(
            Point3::origin(),
            Point3::new(2.0, 0.0, 0.0),
            Point3::new(0.0, 2.0, 0.0),
        )
        .unwrap()
    }

    #[test]
    fn regions() {
        let t = tri();
        let cp = |x: Real, y: Real, z: Real| t.closest_point(&Point3::new(x, y, z));
        assert_eq!(cp(0.5, 0.5, 3.0), Point3::new(0.5, 0.5, 0.0));
        assert_eq!(cp(-1.0, -1.0, 0.0), Point3::origin());
        assert_eq!(cp(3.0, -1.0, 0.0), Point3::new(2.0, 0.0, 0.0));
        assert_eq!(cp(1.0, -1.0, 1.0), Point3::new(1.0, 0.0, 0.0));
        assert_eq!(cp(2.0, 2.0, 0.0), Point3::new(1.0, 1.0, 0.0));
        assert!(t.contains_point(&Point3::new(0.5, 0.5, 0.0)));
        assert!(!t.contains_point(&Point3::new(0.5, 0.5, 1e-3)));
        assert_eq!(t.normal(), Some(Vector3::z()));
    }

    #[test]
    fn degenerate_triangle_is_its_edges() {
        let t = Triangle::new(
            Point3::origin(),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(2.0, 0.0, 0.0),
        )
        .unwrap();
        assert_eq!(
            t.closest_point(&Point3::new(1.5, 1.0, 0.0)),
            Point3::new(1.5, 0.0, 0.0)
        );
        assert_eq!(t.normal(), None);
        let p = Triangle::new(Point3::origin(), Point3::origin(), Point3::origin()).unwrap();
        assert_eq!(
            p.closest_point(&Point3::new(1.0, 1.0, 1.0)),
            Point3::origin()
        );
    }
}
