//! The batch compiled for AVX2 (see the soundness section on the module declaration).

#![allow(unsafe_code)]

use super::*;

/// Proof that the running CPU has AVX2 (see the module's soundness section).
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The token, when the CPU has AVX2 (`std` caches the detection).
    #[inline]
    pub(super) fn detect() -> Option<Avx2> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

/// [`groups`] compiled for AVX2; the token proves the CPU has it.
#[inline]
pub(super) fn groups_avx2<A: BoxShape, B: BoxShape>(
    _avx2: Avx2,
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    // SAFETY: `groups_avx2_inner`'s one requirement is that the CPU has AVX2 (its
    // `target_feature`); an `Avx2` exists only after `is_x86_feature_detected!("avx2")`
    // returned true on this machine (`Avx2::detect` is its only constructor).
    unsafe { groups_avx2_inner(pairs, config, out) }
}

/// [`groups`], with the portable code inlined and compiled for AVX2; in the `f32` build,
/// groups of eight OBB pairs first (the selection in eight lanes, [`V8`]), then the rest
/// as [`groups`] does.
#[target_feature(enable = "avx2")]
fn groups_avx2_inner<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
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
                count += eight::manifolds8(
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

/// Eight OBB pairs at a time (`f32` only: eight `f32` lanes in a 256-bit register).
#[cfg(not(feature = "f64"))]
pub(super) mod eight {
    use super::super::*;
    use crate::sat::axes::SatLane;
    use core::arch::x86_64 as arch;

    /// Eight `f32` lanes in an AVX register. Only for code running under an [`Avx2`]
    /// token (see the soundness section of the parent module): every value is made and
    /// used inside `groups_avx2_inner` (a `#[target_feature(enable = "avx2")]` function
    /// reached only with the token) or the code it inlines; nothing else names the type.
    #[derive(Clone, Copy)]
    pub(in super::super) struct V8(arch::__m256);

    /// `v`'s lanes `4 h..4 h + 4` as a [`V4`] (a store and four reads that LLVM turns into
    /// a lane extraction).
    #[inline(always)]
    fn half(v: V8, h: usize) -> V4 {
        let mut a = [0.0f32; 8];
        // SAFETY: AVX is present (`V8` rule); the unaligned store writes the 8 elements of
        // `a`.
        unsafe { arch::_mm256_storeu_ps(a.as_mut_ptr(), v.0) };
        V4::new(a[4 * h], a[4 * h + 1], a[4 * h + 2], a[4 * h + 3])
    }

    /// An AVX operation on `V8`s; every use runs with AVX present (the `V8` rule).
    macro_rules! avx {
        ($e:expr) => {
            // SAFETY: the intrinsic needs AVX, which the CPU has: `V8` values exist only
            // in code reached through an `Avx2` token (see `V8`).
            V8(unsafe { $e })
        };
    }

    impl core::ops::Add for V8 {
        type Output = V8;
        #[inline(always)]
        fn add(self, o: V8) -> V8 {
            avx!(arch::_mm256_add_ps(self.0, o.0))
        }
    }
    impl core::ops::Sub for V8 {
        type Output = V8;
        #[inline(always)]
        fn sub(self, o: V8) -> V8 {
            avx!(arch::_mm256_sub_ps(self.0, o.0))
        }
    }
    impl core::ops::Mul for V8 {
        type Output = V8;
        #[inline(always)]
        fn mul(self, o: V8) -> V8 {
            avx!(arch::_mm256_mul_ps(self.0, o.0))
        }
    }
    impl core::ops::Div for V8 {
        type Output = V8;
        #[inline(always)]
        fn div(self, o: V8) -> V8 {
            avx!(arch::_mm256_div_ps(self.0, o.0))
        }
    }
    impl core::ops::Neg for V8 {
        type Output = V8;
        /// The sign bit flipped (as `V4`'s `xor` with `-0.0`).
        #[inline(always)]
        fn neg(self) -> V8 {
            avx!(arch::_mm256_xor_ps(self.0, arch::_mm256_set1_ps(-0.0)))
        }
    }

    impl axes::SatLane for V8 {
        #[inline(always)]
        fn splat(x: Real) -> V8 {
            avx!(arch::_mm256_set1_ps(x))
        }
        #[inline(always)]
        fn abs(self) -> V8 {
            let m = f32::from_bits(i32::MAX as u32);
            avx!(arch::_mm256_and_ps(self.0, arch::_mm256_set1_ps(m)))
        }
    }

    impl Lane for V8 {
        #[inline(always)]
        fn sqrt(self) -> V8 {
            avx!(arch::_mm256_sqrt_ps(self.0))
        }
        #[inline(always)]
        fn min(self, o: V8) -> V8 {
            avx!(arch::_mm256_min_ps(self.0, o.0))
        }
        #[inline(always)]
        fn max(self, o: V8) -> V8 {
            avx!(arch::_mm256_max_ps(self.0, o.0))
        }
        #[inline(always)]
        fn eq(self, o: V8) -> V8 {
            avx!(arch::_mm256_cmp_ps::<{ arch::_CMP_EQ_OQ }>(self.0, o.0))
        }
        #[inline(always)]
        fn ge(self, o: V8) -> V8 {
            avx!(arch::_mm256_cmp_ps::<{ arch::_CMP_GE_OQ }>(self.0, o.0))
        }
        #[inline(always)]
        fn gt(self, o: V8) -> V8 {
            avx!(arch::_mm256_cmp_ps::<{ arch::_CMP_GT_OQ }>(self.0, o.0))
        }
        #[inline(always)]
        fn lt(self, o: V8) -> V8 {
            avx!(arch::_mm256_cmp_ps::<{ arch::_CMP_LT_OQ }>(self.0, o.0))
        }
        /// A blend on the mask's sign bits: the same lanes as the bitwise select for the
        /// full lane masks that [`Lane::select`] is given.
        #[inline(always)]
        fn select(self, a: V8, b: V8) -> V8 {
            avx!(arch::_mm256_blendv_ps(b.0, a.0, self.0))
        }
        #[inline(always)]
        fn bits(self) -> u32 {
            // SAFETY: AVX is present (`V8` rule).
            unsafe { arch::_mm256_movemask_ps(self.0) as u32 }
        }
        #[inline(always)]
        fn sign_ge0(self) -> V8 {
            let ge = self.ge(V8::splat(0.0));
            avx!(arch::_mm256_or_ps(
                arch::_mm256_andnot_ps(ge.0, arch::_mm256_set1_ps(-0.0)),
                arch::_mm256_set1_ps(1.0)
            ))
        }
        #[inline(always)]
        fn and(self, o: V8) -> V8 {
            avx!(arch::_mm256_and_ps(self.0, o.0))
        }
        #[inline(always)]
        fn and_not(self, m: V8) -> V8 {
            avx!(arch::_mm256_andnot_ps(m.0, self.0))
        }
    }

    /// [`load4`] for eight boxes: `out[f]` lane `p` is number `f` of box `p` (two
    /// [`load4`]s, joined).
    #[inline(always)]
    fn load8(boxes: [&Obb; 8]) -> [V8; 16] {
        let lo = load4([boxes[0], boxes[1], boxes[2], boxes[3]]);
        let hi = load4([boxes[4], boxes[5], boxes[6], boxes[7]]);
        let mut out = [V8::splat(0.0); 16];
        for f in 0..16 {
            let (l, h) = (lo[f].lanes(), hi[f].lanes());
            out[f] = avx!(arch::_mm256_setr_ps(
                l[0], l[1], l[2], l[3], h[0], h[1], h[2], h[3]
            ));
        }
        out
    }

    /// Half `h` (pairs `4 h..4 h + 4`) of an eight-lane selection.
    #[inline(always)]
    fn split(g: &Group<V8>, h: usize) -> Group {
        let v = |x: V8| half(x, h);
        let v3 = |x: &[V8; 3]| [v(x[0]), v(x[1]), v(x[2])];
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
    pub(in super::super) fn manifolds8(
        a: [&Obb; 8],
        b: [&Obb; 8],
        config: &ContactConfig,
        out: &mut [ContactManifold],
    ) -> usize {
        let (a, b, swapped) = order::order_obbs(a, b);
        let g = select_lanes(&load8(a), &load8(b));
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
