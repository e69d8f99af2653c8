//! Differential tests of the 8-wide static BVH: every ray cast (closest hit and all hits) and
//! box query is compared with brute force, each box tested with the scalar `Aabb::cast_ray` /
//! overlap test, on random and degenerate scenes.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, RayStep, WideBvh};
use sepax_broadphase::{BroadPhase, Visit};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Ray};

fn aabb(lo: [Real; 3], hi: [Real; 3]) -> Aabb {
    Aabb::new(Point3::from(lo), Point3::from(hi)).unwrap()
}

fn ray(o: [Real; 3], d: [Real; 3], max: Real) -> Ray {
    Ray::new(Point3::from(o), Vector3::from(d), max).unwrap()
}

fn brute_all(boxes: &[Aabb], ray: &Ray) -> Vec<(u32, Real)> {
    let mut v: Vec<(u32, Real)> = boxes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.cast_ray(ray).map(|h| (i as u32, h.distance)))
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    v
}

fn brute_closest(boxes: &[Aabb], ray: &Ray) -> Option<(u32, Real)> {
    brute_all(boxes, ray).first().copied()
}

/// Checks every ray query of `tree` against brute force, with AVX (where the CPU has it) and
/// with the portable SIMD build.
fn check_ray(tree: &WideBvh, boxes: &[Aabb], ray: &Ray) {
    let want = brute_all(boxes, ray);
    let mut portable = tree.clone();
    portable.set_avx(false);
    for t in [tree, &portable] {
        let mut got = Vec::new();
        let stats = t.cast_ray_all(ray, &mut got);
        assert_eq!(got, want, "cast_ray_all {ray:?}");
        assert_eq!(stats.hits, want.len());
        assert_eq!(
            t.cast_ray_closest(ray),
            brute_closest(boxes, ray),
            "cast_ray_closest {ray:?}"
        );
    }
}

fn check_aabb(tree: &WideBvh, boxes: &[Aabb], q: &Aabb) {
    let overlaps =
        |a: &Aabb, b: &Aabb| (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k]);
    let want: Vec<u32> = (0..boxes.len() as u32)
        .filter(|&i| overlaps(&boxes[i as usize], q))
        .collect();
    let mut got = Vec::new();
    tree.query_aabb(q, |i| {
        got.push(i);
        Visit::Continue
    });
    got.sort_unstable();
    assert_eq!(got, want, "query_aabb {q:?}");
}

fn random_boxes(rng: &mut ChaCha8Rng, n: usize, world: Real, size: Real) -> Vec<Aabb> {
    (0..n)
        .map(|_| {
            let c: [Real; 3] = [0; 3].map(|_| rng.random_range(-world..world));
            let h: [Real; 3] = [0; 3].map(|_| rng.random_range(0.0..size));
            aabb(
                [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
            )
        })
        .collect()
}

fn random_dir(rng: &mut ChaCha8Rng) -> [Real; 3] {
    loop {
        let d: [Real; 3] = [0; 3].map(|_| rng.random_range(-1.0..1.0));
        if d.iter().any(|x| x.abs() > 1e-3) {
            return d;
        }
    }
}

/// Random rays plus the axis-parallel ones (zero direction components) through random points.
fn rays_for(rng: &mut ChaCha8Rng, world: Real, count: usize) -> Vec<Ray> {
    let mut out = Vec::new();
    for i in 0..count {
        let o: [Real; 3] = [0; 3].map(|_| rng.random_range(-world..world));
        let max = match i % 4 {
            0 => Real::INFINITY,
            1 => 0.0,
            _ => rng.random_range(0.0..3.0 * world),
        };
        out.push(ray(o, random_dir(rng), max));
        let axis = i % 3;
        let mut d = [0.0; 3];
        d[axis] = if i % 2 == 0 { 1.0 } else { -1.0 };
        out.push(ray(o, d, Real::INFINITY));
        // Two zero components off the axis, one zero component.
        let mut d2 = random_dir(rng);
        d2[axis] = 0.0;
        if d2.iter().all(|x| *x == 0.0) {
            d2[(axis + 1) % 3] = 1.0;
        }
        out.push(ray(o, d2, 2.0 * world));
    }
    out
}

#[test]
fn random_scenes_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for &(n, world, size) in &[
        (1usize, 5.0, 1.0),
        (2, 5.0, 1.0),
        (3, 5.0, 1.0),
        (5, 5.0, 1.0),
        (17, 5.0, 1.0),
        (200, 10.0, 1.0),
        (2000, 20.0, 0.5),
        (3000, 10.0, 3.0),
    ] {
        let boxes = random_boxes(&mut rng, n, world, size);
        let tree = WideBvh::build(&boxes);
        assert_eq!(tree.len(), n);
        for r in rays_for(&mut rng, world, 60) {
            check_ray(&tree, &boxes, &r);
        }
        for _ in 0..20 {
            let q = random_boxes(&mut rng, 1, world, 2.0 * size)[0];
            check_aabb(&tree, &boxes, &q);
        }
    }
}

#[test]
fn empty_tree() {
    let tree = WideBvh::build(&[]);
    assert!(tree.is_empty());
    assert_eq!(tree.depth(), 0);
    let r = ray([0.0; 3], [1.0, 0.0, 0.0], Real::INFINITY);
    assert_eq!(tree.cast_ray_closest(&r), None);
    let mut all = vec![(7, 1.0)];
    tree.cast_ray_all(&r, &mut all);
    assert!(all.is_empty());
    check_aabb(&tree, &[], &aabb([-1.0; 3], [1.0; 3]));
}

#[test]
fn identical_boxes_and_point_boxes() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let same = vec![aabb([1.0, 2.0, 3.0], [2.0, 3.0, 4.0]); 500];
    let points = vec![aabb([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]); 300];
    let origin_points = vec![aabb([0.0; 3], [0.0; 3]); 100];
    for boxes in [&same, &points, &origin_points] {
        let tree = WideBvh::build(boxes);
        // The depth of a tree over coincident boxes still shrinks by splitting at the middle.
        assert!(tree.depth() <= 12, "depth {}", tree.depth());
        for r in rays_for(&mut rng, 5.0, 40) {
            check_ray(&tree, boxes, &r);
        }
        // Rays aimed exactly at the point / box, along axes and diagonals, from inside and on
        // the faces.
        let target = boxes[0].min();
        for d in [
            [1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, -1.0],
            [1.0, 1.0, 0.0],
            [1.0, 1.0, 1.0],
        ] {
            for back in [0.0, 1.0, 2.5] {
                let o = [
                    target.x - back * d[0],
                    target.y - back * d[1],
                    target.z - back * d[2],
                ];
                for max in [0.0, 1.0, 2.5, Real::INFINITY] {
                    check_ray(&tree, boxes, &ray(o, d, max));
                }
            }
        }
        check_aabb(&tree, boxes, &boxes[0]);
    }
}

#[test]
fn huge_and_tiny_mixed_and_far_coordinates() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut boxes = random_boxes(&mut rng, 400, 1e6, 1e-3);
    boxes.extend(random_boxes(&mut rng, 100, 1e6, 1e5));
    boxes.extend(random_boxes(&mut rng, 50, 10.0, 1e-6));
    boxes.push(aabb([-1e6; 3], [1e6; 3]));
    let tree = WideBvh::build(&boxes);
    for r in rays_for(&mut rng, 1e6, 80) {
        check_ray(&tree, &boxes, &r);
    }
    for r in rays_for(&mut rng, 10.0, 40) {
        check_ray(&tree, &boxes, &r);
    }
    // Boxes near the largest finite coordinates.
    let big = Real::MAX / 4.0;
    let far = vec![
        aabb([big, big, big], [2.0 * big, 2.0 * big, 2.0 * big]),
        aabb([-2.0 * big; 3], [-big; 3]),
        aabb([0.0; 3], [1.0; 3]),
    ];
    let tree = WideBvh::build(&far);
    for r in rays_for(&mut rng, big, 40) {
        check_ray(&tree, &far, &r);
    }
    check_ray(&tree, &far, &ray([0.5; 3], [1.0, 1.0, 1.0], Real::INFINITY));
    check_ray(
        &tree,
        &far,
        &ray([-big; 3], [1.0, 1.0, 1.0], Real::INFINITY),
    );
}

#[test]
fn rays_on_slab_planes_with_zero_components() {
    // A grid of unit cubes sharing faces; rays run exactly along the shared faces and edges,
    // with zero direction components, so that origin coordinates equal slab planes.
    let mut boxes = Vec::new();
    for x in 0..8 {
        for y in 0..8 {
            for z in 0..4 {
                let (x, y, z) = (x as Real, y as Real, z as Real);
                boxes.push(aabb([x, y, z], [x + 1.0, y + 1.0, z + 1.0]));
            }
        }
    }
    let tree = WideBvh::build(&boxes);
    for a in 0..=8 {
        for b in 0..=4 {
            let (a, b) = (a as Real, b as Real);
            for max in [0.0, 3.5, Real::INFINITY] {
                check_ray(&tree, &boxes, &ray([-1.0, a, b], [1.0, 0.0, 0.0], max));
                check_ray(&tree, &boxes, &ray([9.0, a, b], [-1.0, 0.0, 0.0], max));
                check_ray(&tree, &boxes, &ray([a, -1.0, b], [0.0, 1.0, 0.0], max));
                check_ray(&tree, &boxes, &ray([a, b, 9.0], [0.0, 0.0, -1.0], max));
                check_ray(&tree, &boxes, &ray([a, a, -1.0], [0.0, 0.0, 1.0], max));
                check_ray(&tree, &boxes, &ray([-1.0, a, b], [1.0, 1.0, 0.0], max));
                check_ray(&tree, &boxes, &ray([a, 0.0, b], [0.0, 1.0, 1.0], max));
                // Starting inside / on a face.
                check_ray(&tree, &boxes, &ray([a, b, 0.5], [1.0, 0.0, 0.0], max));
                check_ray(&tree, &boxes, &ray([0.5, a, b], [0.0, -1.0, 0.0], max));
            }
        }
    }
    // A direction component so small that its reciprocal overflows.
    let tiny = Real::MIN_POSITIVE / 16.0;
    for o in [[-1.0, 2.0, 2.0], [-1.0, 2.0 - tiny, 2.0], [-1.0, 2.5, 2.5]] {
        check_ray(&tree, &boxes, &ray(o, [1.0, tiny, 0.0], Real::INFINITY));
        check_ray(&tree, &boxes, &ray(o, [1.0, -tiny, tiny], Real::INFINITY));
    }
}

#[test]
fn rays_starting_inside_report_zero() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let boxes = random_boxes(&mut rng, 1000, 10.0, 2.0);
    let tree = WideBvh::build(&boxes);
    for b in boxes.iter().take(100) {
        let r = ray(b.center().coords.into(), random_dir(&mut rng), 0.0);
        check_ray(&tree, &boxes, &r);
        let (_, t) = tree.cast_ray_closest(&r).unwrap();
        assert_eq!(t, 0.0);
        check_ray(
            &tree,
            &boxes,
            &ray(b.max().coords.into(), random_dir(&mut rng), 1.0),
        );
    }
}

#[test]
fn callback_clip_and_stop() {
    let boxes: Vec<Aabb> = (0..50)
        .map(|i| {
            let x = 2.0 * i as Real;
            aabb([x, 0.0, 0.0], [x + 1.0, 1.0, 1.0])
        })
        .collect();
    let tree = WideBvh::build(&boxes);
    let r = ray([-1.0, 0.5, 0.5], [1.0, 0.0, 0.0], Real::INFINITY);
    // Clip to 10: only the boxes entered at t <= 10 are reported.
    let mut seen = Vec::new();
    tree.cast_ray(&r, |i, t| {
        seen.push((i, t));
        RayStep::Clip(10.0)
    });
    assert!(seen.iter().all(|&(_, t)| t <= 10.0));
    assert!(seen.contains(&(0, 1.0)));
    // Stop after the first report.
    let mut count = 0;
    tree.cast_ray(&r, |_, _| {
        count += 1;
        RayStep::Stop
    });
    assert_eq!(count, 1);
    // A NaN clip changes nothing.
    let mut all = 0;
    tree.cast_ray(&r, |_, _| {
        all += 1;
        RayStep::Clip(Real::NAN)
    });
    assert_eq!(all, 50);
    // Stop in a box query.
    let mut q = 0;
    tree.query_aabb(&aabb([-10.0; 3], [200.0; 3]), |_| {
        q += 1;
        Visit::Stop
    });
    assert_eq!(q, 1);
}

#[test]
fn deep_tree_does_not_drop_results() {
    // Geometrically growing boxes along one axis, all containing the origin's neighbourhood:
    // every ray from the origin hits all of them (at distance 0), whatever the tree depth.
    let boxes: Vec<Aabb> = (0..2000)
        .map(|i| {
            let s = (1.0 + i as Real * 0.01) as Real;
            aabb([-s, -1.0, -1.0], [s * s, 1.0, 1.0])
        })
        .collect();
    let tree = WideBvh::build(&boxes);
    let r = ray([0.0; 3], [1.0, 0.3, 0.2], Real::INFINITY);
    let mut all = Vec::new();
    tree.cast_ray_all(&r, &mut all);
    assert_eq!(all.len(), boxes.len());
    check_ray(&tree, &boxes, &r);
}

#[test]
fn to_wide_uses_tight_boxes_and_handles() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let boxes = random_boxes(&mut rng, 500, 10.0, 1.0);
    let mut bvh = DynamicBvh::new(BvhConfig::default()).unwrap();
    let mut ids: Vec<_> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| bvh.insert(*b, i as u64))
        .collect();
    // Remove some so that slots are not contiguous.
    for id in ids.drain(..100).step_by(2) {
        assert!(bvh.remove(id));
    }
    let (tree, handles) = bvh.to_wide();
    assert_eq!(tree.len(), bvh.len());
    let tight: Vec<Aabb> = handles
        .iter()
        .map(|h| boxes[bvh.user(*h).unwrap() as usize])
        .collect();
    for r in rays_for(&mut rng, 10.0, 30) {
        check_ray(&tree, &tight, &r);
    }
}

/// Sibling subtrees entered at exactly the same distance (rays along shared faces of stacked
/// boxes, duplicated boxes): the traversal orders children by approximate keys, ties broken by
/// lane, and must still report exactly what brute force reports.
#[test]
fn children_entered_at_equal_distances() {
    let mut boxes = Vec::new();
    for i in 0..12 {
        for j in 0..12 {
            let (x, y) = (2.0 * i as Real, j as Real);
            let b = aabb([x, y, 0.0], [x + 1.0, y + 1.0, 1.0]);
            boxes.push(b);
            if (i + j) % 3 == 0 {
                boxes.push(b);
            }
        }
    }
    let tree = WideBvh::build(&boxes);
    for j in 0..=12 {
        for &(o, d) in &[
            ([-3.0, j as Real, 0.5], [1.0, 0.0, 0.0]),
            ([-3.0, j as Real, 0.0], [1.0, 0.0, 0.0]),
            ([30.0, j as Real, 1.0], [-1.0, 0.0, 0.0]),
            ([-3.0, j as Real, 0.5], [1.0, 1e-3, 0.0]),
            ([-3.0, j as Real + 0.5, -2.0], [1.0, 0.0, 1.0]),
        ] {
            for max in [Real::INFINITY, 10.0, 2.5] {
                check_ray(&tree, &boxes, &ray(o, d, max));
            }
        }
    }
}

/// Rays with three non-zero direction components (the traversal's vectorised exact test) whose
/// origins lie on faces, edges and corners of a grid of cubes, with tiny components (whose
/// reciprocals are still finite) and huge coordinate differences: the distances must equal
/// `Aabb::cast_ray`'s bit for bit, the sign of a zero included.
#[test]
fn regular_rays_on_faces_match_bitwise() {
    let mut boxes = Vec::new();
    for x in 0..6 {
        for y in 0..6 {
            for z in 0..3 {
                let (x, y, z) = (x as Real, y as Real, z as Real);
                boxes.push(aabb([x, y, z], [x + 1.0, y + 1.0, z + 1.0]));
            }
        }
    }
    boxes.push(aabb([1e30, -1e30, 0.0], [2e30, 1e30, 1.0]));
    let tree = WideBvh::build(&boxes);
    let mut portable = tree.clone();
    portable.set_avx(false);
    let tiny: Real = 1e-30;
    let dirs: [[Real; 3]; 8] = [
        [1.0, tiny, tiny],
        [-1.0, tiny, -tiny],
        [tiny, 1.0, -tiny],
        [1.0, 1.0, 1.0],
        [-1.0, 0.5, -0.25],
        [0.3, -1.0, Real::EPSILON],
        [-tiny, -tiny, 1.0],
        [1.0, -Real::EPSILON, 0.5],
    ];
    let coords: [Real; 5] = [-1.0, 0.0, 1.0, 2.5, 3.0];
    for &x in &coords {
        for &y in &coords {
            for &z in &[0.0, 0.5, 1.0, 3.0] {
                for d in dirs {
                    for max in [0.0, 2.5, Real::INFINITY] {
                        let r = ray([x, y, z], d, max);
                        check_ray(&tree, &boxes, &r);
                        let want = brute_all(&boxes, &r);
                        for t in [&tree, &portable] {
                            let mut got = Vec::new();
                            t.cast_ray_all(&r, &mut got);
                            let bits = |v: &[(u32, Real)]| {
                                v.iter().map(|&(i, t)| (i, t.to_bits())).collect::<Vec<_>>()
                            };
                            assert_eq!(bits(&got), bits(&want), "{r:?}");
                        }
                    }
                }
            }
        }
    }
}
