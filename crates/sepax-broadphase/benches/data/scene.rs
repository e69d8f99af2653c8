//! The moving-boxes scene (and the ray set) shared by `benches/broadphase.rs`,
//! `examples/frame_profile.rs` and `examples/ray_profile.rs` (included by `#[path]`), so that the
//! profiles run on exactly the bench's data. Not every includer uses every item.
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Aabb;

/// Boxes moving in a bounded world; generated in f32 so that every build (f32 or f64 `Real`)
/// and parry see exactly the same numbers.
#[derive(Clone)]
pub struct Scene {
    /// Box centres.
    pub center: Vec<[f32; 3]>,
    /// Box half-extents.
    pub half: Vec<[f32; 3]>,
    /// Per-frame displacement of each box (zero for the still ones).
    pub vel: Vec<[f32; 3]>,
    /// Indices of the boxes that move.
    pub moving: Vec<usize>,
    /// Half the side of the world cube (centred on the origin).
    pub world: f32,
}

impl Scene {
    /// `n` boxes, a fraction `static_fraction` of them still, from `seed`.
    pub fn new(n: usize, static_fraction: f64, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let world = (n as f32).cbrt();
        let mut s = Scene {
            center: Vec::with_capacity(n),
            half: Vec::with_capacity(n),
            vel: Vec::with_capacity(n),
            moving: Vec::new(),
            world,
        };
        for i in 0..n {
            let h = [0; 3].map(|_| rng.random_range(0.1f32..0.5));
            let c = [0; 3].map(|_| rng.random_range(-world + 0.5..world - 0.5));
            let still = rng.random_bool(static_fraction);
            let v = if still {
                [0.0; 3]
            } else {
                s.moving.push(i);
                [0; 3].map(|_| rng.random_range(-0.05f32..0.05))
            };
            s.center.push(c);
            s.half.push(h);
            s.vel.push(v);
        }
        s
    }

    /// One step: every moving box advances, bouncing off the walls.
    pub fn step(&mut self) {
        let w = self.world;
        for &i in &self.moving {
            for k in 0..3 {
                let mut c = self.center[i][k] + self.vel[i][k];
                if c.abs() > w - self.half[i][k] {
                    self.vel[i][k] = -self.vel[i][k];
                    c = c.clamp(-w + self.half[i][k], w - self.half[i][k]);
                }
                self.center[i][k] = c;
            }
        }
    }

    /// Box `i` now.
    pub fn aabb(&self, i: usize) -> Aabb {
        let (c, h) = (self.center[i], self.half[i]);
        Aabb::new_unchecked(
            Point3::new(
                (c[0] - h[0]) as Real,
                (c[1] - h[1]) as Real,
                (c[2] - h[2]) as Real,
            ),
            Point3::new(
                (c[0] + h[0]) as Real,
                (c[1] + h[1]) as Real,
                (c[2] + h[2]) as Real,
            ),
        )
    }

    /// Box `i`'s displacement per frame.
    pub fn velocity(&self, i: usize) -> Vector3 {
        let v = self.vel[i];
        Vector3::new(v[0] as Real, v[1] as Real, v[2] as Real)
    }

    /// Box `i` as parry3d's AABB (the same `f32` numbers).
    pub fn parry_aabb(&self, i: usize) -> parry3d::bounding_volume::Aabb {
        use parry3d::math::Vector as PVec;
        let (c, h) = (self.center[i], self.half[i]);
        parry3d::bounding_volume::Aabb::new(
            PVec::new(c[0] - h[0], c[1] - h[1], c[2] - h[2]),
            PVec::new(c[0] + h[0], c[1] + h[1], c[2] + h[2]),
        )
    }

    /// `count` rays from `seed`: origins uniform in the world cube, unit directions (origin and
    /// direction, `f32`).
    pub fn rays(&self, count: usize, seed: u64) -> Vec<([f32; 3], [f32; 3])> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let w = self.world;
        (0..count)
            .map(|_| {
                let o = [0; 3].map(|_| rng.random_range(-w..w));
                let mut d = [0; 3].map(|_| rng.random_range(-1.0f32..1.0));
                let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt().max(1e-3);
                d = d.map(|x| x / len);
                (o, d)
            })
            .collect()
    }
}
