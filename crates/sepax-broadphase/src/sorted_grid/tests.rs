//! Unit tests of the sorted grid against brute force.

use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Aabb;

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::layout::Layout;
use super::search::{dense_pairs, dense_pairs_body};
use super::sorted::Sorted;
use super::SortedGrid;
use crate::brute::BruteForce;
use crate::{BroadPhase, ProxyId, Visit};

fn b(lo: [Real; 3], hi: [Real; 3]) -> Aabb {
    Aabb::new(Point3::from(lo), Point3::from(hi)).expect("valid box")
}

/// Cells past the `i32` range saturate; pairs there (and across the saturation boundary)
/// are still found exactly once, and queries agree.
#[test]
fn saturated_cells_match_brute_force() {
    let big: Real = 1e30;
    let boxes = [
        b([big, big, big], [big * 1.5, big, big]),
        b([big * 1.2, big, big], [big * 2.0, big, big]),
        b([big, big, big], [big, big, big]),
        b([-big, -big, -big], [-big, -big, -big]),
        b([-big * 2.0, -big, -big], [-big, -big, -big]),
        b([2.1e9, 0.0, 0.0], [2.2e9, 1.0, 1.0]),
        b([2.15e9, 0.5, 0.5], [2.3e9, 2.0, 2.0]),
        b([0.0, 0.0, 0.0], [0.5, 0.5, 0.5]),
        b([0.5, 0.5, 0.5], [1.0, 1.0, 1.0]),
    ];
    let mut grid = SortedGrid::default();
    let mut brute = BruteForce::new();
    for (u, bx) in boxes.iter().enumerate() {
        grid.insert(*bx, u as u64);
        brute.insert(*bx, u as u64);
    }
    let (mut p, mut q) = (Vec::new(), Vec::new());
    grid.update_pairs(&mut p);
    brute.update_pairs(&mut q);
    assert_eq!(p, q);
    assert!(!p.is_empty());
    for bx in &boxes {
        let (mut a, mut c) = (Vec::new(), Vec::new());
        grid.query_aabb(bx, &mut |id| {
            a.push(id);
            Visit::Continue
        });
        brute.query_aabb(bx, &mut |id| {
            c.push(id);
            Visit::Continue
        });
        a.sort_unstable();
        c.sort_unstable();
        assert_eq!(a, c);
    }
}

#[test]
fn cell_size_is_checked() {
    assert!(SortedGrid::new(0.0).is_err());
    assert!(SortedGrid::new(Real::NAN).is_err());
    assert!(SortedGrid::new(-1.0).is_err());
    assert!(SortedGrid::new(Real::INFINITY).is_err());
    assert!(SortedGrid::new(0.25).is_ok());
}

/// Random moving scenes in both layouts (a box at 1e6 makes the dense layout sparse, one at
/// 1e9 makes its keys overflow and forces the hashed layout), against brute
/// force after every frame, queries also before the pair update.
#[test]
fn both_layouts_match_brute_force() {
    both_layouts();
}

fn both_layouts() {
    use rand::{Rng, SeedableRng};
    for (seed, far) in [(5, None), (6, Some(1e9)), (7, Some(1e6))] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut grid = SortedGrid::new(1.0).expect("valid");
        let mut brute = BruteForce::new();
        let mut ids = Vec::new();
        let mut r = |lo: Real, hi: Real| rng.random_range(lo..hi);
        let mut boxes = Vec::new();
        for u in 0..400 {
            let c = [r(-6.0, 6.0), r(-6.0, 6.0), r(-6.0, 6.0)];
            let h = [r(0.0, 0.7), r(0.0, 0.7), r(0.0, 0.7)];
            boxes.push((c, h));
            let bx = b(
                [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
            );
            ids.push((grid.insert(bx, u), brute.insert(bx, u)));
        }
        if let Some(x) = far {
            let bx = b([x, 0.0, 0.0], [x + 0.5, 0.5, 0.5]);
            grid.insert(bx, 999);
            brute.insert(bx, 999);
        }
        for frame in 0..30 {
            for (k, (c, h)) in boxes.iter_mut().enumerate() {
                for x in c.iter_mut() {
                    *x += r(-0.2, 0.2);
                }
                let bx = b(
                    [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                    [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
                );
                grid.update(ids[k].0, bx, Vector3::zeros());
                brute.update(ids[k].1, bx, Vector3::zeros());
            }
            let q = b([-3.0, -3.0, -3.0], [3.0 + frame as Real * 0.1, 3.0, 3.0]);
            for pass in 0..2 {
                assert_same_query(&grid, &brute, &q, &format!("frame {frame}, pass {pass}"));
                let (mut p, mut pb) = (Vec::new(), Vec::new());
                grid.update_pairs(&mut p);
                brute.update_pairs(&mut pb);
                assert_eq!(slot_pairs(&p), slot_pairs(&pb), "pairs, frame {frame}");
            }
            assert_eq!(
                matches!(grid.layout, Layout::Hashed { .. }),
                far == Some(1e9),
                "layout with far = {far:?}"
            );
        }
    }
}

/// The pair search's portable build and its AVX2 build (where the CPU has it) give the
/// same pairs as brute force, on a scene large enough that the candidate list is flushed
/// many times, with crowded cells (long ranges) mixed in.
#[test]
fn pair_search_builds_agree() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut grid = SortedGrid::new(1.0).expect("valid");
    let mut brute = BruteForce::new();
    for u in 0..4000 {
        let crowd = u % 10 == 0;
        let spread: Real = if crowd { 1.5 } else { 8.0 };
        let c: [Real; 3] = [0; 3].map(|_| rng.random_range(-spread..spread));
        let h: [Real; 3] = [0; 3].map(|_| rng.random_range(0.05..0.5));
        let bx = b(
            [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
            [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
        );
        grid.insert(bx, u);
        brute.insert(bx, u);
    }
    let (mut p, mut q) = (Vec::new(), Vec::new());
    grid.update_pairs(&mut p);
    brute.update_pairs(&mut q);
    assert_eq!(p, q);
    let Layout::Dense { dims, .. } = grid.layout else {
        panic!("dense layout expected");
    };
    let c = Sorted::new(&grid.columns.keys, &grid.entries);
    let mut portable = Vec::new();
    dense_pairs_body(&c, dims, &mut portable);
    portable.sort_unstable();
    assert_eq!(portable.len(), q.len());
    let mut dispatched = Vec::new();
    dense_pairs(&c, dims, &mut dispatched);
    dispatched.sort_unstable();
    assert_eq!(portable, dispatched);
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = avx2::Avx2::detect() {
        let mut wide = Vec::new();
        avx2::dense_pairs(cpu, &c, dims, &mut wide);
        wide.sort_unstable();
        assert_eq!(portable, wide);
    }
}

/// The pairs as slot indices (grid and brute force give equal slots to equal inserts).
fn slot_pairs(v: &[(ProxyId, ProxyId)]) -> Vec<(u32, u32)> {
    v.iter().map(|(x, y)| (x.index, y.index)).collect()
}

/// `grid` and `brute` report the same slots for the query box `q`.
fn assert_same_query(grid: &SortedGrid, brute: &BruteForce, q: &Aabb, what: &str) {
    let (mut a, mut c) = (Vec::new(), Vec::new());
    grid.query_aabb(q, &mut |id| {
        a.push(id.index);
        Visit::Continue
    });
    brute.query_aabb(q, &mut |id| {
        c.push(id.index);
        Visit::Continue
    });
    a.sort_unstable();
    c.sort_unstable();
    assert_eq!(a, c, "query, {what}");
}

/// Pairs and a few queries of `grid` against `brute` (same slots in both).
fn assert_same(grid: &mut SortedGrid, brute: &mut BruteForce, what: &str) {
    for q in [
        b([-2.0, -2.0, -2.0], [2.0, 2.0, 2.0]),
        b([0.5, -9.0, 0.25], [0.5, 9.0, 0.25]),
        b([-50.0, -50.0, -50.0], [50.0, 50.0, 50.0]),
    ] {
        assert_same_query(grid, brute, &q, &format!("before the pairs, {what}"));
    }
    let (mut p, mut q) = (Vec::new(), Vec::new());
    grid.update_pairs(&mut p);
    brute.update_pairs(&mut q);
    assert_eq!(slot_pairs(&p), slot_pairs(&q), "pairs, {what}");
}

/// The coherent build (entries kept sorted across frames) under churn: small steps (few
/// keys change), teleports (many change, some leave the layout and force a new one),
/// removals, insertions into reused slots, a slot removed and refilled in one frame, boxes
/// growing oversize and shrinking back, identical boxes and boxes on cell boundaries.
#[test]
fn coherent_builds_match_brute_force_under_churn() {
    churn();
}

/// The same with the portable builds of the search and the re-keying (which the dispatch
/// skips on a CPU with AVX2).
#[test]
fn portable_builds_match_brute_force_under_churn() {
    #[cfg(target_arch = "x86_64")]
    sepax_simd::force_portable(true);
    churn();
    both_layouts();
}

fn churn() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut grid = SortedGrid::new(1.0).expect("valid");
    let mut brute = BruteForce::new();
    let mut live: Vec<(ProxyId, ProxyId, Aabb)> = Vec::new();
    let make = |rng: &mut rand_chacha::ChaCha8Rng, spread: Real| {
        let c: [Real; 3] = [0; 3].map(|_| rng.random_range(-spread..spread));
        let h: [Real; 3] = [0; 3].map(|_| rng.random_range(0.0..0.5));
        if rng.random_bool(0.1) {
            // On cell boundaries exactly.
            let c = c.map(Real::round);
            b([c[0], c[1], c[2]], [c[0] + 1.0, c[1] + 1.0, c[2] + 1.0])
        } else {
            b(
                [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
            )
        }
    };
    for u in 0..300 {
        let bx = make(&mut rng, 5.0);
        live.push((grid.insert(bx, u), brute.insert(bx, u), bx));
    }
    // Identical boxes.
    for u in 0..6 {
        let bx = b([0.2, 0.2, 0.2], [0.7, 0.7, 0.7]);
        live.push((grid.insert(bx, 900 + u), brute.insert(bx, 900 + u), bx));
    }
    assert_same(&mut grid, &mut brute, "first build");
    assert!(matches!(grid.layout, Layout::Dense { .. }));
    let dense = |grid: &SortedGrid| match grid.layout {
        Layout::Dense { origin, dims } => Some((origin, dims)),
        Layout::Hashed { .. } => None,
    };
    let mut layouts = vec![dense(&grid)];
    for frame in 0..60 {
        let teleport = frame % 10 == 9;
        for entry in live.iter_mut() {
            let (g, br, bx) = *entry;
            let moved = if teleport && rng.random_bool(0.5) {
                // Far enough, at times, to leave the layout.
                make(&mut rng, if frame % 20 == 19 { 40.0 } else { 6.0 })
            } else if rng.random_bool(0.02) {
                // Oversize for a while.
                b(
                    [bx.min().x - 1.5, bx.min().y, bx.min().z],
                    [bx.max().x + 1.5, bx.max().y, bx.max().z],
                )
            } else {
                let d: [Real; 3] = [0; 3].map(|_| rng.random_range(-0.15..0.15));
                let (lo, hi) = (bx.min(), bx.max());
                let w = (hi.x - lo.x).min(1.0);
                b(
                    [lo.x + d[0], lo.y + d[1], lo.z + d[2]],
                    [lo.x + d[0] + w, hi.y + d[1], hi.z + d[2]],
                )
            };
            assert!(grid.update(g, moved, Vector3::zeros()));
            brute.update(br, moved, Vector3::zeros());
            entry.2 = moved;
        }
        // Removals, then insertions (which reuse the freed slots).
        for _ in 0..rng.random_range(0..8) {
            if live.is_empty() {
                break;
            }
            let (g, br, _) = live.swap_remove(rng.random_range(0..live.len()));
            assert!(grid.remove(g));
            assert!(brute.remove(br));
        }
        for u in 0..rng.random_range(0..8) {
            let bx = make(&mut rng, 5.0);
            live.push((grid.insert(bx, u), brute.insert(bx, u), bx));
        }
        // A slot emptied and refilled within the frame.
        if frame % 3 == 0 && !live.is_empty() {
            let (g, br, _) = live.swap_remove(0);
            assert!(grid.remove(g));
            assert!(brute.remove(br));
            let bx = make(&mut rng, 5.0);
            let (g2, br2) = (grid.insert(bx, 7), brute.insert(bx, 7));
            assert_eq!(g2.index, g.index, "the freed slot is reused");
            // The stale handle is refused; the new proxy moves within the same frame (its
            // slot's entry of the last build is the removed proxy's).
            assert!(!grid.update(g, bx, Vector3::zeros()));
            let bx = if frame % 2 == 0 {
                make(&mut rng, 5.0)
            } else {
                bx
            };
            assert!(grid.update(g2, bx, Vector3::zeros()));
            brute.update(br2, bx, Vector3::zeros());
            live.push((g2, br2, bx));
        }
        assert_same(&mut grid, &mut brute, &format!("frame {frame}"));
        // A second call without changes: the coherent build with nothing listed.
        assert_same(&mut grid, &mut brute, &format!("frame {frame}, again"));
        let layout = dense(&grid);
        assert!(layout.is_some(), "dense layout, frame {frame}");
        if !layouts.contains(&layout) {
            layouts.push(layout);
        }
    }
    // The far teleports left the first layout (and the full build took over).
    assert!(layouts.len() > 1, "layouts seen: {layouts:?}");
}

/// The key ranges of a dense layout never wrap from one row or plane into the next: long
/// thin scenes (one cell wide on two axes, so that the padding cells are all that
/// separates the rows), boxes along every edge and corner of a small block, and crowded
/// cells (more than four entries per range, the pair search's slow path).
#[test]
fn dense_edges_and_crowds_match_brute_force() {
    let mut scenes: Vec<Vec<Aabb>> = Vec::new();
    for axis in 0..3 {
        scenes.push(
            (0..40)
                .map(|i| {
                    let mut lo = [0.25; 3];
                    lo[axis] = i as Real * 0.5;
                    b(lo, lo.map(|v| v + 0.6))
                })
                .collect(),
        );
    }
    let mut corners = Vec::new();
    for x in 0..4 {
        for y in 0..4 {
            for z in 0..4 {
                let lo = [x, y, z].map(|v| v as Real * 0.999);
                corners.push(b(lo, lo.map(|v| v + 0.9)));
                corners.push(b(lo.map(|v| v + 0.5), lo.map(|v| v + 1.0)));
            }
        }
    }
    scenes.push(corners);
    let crowd = (0..30)
        .map(|i| {
            let t = (i % 7) as Real * 0.1;
            b([t, 0.1, 0.9 - t], [t + 0.3, 0.5, 1.0 - t])
        })
        .collect();
    scenes.push(crowd);
    for (k, boxes) in scenes.iter().enumerate() {
        let mut grid = SortedGrid::new(1.0).expect("valid");
        let mut brute = BruteForce::new();
        let mut ids = Vec::new();
        for (u, bx) in boxes.iter().enumerate() {
            ids.push((grid.insert(*bx, u as u64), brute.insert(*bx, u as u64)));
        }
        assert_same(&mut grid, &mut brute, &format!("scene {k}"));
        assert!(matches!(grid.layout, Layout::Dense { .. }), "scene {k}");
        // Shift everything by a cell and a half: every key changes.
        for (bx, (g, br)) in boxes.iter().zip(&ids) {
            let (lo, hi) = (bx.min(), bx.max());
            let d = 1.5;
            let moved = b(
                [lo.x + d, lo.y - d, lo.z + d],
                [hi.x + d, hi.y - d, hi.z + d],
            );
            grid.update(*g, moved, Vector3::zeros());
            brute.update(*br, moved, Vector3::zeros());
        }
        assert_same(&mut grid, &mut brute, &format!("scene {k} shifted"));
    }
}
