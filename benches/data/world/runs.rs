//! The three implementations of one full frame, each following its own copy of a [`Scene`]
//! (shared by `benches/world.rs` and `tools/src/bin/world_profile.rs`, by this crate's lib).
//!
//! Every run splits a frame in two: [`Run::prepare`] (the scene moves and its new placements
//! are written in the implementation's own number types: the simulation's job, not timed) and
//! [`Run::frame`] (hand the placements over, update, and report every touching pair with its
//! contact manifold: timed). `frame` returns the number of touching pairs.
#![allow(dead_code)]

use parry3d::math::Pose;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry3d::query::details::ContactManifoldsWorkspace;
use parry3d::query::PersistentQueryDispatcher;
use parry3d::query::{ContactManifold as PManifold, DefaultQueryDispatcher};
use parry3d::shape::SharedShape;
use rapier3d::dynamics::{IslandManager, RigidBodySet};
use rapier3d::geometry::{
    ActiveCollisionTypes, BroadPhaseBvh, ColliderBuilder, ColliderHandle, ColliderSet, Group,
    InteractionGroups, InteractionTestMode, NarrowPhase,
};
use rapier3d::pipeline::CollisionPipeline;
use sepax_broadphase::bvh::DynamicBvh;
use sepax_broadphase::{BroadPhase, ProxyId, Visit};
use sepax_shapes::math::{Isometry3, Real, Vector3};
use sepax_shapes::Aabb;
use sepax_world::{ColliderId, Executor, UpdateStats, World};

#[path = "scene.rs"]
pub mod scene;
pub use scene::{Scene, Sizes};

/// One implementation following its copy of a scene.
pub trait Run {
    /// The scene moves one step and the new placements are converted (not timed).
    fn prepare(&mut self);
    /// The timed part: placements in, update, every touching pair out; returns their count.
    fn frame(&mut self) -> usize;
}

/// The sepax world on an executor.
pub struct WorldRun<E: Executor> {
    pub world: World,
    pub exec: E,
    pub scene: Scene,
    ids: Vec<ColliderId>,
    poses: Vec<Isometry3>,
    /// The world's per-phase statistics of the last frame.
    pub stats: UpdateStats,
    /// Time of the last frame's `set_poses_with` (validation, placing on the executor, tree leaf
    /// updates).
    pub set_time: std::time::Duration,
}

impl<E: Executor> WorldRun<E> {
    pub fn new(scene: &Scene, exec: E) -> Self {
        let mut world = World::new();
        let mut all = Vec::with_capacity(scene.len());
        world
            .insert_many((0..scene.len()).map(|i| scene.desc(i)), &mut all)
            .expect("valid scene");
        let ids = scene.moving.iter().map(|&i| all[i]).collect();
        let mut run = WorldRun {
            world,
            exec,
            scene: scene.clone(),
            ids,
            poses: Vec::with_capacity(scene.moving.len()),
            stats: UpdateStats::default(),
            set_time: std::time::Duration::ZERO,
        };
        // The first update (every pair begins, buffers grow) outside the timing.
        run.stats = run.world.update(&run.exec).stats;
        run
    }
}

impl<E: Executor> Run for WorldRun<E> {
    fn prepare(&mut self) {
        self.scene.step();
        self.poses.clear();
        let s = &self.scene;
        self.poses.extend(s.moving.iter().map(|&i| s.pose(i)));
    }

    fn frame(&mut self) -> usize {
        let t = std::time::Instant::now();
        self.world
            .set_poses_with(&self.exec, &self.ids, &self.poses)
            .expect("valid poses");
        self.set_time = t.elapsed();
        let ev = self.world.update(&self.exec);
        self.stats = ev.stats;
        ev.stats.touching
    }
}

/// The collision groups of a static collider in rapier: static–static pairs never collide
/// (the world's default pair policy), every other pair does.
fn rapier_groups(is_static: bool) -> InteractionGroups {
    if is_static {
        InteractionGroups::new(Group::GROUP_2, Group::GROUP_1, InteractionTestMode::And)
    } else {
        InteractionGroups::new(Group::GROUP_1, Group::ALL, InteractionTestMode::And)
    }
}

/// rapier3d's `CollisionPipeline` (broad + narrow phase, no dynamics): standalone colliders
/// (no rigid bodies), `ActiveCollisionTypes::all()` so that pairs of body-less (fixed)
/// colliders are not dropped, prediction distance 0.
pub struct RapierRun {
    pipeline: CollisionPipeline,
    islands: IslandManager,
    broad: BroadPhaseBvh,
    pub narrow: NarrowPhase,
    bodies: RigidBodySet,
    pub colliders: ColliderSet,
    handles: Vec<ColliderHandle>,
    poses: Vec<Pose>,
    pub scene: Scene,
}

impl RapierRun {
    pub fn new(scene: &Scene) -> Self {
        let mut colliders = ColliderSet::with_capacity(scene.len());
        let handles: Vec<ColliderHandle> = (0..scene.len())
            .map(|i| {
                colliders.insert(
                    ColliderBuilder::new(scene.parry_shape(i))
                        .position(scene.parry_pose(i))
                        .active_collision_types(ActiveCollisionTypes::all())
                        .collision_groups(rapier_groups(scene.is_static[i])),
                )
            })
            .collect();
        let mut run = RapierRun {
            pipeline: CollisionPipeline::new(),
            islands: IslandManager::new(),
            broad: BroadPhaseBvh::new(),
            narrow: NarrowPhase::new(),
            bodies: RigidBodySet::new(),
            colliders,
            handles,
            poses: Vec::with_capacity(scene.moving.len()),
            scene: scene.clone(),
        };
        run.step();
        run
    }

    fn step(&mut self) {
        self.pipeline.step(
            0.0,
            &mut self.islands,
            &mut self.broad,
            &mut self.narrow,
            &mut self.bodies,
            &mut self.colliders,
            &(),
            &(),
        );
    }

    /// Pairs with a contact point at distance 0 or less.
    pub fn touching(&self) -> usize {
        self.narrow
            .contact_pairs()
            .filter(|p| {
                p.manifolds()
                    .iter()
                    .any(|m| m.points.iter().any(|c| c.dist <= 0.0))
            })
            .count()
    }
}

impl Run for RapierRun {
    fn prepare(&mut self) {
        self.scene.step();
        self.poses.clear();
        let s = &self.scene;
        self.poses.extend(s.moving.iter().map(|&i| s.parry_pose(i)));
    }

    fn frame(&mut self) -> usize {
        for (&i, p) in self.scene.moving.iter().zip(&self.poses) {
            self.colliders[self.handles[i]].set_position(*p);
        }
        self.step();
        self.touching()
    }
}

/// The manifolds of one pair, as parry's dispatcher writes them.
pub type Manifolds = Vec<PManifold<(), ()>>;

/// A pipeline composed of parry3d's `Bvh` (driven as rapier drives it: leaves updated,
/// incremental optimisation, refit, then the self traversal for every overlapping pair) and
/// parry's contact manifolds (`DefaultQueryDispatcher`, prediction 0) for every pair that
/// passes the static–static filter. Manifolds are kept in slots reused from frame to frame
/// (no allocation once warm); each pair is computed from scratch.
pub struct ParryRun {
    bvh: Bvh,
    ws: BvhWorkspace,
    shapes: Vec<SharedShape>,
    poses: Vec<Pose>,
    pairs: Vec<(u32, u32)>,
    /// One slot per touching pair of this frame (pair, manifolds).
    pub manifolds: Vec<((u32, u32), Manifolds)>,
    workspace: Option<ContactManifoldsWorkspace>,
    pub scene: Scene,
}

impl ParryRun {
    pub fn new(scene: &Scene) -> Self {
        let shapes: Vec<SharedShape> = (0..scene.len()).map(|i| scene.parry_shape(i)).collect();
        let poses: Vec<Pose> = (0..scene.len()).map(|i| scene.parry_pose(i)).collect();
        let leaves: Vec<_> = (0..scene.len())
            .map(|i| shapes[i].compute_aabb(&poses[i]))
            .collect();
        let mut run = ParryRun {
            bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves),
            ws: BvhWorkspace::default(),
            shapes,
            poses,
            pairs: Vec::new(),
            manifolds: Vec::new(),
            workspace: None,
            scene: scene.clone(),
        };
        run.narrow();
        run
    }

    /// The pairs' manifolds; returns the touching count.
    fn narrow(&mut self) -> usize {
        self.pairs.clear();
        let pairs = &mut self.pairs;
        let st = &self.scene.is_static;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| {
                if !(st[a as usize] && st[b as usize]) {
                    pairs.push((a, b));
                }
            });
        let mut touching = 0;
        for &(a, b) in &self.pairs {
            if self.manifolds.len() == touching {
                self.manifolds.push(((a, b), Vec::new()));
            }
            let (pa, pb) = (&self.poses[a as usize], &self.poses[b as usize]);
            let pos12 = pa.inv_mul(pb);
            let slot = &mut self.manifolds[touching];
            for m in &mut slot.1 {
                m.clear();
            }
            DefaultQueryDispatcher
                .contact_manifolds(
                    &pos12,
                    &*self.shapes[a as usize],
                    &*self.shapes[b as usize],
                    0.0,
                    &mut slot.1,
                    &mut self.workspace,
                )
                .expect("convex pairs are supported");
            if slot
                .1
                .iter()
                .any(|m| m.points.iter().any(|c| c.dist <= 0.0))
            {
                slot.0 = (a, b);
                touching += 1;
            }
        }
        touching
    }
}

impl Run for ParryRun {
    fn prepare(&mut self) {
        self.scene.step();
        let s = &self.scene;
        for &i in &s.moving {
            self.poses[i] = s.parry_pose(i);
        }
    }

    fn frame(&mut self) -> usize {
        for &i in &self.scene.moving {
            let aabb = self.shapes[i].compute_aabb(&self.poses[i]);
            self.bvh.insert_or_update_partially(aabb, i as u32, 0.0);
        }
        self.bvh.optimize_incremental(&mut self.ws);
        self.bvh.refit(&mut self.ws);
        self.narrow()
    }
}

/// The world's two trees alone, fed the same boxes as the world's: the broad phase the world
/// calls, without the world around it. Each frame the moved colliders' leaves are updated
/// (boxes placed in `prepare`, not timed) and every candidate pair is listed (moving–moving
/// and moving–static), as the world's broad phase does.
pub struct TreeRun {
    moving: DynamicBvh,
    statics: DynamicBvh,
    proxies: Vec<Option<ProxyId>>,
    boxes: Vec<(Aabb, Vector3)>,
    pairs: Vec<(ProxyId, ProxyId)>,
    pub scene: Scene,
}

impl TreeRun {
    /// The trees of `world` (its settings and its colliders' boxes).
    pub fn new(scene: &Scene, world: &World) -> Self {
        let cfg = world.config();
        let mut moving = DynamicBvh::new(cfg.moving_tree).expect("valid tree settings");
        let mut statics = DynamicBvh::new(cfg.static_tree).expect("valid tree settings");
        // The world's colliders in insertion order: the user value is the scene index.
        let mut boxes: Vec<(usize, Aabb)> = world
            .iter()
            .map(|(_, c)| (c.user() as usize, *c.world_aabb()))
            .collect();
        boxes.sort_by_key(|b| b.0);
        let (mut m_ids, mut s_ids) = (Vec::new(), Vec::new());
        let split = |st: bool| boxes.iter().filter(move |b| scene.is_static[b.0] == st);
        moving.insert_many(split(false).map(|b| (b.1, b.0 as u64)), &mut m_ids);
        statics.insert_many(split(true).map(|b| (b.1, b.0 as u64)), &mut s_ids);
        let mut proxies = vec![None; scene.len()];
        for (b, id) in split(false).zip(m_ids) {
            proxies[b.0] = Some(id);
        }
        let mut run = TreeRun {
            moving,
            statics,
            proxies,
            boxes: Vec::with_capacity(scene.moving.len()),
            pairs: Vec::new(),
            scene: scene.clone(),
        };
        run.moving.update_pairs(&mut run.pairs);
        run
    }
}

impl Run for TreeRun {
    fn prepare(&mut self) {
        self.scene.step();
        self.boxes.clear();
        let s = &self.scene;
        let boxes = s.moving.iter().map(|&i| {
            let placed = s.desc(i).shape.transformed(&s.pose(i)).expect("placed");
            let v = s.vel[i].map(|x| x as Real);
            (placed.world_aabb(), Vector3::new(v[0], v[1], v[2]))
        });
        self.boxes.extend(boxes);
    }

    fn frame(&mut self) -> usize {
        for (&i, &(b, d)) in self.scene.moving.iter().zip(&self.boxes) {
            if let Some(p) = self.proxies[i] {
                self.moving.update(p, b, d);
            }
        }
        self.moving.update_pairs(&mut self.pairs);
        let mut n = self.pairs.len();
        self.moving.pairs_with(&self.statics, |_, _| {
            n += 1;
            Visit::Continue
        });
        n
    }
}
