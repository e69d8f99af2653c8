//! The batch manifold API: the axis selection of four OBB–OBB pairs at once (eight with AVX2
//! in `f32`), one pair per lane.
//!
//! Structure of arrays: every quantity of the single-pair selection ([`Local::new`],
//! [`Local::axis`]) is one [`V4`] whose lane `p` belongs to pair `p` of the group, computed by
//! the same IEEE operations in the same order, so each lane holds the single path's bits. The
//! argmins are compare-select chains (strict `<` in the scalar order keeps the first minimum;
//! the edges' minimum value is formed exactly as the single path forms it, signed zeros
//! included), the tie-break is lane selects, and the chosen edge's values are picked by a
//! select chain over the nine edges. Nearly parallel edges that [`Local::edge_cannot_win`]
//! (in lanes here) does not rule out send their pair through the single-pair code (which then
//! runs the accurate path). Per pair, the lanes go back to the single path's per-pair layout
//! with 4x4 transposes, and the face/edge contact is [`finish_into`], the single path's own
//! code. The public function uses the lane groups in the `f32` build only ([`LANE_GROUPS`]);
//! on a CPU with AVX2 it runs them compiled for AVX2, eight pairs per group (module `avx`).

use super::*;

/// The per-lane selection of a group of pairs (four with [`V4`], eight with the AVX2 build's
/// eight-lane vector): everything [`finish_into`] needs, still in lanes, plus the lanes
/// that must take the single-pair path.
struct Group<L = V4> {
    /// `R_ij` (lanes = pairs), `r[i][j]`.
    r: [[L; 3]; 3],
    t: [L; 3],
    tb: [L; 3],
    tol: L,
    scale: L,
    defect: L,
    least: L,
    /// The chosen unit normal in A's frame.
    n: [L; 3],
    sign_b: L,
    /// Lane masks: the edge won, B's face won (over A's).
    edge_wins: u32,
    b_wins: u32,
    /// A's face, B's face and the edge `(i, j)` chosen (lane values `0.0..=2.0`).
    ia: L,
    jb: L,
    ei: L,
    ej: L,
    /// Lanes whose pair has a nearly parallel edge that may win (single-pair path).
    accurate: u32,
}

mod lane;
mod select;
use lane::*;
use select::*;

/// Four OBB pairs: their manifolds into `out` as [`manifold_into`] writes them; returns
/// how many are in contact.
#[inline(always)]
fn manifolds4(
    a: [&Obb; 4],
    b: [&Obb; 4],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    // The pairs in their canonical order, the swapped ones mirrored (see `order`).
    let (a, b, swapped) = order::order_obbs(a, b);
    finish4(a, b, &select4(a, b), config, out, swapped)
}

/// The manifolds of four OBB pairs from their selection `g` (lane `p` = pair `p`), into `out`;
/// returns how many are in contact.
#[inline(always)]
fn finish4(
    a: [&Obb; 4],
    b: [&Obb; 4],
    g: &Group,
    config: &ContactConfig,
    out: &mut [ContactManifold],
    flip: u32,
) -> usize {
    let zero = V4::splat(0.0);
    let r = &g.r;
    // Per pair: R's columns (lanes i), rows (lanes j), t and R^T t, lane 3 zero as in `Local`.
    let rc = [
        V4::transpose([r[0][0], r[1][0], r[2][0], zero]),
        V4::transpose([r[0][1], r[1][1], r[2][1], zero]),
        V4::transpose([r[0][2], r[1][2], r[2][2], zero]),
    ];
    let rr = [
        V4::transpose([r[0][0], r[0][1], r[0][2], zero]),
        V4::transpose([r[1][0], r[1][1], r[1][2], zero]),
        V4::transpose([r[2][0], r[2][1], r[2][2], zero]),
    ];
    let t = V4::transpose([g.t[0], g.t[1], g.t[2], zero]);
    let tb = V4::transpose([g.tb[0], g.tb[1], g.tb[2], zero]);
    let (tol, scale, defect, least, sign_b) = (
        g.tol.lanes(),
        g.scale.lanes(),
        g.defect.lanes(),
        g.least.lanes(),
        g.sign_b.lanes(),
    );
    let n = [g.n[0].lanes(), g.n[1].lanes(), g.n[2].lanes()];
    let (ia, jb, ei, ej) = (g.ia.lanes(), g.jb.lanes(), g.ei.lanes(), g.ej.lanes());
    // Pair p's `Local` and `Choice`, built in place (constant `p`).
    let local = |p: usize| {
        let (ah, bh) = (a[p].half(), b[p].half());
        Local {
            rc: [rc[0][p], rc[1][p], rc[2][p]],
            rcl: [rc[0][p].lanes(), rc[1][p].lanes(), rc[2][p].lanes()],
            rr: [rr[0][p], rr[1][p], rr[2][p]],
            t: t[p],
            tb: tb[p],
            ha: [ah.x, ah.y, ah.z],
            hb: [bh.x, bh.y, bh.z],
            tol: tol[p],
            scale: scale[p],
            defect: defect[p],
            fits: true,
            fa: a[p],
            fb: b[p],
        }
    };
    let choice = |p: usize| Choice {
        least: least[p],
        n: [n[0][p], n[1][p], n[2][p]],
        axis: if (g.edge_wins >> p) & 1 != 0 {
            SatAxis::Edge(ei[p] as u8, ej[p] as u8)
        } else if (g.b_wins >> p) & 1 != 0 {
            SatAxis::FaceB(jb[p] as u8)
        } else {
            SatAxis::FaceA(ia[p] as u8)
        },
        sign_b: sign_b[p],
    };
    let locals = [local(0), local(1), local(2), local(3)];
    let choices = [choice(0), choice(1), choice(2), choice(3)];
    let mut count = 0;
    for (p, o) in out.iter_mut().enumerate().take(4) {
        let l = &locals[p];
        let flip = (flip >> p) & 1 != 0;
        if (g.accurate >> p) & 1 != 0 {
            count += usize::from(single(l.fa, l.fb, config, o, flip));
            continue;
        }
        count += usize::from(finish_into(l, &choices[p], config, o, flip));
    }
    count
}

/// Whether [`manifolds_into`] runs the lane groups: in the `f32` build. In the `f64`
/// build a four-lane value takes two SSE2 registers, the lane groups' working set no longer
/// fits the registers, and they measured about 10 % slower than the per-pair path, which the
/// batch then runs for every pair (the lane-group code stays tested there by the unit tests).
const LANE_GROUPS: bool = cfg!(not(feature = "f64"));

/// A pair of the batch whose axis needs the accurate edge path: the single-pair code, out of
/// line (rare).
#[cold]
#[inline(never)]
fn single(a: &Obb, b: &Obb, config: &ContactConfig, out: &mut ContactManifold, flip: bool) -> bool {
    manifold_into_lean(a, b, config, out, flip)
}

/// The contact manifolds of many box pairs: `out[k]` receives pair `k`'s manifold exactly as
/// [`manifold_into`] writes it (bit for bit; empty `points` when the pair has none, its
/// `normal` and `depth` then left as they were), and the return value is the number of pairs
/// with a manifold.
///
/// Groups of four OBB–OBB pairs run their axis selection together, one pair per lane of
/// four-lane arithmetic (see the module docs of `box_box`); a group with another kind mix
/// (an AABB on either side) and the last `pairs.len() % 4` pairs go through the single-pair
/// path, as does a pair with nearly parallel edges that may give its axis (the accurate edge
/// path). The face and edge contacts are the single path's code. On an x86-64 processor with
/// AVX2 (detected at run time) the same code runs compiled for AVX2, and in the `f32` build
/// groups of eight OBB–OBB pairs run the selection in eight lanes; the results are the same.
///
/// # Panics
///
/// If `pairs` and `out` differ in length.
pub fn manifolds_into<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    batch(pairs, config, out, true)
}

/// [`manifolds_into`] without the run-time choice of AVX2: the code compiled for the
/// build's target only (SSE2 on a default x86-64 build). The same results bit for bit; for
/// tests, and for measuring what the run-time choice gains.
///
/// # Panics
///
/// If `pairs` and `out` differ in length.
#[cfg_attr(not(feature = "bench-internals"), allow(dead_code))]
pub fn manifolds_into_portable<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    batch(pairs, config, out, false)
}

/// The batch, with the AVX2 build of the groups when `detect` is set and the CPU has AVX2.
#[inline(always)]
fn batch<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
    detect: bool,
) -> usize {
    assert_eq!(
        pairs.len(),
        out.len(),
        "manifolds_into: `pairs` and `out` differ in length"
    );
    if !LANE_GROUPS {
        return pairs
            .iter()
            .zip(out)
            .map(|(&(a, b), m)| usize::from(manifold_into(a, b, config, m)))
            .sum();
    }
    #[cfg(target_arch = "x86_64")]
    if detect {
        if let Some(avx2) = avx::Avx2::detect() {
            return avx::groups_avx2(avx2, pairs, config, out);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = detect;
    groups(pairs, config, out)
}

/// The batch's groups of four pairs, then its tail.
#[inline(always)]
fn groups<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    let mut count = 0;
    let mut groups = pairs.chunks_exact(4);
    let mut outs = out.chunks_exact_mut(4);
    for (g, o) in (&mut groups).zip(&mut outs) {
        count += group4(g, config, o);
    }
    for (&(a, b), m) in groups.remainder().iter().zip(outs.into_remainder()) {
        count += usize::from(manifold_into(a, b, config, m));
    }
    count
}

/// The OBB pair of `pair`, if both boxes are OBBs.
#[inline(always)]
fn obb_pair<'a, A: BoxShape, B: BoxShape>(pair: &(&'a A, &'a B)) -> Option<(&'a Obb, &'a Obb)> {
    match (pair.0.as_box(), pair.1.as_box()) {
        (BoxRef::Obb(x), BoxRef::Obb(y)) => Some((x, y)),
        _ => None,
    }
}

/// Four pairs (`g.len() == 4`): one lane group when all are OBB pairs, else pair by pair.
#[inline(always)]
fn group4<A: BoxShape, B: BoxShape>(
    g: &[(&A, &B)],
    config: &ContactConfig,
    o: &mut [ContactManifold],
) -> usize {
    let obb = |k: usize| obb_pair(&g[k]);
    if let (Some(p0), Some(p1), Some(p2), Some(p3)) = (obb(0), obb(1), obb(2), obb(3)) {
        manifolds4(
            [p0.0, p1.0, p2.0, p3.0],
            [p0.1, p1.1, p2.1, p3.1],
            config,
            o,
        )
    } else {
        let mut count = 0;
        for (&(a, b), m) in g.iter().zip(o.iter_mut()) {
            count += usize::from(manifold_into(a, b, config, m));
        }
        count
    }
}

/// The batch compiled a second time for AVX2, chosen at run time, with eight pairs per lane
/// group in the `f32` build.
///
/// Why: the lane type [`V4`] (`wide`'s `f32x4`) picks its instructions when the crate is
/// compiled, so a default x86-64 build runs the selection on SSE2: two-operand instructions
/// (many register copies) and three-instruction lane selects (`and`, `andnot`, `or`). Compiled
/// inside a `#[target_feature(enable = "avx2")]` function, the same (inlined) code gets the
/// three-operand VEX forms and one-instruction blends; and in `f32` the selection
/// ([`select_lanes`], generic over the [`Lane`] type) runs on eight lanes (the floor's AVX
/// register, which `Avx2::run` hands to the kernel), eight pairs per group, halving its
/// instructions per pair. Each half then goes back to [`V4`]s and through [`finish4`] as a
/// four-lane group.
///
/// Soundness: the token and the AVX register are `sepax-simd`'s (its `# Soundness` section);
/// this module has no `unsafe`. Results: only AVX and AVX2 are enabled (no FMA, and Rust never
/// contracts `a * b + c` into a fused multiply-add by itself), and each eight-lane operation
/// is the same IEEE operation per lane as `V4`'s SSE one, operands in the same order, so the
/// results are the same bit for bit: `tests/suite/contact_batch.rs` runs the public function and
/// the portable one against the single-pair path, the unit test here runs `groups_avx2`
/// (eight-lane groups, four-lane groups and tails), and `manifold_digest` (with and without
/// `portable`) checks the digests.
#[cfg(target_arch = "x86_64")]
mod avx;

#[cfg(test)]
mod tests;
