//! OBB–OBB: the filter of `sepax_narrowphase::sat::fast` lane-wise, then the scalar certified
//! test for the lanes it leaves undecided.
//!
//! Every lane performs the scalar filter's operations in the scalar filter's order (the
//! comment above each line is the scalar line it replaces), so its slacks, its bound `E` and
//! therefore its verdict are bit-identical to `fast::obb_obb`. Only the minimum of the slacks
//! is taken in another order, which cannot change it (the slacks are never NaN when `E` is
//! finite, and signed zeros compare equal). Lanes the filter cannot decide go to
//! `sepax_narrowphase::intersect::intersects`, so every answer equals the scalar answer.

use super::blocks::ObbBlocks;
use super::lanes::{arr3, first_lanes, Lane, LaneMask, LANES};
use super::soa::{ObbLanes, ObbSoa};
use super::PairKernel;
use sepax_narrowphase::sat::fast::{FILTER_DEFECT_FACTOR, FILTER_ROUNDING_FACTOR};
use sepax_shapes::math::Real;
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::Obb;

/// OBB–OBB on [`ObbSoa`] batches.
pub(crate) struct ObbObb;

/// The filter's verdict per lane: `(separated, overlapping)`; a lane in neither is undecided.
#[inline(always)]
pub(crate) fn filter<V: Lane>(a: &ObbLanes<V>, b: &ObbLanes<V>) -> (LaneMask, LaneMask) {
    // d = b.center() - a.center()
    let d: [V; 3] = arr3!(k => b.center[k] - a.center[k]);
    let (ha, hb) = (&a.half, &b.half);
    // bound(): s = ha.x + ha.y + ha.z + hb.x + hb.y + hb.z + |d.x| + |d.y| + |d.z| + residue
    let s = ha[0]
        + ha[1]
        + ha[2]
        + hb[0]
        + hb[1]
        + hb[2]
        + d[0].abs()
        + d[1].abs()
        + d[2].abs()
        + V::splat(0.0);
    // (FILTER_ROUNDING_FACTOR * UNIT_ROUNDOFF + FILTER_DEFECT_FACTOR * defects) * s,
    // defects = a.axes_error() + b.axes_error(); NaN (undecided) unless s < MAX / 64.
    let defects = a.axes_error + b.axes_error;
    let e = (V::splat(FILTER_ROUNDING_FACTOR * UNIT_ROUNDOFF)
        + V::splat(FILTER_DEFECT_FACTOR) * defects)
        * s;
    let finite = s.lt(V::splat(Real::MAX * (1.0 / 64.0)));
    // Rows of A: lane i of `arow(c)` is component c of a_i; here `a.axes[i][c]`.
    let aa = &a.axes;
    let bb = &b.axes;
    // rcol(j) = a0 * b[(0, j)] + a1 * b[(1, j)] + a2 * b[(2, j)]: r[i][j] = R_ij = a_i . b_j.
    let r: [[V; 3]; 3] = arr3!(i => {
        arr3!(j => aa[i][0] * bb[j][0] + aa[i][1] * bb[j][1] + aa[i][2] * bb[j][2])
    });
    // t = a0 * d.x + a1 * d.y + a2 * d.z
    let t: [V; 3] = arr3!(i => aa[i][0] * d[0] + aa[i][1] * d[1] + aa[i][2] * d[2]);
    let ar: [[V; 3]; 3] = arr3!(i => arr3!(j => r[i][j].abs()));
    // Faces of A: h_A,i + h_B,x |R_i0| + h_B,y |R_i1| + h_B,z |R_i2| - |t_i|.
    let face_a: [V; 3] =
        arr3!(i => ha[i] + hb[0] * ar[i][0] + hb[1] * ar[i][1] + hb[2] * ar[i][2] - t[i].abs());
    let mut m = face_a[0].min(face_a[1]).min(face_a[2]);
    // Early out: the verdict `m < -e` can only become more certain as slacks are added to the
    // minimum, so when every lane is already separated by a face of A the remaining twelve
    // axes cannot change any lane's verdict (the scalar filter's answer is the same: its
    // minimum over all fifteen slacks is at most this one).
    let minus_e = V::splat(0.0) - e;
    let separated = m.lt(minus_e) & finite;
    if separated == first_lanes(LANES) {
        return (separated, 0);
    }
    // Faces of B: tb_j = t0 R_0j + t1 R_1j + t2 R_2j;
    // h_A,x |R_0j| + h_A,y |R_1j| + h_A,z |R_2j| + h_B,j - |tb_j|.
    for j in 0..3 {
        let tb = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        let face_b = ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j] + hb[j] - tb.abs();
        m = m.min(face_b);
    }
    let separated = m.lt(minus_e) & finite;
    if separated == first_lanes(LANES) {
        return (separated, 0);
    }
    // Edges a_i x b_j, with i1 = i+1, i2 = i+2, j1 = j+1, j2 = j+2 (mod 3):
    //   ra = h_A,i1 |R_i2,j| + h_A,i2 |R_i1,j|
    //   rb = h_B,j1 |R_i,j2| + h_B,j2 |R_i,j1|
    //   tl = t_i2 R_i1,j - t_i1 R_i2,j
    //   slack = ra + rb - |tl|
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = ha[i1] * ar[i2][j] + ha[i2] * ar[i1][j];
            let rb = hb[j1] * ar[i][j2] + hb[j2] * ar[i][j1];
            let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            m = m.min(ra + rb - tl.abs());
        }
    }
    // m < -e => Separated, m > e => Overlapping (both false for a NaN e).
    (m.lt(minus_e) & finite, m.gt(e) & finite)
}

impl PairKernel for ObbObb {
    type A = ObbSoa;
    type B = ObbSoa;
    #[inline(always)]
    fn lanes<L: Lane>(a: &ObbLanes<L>, b: &ObbLanes<L>) -> (LaneMask, LaneMask) {
        let (separated, overlapping) = filter(a, b);
        (overlapping, !(separated | overlapping))
    }
    #[inline]
    fn scalar(a: &Obb, b: &Obb) -> bool {
        sepax_narrowphase::intersect::intersects(a, b)
    }
}

/// OBB–OBB on [`ObbBlocks`] batches: the same lanes as [`ObbObb`], loaded from blocks.
pub(crate) struct ObbObbBlocks;

impl PairKernel for ObbObbBlocks {
    type A = ObbBlocks;
    type B = ObbBlocks;
    #[inline(always)]
    fn lanes<L: Lane>(a: &ObbLanes<L>, b: &ObbLanes<L>) -> (LaneMask, LaneMask) {
        ObbObb::lanes(a, b)
    }
    #[inline]
    fn scalar(a: &Obb, b: &Obb) -> bool {
        ObbObb::scalar(a, b)
    }
}

#[cfg(test)]
#[path = "../../../sepax-narrowphase/tests/common/mod.rs"]
mod common;

#[cfg(test)]
mod tests {
    use super::common::{Gen, CATEGORIES};
    use super::*;
    use crate::batch::lanes::LANES;
    use crate::batch::soa::Batch;
    use sepax_narrowphase::sat::fast::{self, FastVerdict};

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
                let (sep, ovl) = filter::<super::super::lanes::V>(&sa.load(start), &sb.load(start));
                // The blocked layout loads the same lanes (the padding lanes past the end
                // hold zeros in both layouts).
                let blocked = filter::<super::super::lanes::V>(&ba.load(start), &bb.load(start));
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
