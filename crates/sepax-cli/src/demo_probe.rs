//! The demo's probes: each frame, after the update, a fan of rays and one sphere sweep across
//! the room go through the world's queries (`World::cast_rays`, `World::cast_shape`), as a game
//! asks its world "what does this ray hit, where does this ball stop". The last frame's probes
//! are drawn in the picture.

use crate::demo::HEIGHT;
use sepax_scene::svg::DrawRay;
use sepax_shapes::math::{Isometry3, Point3, Real, Vector3};
use sepax_shapes::{Ray, Shape, Sphere};
use sepax_world::{Executor, QueryFilter, RayCastHit, World};

/// Rays in the fan.
pub const RAYS: usize = 8;
/// Radius of the swept sphere.
const SWEEP_RADIUS: Real = 0.5;

/// What the probes found over the run.
#[derive(Debug, Default, Clone, Copy)]
pub struct ProbeStats {
    pub rays: u64,
    pub ray_hits: u64,
    pub sweeps: u64,
    pub sweep_hits: u64,
    /// Sum of the sweeps' first-contact fractions (hits only).
    pub sweep_time: f64,
    pub ms: f64,
}

/// One probe of the last frame, as drawn.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    pub label: &'static str,
    pub from: Point3,
    pub to: Point3,
    pub hit: Option<Point3>,
}

impl Probe {
    pub fn draw(&self) -> DrawRay<'_> {
        DrawRay {
            label: self.label,
            from: self.from,
            to: self.to,
            hit: self.hit,
        }
    }
}

/// Reused buffers of the probes.
#[derive(Debug, Default)]
pub struct Probes {
    rays: Vec<Ray>,
    hits: Vec<Option<RayCastHit>>,
    pub last: Vec<Probe>,
}

impl Probes {
    /// Casts this frame's fan and sweep in a room of half side `l`, adding to `stats` and
    /// keeping the probes for the picture. The probes are inside the room by construction, so
    /// the queries cannot fail; an error is reported as a message.
    pub fn run(
        &mut self,
        world: &World,
        exec: &impl Executor,
        frame: u64,
        l: Real,
        stats: &mut ProbeStats,
    ) -> Result<(), String> {
        let reach = 4.0 * l;
        let origin = Point3::new(0.0, 0.5 * HEIGHT, 0.0);
        let turn = frame as Real * 0.05;
        self.rays.clear();
        for k in 0..RAYS {
            let a = turn + k as Real * core::f64::consts::TAU as Real / RAYS as Real;
            let dir = Vector3::new(a.cos(), -0.15, a.sin());
            self.rays
                .push(Ray::new(origin, dir, reach).map_err(|e| e.to_string())?);
        }
        self.hits.clear();
        self.hits.resize(RAYS, None);
        let all = QueryFilter::new();
        world
            .cast_rays(exec, &self.rays, &all, &mut self.hits)
            .map_err(|e| e.to_string())?;
        self.last.clear();
        for (ray, hit) in self.rays.iter().zip(&self.hits) {
            stats.rays += 1;
            stats.ray_hits += u64::from(hit.is_some());
            self.last.push(Probe {
                label: "ray",
                from: ray.origin(),
                to: ray.origin() + ray.direction() * reach,
                hit: hit.map(|h| h.point),
            });
        }

        // A ball rolled across the room along x, its lane drifting along z frame by frame.
        let z = 0.8 * l * (frame as Real * 0.02).sin();
        let start = Point3::new(-l + 2.0 * SWEEP_RADIUS, SWEEP_RADIUS + 0.05, z);
        let path = Vector3::new(2.0 * l - 4.0 * SWEEP_RADIUS, 0.0, 0.0);
        let ball =
            Shape::Sphere(Sphere::new(Point3::origin(), SWEEP_RADIUS).map_err(|e| e.to_string())?);
        let pose = Isometry3::translation(start.x, start.y, start.z);
        let hit = world
            .cast_shape(&ball, &pose, &path, 1.0, &all)
            .map_err(|e| e.to_string())?;
        stats.sweeps += 1;
        if let Some(h) = hit {
            stats.sweep_hits += 1;
            stats.sweep_time += h.time as f64;
        }
        self.last.push(Probe {
            label: "sphere sweep",
            from: start,
            to: start + path,
            hit: hit.map(|h| start + path * h.time),
        });
        Ok(())
    }
}
