//! The moving-boxes scene (and the ray set) shared by `benches/broadphase.rs`, the profilers
//! `frame_profile` and `ray_profile` of sepax-tools and the broad phase's `tests/suite/family.rs`, so
//! that the profiles and the test run on exactly the bench's data (parry3d's view of it is
//! `sepax_benches::broadphase::ParryAabb`).

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

/// The shapes of the benchmark family (issue 17): each a way boxes are sized and placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Half-extents uniform in [0.1, 0.5], centres uniform (about 0.1 overlapping pair per box).
    Uniform,
    /// Half-extents log-uniform over 10x ([0.05, 0.5]).
    LogSize10,
    /// Half-extents log-uniform over 100x ([0.02, 2.0]).
    LogSize100,
    /// 80% of the boxes in 8 dense blobs (bell-shaped, spread 1/8 of the world), the rest uniform.
    Clustered,
    /// The uniform boxes in a world 0.47 times as wide (about 1 overlapping pair per box).
    Dense,
    /// The uniform boxes plus 16 huge, still slabs (floors and terrain tiles, a quarter of the
    /// world wide and 1 thick) among them.
    Huge,
}

impl Kind {
    /// Every kind, with its label in bench names.
    pub const ALL: [(Kind, &'static str); 6] = [
        (Kind::Uniform, "uniform"),
        (Kind::LogSize10, "log10"),
        (Kind::LogSize100, "log100"),
        (Kind::Clustered, "clustered"),
        (Kind::Dense, "dense"),
        (Kind::Huge, "huge"),
    ];
}

impl Scene {
    /// `n` boxes of the uniform kind, a fraction `static_fraction` of them still, from `seed`.
    pub fn new(n: usize, static_fraction: f64, seed: u64) -> Self {
        Self::of_kind(Kind::Uniform, n, static_fraction, seed)
    }

    /// `n` boxes of `kind`, a fraction `static_fraction` of them still, from `seed`.
    pub fn of_kind(kind: Kind, n: usize, static_fraction: f64, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let scale = if kind == Kind::Dense { 0.47 } else { 1.0 };
        let world = ((n as f32).cbrt() * scale).max(3.0);
        let mut s = Scene {
            center: Vec::with_capacity(n),
            half: Vec::with_capacity(n),
            vel: Vec::with_capacity(n),
            moving: Vec::new(),
            world,
        };
        // Drawn only for the clustered kind: the other kinds keep the uniform scene's sequence.
        let blobs: Vec<[f32; 3]> = if kind == Kind::Clustered {
            (0..8)
                .map(|_| [0; 3].map(|_| rng.random_range(-world * 0.7..world * 0.7)))
                .collect()
        } else {
            Vec::new()
        };
        let huge = if kind == Kind::Huge { 16.min(n) } else { 0 };
        for i in 0..n {
            let log_uniform =
                |rng: &mut ChaCha8Rng, lo: f32, hi: f32| (rng.random_range(lo.ln()..hi.ln())).exp();
            let h = match kind {
                _ if i < huge => [world * 0.25, 0.5, world * 0.25],
                Kind::LogSize10 => [0; 3].map(|_| log_uniform(&mut rng, 0.05, 0.5)),
                Kind::LogSize100 => [0; 3].map(|_| log_uniform(&mut rng, 0.02, 2.0)),
                _ => [0; 3].map(|_| rng.random_range(0.1f32..0.5)),
            };
            let mut c = [0; 3].map(|_| rng.random_range(-world + 0.5..world - 0.5));
            if kind == Kind::Clustered && rng.random_bool(0.8) {
                let b = blobs[rng.random_range(0..blobs.len())];
                let sigma = world / 8.0;
                for k in 0..3 {
                    // Sum of three uniforms: a cheap bell around the blob's centre.
                    let g: f32 = (0..3).map(|_| rng.random_range(-1.0f32..1.0)).sum();
                    c[k] = b[k] + g * sigma;
                }
            }
            // Inside the world (a box wider than it is centred).
            for k in 0..3 {
                let m = (world - h[k]).max(0.0);
                c[k] = c[k].clamp(-m, m);
            }
            let still = i < huge || rng.random_bool(static_fraction);
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
                let m = (w - self.half[i][k]).max(0.0);
                if c.abs() > m {
                    self.vel[i][k] = -self.vel[i][k];
                    c = c.clamp(-m, m);
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
