//! The reduction of a clipped polygon to 4 points.

use super::*;

/// Keeps 4 of up to 8 points (depths `hf - z`): the deepest, the farthest from it, and on each
/// side of that diagonal the point spanning the largest triangle with it (largest area, order
/// kept).
#[inline(never)]
pub(super) fn reduce(pts: &mut Poly, hf: Real) {
    let n = pts.len.min(8);
    let [i0, i1, mut i2, mut i3] = match reduce_picks_lanes(pts, hf, n) {
        Some(p) => p,
        None => reduce_picks(pts, hf, n),
    };
    let (px, py) = (&pts.x, &pts.y);
    let (x0, y0) = (px[i0], py[i0]);
    let (x1, y1) = (px[i1], py[i1]);
    let area = |a: (Real, Real), b: (Real, Real), c: (Real, Real)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    // Degenerate sides (all points on one side or on the diagonal): fill with the point that
    // spans the most area with the points already kept.
    for _ in 0..2 {
        if i2 != usize::MAX && i3 != usize::MAX {
            break;
        }
        let k = if i2 != usize::MAX { i2 } else { i0 };
        let (mut bi, mut ba) = (usize::MAX, -1.0);
        for i in 0..n {
            if i == i0 || i == i1 || i == i2 || i == i3 {
                continue;
            }
            let p = (px[i], py[i]);
            let pk = (px[k], py[k]);
            let a = area((x0, y0), pk, p).abs() + area((x1, y1), pk, p).abs();
            if a > ba {
                (bi, ba) = (i, a);
            }
        }
        if i2 == usize::MAX {
            i2 = bi;
        } else {
            i3 = bi;
        }
    }
    // Keep the four in their order: the kept indices as bits, walked upwards (a side without
    // a point, `usize::MAX`, keeps nothing).
    let bit = |i: usize| if i < 8 { 1u32 << i } else { 0 };
    let mut keep = bit(i0) | bit(i1) | bit(i2) | bit(i3);
    let mut w = 0;
    while keep != 0 {
        let i = keep.trailing_zeros() as usize & 7;
        keep &= keep - 1;
        pts.x[w] = pts.x[i];
        pts.y[w] = pts.y[i];
        pts.z[w] = pts.z[i];
        pts.id[w] = pts.id[i];
        w += 1;
    }
    pts.len = w;
}

/// The first four picks of [`reduce`] by the plain loops: the deepest point, the farthest from
/// it, and on each side of that diagonal the point spanning the largest triangle with it
/// (`usize::MAX` when a side has none). The loops select with comparisons rather than branch
/// on them; each pick is the first maximum, in order.
#[cold]
#[inline(never)]
pub(super) fn reduce_picks(pts: &Poly, hf: Real, n: usize) -> [usize; 4] {
    let (px, py) = (&pts.x, &pts.y);
    let mut i0 = 0;
    let mut d0 = hf - pts.z[0];
    for i in 1..n {
        let d = hf - pts.z[i];
        let better = d > d0;
        i0 = if better { i } else { i0 };
        d0 = if better { d } else { d0 };
    }
    let (x0, y0) = (px[i0], py[i0]);
    let mut i1 = if i0 == 0 { 1 } else { 0 };
    let mut best = -1.0;
    for i in 0..n {
        let (x, y) = (px[i], py[i]);
        let d = (x - x0) * (x - x0) + (y - y0) * (y - y0);
        let better = i != i0 && d > best;
        i1 = if better { i } else { i1 };
        best = if better { d } else { best };
    }
    let (x1, y1) = (px[i1], py[i1]);
    let area = |a: (Real, Real), b: (Real, Real), c: (Real, Real)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    // Largest triangle on the positive side of the diagonal, then on the negative side.
    let (mut i2, mut a2) = (usize::MAX, 0.0);
    let (mut i3, mut a3) = (usize::MAX, 0.0);
    for i in 0..n {
        let a = area((x0, y0), (x1, y1), (px[i], py[i]));
        let other = i != i0 && i != i1;
        let pos = other && a > a2;
        let neg = other && a < a3;
        i2 = if pos { i } else { i2 };
        a2 = if pos { a } else { a2 };
        i3 = if neg { i } else { i3 };
        a3 = if neg { a } else { a3 };
    }
    [i0, i1, i2, i3]
}

/// The picks of [`reduce_picks`] with the 8 points in two lane groups: the same arithmetic per
/// point, each pick the first lane holding the extreme value (which is what the loops' strict
/// comparisons select, `-0 == 0` included); lanes past `n` and the points already picked are
/// masked out (`-inf` for the maxima, `0` for the areas, which must beat `0` strictly to count).
/// `None` when a depth, distance or area is NaN: the loops skip NaN in their own way, and the
/// caller runs them then.
#[inline(always)]
pub(super) fn reduce_picks_lanes(pts: &Poly, hf: Real, n: usize) -> Option<[usize; 4]> {
    let idx = [V4::new(0.0, 1.0, 2.0, 3.0), V4::new(4.0, 5.0, 6.0, 7.0)];
    let nf = n as Real;
    let valid = (1u32 << n) - 1;
    let ninf = V4::splat(-Real::INFINITY);
    let zero = V4::splat(0.0);
    let (xl, yl) = (
        [lanes9(&pts.x, 0), lanes9(&pts.x, 4)],
        [lanes9(&pts.y, 0), lanes9(&pts.y, 4)],
    );
    let hfv = V4::splat(hf);
    // Lanes that are not NaN (equal to themselves), as bits.
    let not_nan = |v: &[V4; 2]| v[0].eq_mask(v[0]) | (v[1].eq_mask(v[1]) << 4);
    // The first allowed lane equal to `m` (which holds the extreme value in every lane).
    let first_eq = |v: &[V4; 2], m: V4, allowed: u32| {
        ((v[0].eq_mask(m) | (v[1].eq_mask(m) << 4)) & allowed).trailing_zeros() as usize & 7
    };
    // The deepest point.
    let d = [
        (hfv - lanes9(&pts.z, 0)).where_lt(idx[0], nf, ninf),
        (hfv - lanes9(&pts.z, 4)).where_lt(idx[1], nf, ninf),
    ];
    let i0 = first_eq(&d, d[0].max(d[1]).all_max(), valid);
    // The farthest from it. (A NaN anywhere makes the picks meaningless but in bounds: they
    // are dropped below, one test for the three steps.)
    let (x0, y0) = (pts.x[i0], pts.y[i0]);
    let (x0v, y0v) = (V4::splat(x0), V4::splat(y0));
    let mut dist = [zero; 2];
    for h in 0..2 {
        let (dx, dy) = (xl[h] - x0v, yl[h] - y0v);
        dist[h] = (dx * dx + dy * dy)
            .where_lt(idx[h], nf, ninf)
            .unless_eq(idx[h], i0 as Real, ninf);
    }
    let i1 = first_eq(&dist, dist[0].max(dist[1]).all_max(), valid & !(1 << i0));
    // The largest triangles on either side of the diagonal.
    let (x1, y1) = (pts.x[i1], pts.y[i1]);
    let (ex, ey) = (V4::splat(x1 - x0), V4::splat(y1 - y0));
    let mut area = [zero; 2];
    for h in 0..2 {
        area[h] = (ex * (yl[h] - y0v) - ey * (xl[h] - x0v))
            .where_lt(idx[h], nf, zero)
            .unless_eq(idx[h], i0 as Real, zero)
            .unless_eq(idx[h], i1 as Real, zero);
    }
    if not_nan(&d) & not_nan(&dist) & not_nan(&area) != 0xff {
        return None;
    }
    let others = valid & !(1 << i0) & !(1 << i1);
    let hi = area[0].max(area[1]).all_max();
    let lo = area[0].min(area[1]).all_min();
    let i2 = if hi.first() > 0.0 {
        first_eq(&area, hi, others)
    } else {
        usize::MAX
    };
    let i3 = if lo.first() < 0.0 {
        first_eq(&area, lo, others)
    } else {
        usize::MAX
    };
    Some([i0, i1, i2, i3])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane picks of the reduction are those of the plain loops whenever they answer (and
    /// they answer unless a value is NaN): on random polygons of 5 to 8 points, on points
    /// snapped to a coarse grid (ties in depth, distance and area, collinear points, `-0`),
    /// and with infinite or NaN coordinates.
    #[test]
    fn reduce_lanes_match_the_loops() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut answered, mut total) = (0, 0);
        for trial in 0..200_000 {
            let mut pts = Poly::empty();
            let n = 5 + trial % 4;
            pts.len = n;
            // Stale values past `n`, as a clipped polygon leaves them.
            for k in 0..9 {
                pts.x[k] = rng.random_range(-2.0..2.0);
                pts.y[k] = rng.random_range(-2.0..2.0);
                pts.z[k] = rng.random_range(-0.5..0.5);
            }
            match trial % 5 {
                // A coarse grid: ties everywhere.
                1 | 2 => {
                    for k in 0..9 {
                        pts.x[k] = (pts.x[k] * 2.0).round() * 0.5;
                        pts.y[k] = (pts.y[k] * 2.0).round() * 0.5;
                        pts.z[k] = (pts.z[k] * 4.0).round() * 0.25;
                    }
                    if trial % 10 == 1 {
                        pts.x[trial / 10 % n] = -0.0;
                    }
                }
                // An infinite or NaN coordinate.
                3 => {
                    let v = [Real::INFINITY, -Real::INFINITY, Real::NAN][trial / 5 % 3];
                    match trial / 15 % 3 {
                        0 => pts.x[trial / 45 % n] = v,
                        1 => pts.y[trial / 45 % n] = v,
                        _ => pts.z[trial / 45 % n] = v,
                    }
                }
                _ => {}
            }
            let hf = 0.25;
            total += 1;
            let Some(lanes) = reduce_picks_lanes(&pts, hf, n) else {
                continue;
            };
            answered += 1;
            assert_eq!(
                lanes,
                reduce_picks(&pts, hf, n),
                "trial {trial}: {:?}",
                pts.x
            );
        }
        // Only the NaN cases (part of the fifth with an infinite or NaN value) hand over.
        assert!(answered * 10 >= total * 9, "{answered} of {total}");
    }
}
