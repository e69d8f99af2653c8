//! Pairs of shapes of any two kinds in adversarial categories (touching, near contact at a
//! controlled margin, degenerate, far from the origin, tiny, huge, near-parallel, identical,
//! nested, centres on features of rotated boxes), for the contact and distance suites.

use super::Gen;
use rand::Rng;
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeKind, Sphere, Triangle};

/// The categories of [`Gen::kind_pair`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairCategory {
    /// Random kinds, placements and sizes.
    Random,
    /// Moved so that the supporting points along a random direction coincide.
    Touching,
    /// Touching, then moved apart or together by `±t S`, `t` log-uniform in `1e-9 .. 1e-1`.
    NearContact,
    /// Zero sizes, point capsules, point and collinear triangles.
    Degenerate,
    /// Base point 1e2 .. 1e4 from the origin, sizes 0.1 .. 100.
    FarFromOrigin,
    /// Sizes and offsets about 1e-25 (1e-150 in f64), at the origin.
    Tiny,
    /// Sizes and offsets about 1e19 .. 1e20 (1e150 in f64), at the origin.
    Huge,
    /// Coordinates spanning most of the range (up to `±Real::MAX / 2`).
    NearMax,
    /// Edges and faces of both shapes nearly parallel (1e-7 .. 1e-2 rad), then touching.
    NearParallel,
    /// The same shape twice (or, for two kinds, both centred on one point).
    Identical,
    /// `b` a shrunk copy of `a` (or centred inside it).
    Nested,
    /// `b`'s centre on a face, edge or corner of `a` (or a vertex / end point), within rounding.
    OnFeature,
}

/// Every [`PairCategory`], in order.
pub const PAIR_CATEGORIES: [PairCategory; 12] = [
    PairCategory::Random,
    PairCategory::Touching,
    PairCategory::NearContact,
    PairCategory::Degenerate,
    PairCategory::FarFromOrigin,
    PairCategory::Tiny,
    PairCategory::Huge,
    PairCategory::NearMax,
    PairCategory::NearParallel,
    PairCategory::Identical,
    PairCategory::Nested,
    PairCategory::OnFeature,
];

/// `s` moved by `v` (`None` when the constructors reject the result, e.g. an overflow).
pub fn translated(s: &Shape, v: &Vector3) -> Option<Shape> {
    Some(match s {
        Shape::Aabb(b) => Shape::Aabb(b.translate(v).ok()?),
        Shape::Obb(b) => Shape::Obb(b.translate(v).ok()?),
        Shape::Sphere(b) => Shape::Sphere(Sphere::new(b.center() + v, b.radius()).ok()?),
        Shape::Capsule(c) => Shape::Capsule(Capsule::new(c.p0() + v, c.p1() + v, c.radius()).ok()?),
        Shape::Triangle(t) => {
            let [a, b, c] = t.vertices();
            Shape::Triangle(Triangle::new(a + v, b + v, c + v).ok()?)
        }
    })
}

/// A point of `s` extreme along the unit `n` (computed in `Real`).
pub fn support(s: &Shape, n: &Vector3) -> Point3 {
    let obb = |b: &Obb| {
        let mut p = b.center();
        for k in 0..3 {
            let a = b.axis(k);
            p += a * (b.half_extents()[k] * a.dot(n).signum());
        }
        p
    };
    match s {
        Shape::Aabb(b) => obb(&Obb::from_aabb(b)),
        Shape::Obb(b) => obb(b),
        Shape::Sphere(b) => b.center() + n * b.radius(),
        Shape::Capsule(c) => {
            let p = if c.p0().coords.dot(n) >= c.p1().coords.dot(n) {
                c.p0()
            } else {
                c.p1()
            };
            p + n * c.radius()
        }
        Shape::Triangle(t) => {
            let v = t.vertices();
            let mut best = v[0];
            for p in v {
                if p.coords.dot(n) > best.coords.dot(n) {
                    best = p;
                }
            }
            best
        }
    }
}

/// A reference point of `s`: a sphere's or box's centre, a capsule's first end point, a
/// triangle's first vertex.
pub fn anchor(s: &Shape) -> Point3 {
    match s {
        Shape::Aabb(b) => b.center(),
        Shape::Obb(b) => b.center(),
        Shape::Sphere(b) => b.center(),
        Shape::Capsule(c) => c.p0(),
        Shape::Triangle(t) => t.a(),
    }
}

/// `(centre, reach)` of `s` in f64: a centre and the largest distance of a point of `s` from
/// it (bounded above).
pub fn extent64(s: &Shape) -> ([f64; 3], f64) {
    let p = |q: &Point3| [q.x as f64, q.y as f64, q.z as f64];
    let h = |v: &Vector3| (v.x as f64).hypot(v.y as f64).hypot(v.z as f64);
    match s {
        Shape::Aabb(b) => (
            [0, 1, 2].map(|k| 0.5 * b.min()[k] as f64 + 0.5 * b.max()[k] as f64),
            h(&b.half_extents()),
        ),
        Shape::Obb(b) => (p(&b.center()), h(&b.half_extents()) * 1.0001),
        Shape::Sphere(b) => (p(&b.center()), b.radius() as f64),
        Shape::Capsule(c) => {
            let (a, b) = (p(&c.p0()), p(&c.p1()));
            let m = [0, 1, 2].map(|k| 0.5 * a[k] + 0.5 * b[k]);
            let d = [0, 1, 2].map(|k| 0.5 * b[k] - 0.5 * a[k]);
            (m, d[0].hypot(d[1]).hypot(d[2]) + c.radius() as f64)
        }
        Shape::Triangle(t) => {
            let v = t.vertices().map(|q| p(&q));
            let m = [0, 1, 2].map(|k| v[0][k] / 3.0 + v[1][k] / 3.0 + v[2][k] / 3.0);
            let r = v
                .iter()
                .map(|q| (q[0] - m[0]).hypot(q[1] - m[1]).hypot(q[2] - m[2]))
                .fold(0.0, f64::max);
            (m, r)
        }
    }
}

/// The scale of a pair, `S = |c_B - c_A| + reach_A + reach_B` (f64), and the largest absolute
/// coordinate `m` of either shape.
pub fn pair_scale_any(a: &Shape, b: &Shape) -> (f64, f64) {
    let ((ca, ra), (cb, rb)) = (extent64(a), extent64(b));
    let d = [0, 1, 2].map(|k| cb[k] - ca[k]);
    let s = d[0].hypot(d[1]).hypot(d[2]) + ra + rb;
    let m = [ca, cb]
        .iter()
        .flat_map(|c| c.iter().map(|x| x.abs()))
        .fold(0.0, f64::max)
        + ra.max(rb);
    (s, m)
}

#[cfg(not(feature = "f64"))]
const TINY_UNIT: f64 = 1e-25;
#[cfg(feature = "f64")]
const TINY_UNIT: f64 = 1e-150;
#[cfg(not(feature = "f64"))]
const HUGE_UNIT: (f64, f64) = (1e19, 1e20);
#[cfg(feature = "f64")]
const HUGE_UNIT: (f64, f64) = (1e150, 1e151);

impl Gen {
    /// A pair of shapes of kinds `ka`, `kb` in category `cat`; `None` when the constructors
    /// rejected the numbers (overflowing reach) or the placement could not be made.
    pub fn kind_pair(
        &mut self,
        ka: ShapeKind,
        kb: ShapeKind,
        cat: PairCategory,
    ) -> Option<(Shape, Shape)> {
        let o = Point3::origin();
        let two = |g: &mut Gen, base: &Point3, unit: Real, p_zero: f64| {
            Some((
                g.shape(ka, base, unit, p_zero).ok()?,
                g.shape(kb, base, unit, p_zero).ok()?,
            ))
        };
        match cat {
            PairCategory::Random => two(self, &o, 1.0, 0.05),
            PairCategory::Touching => {
                let (a, b) = two(self, &o, 1.0, 0.05)?;
                self.touch(&a, &b, 0.0)
            }
            PairCategory::NearContact => {
                let (a, b) = two(self, &o, 1.0, 0.05)?;
                let t = self.log_uniform(1e-9, 1e-1);
                let t = if self.rng.random_bool(0.5) { t } else { -t };
                self.touch(&a, &b, t)
            }
            PairCategory::Degenerate => {
                let (a, b) = two(self, &o, 1.0, 0.7)?;
                if self.rng.random_bool(0.5) {
                    self.touch(&a, &b, 0.0)
                } else {
                    Some((a, b))
                }
            }
            PairCategory::FarFromOrigin => {
                let base = Point3::from(self.unit_vector() * self.log_uniform(1e2, 1e4) as Real);
                let unit = self.log_uniform(0.1, 100.0) as Real;
                let (a, b) = two(self, &base, unit, 0.05)?;
                self.maybe_touch(a, b)
            }
            PairCategory::Tiny => {
                let (a, b) = two(self, &o, TINY_UNIT as Real, 0.05)?;
                self.maybe_touch(a, b)
            }
            PairCategory::Huge => {
                let unit = self.log_uniform(HUGE_UNIT.0, HUGE_UNIT.1) as Real;
                let (a, b) = two(self, &o, unit, 0.05)?;
                self.maybe_touch(a, b)
            }
            PairCategory::NearMax => {
                let (a, b) = two(self, &o, Real::MAX / 4.0, 0.05)?;
                self.maybe_touch(a, b)
            }
            PairCategory::NearParallel => {
                let boxes_aligned = ka == ShapeKind::Aabb || kb == ShapeKind::Aabb;
                let r = if boxes_aligned {
                    UnitQuaternion::identity()
                } else {
                    self.rotation()
                };
                let angle = self.log_uniform(1e-7, 1e-2) as Real;
                let axis = nalgebra::Unit::new_normalize(self.unit_vector());
                let rb = r * UnitQuaternion::from_axis_angle(&axis, angle);
                let a = self.aligned(ka, &r)?;
                let b = self.aligned(kb, &rb)?;
                // Touch along the frame's z (the faces' normal).
                let n = r * Vector3::z();
                let sa = support(&a, &n);
                let sb = support(&b, &-n);
                let lateral = self.vector(0.3);
                let lateral = lateral - n * lateral.dot(&n);
                let shift = n * (sa - sb).dot(&n) + lateral;
                Some((a, translated(&b, &shift)?))
            }
            PairCategory::Identical => {
                let a = self.shape(ka, &o, 1.0, 0.05).ok()?;
                let b = if ka == kb {
                    a
                } else {
                    let b = self.shape(kb, &o, 1.0, 0.05).ok()?;
                    translated(&b, &(anchor(&a) - anchor(&b)))?
                };
                Some((a, b))
            }
            PairCategory::Nested => {
                let a = self.shape(ka, &o, 1.0, 0.0).ok()?;
                let b = self.shape(kb, &o, 0.05, 0.05).ok()?;
                let b = translated(&b, &(anchor(&a) - anchor(&b)))?;
                Some((a, b))
            }
            PairCategory::OnFeature => {
                let (a, b) = two(self, &o, 1.0, 0.05)?;
                let p = self.feature_point(&a);
                // Within rounding: the point itself or a few ulps off it.
                let ulps = self.rng.random_range(0..4) as Real;
                let wiggle = self.vector(1.0) * (ulps * 4.0 * UNIT_ROUNDOFF);
                let b = translated(&b, &(p - anchor(&b) + wiggle))?;
                Some((a, b))
            }
        }
    }

    /// Touching with probability 0.6 (random direction), else as generated.
    fn maybe_touch(&mut self, a: Shape, b: Shape) -> Option<(Shape, Shape)> {
        if self.rng.random_bool(0.6) {
            self.touch(&a, &b, 0.0)
        } else {
            Some((a, b))
        }
    }

    /// `b` moved so that its support point along `-n` meets `a`'s along `n` (a random unit
    /// `n`), then by `t S n` (`S` the pair's scale).
    pub fn touch(&mut self, a: &Shape, b: &Shape, t: f64) -> Option<(Shape, Shape)> {
        let n = self.unit_vector();
        let (sa, sb) = (support(a, &n), support(b, &-n));
        let (s, _) = pair_scale_any(a, b);
        let shift = (sa - sb) + n * ((t * s) as Real);
        if !shift.iter().all(|x| x.is_finite()) {
            return None;
        }
        Some((*a, translated(b, &shift)?))
    }

    /// A shape of `kind` whose edges and faces follow the frame `r` (a box rotated by `r`, a
    /// capsule along its x, a triangle in its xy plane), near the origin.
    fn aligned(&mut self, kind: ShapeKind, r: &UnitQuaternion) -> Option<Shape> {
        let c: Point3 = self.vector(0.5).into();
        let h = self.half_extents(0.1, 1.5);
        Some(match kind {
            ShapeKind::Aabb => Shape::Aabb(Aabb::from_center_half_extents(c, h).ok()?),
            ShapeKind::Obb => Shape::Obb(Obb::from_rotation(c, *r, h).ok()?),
            ShapeKind::Sphere => Shape::Sphere(Sphere::new(c, h.x).ok()?),
            ShapeKind::Capsule => {
                let d = r * Vector3::x() * h.y;
                Shape::Capsule(Capsule::new(c - d, c + d, h.z * 0.5).ok()?)
            }
            ShapeKind::Triangle => {
                let (x, y) = (r * Vector3::x(), r * Vector3::y());
                Shape::Triangle(Triangle::new(c - x * h.x, c + x * h.y, c + y * h.z).ok()?)
            }
        })
    }

    /// A point on a feature of `s`: a box's face, edge or corner, a capsule's end point or
    /// axis, a triangle's vertex, edge or interior, a sphere's surface or centre.
    pub fn feature_point(&mut self, s: &Shape) -> Point3 {
        let on_box = |g: &mut Gen, b: &Obb| {
            let fixed = g.rng.random_range(1..=3usize); // face, edge, corner
            let mut p = b.center();
            let first = g.rng.random_range(0..3usize);
            for j in 0..3 {
                let k = (first + j) % 3;
                let t: Real = if j < fixed {
                    if g.rng.random_bool(0.5) {
                        1.0
                    } else {
                        -1.0
                    }
                } else {
                    g.uniform(-1.0, 1.0)
                };
                p += b.axis(k) * (b.half_extents()[k] * t);
            }
            p
        };
        match s {
            Shape::Aabb(b) => on_box(self, &Obb::from_aabb(b)),
            Shape::Obb(b) => on_box(self, b),
            Shape::Sphere(b) => {
                if self.rng.random_bool(0.5) {
                    b.center()
                } else {
                    b.center() + self.unit_vector() * b.radius()
                }
            }
            Shape::Capsule(c) => {
                let t = match self.rng.random_range(0..3) {
                    0 => 0.0,
                    1 => 1.0,
                    _ => self.uniform(0.0, 1.0),
                };
                c.p0() + (c.p1() - c.p0()) * t
            }
            Shape::Triangle(t) => {
                let v = t.vertices();
                match self.rng.random_range(0..3) {
                    0 => v[self.rng.random_range(0..3)],
                    1 => {
                        let k = self.rng.random_range(0..3);
                        v[k] + (v[(k + 1) % 3] - v[k]) * self.uniform(0.0, 1.0)
                    }
                    _ => {
                        let (x, y) = (self.uniform(0.0, 1.0), self.uniform(0.0, 1.0));
                        let (x, y) = if x + y > 1.0 {
                            (1.0 - x, 1.0 - y)
                        } else {
                            (x, y)
                        };
                        v[0] + (v[1] - v[0]) * x + (v[2] - v[0]) * y
                    }
                }
            }
        }
    }
}
