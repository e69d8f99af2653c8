//! A tiny sequential-impulse rigid-body solver for boxes on a static floor, driven by a sepax
//! [`World`]: the bodies are its colliders, and each step reads the contact manifolds of the
//! touching pairs from `World::update` (the solver never calls the narrow phase itself).
//! Shared by `examples/stack.rs` and `tests/stack.rs` (included by `#[path]`).
//!
//! Per frame (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005, and Box2D-lite):
//!
//! ```text
//! v += g dt
//! set_poses(moving colliders), update: a manifold for every touching pair (speculative points
//!             within the margin included)
//! warm start: each contact point reapplies last frame's impulses when the same pair has a point
//!             with the same feature id
//! repeat ITERATIONS times, for every point:
//!     normal impulse  >= 0,  target normal velocity  bias = depth / dt           (speculative)
//!                                                     or beta (depth - slop) / dt (penetrating)
//!     friction impulses clamped to mu * normal impulse (two tangents)
//! x += v dt, q += 0.5 (w, 0) q dt (normalised)
//! ```
//!
//! The world's manifolds are those of touching pairs (closed sets): a pair separated by a gap
//! smaller than the margin gets none, so a box is caught when it touches, not just before.
//! Resting contacts stay touching (the solver leaves them up to `SLOP` deep), so nothing is
//! lost for a stack.
#![allow(dead_code)]

use sepax::prelude::*;
use std::collections::HashMap;

/// Gravity (m/s^2).
pub const GRAVITY: Real = -9.81;
/// Time step (s).
pub const DT: Real = 1.0 / 60.0;
/// Speculative contact margin (m): contact points of a touching pair up to this far apart are
/// kept (negative depth).
pub const MARGIN: Real = 0.02;
/// Penetration allowed without correction (m).
pub const SLOP: Real = 0.005;
/// Fraction of the penetration beyond the slop corrected per step.
pub const BETA: Real = 0.2;
/// Friction coefficient.
pub const MU: Real = 0.6;
/// Velocity iterations per step.
pub const ITERATIONS: usize = 20;

/// A box body (static when `inv_mass == 0`).
#[derive(Debug, Clone)]
pub struct Body {
    pub position: Point3,
    pub rotation: UnitQuaternion,
    pub half_extents: Vector3,
    pub velocity: Vector3,
    pub angular_velocity: Vector3,
    pub inv_mass: Real,
    /// Inverse inertia in the body frame (diagonal).
    pub inv_inertia_local: Vector3,
    /// Static bodies are AABBs (the floor); dynamic ones OBBs.
    pub is_static: bool,
}

impl Body {
    /// A dynamic box of density 1.
    pub fn dynamic(position: Point3, rotation: UnitQuaternion, half_extents: Vector3) -> Body {
        let m = 8.0 * half_extents.x * half_extents.y * half_extents.z;
        let (x2, y2, z2) = (
            4.0 * half_extents.x * half_extents.x,
            4.0 * half_extents.y * half_extents.y,
            4.0 * half_extents.z * half_extents.z,
        );
        let inertia = Vector3::new(m * (y2 + z2), m * (x2 + z2), m * (x2 + y2)) / 12.0;
        Body {
            position,
            rotation,
            half_extents,
            velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            inv_mass: 1.0 / m,
            inv_inertia_local: inertia.map(|i| 1.0 / i),
            is_static: false,
        }
    }

    /// A static axis-aligned box.
    pub fn fixed(center: Point3, half_extents: Vector3) -> Body {
        Body {
            position: center,
            rotation: UnitQuaternion::identity(),
            half_extents,
            velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            inv_mass: 0.0,
            inv_inertia_local: Vector3::zeros(),
            is_static: true,
        }
    }

    /// The body's pose (its collider's local frame is the body frame).
    pub fn pose(&self) -> Isometry3 {
        Isometry3::from_parts(self.position.coords.into(), self.rotation)
    }

    fn inv_inertia_world(&self) -> Matrix3 {
        let r = self.rotation.to_rotation_matrix().into_inner();
        r * Matrix3::from_diagonal(&self.inv_inertia_local) * r.transpose()
    }

    fn velocity_at(&self, r: &Vector3) -> Vector3 {
        self.velocity + self.angular_velocity.cross(r)
    }

    fn apply_impulse(&mut self, p: &Vector3, r: &Vector3, inv_i: &Matrix3) {
        self.velocity += p * self.inv_mass;
        self.angular_velocity += inv_i * r.cross(p);
    }
}

/// One solver contact point.
struct Point {
    ra: Vector3,
    rb: Vector3,
    depth: Real,
    id: FeatureId,
    tangents: [Vector3; 2],
    mass_n: Real,
    mass_t: [Real; 2],
    impulse_n: Real,
    impulse_t: [Real; 2],
}

/// The contact constraints of one pair.
struct Constraint {
    a: usize,
    b: usize,
    normal: Vector3,
    points: Vec<Point>,
}

/// The simulation: bodies, the collision world of their colliders, and last frame's impulses
/// by (pair, feature id), for warm starting.
pub struct Sim {
    pub bodies: Vec<Body>,
    world: World,
    /// The colliders of the dynamic bodies, in body order.
    moving: Vec<ColliderId>,
    /// Their poses for `set_poses` (kept to reuse the buffer).
    poses: Vec<Isometry3>,
    cache: HashMap<(usize, usize, FeatureId), (Real, [Real; 2])>,
    /// Statistics of the last step.
    pub stats: StepStats,
}

/// What one step saw.
#[derive(Debug, Clone, Copy, Default)]
pub struct StepStats {
    /// Contact points in the step.
    pub points: usize,
    /// Of those, how many found last frame's impulse by feature id.
    pub warm_started: usize,
    /// Deepest penetration among the contact points (before the step moved the bodies).
    pub max_penetration: Real,
}

fn effective_mass(
    a: &Body,
    b: &Body,
    ia: &Matrix3,
    ib: &Matrix3,
    ra: &Vector3,
    rb: &Vector3,
    d: &Vector3,
) -> Real {
    let ka = a.inv_mass + (ia * ra.cross(d)).cross(ra).dot(d);
    let kb = b.inv_mass + (ib * rb.cross(d)).cross(rb).dot(d);
    let k = ka + kb;
    if k > 0.0 {
        1.0 / k
    } else {
        0.0
    }
}

impl Sim {
    /// A simulation of these bodies: each becomes a collider of a [`World`] (static bodies as
    /// static AABBs, the others as dynamic OBBs reporting manifolds), its index as `user`.
    pub fn new(bodies: Vec<Body>) -> Sim {
        let config = WorldConfig {
            contact: ContactConfig::with_margin(MARGIN),
            ..WorldConfig::default()
        };
        let mut world = World::with_config(config).expect("default tree settings");
        let mut ids = Vec::new();
        let descs = bodies.iter().enumerate().map(|(i, b)| {
            let shape: Shape = if b.is_static {
                Aabb::new(Point3::from(-b.half_extents), Point3::from(b.half_extents))
                    .expect("valid floor")
                    .into()
            } else {
                Obb::new(Point3::origin(), Matrix3::identity(), b.half_extents)
                    .expect("valid box")
                    .into()
            };
            let kind = if b.is_static {
                Kind::Static
            } else {
                Kind::Dynamic
            };
            ColliderDesc::new(shape)
                .pose(b.pose())
                .kind(kind)
                .report(Report::Manifolds)
                .user(i as u64)
        });
        world.insert_many(descs, &mut ids).expect("valid bodies");
        let moving: Vec<ColliderId> = (bodies.iter().zip(&ids))
            .filter(|(b, _)| !b.is_static)
            .map(|(_, &id)| id)
            .collect();
        Sim {
            bodies,
            world,
            moving,
            poses: Vec::new(),
            cache: HashMap::new(),
            stats: StepStats::default(),
        }
    }

    /// Moves the dynamic colliders to the bodies' poses and updates the world: afterwards
    /// every touching pair with contact points has its manifold (normal from the smaller id,
    /// which is the smaller body index, toward the larger).
    fn detect(&mut self) {
        self.poses.clear();
        self.poses
            .extend(self.bodies.iter().filter(|b| !b.is_static).map(Body::pose));
        self.world
            .set_poses(&self.moving, &self.poses)
            .expect("finite poses");
        self.world.update(&Serial);
    }

    /// The touching pairs with a manifold, as (body a, body b, manifold), in pair-key order:
    /// bottom-up, since the bodies were inserted floor first and then upwards.
    fn manifolds(&self) -> Vec<(usize, usize, ContactManifold)> {
        let user = |id| self.world.get(id).expect("live collider").user() as usize;
        self.world
            .touching()
            .filter_map(|p| {
                let m = self.world.manifold(p.0, p.1)?;
                Some((user(p.0), user(p.1), m.clone()))
            })
            .collect()
    }

    /// Advances the world by one step of [`DT`].
    pub fn step(&mut self) {
        for b in &mut self.bodies {
            if !b.is_static {
                b.velocity.y += GRAVITY * DT;
            }
        }
        self.detect();
        let inv_i: Vec<Matrix3> = self.bodies.iter().map(Body::inv_inertia_world).collect();
        let mut stats = StepStats::default();
        let mut constraints = Vec::new();
        for (ia, ib, m) in self.manifolds() {
            let (a, b) = (&self.bodies[ia], &self.bodies[ib]);
            let n = m.normal;
            let t0 = if n.x.abs() < 0.57 {
                n.cross(&Vector3::x())
            } else {
                n.cross(&Vector3::y())
            }
            .normalize();
            let t1 = n.cross(&t0);
            let mut points = Vec::new();
            for p in &m.points {
                let c = p.midpoint();
                let ra = c - a.position;
                let rb = c - b.position;
                let (impulse_n, impulse_t) = match self.cache.get(&(ia, ib, p.id)) {
                    Some(&(i, t)) => {
                        stats.warm_started += 1;
                        (i, t)
                    }
                    None => (0.0, [0.0; 2]),
                };
                stats.points += 1;
                stats.max_penetration = stats.max_penetration.max(p.depth);
                points.push(Point {
                    ra,
                    rb,
                    depth: p.depth,
                    id: p.id,
                    tangents: [t0, t1],
                    mass_n: effective_mass(a, b, &inv_i[ia], &inv_i[ib], &ra, &rb, &n),
                    mass_t: [
                        effective_mass(a, b, &inv_i[ia], &inv_i[ib], &ra, &rb, &t0),
                        effective_mass(a, b, &inv_i[ia], &inv_i[ib], &ra, &rb, &t1),
                    ],
                    impulse_n,
                    impulse_t,
                });
            }
            constraints.push(Constraint {
                a: ia,
                b: ib,
                normal: n,
                points,
            });
        }
        // Warm start.
        for c in &constraints {
            for p in &c.points {
                let imp = c.normal * p.impulse_n
                    + p.tangents[0] * p.impulse_t[0]
                    + p.tangents[1] * p.impulse_t[1];
                self.bodies[c.a].apply_impulse(&-imp, &p.ra, &inv_i[c.a]);
                self.bodies[c.b].apply_impulse(&imp, &p.rb, &inv_i[c.b]);
            }
        }
        // Velocity iterations.
        // Pairs bottom-up (the order they were found in); within a manifold the sweep direction
        // alternates, so the order of its points does not bias the solution to one side.
        for it in 0..ITERATIONS {
            let forward = it % 2 == 0;
            for c in &mut constraints {
                let np = c.points.len();
                for pi in 0..np {
                    let p = &mut c.points[if forward { pi } else { np - 1 - pi }];
                    let (a, b) = (&self.bodies[c.a], &self.bodies[c.b]);
                    let vn = (b.velocity_at(&p.rb) - a.velocity_at(&p.ra)).dot(&c.normal);
                    // The normal velocity B may have toward A: close a gap in one step at most,
                    // push out penetration beyond the slop gradually.
                    let bias = if p.depth < 0.0 {
                        p.depth / DT
                    } else {
                        BETA * (p.depth - SLOP).max(0.0) / DT
                    };
                    let old = p.impulse_n;
                    p.impulse_n = (old + p.mass_n * (bias - vn)).max(0.0);
                    let imp = c.normal * (p.impulse_n - old);
                    self.bodies[c.a].apply_impulse(&-imp, &p.ra, &inv_i[c.a]);
                    self.bodies[c.b].apply_impulse(&imp, &p.rb, &inv_i[c.b]);
                    // Friction, bounded by the normal impulse.
                    for k in 0..2 {
                        let (a, b) = (&self.bodies[c.a], &self.bodies[c.b]);
                        let vt = (b.velocity_at(&p.rb) - a.velocity_at(&p.ra)).dot(&p.tangents[k]);
                        let max = MU * p.impulse_n;
                        let old = p.impulse_t[k];
                        p.impulse_t[k] = (old - p.mass_t[k] * vt).clamp(-max, max);
                        let imp = p.tangents[k] * (p.impulse_t[k] - old);
                        self.bodies[c.a].apply_impulse(&-imp, &p.ra, &inv_i[c.a]);
                        self.bodies[c.b].apply_impulse(&imp, &p.rb, &inv_i[c.b]);
                    }
                }
            }
        }
        // Remember the impulses by feature id.
        self.cache.clear();
        for c in &constraints {
            for p in &c.points {
                self.cache
                    .insert((c.a, c.b, p.id), (p.impulse_n, p.impulse_t));
            }
        }
        // Integrate.
        for b in &mut self.bodies {
            if b.is_static {
                continue;
            }
            b.position += b.velocity * DT;
            let w = b.angular_velocity;
            let dq = Quaternion::new(0.0, w.x, w.y, w.z) * b.rotation.into_inner() * (0.5 * DT);
            b.rotation = UnitQuaternion::new_normalize(b.rotation.into_inner() + dq);
        }
        self.stats = stats;
    }
}

/// A floor and a stack of `n` unit cubes resting on it, each rotated a little about the vertical.
pub fn stack(n: usize) -> Sim {
    let mut bodies = vec![Body::fixed(
        Point3::new(0.0, -0.5, 0.0),
        Vector3::new(10.0, 0.5, 10.0),
    )];
    for i in 0..n {
        let yaw = 0.05 * (i as Real).sin();
        bodies.push(Body::dynamic(
            Point3::new(0.0, 0.5 + i as Real, 0.0),
            UnitQuaternion::from_euler_angles(0.0, yaw, 0.0),
            Vector3::new(0.5, 0.5, 0.5),
        ));
    }
    Sim::new(bodies)
}

/// What a run of the stack showed.
#[derive(Debug, Clone, Copy, Default)]
pub struct StackReport {
    /// Largest horizontal drift of any box from its start (m).
    pub max_drift: Real,
    /// Largest tilt of any box's vertical axis (radians).
    pub max_tilt: Real,
    /// Largest residual penetration after the first 60 frames (m).
    pub max_penetration: Real,
    /// Fraction of contact points warm-started by feature id after the first 60 frames.
    pub warm_fraction: Real,
    /// Largest distance any box moved over the last 100 frames (m): the stack has come to rest.
    pub final_creep: Real,
}

/// Runs the stack for `frames` steps and measures it.
pub fn run_stack(n: usize, frames: usize) -> StackReport {
    let mut world = stack(n);
    let start: Vec<Point3> = world.bodies.iter().map(|b| b.position).collect();
    let mut report = StackReport::default();
    let (mut points, mut warm) = (0usize, 0usize);
    let mut before_end = start.clone();
    for frame in 0..frames {
        if frame + 100 == frames {
            before_end = world.bodies.iter().map(|b| b.position).collect();
        }
        world.step();
        if frame >= 60 {
            report.max_penetration = report.max_penetration.max(world.stats.max_penetration);
            points += world.stats.points;
            warm += world.stats.warm_started;
        }
        for (b, s) in world.bodies.iter().zip(&start) {
            let d = b.position - s;
            report.max_drift = report.max_drift.max((d.x * d.x + d.z * d.z).sqrt());
            let up = b.rotation * Vector3::y();
            report.max_tilt = report.max_tilt.max(up.y.clamp(-1.0, 1.0).acos());
        }
    }
    report.warm_fraction = warm as Real / points.max(1) as Real;
    report.final_creep = world
        .bodies
        .iter()
        .zip(&before_end)
        .map(|(b, p)| (b.position - p).norm())
        .fold(0.0, Real::max);
    report
}
