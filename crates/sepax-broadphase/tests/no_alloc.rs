//! Per-frame work allocates nothing once warm: a counting global allocator watches frames of
//! moving boxes (update + update_pairs, and queries) after a warm-up.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_broadphase::bvh::{DynamicBvh, RayStep, WideBvh};
use sepax_broadphase::sorted_grid::SortedGrid;
use sepax_broadphase::{BroadPhase, ProxyId, Visit};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Ray};
use sepax_testkit::alloc::{self as counting, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Boxes moving in a bounded world, as in the benchmark (small).
struct Scene {
    center: Vec<[Real; 3]>,
    half: Vec<[Real; 3]>,
    vel: Vec<[Real; 3]>,
    world: Real,
}

impl Scene {
    fn new(n: usize) -> Scene {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let world = (n as Real).cbrt();
        let mut s = Scene {
            center: Vec::new(),
            half: Vec::new(),
            vel: Vec::new(),
            world,
        };
        for _ in 0..n {
            s.half.push([0; 3].map(|_| rng.random_range(0.1..0.5)));
            s.center
                .push([0; 3].map(|_| rng.random_range(-world + 0.5..world - 0.5)));
            s.vel.push([0; 3].map(|_| rng.random_range(-0.05..0.05)));
        }
        s
    }
    fn step(&mut self) {
        for i in 0..self.center.len() {
            for k in 0..3 {
                let mut c = self.center[i][k] + self.vel[i][k];
                if c.abs() > self.world - self.half[i][k] {
                    self.vel[i][k] = -self.vel[i][k];
                    c = c.clamp(-self.world + self.half[i][k], self.world - self.half[i][k]);
                }
                self.center[i][k] = c;
            }
        }
    }
    fn aabb(&self, i: usize) -> Aabb {
        let (c, h) = (self.center[i], self.half[i]);
        Aabb::new_unchecked(
            Point3::new(c[0] - h[0], c[1] - h[1], c[2] - h[2]),
            Point3::new(c[0] + h[0], c[1] + h[1], c[2] + h[2]),
        )
    }
}

/// Runs `frames` frames (moving the proxies one by one, or with `update_many` when `batch`);
/// returns the allocations made in the last `measured` of them.
fn allocations(bp: &mut dyn BroadPhase, frames: usize, measured: usize, batch: bool) -> usize {
    let mut scene = Scene::new(3000);
    let ids: Vec<ProxyId> = (0..scene.center.len())
        .map(|i| bp.insert(scene.aabb(i), i as u64))
        .collect();
    let mut pairs = Vec::new();
    let query =
        Aabb::new(Point3::new(-3.0, -3.0, -3.0), Point3::new(3.0, 3.0, 3.0)).expect("valid query");
    let mut hits = 0;
    let mut before = 0;
    for frame in 0..frames {
        if frame == frames - measured {
            before = counting::allocations();
        }
        scene.step();
        if batch {
            let sc = &scene;
            bp.update_many(&mut ids.iter().enumerate().map(|(i, id)| {
                let v = sc.vel[i];
                (*id, sc.aabb(i), Vector3::new(v[0], v[1], v[2]))
            }));
        } else {
            for (i, id) in ids.iter().enumerate() {
                let v = scene.vel[i];
                bp.update(*id, scene.aabb(i), Vector3::new(v[0], v[1], v[2]));
            }
        }
        bp.update_pairs(&mut pairs);
        bp.query_aabb(&query, &mut |_| {
            hits += 1;
            Visit::Continue
        });
    }
    assert!(!pairs.is_empty() && hits > 0);
    counting::allocations() - before
}

// One test function: the allocation counter is global, and tests of one binary run in
// parallel threads.
#[test]
fn warm_frames_allocate_nothing() {
    let bvh = allocations(&mut DynamicBvh::default(), 400, 100, false);
    let bvh_batch = allocations(&mut DynamicBvh::default(), 400, 100, true);
    let grid = allocations(&mut SortedGrid::default(), 60, 20, false);
    let wide = wide_ray_allocations();
    assert_eq!(
        (bvh, bvh_batch, grid, wide),
        (0, 0, 0, 0),
        "allocations in warm frames (bvh one by one, bvh in batches, sorted grid), in wide-tree \
         ray casts and box queries"
    );
}

/// Allocations made by ray casts (closest hit, and a callback that keeps going) and box queries
/// on a built `WideBvh`, with the AVX and the portable traversal.
fn wide_ray_allocations() -> usize {
    let scene = Scene::new(1000);
    let boxes: Vec<Aabb> = (0..1000).map(|i| scene.aabb(i)).collect();
    let mut trees = [WideBvh::build(&boxes), WideBvh::build(&boxes)];
    trees[1].set_avx(false);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let rays: Vec<Ray> = (0..40)
        .map(|_| {
            let o = [0; 3].map(|_| rng.random_range(-20.0..20.0));
            let d = [0; 3].map(|_| rng.random_range(-1.0..1.0));
            Ray::new(
                Point3::new(o[0], o[1], o[2]),
                Vector3::new(d[0] + 1e-3, d[1], d[2]),
                Real::INFINITY,
            )
            .unwrap()
        })
        .collect();
    let before = counting::allocations();
    let mut sink = 0usize;
    for tree in &trees {
        for r in &rays {
            sink += tree.cast_ray_closest(r).map_or(0, |(i, _)| i as usize);
            tree.cast_ray(r, |i, _| {
                sink += i as usize;
                RayStep::Continue
            });
            let q = Aabb::new(r.origin(), r.origin() + Vector3::new(3.0, 3.0, 3.0)).unwrap();
            tree.query_aabb(&q, |i| {
                sink += i as usize;
                Visit::Continue
            });
        }
    }
    std::hint::black_box(sink);
    counting::allocations() - before
}
