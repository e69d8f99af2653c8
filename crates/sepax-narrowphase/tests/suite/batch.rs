//! The batch kernels give the scalar answers: every form (one-vs-N bitmask and indices, N×M,
//! candidate pairs, candidate indices), for AABB–AABB, OBB–OBB and sphere–AABB, on random and
//! adversarial data (the generators of the narrow-phase box suites), with the portable and the
//! runtime-selected instruction set. OBB–OBB runs on both layouts ([`ObbSoa`] and the blocked
//! [`ObbBlocks`]). Run with and without `--features f64`.

#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::{AnyBox, Category, Gen, CATEGORIES};
use sepax_narrowphase::batch::{AabbSoa, Kernels, ObbBlocks, ObbSoa, SphereSoa, LANES};
use sepax_narrowphase::intersect::intersects;
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::{Aabb, Obb, Shape, ShapeKind, Sphere};

/// The portable kernels and, when the CPU has a better instruction set, those too.
fn all_kernels() -> Vec<Kernels> {
    let mut v = vec![Kernels::portable()];
    if Kernels::new().isa() != Kernels::portable().isa() {
        v.push(Kernels::new());
    }
    v
}

/// Checks every form of one kernel against `scalar` on all of `a × b` (queries: the first
/// `queries` elements of `a`), returns the number of scalar fallbacks.
macro_rules! check_all {
    ($k:expr, $a:expr, $b:expr, $SoaA:ty, $SoaB:ty, $scalar:expr, $queries:expr,
     $mask:ident, $query:ident, $pairs:ident, $filter_pairs:ident, $filter:ident) => {{
        let (k, a, b) = (&$k, &$a, &$b);
        let scalar = $scalar;
        let (sa, sb) = (<$SoaA>::from_slice(a), <$SoaB>::from_slice(b));
        let truth = |i: usize, j: usize| scalar(&a[i], &b[j]);
        let mut fallbacks = 0;
        // One vs N.
        let (mut mask, mut idx) = (Vec::new(), Vec::new());
        for i in 0..$queries.min(a.len()) {
            let st = k.$mask(&a[i], &sb, &mut mask);
            assert_eq!(mask.len(), b.len().div_ceil(64));
            let st2 = k.$query(&a[i], &sb, &mut idx);
            assert_eq!(st, st2);
            let want: Vec<u32> = (0..b.len())
                .filter(|&j| truth(i, j))
                .map(|j| j as u32)
                .collect();
            let got: Vec<u32> = (0..mask.len() * 64)
                .filter(|&j| mask[j / 64] >> (j % 64) & 1 == 1)
                .map(|j| j as u32)
                .collect();
            assert_eq!(got, want, "{:?} mask, query {i}", k.isa());
            assert_eq!(idx, want, "{:?} indices, query {i}", k.isa());
            assert_eq!(st.hits, want.len());
            assert_eq!(st.tested, b.len());
            fallbacks += st.fallbacks;
            // Candidate indices: every other j, backwards.
            let cand: Vec<u32> = (0..b.len() as u32).rev().step_by(2).collect();
            k.$filter(&a[i], &sb, &cand, &mut idx);
            let want: Vec<u32> = cand
                .iter()
                .copied()
                .filter(|&j| truth(i, j as usize))
                .collect();
            assert_eq!(idx, want, "{:?} filter, query {i}", k.isa());
        }
        // N × M on the query rows.
        let rows = <$SoaA>::from_slice(&a[..$queries.min(a.len())]);
        let mut pairs = Vec::new();
        let st = k.$pairs(&rows, &sb, &mut pairs);
        let want: Vec<(u32, u32)> = (0..rows.len())
            .flat_map(|i| (0..b.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| truth(i, j))
            .map(|(i, j)| (i as u32, j as u32))
            .collect();
        assert_eq!(pairs, want, "{:?} N x M", k.isa());
        assert_eq!(st.tested, rows.len() * b.len());
        // Candidate pairs: the diagonal (the generated pairs), then some shuffled ones.
        let n = a.len().min(b.len());
        let mut cand: Vec<(u32, u32)> = (0..n as u32).map(|i| (i, i)).collect();
        cand.extend((0..n as u32).map(|i| (i, (i * 7 + 3) % b.len() as u32)));
        let st = k.$filter_pairs(&sa, &sb, &cand, &mut pairs);
        let want: Vec<(u32, u32)> = cand
            .iter()
            .copied()
            .filter(|&(i, j)| truth(i as usize, j as usize))
            .collect();
        assert_eq!(pairs, want, "{:?} candidate pairs", k.isa());
        fallbacks + st.fallbacks
    }};
}

fn obb_obb(a: &Obb, b: &Obb) -> bool {
    intersects(a, b)
}
fn aabb_aabb(a: &Aabb, b: &Aabb) -> bool {
    intersects(a, b)
}
fn sphere_aabb(a: &Sphere, b: &Aabb) -> bool {
    intersects(a, b)
}

/// Both OBB layouts against the scalar test; they must also agree on the fallback count.
fn check_obbs(k: &Kernels, a: &[Obb], b: &[Obb], queries: usize) -> usize {
    let soa = check_obb_soa(k, a, b, queries);
    let blocks = check_all!(
        *k,
        a,
        b,
        ObbBlocks,
        ObbBlocks,
        obb_obb,
        queries,
        obb_blocks_query_mask,
        obb_blocks_query,
        obb_blocks_pairs,
        obb_blocks_filter_pairs,
        obb_blocks_filter
    );
    assert_eq!(soa, blocks, "{:?}: fallbacks of the two layouts", k.isa());
    soa
}
fn check_obb_soa(k: &Kernels, a: &[Obb], b: &[Obb], queries: usize) -> usize {
    check_all!(
        *k,
        a,
        b,
        ObbSoa,
        ObbSoa,
        obb_obb,
        queries,
        obb_query_mask,
        obb_query,
        obb_pairs,
        obb_filter_pairs,
        obb_filter
    )
}
fn check_aabbs(k: &Kernels, a: &[Aabb], b: &[Aabb], queries: usize) -> usize {
    check_all!(
        *k,
        a,
        b,
        AabbSoa,
        AabbSoa,
        aabb_aabb,
        queries,
        aabb_query_mask,
        aabb_query,
        aabb_pairs,
        aabb_filter_pairs,
        aabb_filter
    )
}
fn check_spheres(k: &Kernels, a: &[Sphere], b: &[Aabb], queries: usize) -> usize {
    check_all!(
        *k,
        a,
        b,
        SphereSoa,
        AabbSoa,
        sphere_aabb,
        queries,
        sphere_aabb_query_mask,
        sphere_aabb_query,
        sphere_aabb_pairs,
        sphere_aabb_filter_pairs,
        sphere_aabb_filter
    )
}

fn category_pairs(g: &mut Gen, cat: Category, n: usize) -> (Vec<AnyBox>, Vec<AnyBox>) {
    (0..n).map(|_| g.pair(cat)).unzip()
}

#[test]
fn obb_obb_equals_scalar_on_every_category() {
    for k in all_kernels() {
        let mut g = Gen::new(41);
        let mut fallbacks = 0;
        for cat in CATEGORIES {
            let (a, b) = category_pairs(&mut g, cat, 1203);
            let a: Vec<Obb> = a.iter().map(AnyBox::as_obb).collect();
            let b: Vec<Obb> = b.iter().map(AnyBox::as_obb).collect();
            fallbacks += check_obbs(&k, &a, &b, 12);
        }
        // The adversarial categories reach the certified stage.
        assert!(fallbacks > 50, "{:?}: only {fallbacks} fallbacks", k.isa());
    }
}

#[test]
fn obb_batches_larger_than_a_tile() {
    let mut g = Gen::new(42);
    let (a, b) = category_pairs(&mut g, Category::Random, 9001);
    let a: Vec<Obb> = a.iter().map(AnyBox::as_obb).collect();
    let b: Vec<Obb> = b.iter().map(AnyBox::as_obb).collect();
    for k in all_kernels() {
        check_obbs(&k, &a, &b, 3);
    }
}

#[test]
fn aabb_aabb_equals_scalar() {
    let mut g = Gen::new(43);
    // AABB pairs of the suites (mixes and degenerate ones), as AABBs.
    let mut a = Vec::new();
    let mut b = Vec::new();
    for cat in [
        Category::AabbMix,
        Category::ZeroExtents,
        Category::IdenticalAndNested,
    ] {
        let (x, y) = category_pairs(&mut g, cat, 1000);
        for (x, y) in x.iter().zip(&y) {
            if let (AnyBox::A(x), AnyBox::A(y)) = (x, y) {
                a.push(*x);
                b.push(*y);
            }
        }
    }
    // Boxes on a coarse integer grid: many exactly touching faces, edges and corners.
    let grid = |g: &mut Gen| {
        let lo: [Real; 3] = core::array::from_fn(|_| g.uniform(0.0, 6.0).floor());
        let ext: [Real; 3] = core::array::from_fn(|_| g.uniform(0.0, 3.0).floor());
        Aabb::new(
            Point3::from(lo),
            Point3::new(lo[0] + ext[0], lo[1] + ext[1], lo[2] + ext[2]),
        )
        .unwrap()
    };
    for _ in 0..2000 {
        a.push(grid(&mut g));
        b.push(grid(&mut g));
    }
    for k in all_kernels() {
        check_aabbs(&k, &a, &b, 40);
        // Wider than a tile, odd length.
        let many: Vec<Aabb> = (0..9003).map(|i| b[i % b.len()]).collect();
        check_aabbs(&k, &a[..5], &many, 3);
    }
}

#[test]
fn sphere_aabb_equals_scalar_at_every_scale() {
    let mut g = Gen::new(44);
    let units: [f64; 9] = [1e-30, 1e-13, 1e-6, 1e-2, 1.0, 1e3, 1e8, 1e13, 1e30];
    for k in all_kernels() {
        let mut fallbacks = 0;
        for &unit in &units {
            for base in [0.0, 1.0e6] {
                let base = Point3::new(base as Real, (-0.5 * base) as Real, 0.0);
                let unit = unit as Real;
                let mut spheres = Vec::new();
                let mut boxes = Vec::new();
                while spheres.len() < 600 {
                    let s = g.shape(ShapeKind::Sphere, &base, unit, 0.1);
                    let b = g.shape(ShapeKind::Aabb, &base, unit, 0.1);
                    if let (Ok(Shape::Sphere(s)), Ok(Shape::Aabb(b))) = (s, b) {
                        spheres.push(s);
                        boxes.push(b);
                    }
                }
                fallbacks += check_spheres(&k, &spheres, &boxes, 10);
            }
        }
        // Magnitudes beyond 2^40 or below 2^-40 take the scalar rescale path.
        assert!(
            fallbacks > 0,
            "{:?}: the rescale path was not exercised",
            k.isa()
        );
    }
}

#[test]
fn batches_give_back_what_was_pushed() {
    let mut g = Gen::new(45);
    let (a, b) = category_pairs(&mut g, Category::NearParallel, 100);
    let obbs: Vec<Obb> = a.iter().chain(&b).map(AnyBox::as_obb).collect();
    let soa = ObbSoa::from_slice(&obbs);
    assert_eq!(soa.len(), obbs.len());
    for (i, o) in obbs.iter().enumerate() {
        assert_eq!(soa.get(i), *o);
        assert_eq!(soa.get(i).axes_error().to_bits(), o.axes_error().to_bits());
    }
    // Blocks, at every length around a block boundary, built in one go or one by one.
    for n in [1, LANES - 1, LANES, LANES + 1, 3 * LANES + 2, obbs.len()] {
        let blocks = ObbBlocks::from_slice(&obbs[..n]);
        let mut pushed = ObbBlocks::new();
        obbs[..n].iter().for_each(|o| pushed.push(o));
        assert_eq!(blocks, pushed);
        assert_eq!(blocks.len(), n);
        for (i, o) in obbs[..n].iter().enumerate() {
            assert_eq!(blocks.get(i), *o);
            assert_eq!(
                blocks.get(i).axes_error().to_bits(),
                o.axes_error().to_bits()
            );
        }
        // Refilled after `clear`: the padding lanes are zero again, so equal to a fresh batch.
        pushed.clear();
        assert!(pushed.is_empty());
        pushed.extend(&obbs[n / 2..n]);
        assert_eq!(pushed, ObbBlocks::from_slice(&obbs[n / 2..n]));
    }
    let boxes: Vec<Aabb> = obbs.iter().map(|o| o.world_aabb()).collect();
    let soa = AabbSoa::from_slice(&boxes);
    assert!(boxes.iter().enumerate().all(|(i, b)| soa.get(i) == *b));
    let spheres: Vec<Sphere> = obbs
        .iter()
        .map(|o| Sphere::new(o.center(), o.half_extents().x).unwrap())
        .collect();
    let soa = SphereSoa::from_slice(&spheres);
    assert!(spheres.iter().enumerate().all(|(i, s)| soa.get(i) == *s));
}

#[test]
fn empty_batches() {
    let k = Kernels::new();
    let (mut mask, mut idx, mut pairs) = (vec![7], vec![7], vec![(7, 7)]);
    let q = Obb::from_aabb(&Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0)).unwrap());
    let empty = ObbSoa::new();
    assert_eq!(k.obb_query_mask(&q, &empty, &mut mask).tested, 0);
    assert!(mask.is_empty());
    assert_eq!(k.obb_query(&q, &empty, &mut idx).tested, 0);
    assert!(idx.is_empty());
    assert_eq!(
        k.obb_pairs(&empty, &ObbSoa::from_slice(&[q]), &mut pairs)
            .tested,
        0
    );
    assert!(pairs.is_empty());
    let empty = ObbBlocks::new();
    assert_eq!(k.obb_blocks_query_mask(&q, &empty, &mut mask).tested, 0);
    assert!(mask.is_empty());
    assert_eq!(k.obb_blocks_query(&q, &empty, &mut idx).tested, 0);
    assert!(idx.is_empty());
    assert_eq!(
        k.obb_blocks_pairs(&empty, &ObbBlocks::from_slice(&[q]), &mut pairs)
            .tested,
        0
    );
    assert!(pairs.is_empty());
}

#[test]
#[should_panic(expected = "out of range")]
fn blocks_get_past_the_end_panics() {
    let q = Obb::from_aabb(&Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0)).unwrap());
    // Box 1 lies in the first block's padding: it must not read as a box.
    ObbBlocks::from_slice(&[q]).get(1);
}
