//! Closest points between a point and a triangle; distance and crossing between a segment and a
//! triangle. Triangles are closed, solid and two-sided; degenerate ones (collinear or
//! coincident vertices) are the segments or points they collapse to.

use sepax_shapes::math::{Point3, Real, Vector3};

use super::robust::cross_accurate;
use super::segment::{closest_point_on_segment, segment_segment_distance_squared};

/// Whether `x` projects into the (non-degenerate) triangle `v` along its normal `n`: on the
/// inner side of the three edge planes `(x - v_i) . (e_i x n) <= 0`. The edge normals come from
/// [`cross_accurate`], so a misjudged side means `x` is within `O(u |x - v_i|)` of that edge's
/// plane, however thin the triangle.
fn projects_inside(x: &Point3, v: &[Point3; 3], n: &Vector3) -> bool {
    (0..3).all(|i| {
        let e = v[(i + 1) % 3] - v[i];
        let m = cross_accurate(&e, n);
        (x - v[i]).dot(&m) <= 0.0
    })
}

/// The point of the closed triangle `a b c` closest to `p`.
///
/// Ericson, *Real-Time Collision Detection*, §5.1.5 splits space into the triangle's Voronoi
/// regions. The same split is taken here in two steps that stay defined for degenerate and
/// sliver triangles: if `p` projects inside the triangle (face region) the answer is its
/// projection; otherwise the nearest point lies on an edge, the closest of the three
/// point–segment answers. A triangle whose (accurate) normal is exactly zero is the segment or
/// point its edges cover, so the edge answers alone are exact for it. Mis-deciding the face
/// region near an edge moves the answer by `O(u |p - v|)` only (see `projects_inside`).
pub fn closest_point_on_triangle(p: &Point3, a: &Point3, b: &Point3, c: &Point3) -> Point3 {
    let v = [*a, *b, *c];
    let n = cross_accurate(&(b - a), &(c - a));
    let nn = n.norm_squared();
    let mut best = *a;
    let mut best_d = Real::INFINITY;
    for i in 0..3 {
        let (_, q) = closest_point_on_segment(p, &v[i], &v[(i + 1) % 3]);
        let d = (p - q).norm_squared();
        if d < best_d {
            best_d = d;
            best = q;
        }
    }
    if nn > 0.0 && nn.is_finite() && projects_inside(p, &v, &n) {
        let q = p - n * ((p - a).dot(&n) / nn);
        if (p - q).norm_squared() <= best_d {
            best = q;
        }
    }
    best
}

/// Squared distance from `p` to the closed triangle `a b c`. In the face region it is computed
/// as `((p - a) . n)^2 / |n|^2`, which is more accurate than going through the projected point.
pub fn point_triangle_distance_squared(p: &Point3, a: &Point3, b: &Point3, c: &Point3) -> Real {
    let v = [*a, *b, *c];
    let mut best = Real::INFINITY;
    for i in 0..3 {
        let (_, q) = closest_point_on_segment(p, &v[i], &v[(i + 1) % 3]);
        best = best.min((p - q).norm_squared());
    }
    let n = cross_accurate(&(b - a), &(c - a));
    let nn = n.norm_squared();
    if nn > 0.0 && nn.is_finite() && projects_inside(p, &v, &n) {
        let h = (p - a).dot(&n);
        best = best.min(h * h / nn);
    }
    best
}

/// Whether the closed segment `p q` passes through the interior or boundary of the
/// non-degenerate triangle `a b c` as decided in floating point (end points on opposite closed
/// sides of the plane, and the crossing point inside). Degenerate triangles and segments lying
/// in the plane return `false`: for them [`segment_triangle_distance_squared`] decides through
/// its edge distances instead. Near the triangle's boundary the answer may go either way; the
/// distance routine stays accurate there.
pub fn segment_crosses_triangle(
    p: &Point3,
    q: &Point3,
    a: &Point3,
    b: &Point3,
    c: &Point3,
) -> bool {
    let n = cross_accurate(&(b - a), &(c - a));
    let nn = n.norm_squared();
    if nn == 0.0 || !nn.is_finite() {
        return false;
    }
    let dp = (p - a).dot(&n);
    let dq = (q - a).dot(&n);
    let opposite = (dp <= 0.0 && dq >= 0.0) || (dp >= 0.0 && dq <= 0.0);
    if !opposite || dp == dq {
        return false;
    }
    let t = dp / (dp - dq);
    let x = p + (q - p) * t;
    projects_inside(&x, &[*a, *b, *c], &n)
}

/// Squared distance between the closed segment `p q` and the closed triangle `a b c` (0 when
/// they meet).
///
/// If the segment crosses the triangle the distance is 0. Otherwise the two convex sets are
/// disjoint and a closest pair has a segment end point or a triangle edge point in it (Ericson,
/// §5.1.10, which reduces segment–triangle to these candidates): the minimum of the two end
/// point–triangle distances and the three segment–edge distances. A crossing missed by rounding
/// (near an edge, or a segment nearly in the plane) is caught by these candidates within a few
/// `u` times the inputs' magnitude.
pub fn segment_triangle_distance_squared(
    p: &Point3,
    q: &Point3,
    a: &Point3,
    b: &Point3,
    c: &Point3,
) -> Real {
    if segment_crosses_triangle(p, q, a, b, c) {
        return 0.0;
    }
    let v = [*a, *b, *c];
    let mut best = point_triangle_distance_squared(p, a, b, c)
        .min(point_triangle_distance_squared(q, a, b, c));
    for i in 0..3 {
        if best == 0.0 {
            break;
        }
        best = best.min(segment_segment_distance_squared(
            p,
            q,
            &v[i],
            &v[(i + 1) % 3],
        ));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: Real, y: Real, z: Real) -> Point3 {
        Point3::new(x, y, z)
    }

    fn tri() -> [Point3; 3] {
        [p(0.0, 0.0, 0.0), p(4.0, 0.0, 0.0), p(0.0, 4.0, 0.0)]
    }

    #[test]
    fn point_triangle_regions() {
        let [a, b, c] = tri();
        // Face region.
        assert_eq!(
            closest_point_on_triangle(&p(1.0, 1.0, 3.0), &a, &b, &c),
            p(1.0, 1.0, 0.0)
        );
        assert_eq!(
            point_triangle_distance_squared(&p(1.0, 1.0, -3.0), &a, &b, &c),
            9.0
        );
        // Vertex regions.
        assert_eq!(
            closest_point_on_triangle(&p(-1.0, -1.0, 0.0), &a, &b, &c),
            a
        );
        assert_eq!(closest_point_on_triangle(&p(6.0, -1.0, 1.0), &a, &b, &c), b);
        // Edge region (hypotenuse).
        assert_eq!(
            closest_point_on_triangle(&p(3.0, 3.0, 0.0), &a, &b, &c),
            p(2.0, 2.0, 0.0)
        );
        assert_eq!(
            point_triangle_distance_squared(&p(3.0, 3.0, 0.0), &a, &b, &c),
            2.0
        );
        // On the boundary exactly.
        assert_eq!(
            point_triangle_distance_squared(&p(2.0, 0.0, 0.0), &a, &b, &c),
            0.0
        );
    }

    #[test]
    fn degenerate_triangles() {
        // Collinear: the segment from (0,0,0) to (4,0,0) with a middle vertex.
        let (a, b, c) = (p(0.0, 0.0, 0.0), p(4.0, 0.0, 0.0), p(2.0, 0.0, 0.0));
        assert_eq!(
            point_triangle_distance_squared(&p(3.0, 2.0, 0.0), &a, &b, &c),
            4.0
        );
        assert_eq!(closest_point_on_triangle(&p(5.0, 0.0, 1.0), &a, &b, &c), b);
        // A point.
        assert_eq!(
            point_triangle_distance_squared(&p(1.0, 2.0, 2.0), &a, &a, &a),
            9.0
        );
    }

    #[test]
    fn segment_triangle_cases() {
        let [a, b, c] = tri();
        // Crossing the face.
        assert!(segment_crosses_triangle(
            &p(1.0, 1.0, -1.0),
            &p(1.0, 1.0, 1.0),
            &a,
            &b,
            &c
        ));
        assert_eq!(
            segment_triangle_distance_squared(&p(1.0, 1.0, -1.0), &p(1.0, 1.0, 1.0), &a, &b, &c),
            0.0
        );
        // Ending on the face.
        assert_eq!(
            segment_triangle_distance_squared(&p(1.0, 1.0, 0.0), &p(1.0, 1.0, 1.0), &a, &b, &c),
            0.0
        );
        // Above, parallel.
        assert_eq!(
            segment_triangle_distance_squared(&p(1.0, 1.0, 2.0), &p(2.0, 1.0, 2.0), &a, &b, &c),
            4.0
        );
        // Passing beside the hypotenuse, in the plane.
        assert_eq!(
            segment_triangle_distance_squared(&p(5.0, 0.0, 0.0), &p(0.0, 5.0, 0.0), &a, &b, &c),
            0.5
        );
        // Piercing the plane outside the triangle.
        assert_eq!(
            segment_triangle_distance_squared(&p(-1.0, 1.0, -1.0), &p(-1.0, 1.0, 1.0), &a, &b, &c),
            1.0
        );
        // Degenerate triangle (collinear) against a crossing segment.
        let d = segment_triangle_distance_squared(
            &p(1.0, -1.0, 0.0),
            &p(1.0, 1.0, 0.0),
            &a,
            &b,
            &p(2.0, 0.0, 0.0),
        );
        assert_eq!(d, 0.0);
    }
}
