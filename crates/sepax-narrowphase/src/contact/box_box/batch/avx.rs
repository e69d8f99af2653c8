//! The batch compiled for AVX2, through the floor's token (see the note on the module
//! declaration): no `unsafe` here.

use super::*;
pub(super) use sepax_simd::Avx2;
use sepax_simd::{Lane256, LaneKernel};

/// [`groups`] compiled for AVX2; the token proves the CPU has it.
#[inline]
pub(super) fn groups_avx2<A: BoxShape, B: BoxShape>(
    avx2: Avx2,
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    avx2.run(Groups, pairs, config, out, ())
}

/// [`groups`] as the kernel that the token runs on its eight-lane register.
struct Groups;

impl<'p, A: BoxShape, B: BoxShape>
    LaneKernel<&'p [(&'p A, &'p B)], &'p ContactConfig, &'p mut [ContactManifold]> for Groups
{
    type Output = usize;

    /// [`groups`], with the portable code inlined and compiled for AVX2; in the `f32` build,
    /// groups of eight OBB pairs first (the selection in eight lanes, `L`), then the rest as
    /// [`groups`] does.
    #[inline(always)]
    fn run<L: Lane256>(
        self,
        pairs: &'p [(&'p A, &'p B)],
        config: &'p ContactConfig,
        out: &'p mut [ContactManifold],
        _: (),
    ) -> usize {
        #[cfg(not(feature = "f64"))]
        {
            let mut count = 0;
            let mut groups8 = pairs.chunks_exact(8);
            let mut outs = out.chunks_exact_mut(8);
            for (g, o) in (&mut groups8).zip(&mut outs) {
                let obb = |k: usize| obb_pair(&g[k]);
                let all = [
                    obb(0),
                    obb(1),
                    obb(2),
                    obb(3),
                    obb(4),
                    obb(5),
                    obb(6),
                    obb(7),
                ];
                if let [Some(p0), Some(p1), Some(p2), Some(p3), Some(p4), Some(p5), Some(p6), Some(p7)] =
                    all
                {
                    count += eight::manifolds8::<L>(
                        [p0.0, p1.0, p2.0, p3.0, p4.0, p5.0, p6.0, p7.0],
                        [p0.1, p1.1, p2.1, p3.1, p4.1, p5.1, p6.1, p7.1],
                        config,
                        o,
                    );
                } else {
                    let (o0, o1) = o.split_at_mut(4);
                    count += group4(&g[..4], config, o0);
                    count += group4(&g[4..], config, o1);
                }
            }
            count + groups(groups8.remainder(), config, outs.into_remainder())
        }
        #[cfg(feature = "f64")]
        groups(pairs, config, out)
    }
}

/// Eight OBB pairs at a time (`f32` only: eight `f32` lanes in a 256-bit register), on the
/// lane vector `L` of eight lanes that the token hands to [`Groups`].
#[cfg(not(feature = "f64"))]
pub(super) mod eight {
    use super::super::*;
    use sepax_simd::Lane256;

    /// `v`'s lanes `4 h..4 h + 4` as a [`V4`] (a store and four reads that LLVM turns into
    /// a lane extraction).
    #[inline(always)]
    fn half<L: Lane256>(v: L, h: usize) -> V4 {
        let a = v.to_array();
        V4::new(a[4 * h], a[4 * h + 1], a[4 * h + 2], a[4 * h + 3])
    }

    /// [`load4`] for eight boxes: `out[f]` lane `p` is number `f` of box `p` (two
    /// [`load4`]s, joined).
    #[inline(always)]
    fn load8<L: Lane256>(boxes: [&Obb; 8]) -> [L; 16] {
        let lo = load4([boxes[0], boxes[1], boxes[2], boxes[3]]);
        let hi = load4([boxes[4], boxes[5], boxes[6], boxes[7]]);
        let mut out = [L::splat(0.0); 16];
        for f in 0..16 {
            let (l, h) = (lo[f].lanes(), hi[f].lanes());
            out[f] = L::from_array([l[0], l[1], l[2], l[3], h[0], h[1], h[2], h[3]]);
        }
        out
    }

    /// Half `h` (pairs `4 h..4 h + 4`) of an eight-lane selection.
    #[inline(always)]
    fn split<L: Lane256>(g: &Group<L>, h: usize) -> Group {
        let v = |x: L| half(x, h);
        let v3 = |x: &[L; 3]| [v(x[0]), v(x[1]), v(x[2])];
        let bits = |m: u32| (m >> (4 * h)) & 0xf;
        Group {
            r: [v3(&g.r[0]), v3(&g.r[1]), v3(&g.r[2])],
            t: v3(&g.t),
            tb: v3(&g.tb),
            tol: v(g.tol),
            scale: v(g.scale),
            defect: v(g.defect),
            least: v(g.least),
            n: v3(&g.n),
            sign_b: v(g.sign_b),
            edge_wins: bits(g.edge_wins),
            b_wins: bits(g.b_wins),
            ia: v(g.ia),
            jb: v(g.jb),
            ei: v(g.ei),
            ej: v(g.ej),
            accurate: bits(g.accurate),
        }
    }

    /// Eight OBB pairs: [`manifolds4`] with the selection in eight lanes.
    #[inline(always)]
    pub(in super::super) fn manifolds8<L: Lane256>(
        a: [&Obb; 8],
        b: [&Obb; 8],
        config: &ContactConfig,
        out: &mut [ContactManifold],
    ) -> usize {
        let (a, b, swapped) = order::order_obbs(a, b);
        let g = select_lanes(&load8::<L>(a), &load8::<L>(b));
        let (o0, o1) = out.split_at_mut(4);
        let lo = finish4(
            [a[0], a[1], a[2], a[3]],
            [b[0], b[1], b[2], b[3]],
            &split(&g, 0),
            config,
            o0,
            swapped & 0xf,
        );
        let hi = finish4(
            [a[4], a[5], a[6], a[7]],
            [b[4], b[5], b[6], b[7]],
            &split(&g, 1),
            config,
            o1,
            swapped >> 4,
        );
        lo + hi
    }
}
