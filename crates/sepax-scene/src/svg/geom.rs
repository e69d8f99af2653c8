//! Plane geometry for the pictures, in `f64` whatever `Real` is: the two views, 2D convex hulls
//! and line clipping.

use sepax_shapes::math::{Point3, Vector3};
use sepax_shapes::Shape;

/// Widens a `Real` (or any smaller float) to `f64`. Generic so that the `f64` build does not see
/// a same-type conversion.
#[inline]
pub(super) fn wide<T: Into<f64>>(x: T) -> f64 {
    x.into()
}

/// A world point as `f64` coordinates.
#[inline]
pub(super) fn point(p: &Point3) -> [f64; 3] {
    [wide(p.x), wide(p.y), wide(p.z)]
}

/// A world vector as `f64` coordinates.
#[inline]
pub(super) fn vector(v: &Vector3) -> [f64; 3] {
    [wide(v.x), wide(v.y), wide(v.z)]
}

/// `a · b` in 3D.
#[inline]
pub(super) fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// A point or vector in a view plane or on the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct P2 {
    pub x: f64,
    pub y: f64,
}

impl P2 {
    #[inline]
    pub fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }
    #[inline]
    pub fn add(self, o: P2) -> P2 {
        P2::new(self.x + o.x, self.y + o.y)
    }
    #[inline]
    pub fn sub(self, o: P2) -> P2 {
        P2::new(self.x - o.x, self.y - o.y)
    }
    #[inline]
    pub fn scale(self, k: f64) -> P2 {
        P2::new(self.x * k, self.y * k)
    }
    #[inline]
    pub fn norm(self) -> f64 {
        self.x.hypot(self.y)
    }
    /// The vector turned a quarter turn.
    #[inline]
    pub fn perp(self) -> P2 {
        P2::new(-self.y, self.x)
    }
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

/// `(b - a) x (c - a)`: positive when `a b c` turn counter-clockwise (in a y-up frame).
#[inline]
fn turn(a: P2, b: P2, c: P2) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// The two orthographic views.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum View {
    /// Looking down `-y`: the x–z plane, x to the right, z down the page (right-handed).
    Top,
    /// Looking along `-z`: the x–y plane, x to the right, y up the page.
    Side,
}

impl View {
    pub const ALL: [View; 2] = [View::Top, View::Side];

    /// The view-plane coordinates `(u, v)` of a world point or vector: Top `(x, z)`, Side `(x, y)`.
    #[inline]
    pub fn plane(self, p: [f64; 3]) -> P2 {
        match self {
            View::Top => P2::new(p[0], p[2]),
            View::Side => P2::new(p[0], p[1]),
        }
    }

    /// `+1` when `v` grows down the page (Top), `-1` when it grows up (Side).
    #[inline]
    pub fn v_down(self) -> f64 {
        match self {
            View::Top => 1.0,
            View::Side => -1.0,
        }
    }

    /// The `data-view` name.
    pub fn name(self) -> &'static str {
        match self {
            View::Top => "top",
            View::Side => "side",
        }
    }

    /// The caption above the panel, and a shorter one for narrow panels.
    pub fn caption(self) -> [&'static str; 3] {
        match self {
            View::Top => [
                "TOP \u{2014} looking down \u{2212}y (x right, z down)",
                "TOP (down \u{2212}y)",
                "TOP",
            ],
            View::Side => [
                "SIDE \u{2014} looking along \u{2212}z (x right, y up)",
                "SIDE (along \u{2212}z)",
                "SIDE",
            ],
        }
    }

    /// The name of the world axis along `v`.
    pub fn v_axis(self) -> &'static str {
        match self {
            View::Top => "z",
            View::Side => "y",
        }
    }

    /// Index of the world axis along `v`.
    pub fn v_index(self) -> usize {
        match self {
            View::Top => 2,
            View::Side => 1,
        }
    }
}

/// The 2D convex hull (counter-clockwise in a y-up frame, no repeated or collinear points):
/// one point when all coincide, two when all are collinear. Non-finite points are dropped.
pub(super) fn convex_hull(mut pts: Vec<P2>) -> Vec<P2> {
    pts.retain(|p| p.is_finite());
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut hull: Vec<P2> = Vec::with_capacity(pts.len() + 1);
    // Lower chain left to right, then upper chain right to left (Andrew's monotone chain).
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &P2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        // The last point of each chain is the first of the other.
        hull.pop();
    }
    hull
}

/// The part of the line `p + t d` (`t` in `[t0, t1]`) inside the rectangle `[x0, x1] × [y0, y1]`
/// (Liang–Barsky), or `None` when it misses.
pub(super) fn clip_segment(
    p: P2,
    d: P2,
    (t0, t1): (f64, f64),
    (x0, y0, x1, y1): (f64, f64, f64, f64),
) -> Option<(P2, P2)> {
    if !(p.is_finite() && d.is_finite()) {
        return None;
    }
    let (mut lo, mut hi) = (t0, t1);
    for (q, r) in [
        (-d.x, p.x - x0),
        (d.x, x1 - p.x),
        (-d.y, p.y - y0),
        (d.y, y1 - p.y),
    ] {
        if q == 0.0 {
            if r < 0.0 {
                return None;
            }
        } else {
            let t = r / q;
            if q < 0.0 {
                lo = lo.max(t);
            } else {
                hi = hi.min(t);
            }
        }
    }
    (lo <= hi).then(|| (p.add(d.scale(lo)), p.add(d.scale(hi))))
}

/// The 3D points whose projection's hull outlines a polytope shape (`None` for round shapes).
pub(super) fn polytope_points(shape: &Shape) -> Option<Vec<[f64; 3]>> {
    match shape {
        Shape::Aabb(b) => Some(b.corners().iter().map(point).collect()),
        Shape::Obb(b) => {
            // In f64 from centre, axes and half-extents (no overflow in f32 near the limits).
            let c = point(&b.center());
            let h = vector(&b.half_extents());
            let ax: [[f64; 3]; 3] = core::array::from_fn(|k| vector(&b.axis(k)));
            Some(
                (0..8)
                    .map(|i| {
                        core::array::from_fn(|j| {
                            let mut v = c[j];
                            for k in 0..3 {
                                let s = if i & (1 << k) != 0 { 1.0 } else { -1.0 };
                                v += s * h[k] * ax[k][j];
                            }
                            v
                        })
                    })
                    .collect(),
            )
        }
        Shape::Triangle(t) => Some(t.vertices().iter().map(point).collect()),
        Shape::Sphere(_) | Shape::Capsule(_) => None,
    }
}

/// The shape's centre in `f64`: the box or sphere centre, the capsule's segment midpoint, the
/// triangle's centroid.
pub(super) fn centre(shape: &Shape) -> [f64; 3] {
    match shape {
        Shape::Aabb(b) => {
            let (lo, hi) = (point(&b.min()), point(&b.max()));
            core::array::from_fn(|k| 0.5 * lo[k] + 0.5 * hi[k])
        }
        Shape::Obb(b) => point(&b.center()),
        Shape::Sphere(s) => point(&s.center()),
        Shape::Capsule(c) => {
            let (p, q) = (point(&c.p0()), point(&c.p1()));
            core::array::from_fn(|k| 0.5 * p[k] + 0.5 * q[k])
        }
        Shape::Triangle(t) => {
            let v = t.vertices().map(|p| point(&p));
            core::array::from_fn(|k| (v[0][k] + v[1][k] + v[2][k]) / 3.0)
        }
    }
}

/// The shape's world AABB as `f64` `(min, max)`.
pub(super) fn bounds(shape: &Shape) -> ([f64; 3], [f64; 3]) {
    let b = shape.world_aabb();
    (point(&b.min()), point(&b.max()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_square_with_inner_and_collinear_points() {
        let pts = vec![
            P2::new(0.0, 0.0),
            P2::new(1.0, 0.0),
            P2::new(1.0, 1.0),
            P2::new(0.0, 1.0),
            P2::new(0.5, 0.5),
            P2::new(0.5, 0.0),
            P2::new(0.0, 0.0),
        ];
        let h = convex_hull(pts);
        assert_eq!(h.len(), 4);
        assert!(h.contains(&P2::new(1.0, 1.0)));
    }

    #[test]
    fn hull_degenerate_cases() {
        assert_eq!(convex_hull(vec![P2::new(1.0, 2.0); 5]).len(), 1);
        let line = convex_hull((0..5).map(|i| P2::new(i as f64, 2.0 * i as f64)).collect());
        assert_eq!(line, vec![P2::new(0.0, 0.0), P2::new(4.0, 8.0)]);
        assert!(convex_hull(vec![P2::new(f64::NAN, 0.0)]).is_empty());
    }

    #[test]
    fn clipping() {
        let r = (0.0, 0.0, 10.0, 10.0);
        let (a, b) = clip_segment(P2::new(5.0, 5.0), P2::new(1.0, 0.0), (-1e6, 1e6), r).unwrap();
        assert_eq!((a.x, b.x), (0.0, 10.0));
        assert!(clip_segment(P2::new(5.0, 20.0), P2::new(1.0, 0.0), (-1e6, 1e6), r).is_none());
        let (a, b) = clip_segment(P2::new(0.0, 0.0), P2::new(1.0, 1.0), (-1e6, 1e6), r).unwrap();
        assert_eq!((a, b), (P2::new(0.0, 0.0), P2::new(10.0, 10.0)));
    }
}
