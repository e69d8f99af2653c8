//! Shared by the world tests: random shapes, poses and collider descriptions, and the
//! documented filter rule of the brute-force references.

#![allow(dead_code)]

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};
use std::collections::BTreeMap;

use sepax_world::{ColliderDesc, Filter, Kind, OwnerId, PairKey, PairPolicy, Report};

pub fn point(rng: &mut ChaCha8Rng, r: Real) -> Point3 {
    Point3::new(
        rng.random_range(-r..r),
        rng.random_range(-r..r),
        rng.random_range(-r..r),
    )
}

pub fn rotation(rng: &mut ChaCha8Rng) -> UnitQuaternion {
    UnitQuaternion::from_euler_angles(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    )
}

/// A local shape of any kind, near the local origin.
pub fn shape(rng: &mut ChaCha8Rng) -> Shape {
    let size = |rng: &mut ChaCha8Rng| -> Real { rng.random_range(0.0..0.8) };
    match rng.random_range(0..5) {
        0 => {
            let c = point(rng, 0.3);
            let h = Vector3::new(size(rng), size(rng), size(rng));
            Shape::Aabb(Aabb::new(c - h, c + h).unwrap())
        }
        1 => Shape::Obb(
            Obb::from_rotation(
                point(rng, 0.3),
                rotation(rng),
                Vector3::new(size(rng), size(rng), size(rng)),
            )
            .unwrap(),
        ),
        2 => Shape::Sphere(Sphere::new(point(rng, 0.3), size(rng)).unwrap()),
        3 => {
            Shape::Capsule(Capsule::new(point(rng, 0.6), point(rng, 0.6), size(rng) * 0.5).unwrap())
        }
        _ => Shape::Triangle(
            Triangle::new(point(rng, 0.9), point(rng, 0.9), point(rng, 0.9)).unwrap(),
        ),
    }
}

/// A pose in a small region (so that many pairs overlap); a third without rotation.
pub fn pose(rng: &mut ChaCha8Rng, region: Real) -> Isometry3 {
    let t = point(rng, region).coords;
    if rng.random_bool(0.33) {
        Isometry3::translation(t.x, t.y, t.z)
    } else {
        Isometry3::from_parts(t.into(), rotation(rng))
    }
}

pub fn filter(rng: &mut ChaCha8Rng) -> Filter {
    let mut f = Filter::default();
    if rng.random_bool(0.3) {
        f.membership = 1 << rng.random_range(0..4);
        f.mask = rng.random_range(0..16u64);
    }
    if rng.random_bool(0.2) {
        f.group = rng.random_range(-2..=2);
    }
    if rng.random_bool(0.2) {
        f.owner = Some(OwnerId(rng.random_range(0..3)));
    }
    f
}

pub fn desc(rng: &mut ChaCha8Rng, region: Real, user: u64) -> ColliderDesc {
    let kind = [Kind::Static, Kind::Kinematic, Kind::Dynamic][rng.random_range(0..3)];
    let report = [Report::BeginEnd, Report::Persist, Report::Manifolds][rng.random_range(0..3)];
    ColliderDesc::new(shape(rng))
        .pose(pose(rng, region))
        .kind(kind)
        .filter(filter(rng))
        .sensor(rng.random_bool(0.15))
        .report(report)
        .enabled(rng.random_bool(0.9))
        .user(user)
}

/// The documented filter rule, written independently of the world's code.
pub fn allowed(
    policy: PairPolicy,
    entries: &BTreeMap<PairKey, bool>,
    a: &ColliderDesc,
    b: &ColliderDesc,
    key: PairKey,
) -> bool {
    if !a.enabled || !b.enabled {
        return false;
    }
    if let Some(&v) = entries.get(&key) {
        return v;
    }
    if policy == PairPolicy::SkipStaticStatic && a.kind == Kind::Static && b.kind == Kind::Static {
        return false;
    }
    let (fa, fb) = (a.filter, b.filter);
    if fa.owner.is_some() && fa.owner == fb.owner {
        return false;
    }
    if fa.group != 0 && fa.group == fb.group {
        return fa.group > 0;
    }
    fa.membership & fb.mask != 0 && fb.membership & fa.mask != 0
}
