//! A world as a version-2 scene text and back (what pickling uses): every collider with its
//! local shape, pose and attributes, the explicit pair entries and the world settings, the
//! collider ids kept as the scene ids (`generation << 32 | slot` in decimal).
//!
//! Restoring gives every collider its old id: slots are filled in order from 1 (the slot map
//! keeps slot 0 as a sentinel; a fresh slot has
//! generation 1) and a slot of generation `g` is emptied and refilled `(g - 1) / 2` times,
//! which is how the world's slot map reaches that generation (a freed slot is the next one
//! reused). Placeholders (disabled static points, never in a tree) fill the slots on the way
//! and the slots that were empty, which are emptied again at the end. What a snapshot does not
//! hold: the contact state of the last update (touching pairs, manifolds), so the restored
//! world's first update reports every touching pair as `begin`.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use sepax_scene::{Scene, SceneShape, SceneWorld};
use sepax_shapes::math::{Isometry3, Point3, Quaternion, Real, UnitQuaternion};
use sepax_shapes::{Aabb, Shape};
use sepax_world::{ColliderDesc, ColliderId, Kind, PairPolicy, World, WorldConfig};

use crate::arrays::value_error;
use crate::world::PyWorld;

/// The most slot refills a restore does (a guard against a snapshot of absurd generations).
const MAX_REFILLS: u64 = 1 << 24;
/// The most slots a restore fills.
const MAX_SLOTS: u64 = 1 << 26;

/// The world as a version-2 scene text (see the module docs).
#[pyfunction]
pub fn to_scene(py: Python<'_>, world: PyRef<'_, PyWorld>) -> String {
    let w = &world.world;
    let entries = &world.entries;
    py.detach(|| {
        let mut index = BTreeMap::new();
        let shapes: Vec<SceneShape> = w
            .iter()
            .enumerate()
            .map(|(i, (id, c))| {
                index.insert(id.to_bits(), i);
                SceneShape {
                    id: id.to_bits().to_string(),
                    shape: *c.world_shape(),
                    layer: None,
                    mask: None,
                    collider: Some(c.desc().clone()),
                }
            })
            .collect();
        let allowed = entries
            .iter()
            .filter_map(|(&(a, b), &ok)| Some((*index.get(&a)?, *index.get(&b)?, ok)))
            .collect();
        let config = w.config();
        let scene = Scene {
            shapes,
            allowed,
            world: Some(SceneWorld {
                all_pairs: config.policy == PairPolicy::AllPairs,
                margin: config.contact.margin,
            }),
            ..Scene::default()
        };
        sepax_scene::write_scene(&scene)
    })
}

/// A placeholder collider: a disabled static point (no tree entry, no pair).
fn placeholder() -> ColliderDesc {
    let point = Aabb::new_unchecked(Point3::origin(), Point3::origin());
    ColliderDesc::new(Shape::Aabb(point))
        .kind(Kind::Static)
        .enabled(false)
}

/// The world applies its own normalisation to an inserted pose's quaternion (kept when its
/// squared norm is exactly 1, else normalised), which is not always a fixed point of the
/// quaternions it stores. A pose whose quaternion the world would change is given instead the
/// nearest input (each component moved by at most 2 units in the last place) that the world's
/// rule turns into the stored bits, so that the restored pose is the snapshot's exactly.
// `k.into()` is i32 -> i64 in the f64 build (f64 bits are u64), a no-op in the f32 one.
#[allow(clippy::useless_conversion)]
fn pose_input(pose: &Isometry3) -> Isometry3 {
    let want = *pose.rotation.quaternion();
    let rule = |q: Quaternion| {
        if q.norm_squared() == 1.0 {
            q
        } else {
            UnitQuaternion::new_normalize(q).into_inner()
        }
    };
    let same = |a: &Quaternion, b: &Quaternion| {
        a.coords
            .iter()
            .zip(b.coords.iter())
            .all(|(x, y)| x.to_bits() == y.to_bits())
    };
    if same(&rule(want), &want) {
        return *pose;
    }
    let nudge = |x: Real, k: i32| Real::from_bits(x.to_bits().wrapping_add_signed(k.into()));
    let c = want.coords;
    for k in 0..625i32 {
        let d = [k % 5 - 2, k / 5 % 5 - 2, k / 25 % 5 - 2, k / 125 - 2];
        let q = Quaternion::new(
            nudge(c.w, d[0]),
            nudge(c.x, d[1]),
            nudge(c.y, d[2]),
            nudge(c.z, d[3]),
        );
        if same(&rule(q), &want) {
            return Isometry3::from_parts(pose.translation, UnitQuaternion::new_unchecked(q));
        }
    }
    *pose
}

/// The world of a scene text written by [`to_scene`] (or any version-2 scene whose ids are
/// collider ids of live colliders); `(world, all_pairs, margin)`.
#[pyfunction]
pub fn from_scene(py: Python<'_>, text: &str) -> PyResult<(PyWorld, bool, Real)> {
    let scene = py
        .detach(|| sepax_scene::read_scene(text))
        .map_err(|e| value_error(format!("snapshot: {e}")))?;
    let settings = scene.world.unwrap_or_default();
    let mut config = WorldConfig::default();
    config.contact.margin = settings.margin;
    if settings.all_pairs {
        config.policy = PairPolicy::AllPairs;
    }
    let mut world = World::with_config(config).map_err(|e| value_error(e.to_string()))?;
    let ids = restore(&mut world, &scene)?;
    let mut entries = BTreeMap::new();
    for &(a, b, ok) in &scene.allowed {
        let (x, y) = (ids[a], ids[b]);
        world
            .allow_pair(x, y, ok)
            .map_err(|e| value_error(format!("snapshot: allowed: {e}")))?;
        let key = (x.to_bits().min(y.to_bits()), x.to_bits().max(y.to_bits()));
        entries.insert(key, ok);
    }
    Ok((
        PyWorld::from_parts(world, entries),
        settings.all_pairs,
        settings.margin,
    ))
}

/// Inserts the scene's colliders under their ids (see the module docs); the ids by shape.
fn restore(world: &mut World, scene: &Scene) -> PyResult<Vec<ColliderId>> {
    let mut by_slot: BTreeMap<u32, (usize, u32)> = BTreeMap::new();
    let mut wanted = Vec::with_capacity(scene.shapes.len());
    let mut refills = 0u64;
    for (i, s) in scene.shapes.iter().enumerate() {
        let bad = |why: &str| value_error(format!("snapshot: shape {i} ({:?}): {why}", s.id));
        let bits: u64 =
            s.id.parse()
                .map_err(|_| bad("the id must be a collider id (a decimal integer)"))?;
        // A live slot's generation is odd (the slot map's rule).
        if (bits >> 32).is_multiple_of(2) {
            return Err(bad("not the id of a live collider (even generation)"));
        }
        let id = ColliderId::from_bits(bits);
        wanted.push(bits);
        if s.collider.is_none() {
            return Err(bad("no collider attributes"));
        }
        if id.index() == 0 {
            return Err(bad("slot 0 is never a collider's"));
        }
        if by_slot.insert(id.index(), (i, id.generation())).is_some() {
            return Err(bad("a second collider in the same slot"));
        }
        refills += u64::from(id.generation() / 2);
    }
    let slots = by_slot.keys().next_back().map_or(0, |&s| u64::from(s) + 1);
    if slots > MAX_SLOTS || refills > MAX_REFILLS {
        return Err(value_error(format!(
            "snapshot: {slots} slots and {refills} refills are more than a restore does \
             ({MAX_SLOTS} and {MAX_REFILLS})"
        )));
    }
    let desc = |i: usize| {
        let mut d = scene.shapes[i].collider.clone().unwrap_or_else(placeholder);
        d.pose = pose_input(&d.pose);
        d
    };
    let fail = |e: sepax_world::WorldError| value_error(format!("snapshot: {e}"));
    let mut ids = vec![ColliderId::default(); scene.shapes.len()];
    // The slot map keeps slot 0 for itself: colliders live in slots 1, 2, ...
    let mut current = vec![ColliderId::default()];
    // Fill every slot once: the colliders of generation 1 directly, placeholders elsewhere.
    for slot in 1..slots as u32 {
        let real = by_slot.get(&slot).filter(|(_, g)| *g == 1);
        let id = world
            .insert(real.map_or_else(placeholder, |&(i, _)| desc(i)))
            .map_err(fail)?;
        if id.index() != slot {
            return Err(value_error(format!(
                "snapshot: slot {slot} came back as slot {}",
                id.index()
            )));
        }
        if let Some(&(i, _)) = real {
            ids[i] = id;
        }
        current.push(id);
    }
    // Refill the slots of later generations; the slot just freed is the next one used.
    for (&slot, &(i, generation)) in by_slot.iter().filter(|(_, (_, g))| *g > 1) {
        let cycles = generation / 2;
        let mut id = current[slot as usize];
        for k in 0..cycles {
            world.remove(id).map_err(fail)?;
            let next = if k + 1 == cycles {
                desc(i)
            } else {
                placeholder()
            };
            id = world.insert(next).map_err(fail)?;
        }
        if id.to_bits() != wanted[i] {
            return Err(value_error(format!(
                "snapshot: shape {i}: restored as {id}, not as its id"
            )));
        }
        ids[i] = id;
        current[slot as usize] = id;
    }
    // Empty the slots that were empty.
    for slot in 1..slots as u32 {
        if !by_slot.contains_key(&slot) {
            world.remove(current[slot as usize]).map_err(fail)?;
        }
    }
    Ok(ids)
}
