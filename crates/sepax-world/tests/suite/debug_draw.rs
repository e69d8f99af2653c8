//! Debug drawing: what the world draws into a recorder matches what it holds (colliders, broad
//! boxes, tree nodes per depth, manifold points, separating axes, ccd hits).

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sepax_narrowphase::contact::ContactConfig;
use sepax_shapes::math::{Isometry3, Point3, Real};
use sepax_shapes::{Aabb, Shape, Sphere};
use sepax_world::debug::{Layer, Primitive, Tree};
use sepax_world::{
    ColliderDesc, DebugDrawOptions, DebugRecorder, Kind, Report, Serial, World, WorldConfig,
};

fn everything() -> DebugDrawOptions {
    DebugDrawOptions {
        fat_aabbs: true,
        tree_nodes: true,
        max_depth: u32::MAX,
        separating_axes: true,
        labels: true,
        ..DebugDrawOptions::default()
    }
}

/// A random world (every shape kind, all three kinds, some disabled) after one update, with
/// manifolds and a contact margin.
fn world() -> World {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let config = WorldConfig {
        contact: ContactConfig { margin: 0.05 },
        ..WorldConfig::default()
    };
    let mut world = World::with_config(config).unwrap();
    for i in 0..300 {
        let d = common::desc(&mut rng, 6.0, i).report(Report::Manifolds);
        world.insert(d).unwrap();
    }
    world.update(&Serial);
    world
}

fn depths(rec: &DebugRecorder, which: Tree) -> BTreeMap<u32, usize> {
    let mut out = BTreeMap::new();
    for p in &rec.primitives {
        if let Layer::TreeNode { tree, depth } = p.layer() {
            if tree == which {
                assert!(matches!(p, Primitive::Aabb { .. }));
                *out.entry(depth).or_default() += 1;
            }
        }
    }
    out
}

#[test]
fn recorder_counts_match_the_world() {
    let world = world();
    let mut rec = DebugRecorder::new();
    world.debug_draw(&mut rec, &everything());
    let enabled: Vec<_> = world.iter().filter(|(_, c)| c.is_enabled()).collect();
    assert!(enabled.len() < world.len(), "some colliders are disabled");
    assert_eq!(rec.count(Layer::Collider), enabled.len());
    assert_eq!(rec.count(Layer::FatAabb), enabled.len());
    assert_eq!(rec.count(Layer::Label), enabled.len());
    // Each collider drawn as the primitive of its kind, at its placed shape, in id order.
    let drawn: Vec<&Primitive> = rec
        .primitives
        .iter()
        .filter(|p| p.layer() == Layer::Collider)
        .collect();
    for ((_, c), p) in enabled.iter().zip(&drawn) {
        let same = match (c.world_shape(), p) {
            (Shape::Aabb(s), Primitive::Aabb { aabb, .. }) => s == aabb,
            (Shape::Obb(s), Primitive::Obb { obb, .. }) => s == obb,
            (Shape::Sphere(s), Primitive::Sphere { centre, radius, .. }) => {
                s.center() == *centre && s.radius() == *radius
            }
            (Shape::Capsule(s), Primitive::Capsule { a, b, radius, .. }) => {
                s.segment().a() == *a && s.segment().b() == *b && s.radius() == *radius
            }
            (Shape::Triangle(s), Primitive::Triangle { vertices, .. }) => s.vertices() == *vertices,
            _ => false,
        };
        assert!(same, "{:?} drawn as {p:?}", c.world_shape());
    }

    // Tree nodes per depth: every node once, one root, at most 2^d at depth d, the deepest
    // level at the tree's height.
    let trees = [
        (Tree::Moving, world.moving_broad_phase()),
        (Tree::Static, world.static_tree()),
    ];
    for (which, tree) in trees {
        let per = depths(&rec, which);
        assert_eq!(per.values().sum::<usize>(), tree.node_count(), "{which:?}");
        assert_eq!(per.get(&0), Some(&1));
        for (&d, &n) in &per {
            assert!(n <= 1 << d.min(40), "{n} nodes at depth {d}");
        }
        assert_eq!(*per.keys().last().unwrap(), tree.height());
    }

    // Contact points and normals: one each per manifold point of the last update.
    let points: usize = world
        .events()
        .manifolds
        .iter()
        .map(|m| m.points.len())
        .sum();
    assert!(points > 10, "{points}");
    assert_eq!(rec.count(Layer::ContactPoint), points);
    assert_eq!(rec.count(Layer::ContactNormal), points);
    assert!(!world.events().speculative.is_empty());
}

#[test]
fn max_depth_cuts_the_trees() {
    let world = world();
    let mut full = DebugRecorder::new();
    world.debug_draw(&mut full, &everything());
    let mut cut = DebugRecorder::new();
    let options = DebugDrawOptions {
        max_depth: 3,
        ..everything()
    };
    world.debug_draw(&mut cut, &options);
    for which in [Tree::Moving, Tree::Static] {
        let (f, c) = (depths(&full, which), depths(&cut, which));
        let expected: BTreeMap<u32, usize> = f.into_iter().filter(|&(d, _)| d <= 3).collect();
        assert_eq!(c, expected);
    }
    // Nothing but what is asked for.
    let mut only = DebugRecorder::new();
    let options = DebugDrawOptions {
        colliders: false,
        contacts: false,
        ccd: false,
        ..DebugDrawOptions::default()
    };
    world.debug_draw(&mut only, &options);
    assert!(only.primitives.is_empty());
}

#[test]
fn separating_axes_of_close_pairs() {
    // Two boxes 0.1 apart (a SAT witness), a sphere above the first (closest points), and a far box
    // (no candidate: nothing drawn).
    let mut world = World::new();
    let boxed = |x: Real| Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 1.0, 1.0, 1.0));
    world
        .insert(ColliderDesc::new(boxed(0.0).unwrap()))
        .unwrap();
    world
        .insert(ColliderDesc::new(boxed(1.1).unwrap()))
        .unwrap();
    let ball = Sphere::new(Point3::new(0.5, 1.65, 0.5), 0.5).unwrap();
    world.insert(ColliderDesc::new(ball)).unwrap();
    world
        .insert(ColliderDesc::new(boxed(50.0).unwrap()).kind(Kind::Static))
        .unwrap();
    world.update(&Serial);
    let mut rec = DebugRecorder::new();
    let options = DebugDrawOptions {
        colliders: false,
        separating_axes: true,
        axis_gap: 0.3,
        ..DebugDrawOptions::default()
    };
    world.debug_draw(&mut rec, &options);
    let axes: Vec<(Point3, Point3)> = rec
        .primitives
        .iter()
        .filter_map(|p| match p {
            Primitive::Line { a, b, paint } if paint.layer == Layer::SeparatingAxis => {
                Some((*a, *b))
            }
            _ => None,
        })
        .collect();
    let mut lengths: Vec<Real> = axes.iter().map(|(a, b)| (b - a).norm()).collect();
    lengths.sort_by(|a, b| a.partial_cmp(b).unwrap());
    // Box pair: gap 0.1 along x; sphere to the lower box: 0.15 along y (closest points). The
    // sphere is 0.385 from the other box's edge, the static box far: not drawn.
    let expected = [0.1, 0.15];
    assert_eq!(lengths.len(), 2, "{axes:?}");
    for (l, e) in lengths.iter().zip(expected) {
        assert!((l - e).abs() < 1e-5, "{lengths:?}");
    }
    let (a, b) = axes
        .iter()
        .find(|(a, b)| ((b - a).norm() - 0.1).abs() < 1e-5)
        .unwrap();
    assert!(
        (a.x - 1.0).abs() < 1e-5 && (b.x - 1.1).abs() < 1e-5,
        "{a:?} {b:?}"
    );
    // A smaller gap limit leaves them out.
    let mut rec = DebugRecorder::new();
    world.debug_draw(
        &mut rec,
        &DebugDrawOptions {
            axis_gap: 0.05,
            ..options
        },
    );
    assert_eq!(rec.count(Layer::SeparatingAxis), 0);
}

#[test]
fn ccd_hits_are_drawn() {
    let mut world = World::new();
    let wall = Aabb::new(Point3::new(0.0, -5.0, -5.0), Point3::new(0.001, 5.0, 5.0)).unwrap();
    world
        .insert(ColliderDesc::new(wall).kind(Kind::Static))
        .unwrap();
    let ball = Sphere::new(Point3::origin(), 0.01).unwrap();
    let id = world
        .insert(
            ColliderDesc::new(ball)
                .pose(Isometry3::translation(-1.0, 0.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    world.update(&Serial);
    world
        .set_pose(id, Isometry3::translation(1.0, 0.0, 0.0))
        .unwrap();
    world.update(&Serial);
    assert_eq!(world.events().ccd.len(), 1);
    let mut rec = DebugRecorder::new();
    world.debug_draw(&mut rec, &DebugDrawOptions::default());
    // A point and a normal line for the hit.
    assert_eq!(rec.count(Layer::Ccd), 2);
    let hit = world.events().ccd[0];
    assert!(rec
        .primitives
        .iter()
        .any(|p| matches!(p, Primitive::Point { at, .. } if *at == hit.point)));
    // Replaying a recording gives the same recording.
    let mut again = DebugRecorder::new();
    rec.replay(&mut again);
    assert_eq!(again, rec);
}
