//! OBB–OBB: the filter of `crate::sat::fast` lane-wise, then the scalar certified
//! test for the lanes it leaves undecided.
//!
//! Every lane performs the scalar filter's operations in the scalar filter's order (both are
//! the formulas of `crate::sat::axes`), so its slacks, its bound `E` and
//! therefore its verdict are bit-identical to `fast::obb_obb`. Only the minimum of the slacks
//! is taken in another order, which cannot change it (the slacks are never NaN when `E` is
//! finite, and signed zeros compare equal). Lanes the filter cannot decide go to
//! `crate::intersect::intersects`, so every answer equals the scalar answer.

use super::blocks::ObbBlocks;
use super::lanes::{arr3, first_lanes, Lane256, LaneMask, LANES};
use super::soa::{ObbLanes, ObbSoa};
use super::PairKernel;
use crate::sat::axes;
use sepax_shapes::Obb;

/// OBB–OBB on [`ObbSoa`] batches.
pub(crate) struct ObbObb;

/// The filter's verdict per lane: `(separated, overlapping)`; a lane in neither is undecided.
/// The slacks, the bound and the verdict are those of `fast::obb_obb` (the formulas of
/// `sat/axes.rs`, lanes = pairs).
#[inline(always)]
pub(crate) fn filter<V: Lane256>(a: &ObbLanes<V>, b: &ObbLanes<V>) -> (LaneMask, LaneMask) {
    // The lanes copied field by field, as the scalar code reads them.
    let w3 = |v: &[V; 3]| [v[0], v[1], v[2]];
    let d: [V; 3] = arr3!(k => b.center[k] - a.center[k]);
    let (ha, hb) = (w3(&a.half), w3(&b.half));
    let s = axes::filter_scale(ha, hb, d, V::splat(0.0));
    // NaN (undecided) unless s < MAX / 64.
    let e = axes::filter_bound(a.axes_error + b.axes_error, s);
    let finite = s.lt_mask(V::splat(sepax_shapes::tolerance::FILTER_SCALE_LIMIT));
    let (aa, bb) = (arr3!(i => w3(&a.axes[i])), arr3!(j => w3(&b.axes[j])));
    // r[i][j] = R_ij = a_i . b_j, t = A^T d.
    let r: [[V; 3]; 3] = arr3!(i => arr3!(j => axes::dot(aa[i], bb[j])));
    let t: [V; 3] = arr3!(i => axes::dot(aa[i], d));
    let ar: [[V; 3]; 3] = arr3!(i => arr3!(j => r[i][j].abs()));
    let face_a: [V; 3] = arr3!(i => axes::face_a(ha[i], hb, ar[i], t[i]));
    let mut m = face_a[0].min(face_a[1]).min(face_a[2]);
    // Early out: the verdict `m < -e` can only become more certain as slacks are added to the
    // minimum, so when every lane is already separated by a face of A the remaining twelve
    // axes cannot change any lane's verdict (the scalar filter's answer is the same: its
    // minimum over all fifteen slacks is at most this one).
    let minus_e = V::splat(0.0) - e;
    let separated = m.lt_mask(minus_e) & finite;
    if separated == first_lanes(LANES) {
        return (separated, 0);
    }
    for j in 0..3 {
        let tb = axes::dot(t, [r[0][j], r[1][j], r[2][j]]);
        m = m.min(axes::face_b(ha, [ar[0][j], ar[1][j], ar[2][j]], hb[j], tb));
    }
    let separated = m.lt_mask(minus_e) & finite;
    if separated == first_lanes(LANES) {
        return (separated, 0);
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let slack = axes::edge(
                [ha[i1], ha[i2]],
                [ar[i2][j], ar[i1][j]],
                [hb[j1], hb[j2]],
                [ar[i][j2], ar[i][j1]],
                [t[i2], t[i1]],
                [r[i1][j], r[i2][j]],
            );
            m = m.min(slack);
        }
    }
    // m < -e => Separated, m > e => Overlapping (both false for a NaN e).
    (m.lt_mask(minus_e) & finite, m.gt_mask(e) & finite)
}

impl PairKernel for ObbObb {
    type A = ObbSoa;
    type B = ObbSoa;
    #[inline(always)]
    fn lanes<L: Lane256>(a: &ObbLanes<L>, b: &ObbLanes<L>) -> (LaneMask, LaneMask) {
        let (separated, overlapping) = filter(a, b);
        (overlapping, !(separated | overlapping))
    }
    #[inline]
    fn scalar(a: &Obb, b: &Obb) -> bool {
        crate::intersect::intersects(a, b)
    }
}

/// OBB–OBB on [`ObbBlocks`] batches: the same lanes as [`ObbObb`], loaded from blocks.
pub(crate) struct ObbObbBlocks;

impl PairKernel for ObbObbBlocks {
    type A = ObbBlocks;
    type B = ObbBlocks;
    #[inline(always)]
    fn lanes<L: Lane256>(a: &ObbLanes<L>, b: &ObbLanes<L>) -> (LaneMask, LaneMask) {
        ObbObb::lanes(a, b)
    }
    #[inline]
    fn scalar(a: &Obb, b: &Obb) -> bool {
        ObbObb::scalar(a, b)
    }
}

#[cfg(test)]
use sepax_testkit as common;

#[cfg(test)]
mod tests {
    use super::common::{Gen, CATEGORIES};
    use super::*;
    use crate::batch::lanes::LANES;
    use crate::batch::soa::Batch;
    use crate::sat::fast::{self, FastVerdict};

    /// Each lane's verdict is the scalar filter's verdict, on every adversarial category.
    #[test]
    fn lane_verdicts_equal_the_scalar_filter() {
        let mut g = Gen::new(0x0bb5);
        let mut undecided = 0;
        for cat in CATEGORIES {
            let pairs: Vec<(Obb, Obb)> = (0..3000)
                .map(|_| {
                    let (a, b) = g.pair(cat);
                    (a.as_obb(), b.as_obb())
                })
                .collect();
            let sa = ObbSoa::from_slice(&pairs.iter().map(|p| p.0).collect::<Vec<_>>());
            let sb = ObbSoa::from_slice(&pairs.iter().map(|p| p.1).collect::<Vec<_>>());
            let ba = ObbBlocks::from_slice(&pairs.iter().map(|p| p.0).collect::<Vec<_>>());
            let bb = ObbBlocks::from_slice(&pairs.iter().map(|p| p.1).collect::<Vec<_>>());
            for start in (0..pairs.len()).step_by(LANES) {
                let (sep, ovl) = filter::<sepax_simd::V>(&sa.load(start), &sb.load(start));
                // The blocked layout loads the same lanes (the padding lanes past the end
                // hold zeros in both layouts).
                let blocked = filter::<sepax_simd::V>(&ba.load(start), &bb.load(start));
                assert_eq!(blocked, (sep, ovl), "{cat:?} step {start}");
                for k in 0..LANES.min(pairs.len() - start) {
                    let (a, b) = &pairs[start + k];
                    let lane = match (sep >> k & 1, ovl >> k & 1) {
                        (1, 0) => FastVerdict::Separated,
                        (0, 1) => FastVerdict::Overlapping,
                        (0, 0) => FastVerdict::Undecided,
                        _ => panic!("lane both separated and overlapping"),
                    };
                    assert_eq!(
                        lane,
                        fast::obb_obb(a, b),
                        "{cat:?} pair {}: {a:?} {b:?}",
                        start + k
                    );
                    undecided += (lane == FastVerdict::Undecided) as usize;
                }
            }
        }
        // The adversarial categories must exercise the fallback.
        assert!(undecided > 100, "only {undecided} undecided pairs");
    }
}
