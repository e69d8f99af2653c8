//! The test kit shared by sepax's suites (a dev-dependency only): box-pair generators, random
//! and adversarial cases, every value exactly representable in `Real` (they are produced in
//! `Real`), the bridge to the exact reference, shapes of every kind ([`kinds`]), proptest
//! strategies, the benchmark scene family ([`scene`]) and a counting allocator ([`alloc`]).

// Real -> f64 casts widen in the default build and are identities in the f64 build.
#![allow(clippy::unnecessary_cast)]

pub mod alloc;
pub mod box_pairs;
pub mod digest;
pub mod kinds;
pub mod scene;
mod shapes;
pub mod strategies;

pub use shapes::*;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_exact::ExactBox;
use sepax_narrowphase::intersect::{explain, BoxShape};
use sepax_shapes::math::{Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::CERT_ROUNDING_FACTOR;
use sepax_shapes::{Aabb, Obb};

/// A box of either kind.
#[derive(Debug, Clone, Copy)]
pub enum AnyBox {
    /// Axis-aligned.
    A(Aabb),
    /// Oriented.
    O(Obb),
}

impl AnyBox {
    /// The box in the exact reference's terms (every `Real` converted to `f64` exactly).
    pub fn exact(&self) -> ExactBox {
        match self {
            AnyBox::A(b) => {
                let (lo, hi) = (b.min(), b.max());
                ExactBox::from_aabb(
                    [lo.x as f64, lo.y as f64, lo.z as f64],
                    [hi.x as f64, hi.y as f64, hi.z as f64],
                )
            }
            AnyBox::O(b) => obb_exact(b),
        }
    }

    /// Half-extent sum (for the scale of a pair).
    pub fn half_sum(&self) -> f64 {
        let h = match self {
            AnyBox::A(b) => b.half_extents(),
            AnyBox::O(b) => b.half_extents(),
        };
        (h.x as f64) + (h.y as f64) + (h.z as f64)
    }

    /// The centre in `f64`.
    pub fn center64(&self) -> [f64; 3] {
        match self {
            AnyBox::A(b) => {
                let (lo, hi) = (b.min(), b.max());
                [0, 1, 2].map(|k| 0.5 * (lo[k] as f64 + hi[k] as f64))
            }
            AnyBox::O(b) => [0, 1, 2].map(|k| b.center()[k] as f64),
        }
    }

    /// How far the box's axes are from orthonormal (0 for an `Aabb`).
    pub fn axes_error(&self) -> f64 {
        match self {
            AnyBox::A(_) => 0.0,
            AnyBox::O(b) => b.axes_error() as f64,
        }
    }

    /// The box as an `Obb` (an `Aabb` with the identity axes).
    pub fn as_obb(&self) -> Obb {
        match self {
            AnyBox::A(b) => Obb::from_aabb(b),
            AnyBox::O(b) => *b,
        }
    }
}

/// An `Obb` in the exact reference's terms.
pub fn obb_exact(b: &Obb) -> ExactBox {
    let c = b.center();
    let h = b.half_extents();
    ExactBox::new(
        [c.x as f64, c.y as f64, c.z as f64],
        [0, 1, 2].map(|k| {
            let a = b.axis(k);
            [a.x as f64, a.y as f64, a.z as f64]
        }),
        [h.x as f64, h.y as f64, h.z as f64],
    )
}

/// The scale `S = sum h_A + sum h_B + |c_B - c_A|` of a pair (f64; the band is relative to
/// it), computed in halves so that it does not overflow near `f64::MAX` (clamped there).
pub fn pair_scale(a: &AnyBox, b: &AnyBox) -> f64 {
    let (ca, cb) = (a.center64(), b.center64());
    let d = [0, 1, 2].map(|k| 0.5 * cb[k] - 0.5 * ca[k]);
    let half = 0.5 * a.half_sum() + 0.5 * b.half_sum() + d[0].hypot(d[1]).hypot(d[2]);
    (2.0 * half).min(f64::MAX)
}

/// The documented band of docs/tolerance.md §4 for a box pair: `2 * 20 u64 S` (a slack is
/// undecided while `|f~| <= bound` and `|f~ - f| <= 0.8 bound`) times the 1.0001 axis-length
/// allowance, plus `3 (delta_A + delta_B) S` when the exact zonotope is not full-dimensional.
pub fn band(a: &AnyBox, b: &AnyBox, full_dimensional: bool) -> f64 {
    let s = pair_scale(a, b);
    let mut band = 2.0 * CERT_ROUNDING_FACTOR * (f64::EPSILON / 2.0) * 1.0001 * s;
    if !full_dimensional {
        band += 3.0 * (a.axes_error() + b.axes_error()) * s;
    }
    band
}

/// Whether the exact margin of the pair lies within the documented band.
pub fn in_band(a: &AnyBox, b: &AnyBox, e: &sepax_exact::BoxBoxExact) -> bool {
    !e.margin_exceeds(band(a, b, e.axis != sepax_exact::ExactAxis::Other))
}

/// Dispatches a generic box call on two `AnyBox`es.
#[macro_export]
macro_rules! with_boxes {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match ($a, $b) {
            ($crate::AnyBox::A($x), $crate::AnyBox::A($y)) => $body,
            ($crate::AnyBox::A($x), $crate::AnyBox::O($y)) => $body,
            ($crate::AnyBox::O($x), $crate::AnyBox::A($y)) => $body,
            ($crate::AnyBox::O($x), $crate::AnyBox::O($y)) => $body,
        }
    };
}

/// Dispatches a generic pair call on two `Shape`s: the 25 ordered pairs of kinds written out,
/// independent of the narrow phase's own dispatch (the oracle its tests compare it with).
#[macro_export]
macro_rules! with_shapes {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match ($a, $b) {
            (::sepax_shapes::Shape::Aabb($x), ::sepax_shapes::Shape::Aabb($y)) => $body,
            (::sepax_shapes::Shape::Aabb($x), ::sepax_shapes::Shape::Obb($y)) => $body,
            (::sepax_shapes::Shape::Aabb($x), ::sepax_shapes::Shape::Sphere($y)) => $body,
            (::sepax_shapes::Shape::Aabb($x), ::sepax_shapes::Shape::Capsule($y)) => $body,
            (::sepax_shapes::Shape::Aabb($x), ::sepax_shapes::Shape::Triangle($y)) => $body,
            (::sepax_shapes::Shape::Obb($x), ::sepax_shapes::Shape::Aabb($y)) => $body,
            (::sepax_shapes::Shape::Obb($x), ::sepax_shapes::Shape::Obb($y)) => $body,
            (::sepax_shapes::Shape::Obb($x), ::sepax_shapes::Shape::Sphere($y)) => $body,
            (::sepax_shapes::Shape::Obb($x), ::sepax_shapes::Shape::Capsule($y)) => $body,
            (::sepax_shapes::Shape::Obb($x), ::sepax_shapes::Shape::Triangle($y)) => $body,
            (::sepax_shapes::Shape::Sphere($x), ::sepax_shapes::Shape::Aabb($y)) => $body,
            (::sepax_shapes::Shape::Sphere($x), ::sepax_shapes::Shape::Obb($y)) => $body,
            (::sepax_shapes::Shape::Sphere($x), ::sepax_shapes::Shape::Sphere($y)) => $body,
            (::sepax_shapes::Shape::Sphere($x), ::sepax_shapes::Shape::Capsule($y)) => $body,
            (::sepax_shapes::Shape::Sphere($x), ::sepax_shapes::Shape::Triangle($y)) => $body,
            (::sepax_shapes::Shape::Capsule($x), ::sepax_shapes::Shape::Aabb($y)) => $body,
            (::sepax_shapes::Shape::Capsule($x), ::sepax_shapes::Shape::Obb($y)) => $body,
            (::sepax_shapes::Shape::Capsule($x), ::sepax_shapes::Shape::Sphere($y)) => $body,
            (::sepax_shapes::Shape::Capsule($x), ::sepax_shapes::Shape::Capsule($y)) => $body,
            (::sepax_shapes::Shape::Capsule($x), ::sepax_shapes::Shape::Triangle($y)) => $body,
            (::sepax_shapes::Shape::Triangle($x), ::sepax_shapes::Shape::Aabb($y)) => $body,
            (::sepax_shapes::Shape::Triangle($x), ::sepax_shapes::Shape::Obb($y)) => $body,
            (::sepax_shapes::Shape::Triangle($x), ::sepax_shapes::Shape::Sphere($y)) => $body,
            (::sepax_shapes::Shape::Triangle($x), ::sepax_shapes::Shape::Capsule($y)) => $body,
            (::sepax_shapes::Shape::Triangle($x), ::sepax_shapes::Shape::Triangle($y)) => $body,
        }
    };
}

/// A valid OBB from generated numbers (panics on an invalid one: a generator bug).
pub fn mk(center: Point3, rot: UnitQuaternion, h: Vector3) -> Obb {
    Obb::from_rotation(center, rot, h).expect("generated box is valid")
}

/// The seeded generator of boxes, pairs and shapes.
pub struct Gen {
    /// The random source (seeded: every suite is repeatable).
    pub rng: ChaCha8Rng,
}

/// The adversarial categories of the suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Random centres, rotations and sizes.
    Random,
    /// Separated or overlapping by a margin near zero.
    NearContact,
    /// Axes nearly parallel (edge cross products near zero).
    NearParallel,
    /// The same rotation on both boxes.
    EqualRotation,
    /// Far from the origin (centres 1e2 to 1e4 away), often near contact.
    FarFromOrigin,
    /// Extreme aspect ratios.
    NeedlesAndPlates,
    /// Some half-extents zero (flat or degenerate boxes).
    ZeroExtents,
    /// The same box twice, or one inside the other.
    IdenticalAndNested,
    /// An `Aabb` with an `Obb`, or two `Aabb`s.
    AabbMix,
}

/// Every [`Category`], in order.
pub const CATEGORIES: [Category; 9] = [
    Category::Random,
    Category::NearContact,
    Category::NearParallel,
    Category::EqualRotation,
    Category::FarFromOrigin,
    Category::NeedlesAndPlates,
    Category::ZeroExtents,
    Category::IdenticalAndNested,
    Category::AabbMix,
];

impl Gen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Uniform in [lo, hi), rounded to `Real`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> Real {
        self.rng.random_range(lo..hi) as Real
    }

    /// Log-uniform in [lo, hi].
    pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (self.rng.random_range(lo.ln()..hi.ln())).exp()
    }

    /// A random rotation (a normalised quaternion drawn in the unit ball, away from 0).
    pub fn rotation(&mut self) -> UnitQuaternion {
        loop {
            let q = Quaternion::new(
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
            );
            let n = q.norm();
            if n > 0.1 && n <= 1.0 {
                return UnitQuaternion::new_normalize(q);
            }
        }
    }

    /// A vector with coordinates uniform in [-r, r).
    pub fn vector(&mut self, r: f64) -> Vector3 {
        Vector3::new(
            self.uniform(-r, r),
            self.uniform(-r, r),
            self.uniform(-r, r),
        )
    }

    /// A random unit vector.
    pub fn unit_vector(&mut self) -> Vector3 {
        loop {
            let v = self.vector(1.0);
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }

    /// Half-extents uniform in [lo, hi).
    pub fn half_extents(&mut self, lo: f64, hi: f64) -> Vector3 {
        Vector3::new(
            self.uniform(lo, hi),
            self.uniform(lo, hi),
            self.uniform(lo, hi),
        )
    }

    /// Moves `b` along a random direction (or the witness axis) so that the pair touches, then
    /// by a signed margin `target * S` (log-uniform between 1e-9 and 1e-1, or exactly 0).
    pub fn place_near_contact(&mut self, a: &AnyBox, b: Obb) -> Obb {
        let w = with_boxes!(a, &AnyBox::O(b), |x, y| explain(x, y));
        let s = pair_scale(a, &AnyBox::O(b)) as Real;
        let target: Real = if self.rng.random_bool(0.1) {
            0.0
        } else {
            let m = self.log_uniform(1e-9, 1e-1) as Real * s;
            if self.rng.random_bool(0.5) {
                m
            } else {
                -m
            }
        };
        // Along the witness direction the margin changes at unit rate while that axis stays
        // extremal; rounding makes it approximate, which is all a generator needs.
        let shift = w.direction * (target - w.distance);
        b.translate(&shift).unwrap_or(b)
    }

    /// A box pair of the category `cat`.
    pub fn pair(&mut self, cat: Category) -> (AnyBox, AnyBox) {
        match cat {
            Category::Random => {
                let a = mk(
                    self.vector(2.5).into(),
                    self.rotation(),
                    self.half_extents(0.05, 2.0),
                );
                let b = mk(
                    self.vector(2.5).into(),
                    self.rotation(),
                    self.half_extents(0.05, 2.0),
                );
                (AnyBox::O(a), AnyBox::O(b))
            }
            Category::NearContact => {
                let a = AnyBox::O(mk(
                    self.vector(1.0).into(),
                    self.rotation(),
                    self.half_extents(0.05, 2.0),
                ));
                let b = mk(
                    self.vector(1.0).into(),
                    self.rotation(),
                    self.half_extents(0.05, 2.0),
                );
                let b = self.place_near_contact(&a, b);
                (a, AnyBox::O(b))
            }
            Category::NearParallel | Category::EqualRotation => {
                let ra = self.rotation();
                let rb = if cat == Category::EqualRotation {
                    ra
                } else {
                    let angle = self.log_uniform(1e-7, 1e-2) as Real;
                    ra * UnitQuaternion::from_axis_angle(
                        &nalgebra::Unit::new_normalize(self.unit_vector()),
                        angle,
                    )
                };
                let a = AnyBox::O(mk(
                    self.vector(1.0).into(),
                    ra,
                    self.half_extents(0.05, 2.0),
                ));
                let b = mk(self.vector(3.0).into(), rb, self.half_extents(0.05, 2.0));
                let b = if self.rng.random_bool(0.7) {
                    self.place_near_contact(&a, b)
                } else {
                    b
                };
                (a, AnyBox::O(b))
            }
            Category::FarFromOrigin => {
                let far = self.unit_vector() * self.log_uniform(1e2, 1e4) as Real;
                let a = AnyBox::O(mk(
                    Point3::from(far + self.vector(1.0)),
                    self.rotation(),
                    self.half_extents(0.05, 2.0),
                ));
                let b = mk(
                    Point3::from(far + self.vector(3.0)),
                    self.rotation(),
                    self.half_extents(0.05, 2.0),
                );
                let b = if self.rng.random_bool(0.7) {
                    self.place_near_contact(&a, b)
                } else {
                    b
                };
                (a, AnyBox::O(b))
            }
            Category::NeedlesAndPlates => {
                let shape = |g: &mut Gen| -> Vector3 {
                    let big = g.uniform(0.5, 2.0);
                    let small = big * 1e-3;
                    match g.rng.random_range(0..3) {
                        0 => Vector3::new(big, small, small),
                        1 => Vector3::new(big, big, small),
                        _ => Vector3::new(small, big, big),
                    }
                };
                let ha = shape(self);
                let hb = shape(self);
                let a = AnyBox::O(mk(self.vector(1.0).into(), self.rotation(), ha));
                let b = mk(self.vector(2.0).into(), self.rotation(), hb);
                let b = if self.rng.random_bool(0.6) {
                    self.place_near_contact(&a, b)
                } else {
                    b
                };
                (a, AnyBox::O(b))
            }
            Category::ZeroExtents => {
                let h = |g: &mut Gen| -> Vector3 {
                    let mut v = g.half_extents(0.1, 1.5);
                    let zeros = g.rng.random_range(0..4);
                    for k in 0..zeros {
                        v[k] = 0.0;
                    }
                    v
                };
                let (ha, hb) = (h(self), h(self));
                let same_rot = self.rng.random_bool(0.3);
                let ra = self.rotation();
                let rb = if same_rot { ra } else { self.rotation() };
                let a = AnyBox::O(mk(self.vector(1.0).into(), ra, ha));
                let b = mk(self.vector(1.5).into(), rb, hb);
                (a, AnyBox::O(b))
            }
            Category::IdenticalAndNested => {
                let a = mk(
                    self.vector(2.0).into(),
                    self.rotation(),
                    self.half_extents(0.0, 2.0),
                );
                let b = match self.rng.random_range(0..3) {
                    0 => a,
                    1 => {
                        let f = self.uniform(0.0, 1.0);
                        Obb::from_rotation(
                            a.center(),
                            UnitQuaternion::from_matrix(a.axes()),
                            a.half_extents() * f,
                        )
                        .unwrap()
                    }
                    _ => Obb::new(
                        a.center(),
                        *a.axes(),
                        a.half_extents() * self.uniform(0.0, 1.0),
                    )
                    .unwrap(),
                };
                (AnyBox::O(a), AnyBox::O(b))
            }
            Category::AabbMix => {
                let aabb = |g: &mut Gen| {
                    let c: Point3 = g.vector(2.0).into();
                    let h = g.half_extents(0.0, 2.0);
                    Aabb::from_center_half_extents(c, h).unwrap()
                };
                match self.rng.random_range(0..4) {
                    0 => (AnyBox::A(aabb(self)), AnyBox::A(aabb(self))),
                    1 => {
                        let a = AnyBox::A(aabb(self));
                        let b = mk(
                            self.vector(2.0).into(),
                            self.rotation(),
                            self.half_extents(0.05, 2.0),
                        );
                        let b = if self.rng.random_bool(0.6) {
                            self.place_near_contact(&a, b)
                        } else {
                            b
                        };
                        (a, AnyBox::O(b))
                    }
                    2 => {
                        let b = AnyBox::A(aabb(self));
                        let a = mk(
                            self.vector(2.0).into(),
                            self.rotation(),
                            self.half_extents(0.05, 2.0),
                        );
                        (AnyBox::O(a), b)
                    }
                    _ => {
                        // An AABB against an OBB that is really axis-aligned (identity rotation).
                        let a = AnyBox::A(aabb(self));
                        let b = mk(
                            self.vector(2.0).into(),
                            UnitQuaternion::identity(),
                            self.half_extents(0.0, 2.0),
                        );
                        let b = if self.rng.random_bool(0.6) {
                            self.place_near_contact(&a, b)
                        } else {
                            b
                        };
                        (a, AnyBox::O(b))
                    }
                }
            }
        }
    }
}

/// Whether `BoxShape` is used (keeps the import alive for suites that only need generators).
pub fn _uses_box_shape<T: BoxShape>(_: &T) {}
