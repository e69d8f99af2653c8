//! The symmetric 3x3 eigenproblem by cyclic Jacobi rotations, in `f64`.
//!
//! Jacobi is slower than a closed-form cubic but it is the robust choice: every step is an exact
//! rotation, so the eigenvectors come out orthonormal to rounding whatever the spectrum, including
//! repeated and zero eigenvalues where closed forms lose orthogonality. A matrix that is already
//! diagonal in some coordinates is left alone in them (a zero off-diagonal entry is never
//! rotated), so axis-aligned inputs give exactly axis-aligned eigenvectors.
//! (Golub & Van Loan, *Matrix Computations*, 4th ed., §8.5.)

/// Eigenvalues and eigenvectors of a symmetric 3x3 matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SymmetricEigen {
    /// The eigenvalues, largest first.
    pub values: [f64; 3],
    /// The unit eigenvectors, `vectors[k]` for `values[k]`; orthonormal and right-handed
    /// (`v0 × v1 = v2`), each with its largest-magnitude component positive (first such
    /// component on ties) except that `v2` follows from the handedness.
    pub vectors: [[f64; 3]; 3],
}

/// The eigen-decomposition of the symmetric matrix `m` (only its upper triangle is read).
/// Deterministic; non-finite input gives the identity vectors and NaN values.
pub fn symmetric_eigen(m: &[[f64; 3]; 3]) -> SymmetricEigen {
    let mut a = [
        [m[0][0], m[0][1], m[0][2]],
        [m[0][1], m[1][1], m[1][2]],
        [m[0][2], m[1][2], m[2][2]],
    ];
    // v's columns are the eigenvectors.
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    if !a.iter().flatten().all(|x| x.is_finite()) {
        return SymmetricEigen {
            values: [f64::NAN; 3],
            vectors: v,
        };
    }
    for _sweep in 0..64 {
        let off = a[0][1].abs() + a[0][2].abs() + a[1][2].abs();
        if off == 0.0 {
            break;
        }
        let mut rotated = false;
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            let apq = a[p][q];
            if apq == 0.0 {
                continue;
            }
            let (app, aqq) = (a[p][p], a[q][q]);
            // Skip entries that are negligible against both diagonal entries (they can no
            // longer change them).
            let tiny = f64::EPSILON * f64::EPSILON * (app.abs() + aqq.abs());
            if apq.abs() <= tiny {
                a[p][q] = 0.0;
                a[q][p] = 0.0;
                continue;
            }
            rotated = true;
            // The rotation angle that zeroes a[p][q]: t = tan(theta), the smaller root.
            let theta = (aqq - app) / (2.0 * apq);
            let t = if theta.abs() > 1e150 {
                0.5 / theta // theta^2 would overflow; t ~ 1/(2 theta)
            } else {
                theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt())
            };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for k in 0..3 {
                let (akp, akq) = (a[k][p], a[k][q]);
                a[k][p] = c * akp - s * akq;
                a[k][q] = s * akp + c * akq;
            }
            for k in 0..3 {
                let (apk, aqk) = (a[p][k], a[q][k]);
                a[p][k] = c * apk - s * aqk;
                a[q][k] = s * apk + c * aqk;
            }
            a[p][q] = 0.0;
            a[q][p] = 0.0;
            for row in v.iter_mut() {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
        if !rotated {
            break;
        }
    }
    let mut order = [0usize, 1, 2];
    // Stable sort: equal eigenvalues keep their coordinate order (determinism on ties).
    order.sort_by(|&i, &j| a[j][j].total_cmp(&a[i][i]));
    let col = |k: usize| [v[0][k], v[1][k], v[2][k]];
    let values = order.map(|k| a[k][k]);
    let e0 = canonical_sign(col(order[0]));
    let e1 = canonical_sign(col(order[1]));
    let e2 = cross(&e0, &e1);
    SymmetricEigen {
        values,
        vectors: [e0, e1, normalize(&e2).unwrap_or(col(order[2]))],
    }
}

/// `v` or `-v`, whichever has its largest-magnitude component (the first on ties) positive.
pub(crate) fn canonical_sign(v: [f64; 3]) -> [f64; 3] {
    let mut k = 0;
    for i in 1..3 {
        if v[i].abs() > v[k].abs() {
            k = i;
        }
    }
    if v[k] < 0.0 {
        [-v[0], -v[1], -v[2]]
    } else {
        v
    }
}

pub(crate) fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(crate) fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn sub(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `v / |v|`, `None` for a zero or non-finite vector. Exact zero components stay zero, so an
/// axis-aligned vector normalises to an exact unit coordinate vector.
pub(crate) fn normalize(v: &[f64; 3]) -> Option<[f64; 3]> {
    let m = v[0].abs().max(v[1].abs()).max(v[2].abs());
    if !(m > 0.0 && m.is_finite()) {
        return None;
    }
    let w = [v[0] / m, v[1] / m, v[2] / m];
    let n = dot(&w, &w).sqrt();
    Some([w[0] / n, w[1] / n, w[2] / n])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(m: [[f64; 3]; 3]) -> SymmetricEigen {
        let e = symmetric_eigen(&m);
        let scale = m
            .iter()
            .flatten()
            .fold(0.0f64, |a, b| a.max(b.abs()))
            .max(1e-300);
        for k in 0..3 {
            let v = e.vectors[k];
            let mv = [dot(&m[0], &v), dot(&m[1], &v), dot(&m[2], &v)];
            for i in 0..3 {
                assert!(
                    (mv[i] - e.values[k] * v[i]).abs() <= 1e-12 * scale,
                    "m = {m:?}, e = {e:?}"
                );
            }
            for j in 0..3 {
                let d = dot(&v, &e.vectors[j]) - if j == k { 1.0 } else { 0.0 };
                assert!(d.abs() < 1e-14, "not orthonormal: {e:?}");
            }
        }
        assert!(e.values[0] >= e.values[1] && e.values[1] >= e.values[2]);
        let c = cross(&e.vectors[0], &e.vectors[1]);
        assert!(dot(&c, &e.vectors[2]) > 0.999_999);
        e
    }

    #[test]
    fn diagonal_and_repeated_eigenvalues() {
        let e = check([[2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 1.0]]);
        assert_eq!(e.vectors[0], [0.0, 1.0, 0.0]);
        assert_eq!(e.vectors[1], [1.0, 0.0, 0.0]);
        check([[1.0; 3]; 3]); // eigenvalues 3, 0, 0
        check([[0.0; 3]; 3]);
        check([[5.0, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 5.0]]);
        check([[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 3.0]]); // 3, 3, 1
    }

    #[test]
    fn random_and_ill_scaled() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        for i in 0..2000 {
            let s = 10f64.powi(i % 13 - 6);
            let mut m = [[0.0; 3]; 3];
            for r in 0..3 {
                for c in r..3 {
                    m[r][c] = next() * s;
                    m[c][r] = m[r][c];
                }
            }
            let a = check(m);
            let b = symmetric_eigen(&m);
            assert_eq!(a, b, "deterministic");
        }
    }
}
