//! The world scenes shared by `benches/world.rs` and `tools/src/bin/world_profile.rs` (from
//! this crate's lib), so that the profile runs on exactly the bench's data.
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Isometry3, Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere};
use sepax_world::{ColliderDesc, Kind, Report};

/// The shape kinds of a scene, a quarter of the colliders each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A rotated box.
    Obb,
    /// An axis-aligned box (never rotated).
    Aabb,
    /// A sphere.
    Sphere,
    /// A capsule along its local y axis, rotated.
    Capsule,
}

/// How collider sizes are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizes {
    /// Every collider of one size scale (0.3).
    Uniform,
    /// Size scales log-uniform over [0.1, 1.0] (10x).
    Spread,
}

impl Sizes {
    pub fn label(self) -> &'static str {
        match self {
            Sizes::Uniform => "uniform",
            Sizes::Spread => "spread10x",
        }
    }
}

/// Colliders moving in a bounded world, generated in `f64`; every implementation gets the same
/// numbers rounded to its own precision (`to_f32` for rapier and parry, `Real` for sepax).
#[derive(Clone)]
pub struct Scene {
    pub form: Vec<Form>,
    /// Box half-extents; sphere radius in `[0]`; capsule half-height `[0]` and radius `[1]`.
    pub size: Vec<[f64; 3]>,
    /// Unit quaternion `[w, x, y, z]` (identity for AABBs and spheres).
    pub rot: Vec<[f64; 4]>,
    pub center: Vec<[f64; 3]>,
    /// Per-frame displacement (zero for the static ones).
    pub vel: Vec<[f64; 3]>,
    /// Static colliders never move (sepax `Kind::Static`; in rapier and parry, static–static
    /// pairs are filtered out like the world's default policy does).
    pub is_static: Vec<bool>,
    /// Indices of the colliders that move.
    pub moving: Vec<usize>,
    /// Half the side of the world cube (centred on the origin).
    pub world: f64,
}

/// A collider's bounding radius (for the wall bounce).
fn reach(form: Form, size: &[f64; 3]) -> f64 {
    match form {
        Form::Obb | Form::Aabb => {
            (size[0] * size[0] + size[1] * size[1] + size[2] * size[2]).sqrt()
        }
        Form::Sphere => size[0],
        Form::Capsule => size[0] + size[1],
    }
}

impl Scene {
    /// `n` colliders, a fraction `static_fraction` of them static, sizes by `sizes`, from
    /// `seed`. The world cube is scaled so that the expected occupied volume per collider is
    /// the same for both size modes (about one collider per 8 unit³ at scale 0.3).
    pub fn new(n: usize, static_fraction: f64, sizes: Sizes, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // E[s³] of the size scale: 0.027 for the uniform 0.3, (1 - 0.001) / (3 ln 10) for the
        // log-uniform spread.
        let mean_s3 = match sizes {
            Sizes::Uniform => 0.027,
            Sizes::Spread => 0.999 / (3.0 * std::f64::consts::LN_10),
        };
        let world = (n as f64 * mean_s3 / 0.027).cbrt();
        let mut s = Scene {
            form: Vec::with_capacity(n),
            size: Vec::with_capacity(n),
            rot: Vec::with_capacity(n),
            center: Vec::with_capacity(n),
            vel: Vec::with_capacity(n),
            is_static: Vec::with_capacity(n),
            moving: Vec::new(),
            world,
        };
        for i in 0..n {
            let form = [Form::Obb, Form::Aabb, Form::Sphere, Form::Capsule][rng.random_range(0..4)];
            let scale = match sizes {
                Sizes::Uniform => 0.3,
                Sizes::Spread => 10f64.powf(rng.random_range(-1.0..0.0)),
            };
            let size = match form {
                Form::Obb | Form::Aabb => [0; 3].map(|_| scale * rng.random_range(0.6..1.0)),
                Form::Sphere => [scale, 0.0, 0.0],
                Form::Capsule => [scale * 0.8, scale * 0.5, 0.0],
            };
            let rot = match form {
                Form::Obb | Form::Capsule => random_quaternion(&mut rng),
                _ => [1.0, 0.0, 0.0, 0.0],
            };
            let r = reach(form, &size);
            let c = [0; 3].map(|_| rng.random_range(-world + r..world - r));
            let still = rng.random_bool(static_fraction);
            let v = if still {
                [0.0; 3]
            } else {
                s.moving.push(i);
                [0; 3].map(|_| rng.random_range(-0.05..0.05))
            };
            s.form.push(form);
            s.size.push(size);
            s.rot.push(rot);
            s.center.push(c);
            s.vel.push(v);
            s.is_static.push(still);
        }
        s
    }

    pub fn len(&self) -> usize {
        self.center.len()
    }

    /// One step: every moving collider advances, bouncing off the walls (in `f64`).
    pub fn step(&mut self) {
        let w = self.world;
        for &i in &self.moving {
            let r = reach(self.form[i], &self.size[i]);
            for k in 0..3 {
                let mut c = self.center[i][k] + self.vel[i][k];
                if c.abs() > w - r {
                    self.vel[i][k] = -self.vel[i][k];
                    c = c.clamp(-w + r, w - r);
                }
                self.center[i][k] = c;
            }
        }
    }

    /// Collider `i`'s pose for sepax.
    pub fn pose(&self, i: usize) -> Isometry3 {
        let c = self.center[i].map(|x| x as Real);
        let [w, x, y, z] = self.rot[i].map(|x| x as Real);
        let q = Quaternion::new(w, x, y, z);
        let rot = if q.norm_squared() == 1.0 {
            UnitQuaternion::new_unchecked(q)
        } else {
            UnitQuaternion::new_normalize(q)
        };
        Isometry3::from_parts(Vector3::new(c[0], c[1], c[2]).into(), rot)
    }

    /// Collider `i` for sepax: its local shape at its pose, reporting manifolds.
    pub fn desc(&self, i: usize) -> ColliderDesc {
        let h = self.size[i].map(|x| x as Real);
        let o = Point3::origin();
        let shape: Shape = match self.form[i] {
            Form::Obb => Obb::from_aabb(
                &Aabb::from_center_half_extents(o, Vector3::new(h[0], h[1], h[2])).expect("box"),
            )
            .into(),
            Form::Aabb => Aabb::from_center_half_extents(o, Vector3::new(h[0], h[1], h[2]))
                .expect("box")
                .into(),
            Form::Sphere => Sphere::new(o, h[0]).expect("sphere").into(),
            Form::Capsule => Capsule::new(
                Point3::new(0.0, -h[0], 0.0),
                Point3::new(0.0, h[0], 0.0),
                h[1],
            )
            .expect("capsule")
            .into(),
        };
        let kind = if self.is_static[i] {
            Kind::Static
        } else {
            Kind::Dynamic
        };
        ColliderDesc::new(shape)
            .pose(self.pose(i))
            .kind(kind)
            .report(Report::Manifolds)
            .user(i as u64)
    }

    /// Collider `i`'s shape for rapier and parry (the same `f32` numbers).
    pub fn parry_shape(&self, i: usize) -> parry3d::shape::SharedShape {
        use parry3d::shape::SharedShape;
        let h = self.size[i].map(|x| x as f32);
        match self.form[i] {
            Form::Obb | Form::Aabb => SharedShape::cuboid(h[0], h[1], h[2]),
            Form::Sphere => SharedShape::ball(h[0]),
            Form::Capsule => SharedShape::capsule_y(h[0], h[1]),
        }
    }

    /// Collider `i`'s pose for rapier and parry.
    pub fn parry_pose(&self, i: usize) -> parry3d::math::Pose {
        use parry3d::math::{Pose, Rotation, Vector};
        let c = self.center[i].map(|x| x as f32);
        let [w, x, y, z] = self.rot[i].map(|x| x as f32);
        let q = Rotation::from_xyzw(x, y, z, w).normalize();
        Pose::from_parts(Vector::new(c[0], c[1], c[2]), q)
    }
}

/// A uniformly random unit quaternion (normalised Gaussian-free: rejection in the 4-ball).
fn random_quaternion(rng: &mut ChaCha8Rng) -> [f64; 4] {
    loop {
        let q = [0; 4].map(|_| rng.random_range(-1.0f64..1.0));
        let n2: f64 = q.iter().map(|x| x * x).sum();
        if n2 > 1e-4 && n2 <= 1.0 {
            let n = n2.sqrt();
            return q.map(|x| x / n);
        }
    }
}
