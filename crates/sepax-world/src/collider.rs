//! Colliders: what the user describes ([`ColliderDesc`]) and what the world stores
//! ([`Collider`]), with the validation of poses and placed shapes.

use smallvec::SmallVec;

use crate::error::{Subject, WorldError};
use crate::filter::Filter;
use crate::id::ColliderId;
use sepax_broadphase::ProxyId;
use sepax_shapes::math::{Isometry3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::{QUATERNION_TOLERANCE, UNIT_ROUNDOFF};
use sepax_shapes::{Aabb, Shape};

/// How a collider moves, which decides its tree and the default pair policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Kind {
    /// Never (or rarely) moves: kept in the static tree; static–static pairs are skipped by the
    /// default policy.
    Static,
    /// Moved by the user, not by a solver.
    Kinematic,
    /// Moved by a solver.
    #[default]
    Dynamic,
}

/// What the update reports for a collider's pairs; a pair gets the larger of its two sides'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Report {
    /// Begin and end events only (a boolean narrow-phase test).
    #[default]
    BeginEnd,
    /// Also a persist event for every update the pair stays touching.
    Persist,
    /// Persist events and a contact manifold (feature ids, up to 4 points) for every touching
    /// pair. Sensor pairs never get manifolds.
    Manifolds,
}

/// Everything a new collider is made of. [`ColliderDesc::new`] gives a dynamic, enabled,
/// non-sensor collider at the identity pose with the default filter, reporting begin/end.
#[derive(Debug, Clone, PartialEq)]
pub struct ColliderDesc {
    /// The shape in the collider's local frame (placed by `pose`).
    pub shape: Shape,
    /// Local-to-world rigid motion.
    pub pose: Isometry3,
    /// Static, kinematic or dynamic.
    pub kind: Kind,
    /// The filter data.
    pub filter: Filter,
    /// A sensor reports events but never manifolds.
    pub sensor: bool,
    /// What to report for its pairs.
    pub report: Report,
    /// A disabled collider takes part in no pair (its pairs end).
    pub enabled: bool,
    /// The user's value, carried in every event of the collider's pairs.
    pub user: u64,
    /// Continuous collision: each update sweeps the collider from its pose at the last update
    /// to its new one, so that a contact between two frames is reported (see `docs/world.md`).
    pub ccd: bool,
}

impl ColliderDesc {
    /// A dynamic collider of `shape` at the identity pose (see the type's docs).
    pub fn new(shape: impl Into<Shape>) -> Self {
        Self {
            shape: shape.into(),
            pose: Isometry3::identity(),
            kind: Kind::Dynamic,
            filter: Filter::default(),
            sensor: false,
            report: Report::BeginEnd,
            enabled: true,
            user: 0,
            ccd: false,
        }
    }

    /// With `pose`.
    pub fn pose(mut self, pose: Isometry3) -> Self {
        self.pose = pose;
        self
    }

    /// With `kind`.
    pub fn kind(mut self, kind: Kind) -> Self {
        self.kind = kind;
        self
    }

    /// With `filter`.
    pub fn filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    /// As a sensor (or not).
    pub fn sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// With `report`.
    pub fn report(mut self, report: Report) -> Self {
        self.report = report;
        self
    }

    /// With `user`.
    pub fn user(mut self, user: u64) -> Self {
        self.user = user;
        self
    }

    /// Enabled or not.
    pub fn enabled(mut self, enabled: bool) -> Self {
        self.enabled = enabled;
        self
    }

    /// With continuous collision (or not).
    pub fn ccd(mut self, ccd: bool) -> Self {
        self.ccd = ccd;
        self
    }
}

/// A collider as the world stores it: the description plus the placed shape and its box.
#[derive(Debug, Clone)]
pub struct Collider {
    pub(crate) desc: ColliderDesc,
    pub(crate) world_shape: Shape,
    pub(crate) world_aabb: Aabb,
    /// The broad-phase proxy (in the static tree for static colliders); `None` while disabled.
    pub(crate) proxy: Option<ProxyId>,
    /// The world's update count when the geometry or the report last changed.
    pub(crate) changed: u64,
    /// Explicit pair entries (`allow_pair`): the other collider and whether the pair may
    /// collide. Kept on both sides.
    pub(crate) pairs: SmallVec<[(ColliderId, bool); 2]>,
}

impl Collider {
    /// The local shape.
    pub fn shape(&self) -> &Shape {
        &self.desc.shape
    }
    /// The pose.
    pub fn pose(&self) -> &Isometry3 {
        &self.desc.pose
    }
    /// The shape placed by the pose (what the narrow phase tests).
    pub fn world_shape(&self) -> &Shape {
        &self.world_shape
    }
    /// The box the broad phase uses: the placed shape's AABB grown by the narrow phase's
    /// rounding band (see [`crate::World`]).
    pub fn world_aabb(&self) -> &Aabb {
        &self.world_aabb
    }
    /// The kind.
    pub fn kind(&self) -> Kind {
        self.desc.kind
    }
    /// The filter.
    pub fn filter(&self) -> &Filter {
        &self.desc.filter
    }
    /// Whether it is a sensor.
    pub fn is_sensor(&self) -> bool {
        self.desc.sensor
    }
    /// What it reports.
    pub fn report(&self) -> Report {
        self.desc.report
    }
    /// Whether it is enabled.
    pub fn is_enabled(&self) -> bool {
        self.desc.enabled
    }
    /// The user value.
    pub fn user(&self) -> u64 {
        self.desc.user
    }
    /// Whether it is swept between updates (continuous collision).
    pub fn is_ccd(&self) -> bool {
        self.desc.ccd
    }
    /// The description it was made from, with its current state.
    pub fn desc(&self) -> &ColliderDesc {
        &self.desc
    }
    /// Whether its pairs get contact manifolds (and so speculative ones within the margin).
    pub(crate) fn wants_manifolds(&self) -> bool {
        self.desc.report == Report::Manifolds && !self.desc.sensor
    }

    /// The box it has in the broad phase: [`Collider::world_aabb`], grown by the speculative
    /// `margin` when its pairs get manifolds (so that a pair within the margin is a
    /// candidate even when only one side reports manifolds). Saturates at the finite range.
    pub(crate) fn broad_aabb(&self, margin: Real) -> Aabb {
        if !(margin > 0.0 && self.wants_manifolds()) {
            return self.world_aabb;
        }
        grow_saturating(&self.world_aabb, margin)
    }

    /// The explicit pair entry with `other`, if any.
    pub fn pair_entry(&self, other: ColliderId) -> Option<bool> {
        self.pairs.iter().find(|e| e.0 == other).map(|e| e.1)
    }
}

/// Checks a typed pose: finite numbers and a non-zero rotation, renormalised when its squared
/// norm is not exactly 1 (the identity stays bit for bit).
pub(crate) fn check_pose(who: Subject, pose: &Isometry3) -> Result<Isometry3, WorldError> {
    check_translation(who, &pose.translation.vector)?;
    let q = *pose.rotation.quaternion();
    check_quaternion_finite(who, &q)?;
    let n2 = q.norm_squared();
    if n2 == 1.0 {
        return Ok(*pose);
    }
    if !(n2 > 0.0 && n2.is_finite()) {
        return Err(WorldError::NonUnitRotation {
            collider: who,
            field: "pose.rotation",
            norm: n2.sqrt() as f64,
        });
    }
    Ok(Isometry3::from_parts(
        pose.translation,
        UnitQuaternion::new_normalize(q),
    ))
}

/// A pose from raw numbers (translation, quaternion `[w, x, y, z]`), the quaternion checked to
/// be unit within [`QUATERNION_TOLERANCE`] and then normalised.
pub(crate) fn pose_from_raw(
    who: Subject,
    translation: [Real; 3],
    rotation: [Real; 4],
) -> Result<Isometry3, WorldError> {
    let t = Vector3::from(translation);
    check_translation(who, &t)?;
    let [w, x, y, z] = rotation;
    let q = Quaternion::new(w, x, y, z);
    check_quaternion_finite(who, &q)?;
    let norm = q.norm();
    if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
        return Err(WorldError::NonUnitRotation {
            collider: who,
            field: "pose.rotation",
            norm: norm as f64,
        });
    }
    let rot = if q.norm_squared() == 1.0 {
        UnitQuaternion::new_unchecked(q)
    } else {
        UnitQuaternion::new_normalize(q)
    };
    Ok(Isometry3::from_parts(t.into(), rot))
}

fn check_translation(who: Subject, t: &Vector3) -> Result<(), WorldError> {
    for (k, &v) in t.iter().enumerate() {
        if !v.is_finite() {
            return Err(WorldError::NotFinite {
                collider: who,
                field: "pose.translation",
                component: k,
                value: v as f64,
            });
        }
    }
    Ok(())
}

fn check_quaternion_finite(who: Subject, q: &Quaternion) -> Result<(), WorldError> {
    for (k, v) in [q.w, q.i, q.j, q.k].into_iter().enumerate() {
        if !v.is_finite() {
            return Err(WorldError::NotFinite {
                collider: who,
                field: "pose.rotation",
                component: k,
                value: v as f64,
            });
        }
    }
    Ok(())
}

/// `b` grown by `margin >= 0` on every side, each bound clamped to the finite range.
pub(crate) fn grow_saturating(b: &Aabb, margin: Real) -> Aabb {
    let m = Vector3::repeat(margin);
    let lo = (b.min() - m).map(|x| x.max(-Real::MAX));
    let hi = (b.max() + m).map(|x| x.min(Real::MAX));
    Aabb::new(lo, hi).unwrap_or(*b)
}

/// Relative rounding band of the narrow phase's overlap tests, per unit of the magnitudes
/// involved: they may call a pair whose exact gap is within `2 * ALLOWANCE * S` touching (the
/// largest `ALLOWANCE` is 16u, `S` at most the sum of the two shapes' L1 magnitudes). Each box
/// grows by `BAND * S_self`, which covers that with room to spare.
const BAND: Real = 256.0 * UNIT_ROUNDOFF;

/// The placed shape and its broad-phase box (the shape's AABB grown by the rounding band, so
/// that no pair the narrow phase calls touching is dropped by a box test).
pub(crate) fn place(
    who: Subject,
    shape: &Shape,
    pose: &Isometry3,
) -> Result<(Shape, Aabb), WorldError> {
    let shape_err = |source| WorldError::Shape {
        collider: who,
        source,
    };
    let placed = shape.transformed(pose).map_err(shape_err)?;
    let b = placed.world_aabb();
    let c = b.center().coords;
    let e = b.half_extents();
    // Shapes near the top of the range: the magnitude saturates (an infinite sum of finite,
    // non-negative terms becomes `Real::MAX`) and the grown box is clamped to the finite range,
    // which loses nothing since no shape reaches beyond it.
    let s = (c.abs().sum() + 2.0 * e.abs().sum()).min(Real::MAX);
    Ok((placed, grow_saturating(&b, BAND * s)))
}
