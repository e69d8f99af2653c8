//! The signed-volume sub-algorithm of GJK: the point of a simplex (1 to 4 vertices) closest to
//! the origin, with its barycentric coordinates and the smallest sub-simplex that carries it.
//!
//! Montanari, Petrinic and Barbieri, "Improving the GJK algorithm for faster and more reliable
//! distance queries between convex objects", ACM TOG 36(3), 2017, §3. Instead of Johnson's
//! sub-algorithm (which solves linear systems over every sub-simplex and misjudges Voronoi
//! regions of nearly degenerate simplices), it projects the origin onto the affine hull and reads
//! the barycentric coordinates off signed volumes (tetrahedron), signed areas in the coordinate
//! plane where the triangle's projection is largest (triangle) or the coordinate where a
//! segment's projection is longest (segment). A coordinate whose sign differs from the whole
//! simplex's sign means the origin lies beyond the opposite facet; only those facets are
//! searched, recursively.
//!
//! ```text
//! S3D(s1..s4): C_j = det with the origin in place of s_j, D = sum C_j
//!     all C_j agree in sign with D  ->  origin inside, lambda = C / D
//!     else the best S2D over the facets j whose C_j disagrees (all four if D = 0)
//! S2D(s1..s3): n = (s2 - s1) x (s3 - s1); p0 = projection of the origin on the plane;
//!     drop the coordinate k of largest |n_k|; C_j = signed area with p0 in place of s_j, mu = n_k
//!     all agree with mu -> inside, lambda = C / mu; else the best S1D over disagreeing edges
//! S1D(s1, s2): parameter of the projection of the origin on the line, clamped to [0, 1]
//! ```

use sepax_shapes::math::{Real, Vector3};

#[cfg(feature = "f64")]
use crate::geometry::robust::cross_accurate;

/// `a × b` with every component correct to about `u` relative to itself. In the `f32` build the
/// products of `f32` numbers are exact in `f64`, so one `f64` subtraction and the final rounding
/// suffice (and cost less than the fused multiply-adds, which are library calls unless the
/// target enables FMA); the `f64` build uses [`cross_accurate`].
#[cfg(not(feature = "f64"))]
#[inline]
fn cross_acc(a: &Vector3, b: &Vector3) -> Vector3 {
    let (a, b) = (a.map(|x| x as f64), b.map(|x| x as f64));
    a.cross(&b).map(|x| x as Real)
}

#[cfg(feature = "f64")]
#[inline]
fn cross_acc(a: &Vector3, b: &Vector3) -> Vector3 {
    cross_accurate(a, b)
}

/// The outcome of the sub-algorithm: the vertices kept (indices into the input) with their
/// barycentric weights, and the closest point `v = sum lambda_i w_i`.
#[derive(Debug, Clone, Copy)]
pub struct Reduced {
    /// Number of vertices kept (1 to 4).
    pub len: usize,
    /// Indices of the kept vertices in the input simplex.
    pub index: [usize; 4],
    /// Barycentric weights of the kept vertices (non-negative, summing to 1 up to rounding).
    pub lambda: [Real; 4],
    /// The closest point of the simplex to the origin.
    pub v: Vector3,
}

impl Reduced {
    fn vertex(w: &[Vector3; 4], i: usize) -> Self {
        Reduced {
            len: 1,
            index: [i, 0, 0, 0],
            lambda: [1.0, 0.0, 0.0, 0.0],
            v: w[i],
        }
    }

    fn from_weights(w: &[Vector3; 4], index: &[usize], lambda: &[Real]) -> Self {
        let mut r = Reduced {
            len: index.len(),
            index: [0; 4],
            lambda: [0.0; 4],
            v: Vector3::zeros(),
        };
        for (k, (&i, &l)) in index.iter().zip(lambda).enumerate() {
            r.index[k] = i;
            r.lambda[k] = l;
            r.v += w[i] * l;
        }
        r
    }
}

#[inline]
fn same_sign(a: Real, b: Real) -> bool {
    (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0)
}

/// Keeps the better (closer to the origin) of two candidates.
#[inline]
fn better(best: Option<Reduced>, c: Reduced) -> Option<Reduced> {
    match best {
        Some(b) if b.v.norm_squared() <= c.v.norm_squared() => Some(b),
        _ => Some(c),
    }
}

/// Closest point of the segment `w[i] w[j]` to the origin.
pub fn s1d(w: &[Vector3; 4], i: usize, j: usize) -> Reduced {
    let t = w[j] - w[i];
    let tt = t.norm_squared();
    if !(tt > 0.0 && tt.is_finite()) {
        return if w[j].norm_squared() < w[i].norm_squared() {
            Reduced::vertex(w, j)
        } else {
            Reduced::vertex(w, i)
        };
    }
    // Parameter of the origin's projection along i -> j.
    let mu = -w[i].dot(&t);
    if mu <= 0.0 {
        Reduced::vertex(w, i)
    } else if mu >= tt {
        Reduced::vertex(w, j)
    } else {
        let l = mu / tt;
        let mut r = Reduced::from_weights(w, &[i, j], &[1.0 - l, l]);
        // The foot of the perpendicular as `-(t x (t x w_i)) / |t|^2`, with accurate crosses:
        // right in direction even when it is tiny against the vertices (`sum lambda w` is only
        // right to `u |w|` absolutely, which can turn a short `v` by a large angle and send the
        // next support query the wrong way).
        let perp = -cross_acc(&t, &cross_acc(&t, &w[i])) / tt;
        if perp.iter().all(|x| x.is_finite()) {
            r.v = perp;
        }
        r
    }
}

/// Closest point of the triangle `w[i] w[j] w[k]` to the origin.
pub fn s2d(w: &[Vector3; 4], i: usize, j: usize, k: usize) -> Reduced {
    let (s1, s2, s3) = (w[i], w[j], w[k]);
    // The accurate cross product keeps the normal of a thin triangle (nearly parallel edges,
    // as near-parallel faces of two boxes produce) correct relative to its own size; the plain
    // one loses `1 / sin(angle)` digits and misplaces the projected origin by as much.
    let n = cross_acc(&(s2 - s1), &(s3 - s1));
    let nn = n.norm_squared();
    let edges = |best: Option<Reduced>, flags: [bool; 3]| {
        // Edge m is the one opposite vertex m.
        let mut best = best;
        let ids = [i, j, k];
        for m in 0..3 {
            if flags[m] {
                best = better(best, s1d(w, ids[(m + 1) % 3], ids[(m + 2) % 3]));
            }
        }
        best.expect("at least one edge is searched")
    };
    if !(nn > 0.0 && nn.is_finite()) {
        return edges(None, [true; 3]);
    }
    // Projection of the origin onto the plane.
    let p0 = n * (s1.dot(&n) / nn);
    // Coordinate plane where the projected triangle is largest.
    let a = n.abs();
    let drop = if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    };
    let (x, y) = ((drop + 1) % 3, (drop + 2) % 3);
    let area = |p: &Vector3, q: &Vector3, r: &Vector3| {
        (q[x] - p[x]) * (r[y] - p[y]) - (q[y] - p[y]) * (r[x] - p[x])
    };
    let mu = n[drop];
    let c = [
        area(&p0, &s2, &s3),
        area(&s1, &p0, &s3),
        area(&s1, &s2, &p0),
    ];
    let flags = c.map(|cm| !same_sign(mu, cm));
    if !flags.iter().any(|&f| f) {
        let sum = c[0] + c[1] + c[2];
        let mut r = Reduced::from_weights(w, &[i, j, k], &[c[0] / sum, c[1] / sum, c[2] / sum]);
        // The projection itself: along the accurate normal, so right in direction however
        // small (see `s1d`).
        r.v = p0;
        return r;
    }
    edges(None, flags)
}

/// `a * b` as the exact unevaluated sum `p + e` (fused multiply-add; barring underflow).
#[inline]
fn two_product(a: Real, b: Real) -> (Real, Real) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// `a + b` as the exact unevaluated sum `s + e` (Knuth's TwoSum).
#[inline]
fn two_sum(a: Real, b: Real) -> (Real, Real) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `det[a, b, c]`, accurate to a few `u` relative to itself: first in `f64` with the sum of the
/// absolute terms as error gauge (`|error| <= 8 * 2^-53 * sum`), falling back on
/// [`det3_accurate`] when cancellation could leave the weights less accurate than that (in
/// the `f32` build, `f64` is accurate enough unless `|det| < 2^-20 sum`; in the `f64` build
/// unless `|det| < sum / 16`, i.e. for nearly flat tetrahedra only).
fn det3(a: &Vector3, b: &Vector3, c: &Vector3) -> Real {
    #[cfg(not(feature = "f64"))]
    const THRESHOLD: f64 = 1.0 / 1048576.0;
    #[cfg(feature = "f64")]
    const THRESHOLD: f64 = 1.0 / 16.0;
    let (a, b, c) = (
        a.map(|x| x as f64),
        b.map(|x| x as f64),
        c.map(|x| x as f64),
    );
    let t = [
        a.x * (b.y * c.z),
        -a.x * (b.z * c.y),
        a.y * (b.z * c.x),
        -a.y * (b.x * c.z),
        a.z * (b.x * c.y),
        -a.z * (b.y * c.x),
    ];
    let det: f64 = t.iter().sum();
    let gauge: f64 = t.iter().map(|x| x.abs()).sum();
    if det.abs() >= THRESHOLD * gauge && det.is_finite() {
        det as Real
    } else {
        let back = |v: nalgebra::Vector3<f64>| v.map(|x| x as Real);
        det3_accurate(&back(a), &back(b), &back(c))
    }
}

/// `det[a, b, c] = a . (b x c)`, almost correctly rounded: the six triple products are split
/// into 24 exact terms (two `two_product`s each) and summed with cascaded `two_sum`s (Ogita,
/// Rump and Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 2005, Sum2). The error
/// is `u |det| + O(u^2)` of the terms, so the barycentric weights of a nearly flat tetrahedron
/// stay accurate; plain arithmetic would lose `1 / flatness` of them.
fn det3_accurate(a: &Vector3, b: &Vector3, c: &Vector3) -> Real {
    let mut s: Real = 0.0;
    let mut comp: Real = 0.0;
    let mut add = |x: Real| {
        let (t, e) = two_sum(s, x);
        s = t;
        comp += e;
    };
    // a_i (b_j c_k - b_k c_j) over the cyclic (i, j, k).
    for (i, j, k) in [(0, 1, 2), (1, 2, 0), (2, 0, 1)] {
        for (sign, x, y) in [(1.0, b[j], c[k]), (-1.0, b[k], c[j])] {
            let (p, e) = two_product(x, y);
            let (p1, e1) = two_product(a[i], p);
            let (p2, e2) = two_product(a[i], e);
            add(sign * p1);
            add(sign * e1);
            add(sign * p2);
            add(sign * e2);
        }
    }
    s + comp
}

/// Closest point of the tetrahedron `w[0..4]` to the origin (`len == 4` when the origin is
/// inside).
pub fn s3d(w: &[Vector3; 4]) -> Reduced {
    // C_j is the volume of the tetrahedron with the origin in place of w_j; expanding it, the
    // terms with the origin vanish and C_j = +-det of the other three vertices, which needs no
    // differences and is computed almost exactly. Sign pattern: + - + -.
    let c = [
        det3(&w[1], &w[2], &w[3]),
        -det3(&w[0], &w[2], &w[3]),
        det3(&w[0], &w[1], &w[3]),
        -det3(&w[0], &w[1], &w[2]),
    ];
    let det = c[0] + c[1] + c[2] + c[3];
    let flat = !(det != 0.0 && det.is_finite());
    let flags = c.map(|cj| flat || !same_sign(det, cj));
    if !flags.iter().any(|&f| f) {
        return Reduced::from_weights(
            w,
            &[0, 1, 2, 3],
            &[c[0] / det, c[1] / det, c[2] / det, c[3] / det],
        );
    }
    let mut best = None;
    for (m, &f) in flags.iter().enumerate() {
        if f {
            let f3 = [(1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2)][m];
            best = better(best, s2d(w, f3.0, f3.1, f3.2));
        }
    }
    best.expect("at least one facet is searched")
}

/// The closest point to the origin of the simplex made of the first `len` (1 to 4) vertices.
pub fn closest_on_simplex(w: &[Vector3; 4], len: usize) -> Reduced {
    match len {
        1 => Reduced::vertex(w, 0),
        2 => s1d(w, 0, 1),
        3 => s2d(w, 0, 1, 2),
        _ => s3d(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: Real, y: Real, z: Real) -> Vector3 {
        Vector3::new(x, y, z)
    }

    #[test]
    fn segment_regions() {
        let w = [
            v(-1.0, 1.0, 0.0),
            v(1.0, 1.0, 0.0),
            v(0.0, 0.0, 0.0),
            v(0.0, 0.0, 0.0),
        ];
        let r = s1d(&w, 0, 1);
        assert_eq!(r.len, 2);
        assert_eq!(r.v, v(0.0, 1.0, 0.0));
        let w = [v(1.0, 1.0, 0.0), v(2.0, 1.0, 0.0), w[2], w[3]];
        let r = s1d(&w, 0, 1);
        assert_eq!((r.len, r.index[0], r.v), (1, 0, v(1.0, 1.0, 0.0)));
    }

    #[test]
    fn triangle_regions() {
        let w = [
            v(-1.0, -1.0, 2.0),
            v(1.0, -1.0, 2.0),
            v(0.0, 1.0, 2.0),
            Vector3::zeros(),
        ];
        let r = s2d(&w, 0, 1, 2);
        assert_eq!(r.len, 3);
        assert!((r.v - v(0.0, 0.0, 2.0)).norm() < 1e-6);
        let sum: Real = r.lambda[..3].iter().sum();
        assert!((sum - 1.0).abs() < 1e-6);
        // Origin beyond the edge w0 w1 (y < -1 side): the edge is kept.
        let w2 = [
            v(-1.0, 1.0, 0.0),
            v(1.0, 1.0, 0.0),
            v(0.0, 3.0, 0.0),
            Vector3::zeros(),
        ];
        let r = s2d(&w2, 0, 1, 2);
        assert_eq!(r.len, 2);
        assert_eq!(r.v, v(0.0, 1.0, 0.0));
    }

    #[test]
    fn tetrahedron_inside_and_outside() {
        let w = [
            v(1.0, 1.0, 1.0),
            v(-1.0, -1.0, 1.0),
            v(-1.0, 1.0, -1.0),
            v(1.0, -1.0, -1.0),
        ];
        let r = s3d(&w);
        assert_eq!(r.len, 4);
        assert!(r.v.norm() < 1e-6);
        let shifted = w.map(|p| p + v(0.0, 0.0, 5.0));
        let r = s3d(&shifted);
        assert!(r.len < 4);
        // The closest point is on the lower face z = -1 + 5 = 4... of the shifted tetrahedron
        // the lowest vertices are at z = 4.
        assert!((r.v.z - 4.0).abs() < 1e-5, "{:?}", r.v);
    }

    #[test]
    fn accurate_determinant() {
        let a = v(1.0, 2.0, 3.0);
        let b = v(4.0, 5.0, 6.0);
        let c = v(7.0, 8.0, 10.0);
        assert_eq!(det3_accurate(&a, &b, &c), a.dot(&b.cross(&c)));
        // Exactly singular: rows in arithmetic progression.
        assert_eq!(det3_accurate(&a, &b, &v(7.0, 8.0, 9.0)), 0.0);
    }

    #[test]
    fn flat_tetrahedron_searches_all_faces() {
        let w = [
            v(-1.0, -1.0, 1.0),
            v(1.0, -1.0, 1.0),
            v(0.0, 1.0, 1.0),
            v(0.0, 0.0, 1.0),
        ];
        let r = s3d(&w);
        assert!((r.v - v(0.0, 0.0, 1.0)).norm() < 1e-6);
    }
}
