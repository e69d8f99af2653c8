//! A character capsule moved by shape casts (collide and slide), for `examples/game_loop.rs`:
//! it is not a collider of the world, only a user of its queries. Each step casts the capsule
//! along the wanted motion against the solid static level (sensors left out by a predicate),
//! stops a skin width short of the first contact, and slides the rest of the motion along the
//! surface normal, up to three times; a start in contact is pushed out along the penetration.
#![allow(dead_code)]

use sepax::prelude::*;
use sepax::world::{KindMask, QueryFilter};

/// Gap kept between the capsule and the level (m).
pub const SKIN: Real = 0.01;

/// The character: a capsule (local, feet at the origin) and its position.
pub struct Character {
    pub shape: Shape,
    pub position: Vector3,
    /// Casts that stopped the motion (a wall or the pillar in the way).
    pub contacts: usize,
    /// Steps that started in contact and were pushed out.
    pub pushed_out: usize,
}

fn solid(_: ColliderId, c: &Collider) -> bool {
    !c.is_sensor()
}

/// Only the solid static level.
pub fn level_filter() -> QueryFilter<'static> {
    QueryFilter::new().kinds(KindMask::STATIC).predicate(&solid)
}

impl Character {
    pub fn new(position: Vector3) -> Character {
        let capsule = Capsule::new(Point3::new(0.0, 0.5, 0.0), Point3::new(0.0, 1.5, 0.0), 0.4)
            .expect("valid capsule");
        Character {
            shape: capsule.into(),
            position,
            contacts: 0,
            pushed_out: 0,
        }
    }

    fn pose(&self) -> Isometry3 {
        Isometry3::translation(self.position.x, self.position.y, self.position.z)
    }

    /// Moves by `wanted` (m), sliding along what it meets.
    pub fn move_and_slide(&mut self, world: &World, wanted: Vector3) {
        let filter = level_filter();
        let mut delta = wanted;
        for _ in 0..3 {
            let len = delta.norm();
            if len < 1e-6 {
                return;
            }
            // Velocity `delta` over one unit of time: the hit's time is the fraction moved.
            let hit = world
                .cast_shape(&self.shape, &self.pose(), &delta, 1.0, &filter)
                .expect("valid cast");
            let Some(hit) = hit else {
                self.position += delta;
                return;
            };
            if hit.depth > 0.0 || hit.time == 0.0 {
                // Started in contact: step out along the minimum translation, then go on.
                self.pushed_out += 1;
                self.position += hit.normal * (hit.depth + SKIN);
                continue;
            }
            self.contacts += 1;
            let moved = (hit.time - SKIN / len).max(0.0);
            self.position += delta * moved;
            let rest = delta * (1.0 - moved);
            delta = rest - hit.normal * rest.dot(&hit.normal);
        }
    }

    /// Whether the capsule overlaps the solid level now.
    pub fn in_level(&self, world: &World) -> bool {
        world
            .overlap_any(&self.shape, &self.pose(), &level_filter())
            .expect("valid overlap")
            .is_some()
    }
}
