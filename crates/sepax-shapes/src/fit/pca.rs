//! Principal axes: of the points, and of the convex hull's surface (area-weighted).

use super::eigen::{cross, dot, sub, symmetric_eigen};
use super::frame::IDENTITY;
use super::hull::{hull_of, HullResult};

/// The eigenvectors of the covariance of `x` (rows: largest variance first).
pub(crate) fn pca_axes(x: &[[f64; 3]]) -> [[f64; 3]; 3] {
    let n = x.len() as f64;
    let mut mean = [0.0; 3];
    for p in x {
        for k in 0..3 {
            mean[k] += p[k];
        }
    }
    let mean = mean.map(|v| v / n);
    let mut c = [[0.0; 3]; 3];
    for p in x {
        let d = sub(p, &mean);
        for i in 0..3 {
            for j in i..3 {
                c[i][j] += d[i] * d[j];
            }
        }
    }
    axes_of(&c)
}

/// The eigenvectors of the covariance of the uniform distribution on the hull's surface; the
/// points' PCA when the hull is flat or could not be built.
pub(crate) fn hull_pca_axes(x: &[[f64; 3]]) -> [[f64; 3]; 3] {
    let HullResult::Solid(hull) = hull_of(x) else {
        return pca_axes(x);
    };
    // For a triangle (p, q, r) of area A and centroid g:
    //   ∫ y yᵀ dA = A/12 (9 g gᵀ + p pᵀ + q qᵀ + r rᵀ).
    let mut area = 0.0;
    let mut first = [0.0; 3];
    let mut second = [[0.0; 3]; 3];
    for f in &hull.faces {
        let [p, q, r] = f.map(|i| hull.points[i as usize]);
        let a = 0.5 * {
            let n = cross(&sub(&q, &p), &sub(&r, &p));
            dot(&n, &n).sqrt()
        };
        let g = [0, 1, 2].map(|k| (p[k] + q[k] + r[k]) / 3.0);
        area += a;
        for i in 0..3 {
            first[i] += a * g[i];
            for j in i..3 {
                second[i][j] +=
                    a / 12.0 * (9.0 * g[i] * g[j] + p[i] * p[j] + q[i] * q[j] + r[i] * r[j]);
            }
        }
    }
    if area.is_nan() || area <= 0.0 {
        return pca_axes(x);
    }
    let mean = first.map(|v| v / area);
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in i..3 {
            c[i][j] = second[i][j] / area - mean[i] * mean[j];
        }
    }
    axes_of(&c)
}

fn axes_of(c: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let e = symmetric_eigen(c);
    if e.values.iter().all(|v| v.is_finite()) {
        e.vectors
    } else {
        IDENTITY
    }
}
