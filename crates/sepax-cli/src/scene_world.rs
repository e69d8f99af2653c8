//! A scene on the collision world: the glue that `check`, `play` and `demo` share.
//!
//! Every shape of the scene becomes one collider, inserted in file order with `insert_many` (so
//! collider ids increase in file order and the world's pair order is the file's). Scene shapes
//! have no kind, so the world tests every pair ([`PairPolicy::AllPairs`]); shapes that never
//! move are static colliders, those that move kinematic ones. The scene's layers and masks
//! become each collider's membership and mask (a missing one is every bit). When the scene lists
//! `pairs`, every collider gets the negative group `-1` (no pair collides) and each listed pair
//! whose layers and masks allow it an explicit `true` entry, which decides alone (the scene reader
//! refuses a pair that names one shape twice).

use crate::input::{layers_allow, listed_pairs, CliError};
use sepax_scene::{Scene, SceneShape};
use sepax_shapes::Shape;
use sepax_world::{
    ColliderDesc, ColliderId, Filter, Kind, PairPolicy, Visit, World, WorldConfig, WorldError,
};

/// The world of a scene and the collider of each shape.
pub struct SceneWorld {
    /// The world.
    pub world: World,
    /// The collider of each shape, in file order (increasing).
    pub ids: Vec<ColliderId>,
}

/// The world's filter for a scene shape's layer and mask (`group`: see the module docs).
fn filter_of(s: &SceneShape, group: i32) -> Filter {
    Filter {
        membership: u64::from(s.layer.unwrap_or(u32::MAX)),
        mask: u64::from(s.mask.unwrap_or(u32::MAX)),
        group,
        owner: None,
    }
}

impl SceneWorld {
    /// The world of `scene` with the shapes at `placements` (one per shape, in file order);
    /// `moving[i]` says whether shape `i` will move (kinematic) or not (static).
    pub fn new(scene: &Scene, placements: &[Shape], moving: &[bool]) -> Result<Self, CliError> {
        let config = WorldConfig {
            policy: PairPolicy::AllPairs,
            ..WorldConfig::default()
        };
        let mut world = World::with_config(config)
            .map_err(|e| CliError::new(format!("world settings: {e}")))?;
        let group = if scene.pairs.is_some() { -1 } else { 0 };
        let descs = scene
            .shapes
            .iter()
            .zip(placements)
            .zip(moving)
            .map(|((s, shape), &m)| {
                ColliderDesc::new(*shape)
                    .kind(if m { Kind::Kinematic } else { Kind::Static })
                    .filter(filter_of(s, group))
            });
        let mut ids = Vec::with_capacity(scene.shapes.len());
        world
            .insert_many(descs, &mut ids)
            .map_err(|e| world_error(scene, None, &e))?;
        if !ids.windows(2).all(|w| w[0] < w[1]) {
            return Err(CliError::new(
                "internal: collider ids are not in file order",
            ));
        }
        if let Some(listed) = &scene.pairs {
            for (i, j) in listed_pairs(listed) {
                let (a, b) = (&scene.shapes[i], &scene.shapes[j]);
                if !layers_allow(a, b) {
                    continue;
                }
                world
                    .allow_pair(ids[i], ids[j], true)
                    .map_err(|e| world_error(scene, None, &e))?;
            }
        }
        Ok(Self { world, ids })
    }

    /// The shape index of a collider of this world.
    pub fn index(&self, id: ColliderId) -> usize {
        // Ids are increasing (checked in `new`), so this always finds it.
        self.ids.binary_search(&id).unwrap_or(usize::MAX)
    }

    /// Calls `f(i, j)` for every touching pair of the current placements that the scene's
    /// filter admits, `i < j` in file order, sorted by `(i, j)`, until `f` stops the walk.
    pub fn for_each_touching(&self, mut f: impl FnMut(usize, usize) -> Visit) {
        self.world
            .for_each_touching(|a, b| f(self.index(a), self.index(b)));
    }
}

/// A world error in the scene's words: the shape's id instead of the collider's.
pub fn world_error(scene: &Scene, frame: Option<usize>, e: &WorldError) -> CliError {
    let at = frame.map(|f| format!("frame {f}: ")).unwrap_or_default();
    let named = match e {
        WorldError::NotFinite { collider, .. }
        | WorldError::NonUnitRotation { collider, .. }
        | WorldError::Shape { collider, .. } => match collider {
            sepax_world::Subject::New { index } => scene.shapes.get(*index).map(|s| &s.id),
            sepax_world::Subject::Id(_) => None,
        },
        _ => None,
    };
    match named {
        Some(id) => CliError::new(format!("{at}shape {id:?}: {e}")),
        None => CliError::new(format!("{at}{e}")),
    }
}
