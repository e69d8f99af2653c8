//! A ray prepared for the SIMD slab tests of the wide traversal (`query.rs`): per axis the
//! rows of the near and far planes, the origin and the reciprocal direction in lanes, and the
//! vectorised exact box test of primitive lanes.

use super::WideNode;
use sepax_shapes::math::Real;
use sepax_shapes::Ray;
use sepax_simd::Lane256;

/// Per axis `k`, the row of [`WideNode::bounds`] holding the near plane (`k + 3 * neg[k]`: the
/// min when the direction is positive, else the max) and the far plane. Computed once per ray,
/// before the loop, so that the traversal keeps them in registers; all at most 5 (the compiler
/// sees it from the arithmetic on booleans and drops the bounds checks).
#[derive(Clone, Copy)]
pub(crate) struct Rows {
    near: [usize; 3],
    far: [usize; 3],
}

/// A ray prepared for slab tests of a node's [`WIDTH`] child boxes at once.
///
/// Per axis `k` the entry and exit distances of a lane are
/// `t_near_k = (near plane - o_near_k) * inv_near_k` and `t_far_k = (far plane - o_far_k) *
/// inv_far_k`, the near plane being the box's min on that axis when the direction is positive
/// and its max otherwise (Williams et al. 2005: with the planes chosen by the sign, no per-lane
/// min/max of the two slab distances is needed).
///
/// - **Regular axis** (`1 / d_k` finite and non-zero): `o = origin_k`, `inv = 1 / d_k`. The
///   difference of two finite coordinates is finite or infinite, its product with a finite
///   non-zero `inv` is never NaN.
/// - **Zero axis** (`d_k == 0`): the ray stays in the slab `lo_k <= o_k <= hi_k` or never
///   enters it (the scalar rule of `Aabb::cast_ray`). The distances are made neutral
///   (`o_near = +inf`, `o_far = -inf`, `inv = 1`: every finite plane gives `t_near_k = -inf`,
///   `t_far_k = +inf`) and the slab membership is tested by two comparisons instead.
/// - **Tiny axis** (`d_k != 0` but `1 / d_k` overflows): neutral distances and no slab test,
///   i.e. no constraint from that axis, which can only keep more boxes (the ray may still enter
///   a box outside the slab, at a huge distance).
///
/// A unit direction has a component of at least `1/sqrt(3)`: one axis is always regular.
pub(crate) struct RayLanes<V> {
    /// Per axis, whether the near plane is the box's max (negative direction).
    neg: [bool; 3],
    o_near: [V; 3],
    o_far: [V; 3],
    inv: [V; 3],
    /// The origin (for the slab membership test of zero axes and the exact test).
    origin: [V; 3],
    /// The direction (regular rays only: the exact test's divisor).
    dir: [V; 3],
    /// The zero axes (`zero[..zeros]`).
    zero: [usize; 3],
    zeros: usize,
    /// `1 - gamma(4)` and `1 + gamma(4)`.
    shrink: V,
    grow: V,
}

impl<V: Lane256> RayLanes<V> {
    /// The lanes of a regular ray (all three `1 / d_k` finite and non-zero: `o_near == o_far ==
    /// origin`, no zero axis), or `None`. Built
    /// apart from the general case, so that each traversal gets its own copy, whose unused
    /// fields the compiler drops.
    #[inline(always)]
    pub(crate) fn regular(ray: &Ray) -> Option<RayLanes<V>> {
        let (o, d) = (ray.origin(), ray.direction());
        let inv = [1.0 / d.x, 1.0 / d.y, 1.0 / d.z];
        if !(0..3).all(|k| d[k] != 0.0 && inv[k].is_finite()) {
            return None;
        }
        let origin = [V::splat(o.x), V::splat(o.y), V::splat(o.z)];
        Some(RayLanes {
            neg: [d.x < 0.0, d.y < 0.0, d.z < 0.0],
            o_near: origin,
            o_far: origin,
            inv: [V::splat(inv[0]), V::splat(inv[1]), V::splat(inv[2])],
            dir: [V::splat(d.x), V::splat(d.y), V::splat(d.z)],
            origin,
            zero: [0; 3],
            zeros: 0,
            shrink: V::splat(1.0 - sepax_shapes::tolerance::gamma(4)),
            grow: V::splat(1.0 + sepax_shapes::tolerance::gamma(4)),
        })
    }

    /// The lanes of any ray ([`RayLanes::regular`] is the faster path for regular ones).
    #[inline(always)]
    pub(crate) fn new(ray: &Ray) -> RayLanes<V> {
        if let Some(r) = Self::regular(ray) {
            return r;
        }
        let (o, d) = (ray.origin(), ray.direction());
        let inv = [1.0 / d.x, 1.0 / d.y, 1.0 / d.z];
        let origin = [V::splat(o.x), V::splat(o.y), V::splat(o.z)];
        let shrink = V::splat(1.0 - sepax_shapes::tolerance::gamma(4));
        let grow = V::splat(1.0 + sepax_shapes::tolerance::gamma(4));
        let mut r = RayLanes {
            neg: [false; 3],
            o_near: [V::splat(Real::INFINITY); 3],
            o_far: [V::splat(Real::NEG_INFINITY); 3],
            inv: [V::splat(1.0); 3],
            dir: [V::splat(1.0); 3],
            origin,
            zero: [0; 3],
            zeros: 0,
            shrink,
            grow,
        };
        for k in 0..3 {
            if d[k] == 0.0 {
                r.zero[r.zeros] = k;
                r.zeros += 1;
            } else if inv[k].is_finite() {
                r.neg[k] = d[k] < 0.0;
                r.o_near[k] = V::splat(o[k]);
                r.o_far[k] = V::splat(o[k]);
                r.inv[k] = V::splat(inv[k]);
            }
        }
        r
    }

    /// The bound rows of the near and far planes (see [`Rows`]).
    #[inline(always)]
    pub(crate) fn rows(&self) -> Rows {
        let (n0, n1, n2) = (
            self.neg[0] as usize,
            self.neg[1] as usize,
            self.neg[2] as usize,
        );
        Rows {
            near: [3 * n0, 1 + 3 * n1, 2 + 3 * n2],
            far: [3 - 3 * n0, 4 - 3 * n1, 5 - 3 * n2],
        }
    }

    /// The exact test of the primitive lanes `prims` of `n` for a **regular** ray: the lanes
    /// whose box [`sepax_shapes::Aabb::cast_ray`] reports a hit at a distance `t <= clip`, and the vector of
    /// those distances (lane `j` is `t` when bit `j` is set; other lanes are unspecified).
    ///
    /// Bit-identical to `Aabb::cast_ray` (its `slab_entry` and `contains_point`), lane by lane,
    /// for a ray whose three direction components `d_k` are non-zero (`regular`):
    ///
    /// - The scalar test forms, per axis, `(lo_k - o_k) / d_k` and `(hi_k - o_k) / d_k` and sorts
    ///   them into `ta_k <= tb_k`. Here `ta_k = (near_k - o_k) / d_k` and `tb_k = (far_k - o_k) /
    ///   d_k` with the planes chosen by the sign of `d_k` (as in the node test): the same IEEE
    ///   subtraction and division per lane, so the same values, and in the same order, since
    ///   `lo_k <= hi_k` and rounding is monotone (equal values can differ only in the sign of a
    ///   zero, which no comparison sees and no reported distance carries). No value is NaN:
    ///   the coordinates are finite, a difference is finite or infinite, `d_k` is finite and
    ///   non-zero.
    /// - The scalar loop keeps `t0 = max(0, ta_k > t0 ...)`, `t1 = min(t_max, tb_k ...)` and
    ///   returns a miss as soon as `t0 > t1`; as `t0` only grows and `t1` only shrinks, that
    ///   happens at some axis iff it holds for the final values. So, with `a = max_k ta_k` and
    ///   `b = min_k tb_k` (never NaN, so `maxps`/`minps` give exact values; a `+0`/`-0` choice
    ///   only matters below where `a > 0` is false), and the origin outside the box, the scalar
    ///   test hits iff `a > 0` (an entry axis exists), `a <= min(b, t_max)` and `a` is finite,
    ///   at distance `a`. With the caller's `t <= clip` and `clip <= t_max` (the clip starts at
    ///   `t_max` and only decreases), that is `a > 0 && a <= min(b, min(clip, MAX))`.
    /// - The origin inside the closed box (the `contains_point` comparisons, done only when
    ///   some primitive lane has `a <= 0`, as every inside lane has: `lo_k - o_k <= 0 <= hi_k -
    ///   o_k`, and the quotients keep those signs) is a hit at `+0` when `0 <= clip`; the
    ///   returned lane is `max(a, +0)`, which is `+0` there (the `maxps` rule returns the second
    ///   operand when `a` is `-0`) and `a` where `a > 0`.
    #[inline(always)]
    pub(crate) fn exact(&self, n: &WideNode, rows: Rows, prims: u32, clip: Real) -> (u32, V) {
        let b = &n.bounds;
        let o = &self.origin;
        let ta0 = V::load(&b[rows.near[0]]).sub(o[0]).div(self.dir[0]);
        let ta1 = V::load(&b[rows.near[1]]).sub(o[1]).div(self.dir[1]);
        let ta2 = V::load(&b[rows.near[2]]).sub(o[2]).div(self.dir[2]);
        let tb0 = V::load(&b[rows.far[0]]).sub(o[0]).div(self.dir[0]);
        let tb1 = V::load(&b[rows.far[1]]).sub(o[1]).div(self.dir[1]);
        let tb2 = V::load(&b[rows.far[2]]).sub(o[2]).div(self.dir[2]);
        let a = ta0.max(ta1).max(ta2);
        let bmin = tb0.min(tb1).min(tb2);
        let zero = V::splat(0.0);
        let entered = zero.lt_mask(a) & prims;
        let mut hit = entered & a.le_mask(bmin.min(V::splat(clip.min(Real::MAX))));
        let maybe_inside = prims & !entered;
        if maybe_inside != 0 && 0.0 <= clip {
            let mut inside = maybe_inside;
            for k in 0..3 {
                inside &= V::load(&b[k]).le_mask(o[k]) & o[k].le_mask(V::load(&b[k + 3]));
            }
            hit |= inside;
        }
        (hit, a.max(zero))
    }

    /// The lanes of `n` the ray enters at a distance in `[0, clip]` (bit `j` for lane `j`,
    /// restricted to the node's children), with a lower bound of each lane's entry distance.
    ///
    /// Conservative: whenever `Aabb::cast_ray` reports a hit at `t <= clip` on a box inside
    /// lane `j`'s box, bit `j` is set and the bound is at most `t`. Each computed slab distance
    /// is within a relative `gamma(3)` of the exact one (the subtraction, the rounded
    /// reciprocal, the product) and of the scalar test's quotient, with the exact sign; the
    /// planes of a containing box give distances that are no nearer for entry and no farther
    /// for exit (rounding is monotone), so scaling the entry by `1 - gamma(4)` and the exit by
    /// `1 + gamma(4)` keeps the test conservative, for the box itself and all boxes inside it.
    /// An entry that overflows to `+inf` is clamped to `Real::MAX`, so that a ray of infinite
    /// length still reaches boxes at distances beyond `Real::MAX` (which `Aabb::cast_ray` does
    /// not report, but whose children may be nearer).
    ///
    /// `REGULAR` must be true only for lanes made by [`RayLanes::regular`]: then `o_far` is
    /// read as `o_near` (they are equal) and the zero-axis tests are skipped (there are none).
    #[inline(always)]
    pub(crate) fn test<const REGULAR: bool>(&self, n: &WideNode, rows: Rows, clip: V) -> (u32, V) {
        let b = &n.bounds;
        let o_far = if REGULAR { &self.o_near } else { &self.o_far };
        let (near0, near1, near2) = (&b[rows.near[0]], &b[rows.near[1]], &b[rows.near[2]]);
        let (far0, far1, far2) = (&b[rows.far[0]], &b[rows.far[1]], &b[rows.far[2]]);
        let tn0 = V::load(near0).sub(self.o_near[0]).mul(self.inv[0]);
        let tn1 = V::load(near1).sub(self.o_near[1]).mul(self.inv[1]);
        let tn2 = V::load(near2).sub(self.o_near[2]).mul(self.inv[2]);
        let tf0 = V::load(far0).sub(o_far[0]).mul(self.inv[0]);
        let tf1 = V::load(far1).sub(o_far[1]).mul(self.inv[1]);
        let tf2 = V::load(far2).sub(o_far[2]).mul(self.inv[2]);
        // Never NaN (see the type's documentation), so the `minps`/`maxps` forms are exact.
        let t_near = tn0.max(tn1).max(tn2);
        let t_far = tf0.min(tf1).min(tf2);
        let t_near = t_near
            .mul(self.shrink)
            .max(V::splat(0.0))
            .min(V::splat(Real::MAX));
        let t_far = t_far.mul(self.grow).min(clip);
        let mut mask = t_near.le_mask(t_far) & n.mask;
        if REGULAR {
            return (mask, t_near);
        }
        for &k in &self.zero[..self.zeros] {
            let o = self.origin[k];
            mask &= V::load(&b[k]).le_mask(o) & o.le_mask(V::load(&b[k + 3]));
        }
        (mask, t_near)
    }
}
