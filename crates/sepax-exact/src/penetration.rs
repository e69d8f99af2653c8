//! Exact depths of two boxes along given directions (the penetration reference of the contact
//! suites).
//!
//! For a direction `n != 0` the overlap of the projections of two boxes is
//! `s(n) = Σ_k |n·g_k| − |n·p|` (generators `g_k = h_k a_k` of both boxes, `p = cB − cA`), and
//! `s(n)/|n|` is the depth along `n`: how far `B` must move along `±n` for the projections to
//! stop overlapping (negative: the gap along `n`). The penetration depth of intersecting boxes
//! is the minimum of `s(n)/|n|` over all directions, attained on a facet normal of the zonotope
//! (see [`crate::box_box`], whose `-margin` is that minimum); every other direction gives an
//! upper bound. The values here are exact up to the final rounding to `f64`.

use crate::box_box::ExactAxis;
use crate::boxes::ExactBox;
use crate::dyadic::Dyadic;
use crate::vector::{cross, dot, dvec, is_zero, norm2, sub, DVec, SignedRoot};

fn depth_along(a: &ExactBox, b: &ExactBox, n: &DVec) -> Option<f64> {
    if is_zero(n) {
        return None;
    }
    let p = sub(b.center(), a.center());
    let mut s = -dot(n, &p).abs();
    for g in a.generators().iter().chain(b.generators().iter()) {
        s = &s + &dot(n, g).abs();
    }
    Some(SignedRoot::over_root(&s, norm2(n)).to_f64())
}

/// The depth of the pair along the direction `n` (any length), exactly computed and rounded:
/// `s(n)/|n|`, see the module docs. `None` for the zero vector.
#[must_use]
pub fn box_depth_along(a: &ExactBox, b: &ExactBox, n: [f64; 3]) -> Option<f64> {
    depth_along(a, b, &dvec(n))
}

/// The depths along the 15 SAT axes in the order FaceA(0..3) (the stored axis `a_i`), FaceB(0..3)
/// (`b_j`), Edge(i, j) row-major (`a_i × b_j`), with their labels; `None` where the axis is the
/// zero vector (parallel edges, exactly).
#[must_use]
pub fn box_axis_depths(a: &ExactBox, b: &ExactBox) -> [(ExactAxis, Option<f64>); 15] {
    let ua: [DVec; 3] = a.axes().map(dvec);
    let ub: [DVec; 3] = b.axes().map(dvec);
    core::array::from_fn(|k| match k {
        0..=2 => (ExactAxis::FaceA(k), depth_along(a, b, &ua[k])),
        3..=5 => (ExactAxis::FaceB(k - 3), depth_along(a, b, &ub[k - 3])),
        _ => {
            let (i, j) = ((k - 6) / 3, (k - 6) % 3);
            (
                ExactAxis::Edge(i, j),
                depth_along(a, b, &cross(&ua[i], &ub[j])),
            )
        }
    })
}

/// Whether `depth` is the exact depth along `n` within `tol`: `|s(n)/|n| − depth| <= tol`,
/// decided exactly.
#[must_use]
pub fn box_depth_along_within(
    a: &ExactBox,
    b: &ExactBox,
    n: [f64; 3],
    depth: f64,
    tol: f64,
) -> bool {
    let n = dvec(n);
    if is_zero(&n) {
        return false;
    }
    let p = sub(b.center(), a.center());
    let mut s = -dot(&n, &p).abs();
    for g in a.generators().iter().chain(b.generators().iter()) {
        s = &s + &dot(&n, g).abs();
    }
    // |s - depth |n|| <= tol |n|  <=>  both s - (depth - tol)|n| >= 0 and (depth + tol)|n| - s >= 0.
    let n2 = norm2(&n);
    let ge = |x: &Dyadic, c: f64| {
        // x >= c |n|, exactly.
        let c = Dyadic::from_f64(c);
        match (x.is_negative(), c.is_negative()) {
            (false, true) => true,
            (true, false) => x.is_zero() && c.is_zero(),
            (false, false) => x.square() >= &c.square() * &n2,
            (true, true) => x.square() <= &c.square() * &n2,
        }
    };
    ge(&s, depth - tol) && !ge(&s, depth + tol) || {
        // equality at the upper end counts as within
        let c = Dyadic::from_f64(depth + tol);
        !c.is_negative() && !s.is_negative() && s.square() == &c.square() * &n2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const I: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

    #[test]
    fn depths_of_axis_aligned_boxes() {
        // Unit cubes overlapping by 0.25 in x, 0.5 in y, 1 in z (coincident in z).
        let a = ExactBox::new([0.0, 0.0, 0.0], I, [0.5, 0.5, 0.5]);
        let b = ExactBox::new([0.75, 0.5, 0.0], I, [0.5, 0.5, 0.5]);
        assert_eq!(box_depth_along(&a, &b, [1.0, 0.0, 0.0]), Some(0.25));
        assert_eq!(box_depth_along(&a, &b, [0.0, -3.0, 0.0]), Some(0.5));
        assert_eq!(box_depth_along(&a, &b, [0.0, 0.0, 1.0]), Some(1.0));
        assert_eq!(box_depth_along(&a, &b, [0.0, 0.0, 0.0]), None);
        // Diagonal: projections of the cubes have radius sqrt(2)/2 each, centres 1.25/sqrt(2)
        // apart along (1, 1, 0)/sqrt(2): depth sqrt(2) - 1.25 / sqrt(2).
        let d = box_depth_along(&a, &b, [1.0, 1.0, 0.0]).unwrap();
        let want = 2f64.sqrt() - 1.25 / 2f64.sqrt();
        assert!((d - want).abs() < 1e-15, "{d} {want}");
        assert!(box_depth_along_within(&a, &b, [1.0, 0.0, 0.0], 0.25, 0.0));
        assert!(box_depth_along_within(&a, &b, [1.0, 0.0, 0.0], 0.2, 0.05));
        assert!(!box_depth_along_within(&a, &b, [1.0, 0.0, 0.0], 0.2, 0.04));
        // Parallel edges give no edge axes; the face axes are the least depths.
        let all = box_axis_depths(&a, &b);
        assert_eq!(all[0], (ExactAxis::FaceA(0), Some(0.25)));
        assert_eq!(all[4], (ExactAxis::FaceB(1), Some(0.5)));
        assert_eq!(all[6], (ExactAxis::Edge(0, 0), None));
        // Edge(0, 1): x cross y = z, along which the cubes overlap fully.
        assert_eq!(all[7], (ExactAxis::Edge(0, 1), Some(1.0)));
    }

    #[test]
    fn separated_boxes_have_negative_depth() {
        let a = ExactBox::new([0.0, 0.0, 0.0], I, [0.5, 0.5, 0.5]);
        let b = ExactBox::new([0.0, 1.5, 0.0], I, [0.5, 0.5, 0.5]);
        assert_eq!(box_depth_along(&a, &b, [0.0, 1.0, 0.0]), Some(-0.5));
    }
}
