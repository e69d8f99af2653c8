//! Closest points between a point and a segment, and between two segments.

use sepax_shapes::math::{Point3, Real};

use super::robust::cross_accurate;

/// The point of the closed segment `a b` closest to `p`, with its parameter `t` in `[0, 1]`
/// (`a + t (b - a)`). A degenerate segment (`a == b`) gives `t = 0`.
///
/// Ericson, *Real-Time Collision Detection*, §5.1.2: project, then clamp. The end points are
/// returned exactly when the clamp is active, so touching an end point is decided without
/// rounding.
pub fn closest_point_on_segment(p: &Point3, a: &Point3, b: &Point3) -> (Real, Point3) {
    let d = b - a;
    let dd = d.norm_squared();
    if dd == 0.0 {
        return (0.0, *a);
    }
    let t = (p - a).dot(&d) / dd;
    if t <= 0.0 {
        (0.0, *a)
    } else if t >= 1.0 {
        (1.0, *b)
    } else {
        (t, a + d * t)
    }
}

/// Squared distance from `p` to the closed segment `a b`.
#[inline]
pub fn point_segment_distance_squared(p: &Point3, a: &Point3, b: &Point3) -> Real {
    let (_, q) = closest_point_on_segment(p, a, b);
    (p - q).norm_squared()
}

/// Closest points between two closed segments.
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct SegmentSegmentClosest {
    /// Parameter on the first segment, in `[0, 1]`.
    pub s: Real,
    /// Parameter on the second segment, in `[0, 1]`.
    pub t: Real,
    /// The closest point on the first segment.
    pub point_a: Point3,
    /// The closest point on the second segment.
    pub point_b: Point3,
    /// The squared distance between the segments (computed directly, not from the two points,
    /// where that is more accurate).
    pub distance_squared: Real,
}

/// Closest points of the segments `p1 q1` and `p2 q2` (parallel and degenerate segments
/// included).
///
/// The distance between two segments is the distance from the origin to the parallelogram
/// `{ (p1 + s d1) - (p2 + t d2) : s, t in [0, 1] }` (their Minkowski difference). It is attained
/// either on the parallelogram's boundary — the four point–segment distances of the end points
/// — or, when the origin projects inside it, by the line–line distance. This is the same case
/// split as Ericson's clamped solution (*Real-Time Collision Detection*, §5.1.9) written so that
/// the near-parallel case stays accurate:
///
/// ```text
/// best = min over the 4 end point–segment distances
/// n = d1 x d2                                       (accurate cross product)
/// if n != 0:
///     s* = -(w . (d2 x n)) / |n|^2,  t* = -(w . (d1 x n)) / |n|^2     (w = p1 - p2)
///     if s*, t* in [0, 1]: best = min(best, (w . n)^2 / |n|^2)
/// ```
///
/// Why it is robust: with [`cross_accurate`] the products `n`, `d1 x n`, `d2 x n` carry only
/// `O(u)` relative error, so the numerators of `s*`, `t*` are off by `O(u |w| |d| |n|)` — an
/// in-plane misplacement of `O(u |w|)` of the origin with respect to the parallelogram's edges,
/// however thin the parallelogram. Deciding "inside" wrongly therefore costs at most that much
/// distance, and the end point distances are accurate on their own: the result is within a
/// few `u (|w| + |d1| + |d2|)` of the exact distance of the (rounded) inputs. The textbook
/// Cramer-rule solve instead loses `1 / sin^2(theta)` relative accuracy in `s` for nearly
/// parallel segments, which moves the reported distance by up to `sqrt(u)` times their length.
pub fn segment_segment_closest(
    p1: &Point3,
    q1: &Point3,
    p2: &Point3,
    q2: &Point3,
) -> SegmentSegmentClosest {
    let d1 = q1 - p1;
    let d2 = q2 - p2;

    // Boundary of the parallelogram: the four end point–segment pairs.
    let mut best = {
        let (t, q) = closest_point_on_segment(p1, p2, q2);
        SegmentSegmentClosest {
            s: 0.0,
            t,
            point_a: *p1,
            point_b: q,
            distance_squared: (p1 - q).norm_squared(),
        }
    };
    let mut consider = |c: SegmentSegmentClosest| {
        if c.distance_squared < best.distance_squared {
            best = c;
        }
    };
    {
        let (t, q) = closest_point_on_segment(q1, p2, q2);
        consider(SegmentSegmentClosest {
            s: 1.0,
            t,
            point_a: *q1,
            point_b: q,
            distance_squared: (q1 - q).norm_squared(),
        });
    }
    {
        let (s, p) = closest_point_on_segment(p2, p1, q1);
        consider(SegmentSegmentClosest {
            s,
            t: 0.0,
            point_a: p,
            point_b: *p2,
            distance_squared: (p - p2).norm_squared(),
        });
    }
    {
        let (s, p) = closest_point_on_segment(q2, p1, q1);
        consider(SegmentSegmentClosest {
            s,
            t: 1.0,
            point_a: p,
            point_b: *q2,
            distance_squared: (p - q2).norm_squared(),
        });
    }

    // Interior: the origin projects inside the parallelogram.
    let n = cross_accurate(&d1, &d2);
    let nn = n.norm_squared();
    if nn > 0.0 && nn.is_finite() {
        let w = p1 - p2;
        let m1 = cross_accurate(&d1, &n);
        let m2 = cross_accurate(&d2, &n);
        let s_num = -w.dot(&m2);
        let t_num = -w.dot(&m1);
        if (0.0..=nn).contains(&s_num) && (0.0..=nn).contains(&t_num) {
            let wn = w.dot(&n);
            let h2 = wn * wn / nn;
            let (s, t) = (s_num / nn, t_num / nn);
            consider(SegmentSegmentClosest {
                s,
                t,
                point_a: p1 + d1 * s,
                point_b: p2 + d2 * t,
                distance_squared: h2,
            });
        }
    }
    best
}

/// Squared distance between the closed segments `p1 q1` and `p2 q2`.
#[inline]
pub fn segment_segment_distance_squared(
    p1: &Point3,
    q1: &Point3,
    p2: &Point3,
    q2: &Point3,
) -> Real {
    segment_segment_closest(p1, q1, p2, q2).distance_squared
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: Real, y: Real, z: Real) -> Point3 {
        Point3::new(x, y, z)
    }

    #[test]
    fn point_segment_regions() {
        let (a, b) = (p(0.0, 0.0, 0.0), p(2.0, 0.0, 0.0));
        assert_eq!(
            closest_point_on_segment(&p(-1.0, 1.0, 0.0), &a, &b),
            (0.0, a)
        );
        assert_eq!(
            closest_point_on_segment(&p(3.0, 1.0, 0.0), &a, &b),
            (1.0, b)
        );
        assert_eq!(
            closest_point_on_segment(&p(1.0, 1.0, 0.0), &a, &b),
            (0.5, p(1.0, 0.0, 0.0))
        );
        assert_eq!(
            point_segment_distance_squared(&p(1.0, 3.0, 4.0), &a, &b),
            25.0
        );
        // Degenerate segment.
        assert_eq!(
            point_segment_distance_squared(&p(1.0, 2.0, 2.0), &a, &a),
            9.0
        );
    }

    #[test]
    fn crossing_segments() {
        let c = segment_segment_closest(
            &p(-1.0, 0.0, 0.0),
            &p(1.0, 0.0, 0.0),
            &p(0.0, -1.0, 2.0),
            &p(0.0, 1.0, 2.0),
        );
        assert_eq!(c.distance_squared, 4.0);
        assert_eq!((c.s, c.t), (0.5, 0.5));
        assert_eq!(c.point_a, p(0.0, 0.0, 0.0));
        assert_eq!(c.point_b, p(0.0, 0.0, 2.0));
    }

    #[test]
    fn parallel_and_collinear_segments() {
        // Parallel, overlapping in projection.
        let d = segment_segment_distance_squared(
            &p(0.0, 0.0, 0.0),
            &p(2.0, 0.0, 0.0),
            &p(1.0, 3.0, 0.0),
            &p(5.0, 3.0, 0.0),
        );
        assert_eq!(d, 9.0);
        // Collinear, disjoint.
        let d = segment_segment_distance_squared(
            &p(0.0, 0.0, 0.0),
            &p(1.0, 0.0, 0.0),
            &p(3.0, 0.0, 0.0),
            &p(5.0, 0.0, 0.0),
        );
        assert_eq!(d, 4.0);
        // Collinear, touching at an end point.
        let d = segment_segment_distance_squared(
            &p(0.0, 0.0, 0.0),
            &p(1.0, 0.0, 0.0),
            &p(1.0, 0.0, 0.0),
            &p(5.0, 0.0, 0.0),
        );
        assert_eq!(d, 0.0);
    }

    #[test]
    fn degenerate_segments() {
        let a = p(1.0, 1.0, 1.0);
        let d = segment_segment_distance_squared(&a, &a, &p(0.0, 0.0, 0.0), &p(2.0, 0.0, 0.0));
        assert_eq!(d, 2.0);
        let d = segment_segment_distance_squared(&a, &a, &a, &a);
        assert_eq!(d, 0.0);
    }

    #[test]
    fn nearly_parallel_crossing_segments_report_a_tiny_distance() {
        // Two long segments crossing at their midpoints at a tiny angle: the distance is 0;
        // a Cramer-rule solve loses the crossing point and reports about sqrt(u) * length.
        let eps = Real::EPSILON * 16.0;
        let c = segment_segment_closest(
            &p(-1.0, -eps, 0.0),
            &p(1.0, eps, 0.0),
            &p(-1.0, eps, 0.0),
            &p(1.0, -eps, 0.0),
        );
        assert!(c.distance_squared <= (8.0 * Real::EPSILON).powi(2), "{c:?}");
    }
}
