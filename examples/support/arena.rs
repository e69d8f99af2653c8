//! The little game of `examples/game_loop.rs`, shared with `tests/game_loop.rs` (included by
//! `#[path]`): a player walks through an arena, shooting at two enemies that come towards it,
//! collecting coins and crossing a checkpoint. The collision side is one [`World`]: layers
//! compiled from a Unity-style matrix, kinematic player and enemies, dynamic shots, static
//! level geometry, sensor trigger and pickups; each fixed step moves things, calls `update`
//! and acts on the begin / persist / end events afterwards.
#![allow(dead_code)]

use sepax::prelude::*;

/// The fixed time step (s).
pub const DT: Real = 1.0 / 60.0;

/// The layers (Unity's "user layers"); a collider's `user` value is its layer and index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    Level,   // floor, far wall, pillar: static
    Player,  // kinematic
    Enemy,   // kinematic
    Shot,    // dynamic, moved by the game
    Trigger, // the checkpoint: a static sensor
    Pickup,  // coins: static sensors
}
use Layer::*;

/// Every layer, in order.
pub const LAYERS: [Layer; 6] = [Level, Player, Enemy, Shot, Trigger, Pickup];

/// The ticked boxes of the layer collision matrix; every other pair of layers never collides.
#[rustfmt::skip]
pub const COLLIDING: [(Layer, Layer); 5] =
    [(Player, Enemy), (Player, Trigger), (Player, Pickup), (Shot, Level), (Shot, Enemy)];

/// The matrix of [`COLLIDING`] over the six layers.
pub fn layer_matrix() -> LayerMatrix {
    let mut m = LayerMatrix::new();
    for a in LAYERS {
        for b in LAYERS {
            m.set(a as u32, b as u32, false);
        }
    }
    for (a, b) in COLLIDING {
        m.set(a as u32, b as u32, true);
    }
    m
}

/// The `user` value of entity `index` on `layer`.
pub fn tag(layer: Layer, index: u32) -> u64 {
    ((layer as u64) << 32) | index as u64
}

/// The layer and index of a `user` value.
pub fn untag(user: u64) -> (Layer, u32) {
    let layer = LAYERS.get((user >> 32) as usize).copied();
    (layer.unwrap_or(Level), user as u32)
}

/// A readable name for a `user` value.
pub fn name(user: u64) -> String {
    match untag(user) {
        (Level, i) => ["floor", "far wall", "pillar"][i as usize % 3].to_string(),
        (Player, _) => "player".to_string(),
        (Enemy, i) => format!("enemy {i}"),
        (Shot, i) => format!("shot {i}"),
        (Trigger, _) => "checkpoint".to_string(),
        (Pickup, i) => format!("coin {i}"),
    }
}

/// What happened so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    pub shots_fired: u32,
    pub enemy_hits: u32,
    pub enemies_down: u32,
    pub shots_stopped_by_level: u32,
    pub coins: u32,
    pub frames_in_checkpoint: u32,
    pub player_hits: u32,
    pub begin: usize,
    pub persist: usize,
    pub end: usize,
}

struct Foe {
    id: Option<ColliderId>,
    hp: u32,
    x0: Real,
    phase: Real,
}

/// The game: the world and what the game keeps about its entities.
pub struct Game {
    pub world: World,
    pub layers: LayerMatrix,
    pub frame: u32,
    pub score: Score,
    /// This frame's log lines.
    pub log: Vec<String>,
    player: ColliderId,
    enemies: Vec<Foe>,
    /// Live shots: collider and position.
    shots: Vec<(ColliderId, Point3)>,
    moved: (Vec<ColliderId>, Vec<Isometry3>),
}

fn at(x: Real, y: Real, z: Real) -> Point3 {
    Point3::new(x, y, z)
}

fn slab(min: Point3, max: Point3) -> Shape {
    Aabb::new(min, max).expect("valid level box").into()
}

impl Game {
    /// The arena at frame 0.
    pub fn new() -> Game {
        let layers = layer_matrix();
        let mut world = World::new();
        let desc = |shape: Shape, layer: Layer, index: u32, kind: Kind| {
            let filter = layers.filter(layer as u32).expect("layer below 64");
            ColliderDesc::new(shape)
                .kind(kind)
                .filter(filter)
                .user(tag(layer, index))
        };
        let pillar = Obb::from_rotation(
            at(7.0, 1.5, 1.2),
            UnitQuaternion::from_euler_angles(0.0, 0.5, 0.0),
            Vector3::new(0.35, 1.5, 0.35),
        )
        .expect("valid pillar");
        let level = [
            slab(at(-20.0, -1.0, -6.0), at(20.0, 0.0, 6.0)),
            slab(at(19.0, 0.0, -6.0), at(20.0, 4.0, 6.0)),
            pillar.into(),
        ];
        let mut ids = Vec::new();
        let statics = level.into_iter().enumerate();
        let mut descs: Vec<ColliderDesc> = statics
            .map(|(i, s)| desc(s, Level, i as u32, Kind::Static))
            .collect();
        let zone = slab(at(-7.0, 0.0, -3.0), at(-5.0, 3.0, 3.0));
        descs.push(
            desc(zone, Trigger, 0, Kind::Static)
                .sensor(true)
                .report(Report::Persist),
        );
        // Coins on the player's path at t = 1.0 s, 2.5 s, 4.0 s, the second one 1.2 m aside.
        for (i, (t, dz)) in [(1.0, 0.0), (2.5, 1.2), (4.0, 0.3)].into_iter().enumerate() {
            let p = player_position(t);
            let coin = Sphere::new(at(p.x, 1.0, p.z + dz), 0.3).expect("valid coin");
            descs.push(desc(coin.into(), Pickup, i as u32, Kind::Static).sensor(true));
        }
        let capsule = Capsule::new(at(0.0, 0.5, 0.0), at(0.0, 1.5, 0.0), 0.4).expect("valid");
        let player = desc(capsule.into(), Player, 0, Kind::Kinematic);
        descs.push(player.pose(Isometry3::translation(-16.0, 0.0, 0.0)));
        world.insert_many(descs, &mut ids).expect("valid arena");
        let player = *ids.last().expect("inserted");
        let mut enemies = Vec::new();
        let body = Obb::new(
            Point3::origin(),
            Matrix3::identity(),
            Vector3::new(0.5, 1.0, 0.5),
        );
        let body: Shape = body.expect("valid enemy").into();
        // A grunt (three hits) and a brute (five hits).
        for (i, (x0, phase, hp)) in [(12.0, 0.0, 3), (15.0, 2.0, 5)].into_iter().enumerate() {
            let d = desc(body, Enemy, i as u32, Kind::Kinematic).pose(enemy_pose(x0, phase, 0.0));
            let id = Some(world.insert(d).expect("valid enemy"));
            enemies.push(Foe { id, hp, x0, phase });
        }
        Game {
            world,
            layers,
            frame: 0,
            score: Score::default(),
            log: Vec::new(),
            player,
            enemies,
            shots: Vec::new(),
            moved: (Vec::new(), Vec::new()),
        }
    }

    /// Shots still flying.
    pub fn live_shots(&self) -> usize {
        self.shots.len()
    }

    /// One fixed step: move, update, react.
    pub fn step(&mut self) {
        self.advance();
        self.world.update(&Serial);
        self.react();
    }

    /// Moves the player, the enemies and the shots to this frame's time, and fires a shot every
    /// 0.4 s.
    pub fn advance(&mut self) {
        self.log.clear();
        let t = self.frame as Real * DT;
        let (ids, poses) = &mut self.moved;
        ids.clear();
        poses.clear();
        let p = player_position(t);
        ids.push(self.player);
        poses.push(Isometry3::translation(p.x, p.y, p.z));
        for e in &self.enemies {
            if let Some(id) = e.id {
                ids.push(id);
                poses.push(enemy_pose(e.x0, e.phase, t));
            }
        }
        for (id, pos) in &mut self.shots {
            pos.x += 15.0 * DT;
            ids.push(*id);
            poses.push(Isometry3::translation(pos.x, pos.y, pos.z));
        }
        self.world.set_poses(ids, poses).expect("finite poses");
        if self.frame % 24 == 12 {
            let start = at(p.x + 0.6, 1.1, p.z);
            let ball = Sphere::new(Point3::origin(), 0.15).expect("valid shot");
            let filter = self.layers.filter(Shot as u32).expect("layer below 64");
            let desc = ColliderDesc::new(ball)
                .pose(Isometry3::translation(start.x, start.y, start.z))
                .filter(filter)
                .report(Report::Manifolds)
                .user(tag(Shot, self.score.shots_fired));
            self.shots
                .push((self.world.insert(desc).expect("valid shot"), start));
            self.score.shots_fired += 1;
        }
    }

    /// Reads the last update's events and acts on them: a shot is removed when it hits the
    /// level or an enemy (its pairs end at the next update), an enemy when its hit points run
    /// out, a coin when the player touches it.
    pub fn react(&mut self) {
        let frame = self.frame;
        self.frame += 1;
        let events = self.world.events();
        let s = &mut self.score;
        s.begin += events.begin.len();
        s.persist += events.persist.len();
        s.end += events.end.len();
        let mut doomed = Vec::new();
        for e in &events.end {
            let (a, b) = roles(e);
            let why = if e.flags.contains(EventFlags::REMOVED) {
                " (removed)".to_string()
            } else if b.layer == Trigger {
                format!(": left after {} frames", s.frames_in_checkpoint)
            } else {
                String::new()
            };
            let (na, nb) = (name(a.user), name(b.user));
            self.log
                .push(format!("frame {frame:3}  end    {na} / {nb}{why}"));
        }
        for e in &events.persist {
            if roles(e).1.layer == Trigger {
                s.frames_in_checkpoint += 1;
            }
        }
        for e in &events.begin {
            let (a, b) = roles(e);
            let what = match (a.layer, b.layer) {
                // A shot that touches two things in one update is spent on the first.
                (Level | Enemy, Shot) if doomed.contains(&b.id) => "already spent".to_string(),
                (Level | Enemy, Shot) => {
                    doomed.push(b.id);
                    let m = e.manifold(events).and_then(|m| m.points.first());
                    let spot = m.map(|p| p.midpoint()).unwrap_or(Point3::origin());
                    let mut what = format!("at ({:.2}, {:.2}, {:.2})", spot.x, spot.y, spot.z);
                    if a.layer == Level {
                        s.shots_stopped_by_level += 1;
                    } else if let Some(enemy) = self.enemies.get_mut(a.index as usize) {
                        s.enemy_hits += 1;
                        enemy.hp = enemy.hp.saturating_sub(1);
                        what += &format!(", hp {}", enemy.hp);
                        if enemy.hp == 0 && enemy.id.take().is_some() {
                            doomed.push(a.id);
                            s.enemies_down += 1;
                            what += ", down";
                        }
                    }
                    what
                }
                (Player, Pickup) => {
                    doomed.push(b.id);
                    s.coins += 1;
                    format!("coins {}", s.coins)
                }
                (Player, Enemy) => {
                    s.player_hits += 1;
                    "the player takes a hit".to_string()
                }
                (Player, Trigger) => {
                    s.frames_in_checkpoint += 1;
                    "checkpoint reached".to_string()
                }
                _ => String::new(),
            };
            let (na, nb) = (name(a.user), name(b.user));
            self.log
                .push(format!("frame {frame:3}  begin  {na} / {nb}: {what}"));
        }
        for id in doomed {
            if self.world.remove(id).is_ok() {
                self.shots.retain(|(s, _)| *s != id);
            }
        }
    }
}

impl Default for Game {
    fn default() -> Self {
        Self::new()
    }
}

/// One side of a pair event.
#[derive(Debug, Clone, Copy)]
struct Side {
    layer: Layer,
    index: u32,
    user: u64,
    id: ColliderId,
}

/// The event's two sides, the lower layer first.
fn roles(e: &PairEvent) -> (Side, Side) {
    let side = |user, id| {
        let (layer, index) = untag(user);
        Side {
            layer,
            index,
            user,
            id,
        }
    };
    let (a, b) = (side(e.user[0], e.pair.0), side(e.user[1], e.pair.1));
    if a.layer <= b.layer {
        (a, b)
    } else {
        (b, a)
    }
}

/// Where the player's feet are at time `t`: walking along +x at 3.5 m/s, weaving in z.
pub fn player_position(t: Real) -> Point3 {
    at(-16.0 + 3.5 * t, 0.0, 1.5 * (1.3 * t).sin())
}

/// An enemy coming towards the player at 2 m/s, zig-zagging and turning.
fn enemy_pose(x0: Real, phase: Real, t: Real) -> Isometry3 {
    let z = 2.5 * (0.9 * t + phase).sin();
    let yaw = UnitQuaternion::from_euler_angles(0.0, 0.7 * t, 0.0);
    Isometry3::from_parts(Vector3::new(x0 - 2.0 * t, 1.0, z).into(), yaw)
}
