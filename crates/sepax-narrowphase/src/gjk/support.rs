//! Support maps: for a direction `d`, a point of the shape maximising `x · d`, returned relative
//! to a caller-chosen base point so that shapes far from the origin keep their precision (the
//! subtraction happens before the small offsets are added).

use sepax_shapes::math::{Matrix3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};

/// A convex set given by its support function.
pub trait SupportMap {
    /// A point `x` of the set with `x · dir` maximal, minus `base`. Any point of the set is a
    /// valid answer for `dir = 0`.
    fn support(&self, base: &Point3, dir: &Vector3) -> Vector3;

    /// A point of the set (the GJK search starts from the two shapes' reference points).
    fn reference_point(&self) -> Point3;
}

/// `+h` or `-h` by the sign of `d` (`+h` for `d = 0`).
#[inline]
fn signed(h: Real, d: Real) -> Real {
    if d >= 0.0 {
        h
    } else {
        -h
    }
}

/// Unit vector along `d` (zero for a zero or non-finite direction).
#[inline]
fn unit(d: &Vector3) -> Vector3 {
    let n = d.norm();
    if n > 0.0 && n.is_finite() {
        d / n
    } else {
        Vector3::zeros()
    }
}

/// `|v|` without overflow or underflow of the squares (scaled by the largest component).
#[inline]
pub(crate) fn norm_safe(v: &Vector3) -> Real {
    let m = v.amax();
    if m > 0.0 && m.is_finite() {
        m * (v / m).norm()
    } else {
        m
    }
}

/// The polytope "core" of a shape (a sphere is a point, a capsule a segment, both plus their
/// radius), as plain numbers that need not satisfy a shape's constructor checks: what the
/// distance and time-of-impact kernels move, rotate and hand to GJK.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConvexCore {
    /// A single point.
    Point(Point3),
    /// The closed segment between two points.
    Segment([Point3; 2]),
    /// An axis-aligned box `[min, max]`.
    AlignedBox {
        /// Minimum corner.
        min: Point3,
        /// Maximum corner.
        max: Point3,
    },
    /// An oriented box `{ c + A s : |s_k| <= h_k }`.
    Box {
        /// Centre.
        center: Point3,
        /// Axes as columns.
        axes: Matrix3,
        /// Half-extents (non-negative).
        half_extents: Vector3,
    },
    /// A closed (solid, two-sided) triangle.
    Triangle([Point3; 3]),
}

impl ConvexCore {
    /// The core and the radius of a shape: `Sphere = Point + r`, `Capsule = Segment + r`, the
    /// others have radius 0.
    pub fn of(shape: &Shape) -> (ConvexCore, Real) {
        match shape {
            Shape::Aabb(b) => (
                ConvexCore::AlignedBox {
                    min: b.min(),
                    max: b.max(),
                },
                0.0,
            ),
            Shape::Obb(b) => (
                ConvexCore::Box {
                    center: b.center(),
                    axes: *b.axes(),
                    half_extents: b.half_extents(),
                },
                0.0,
            ),
            Shape::Sphere(s) => (ConvexCore::Point(s.center()), s.radius()),
            Shape::Capsule(c) => (ConvexCore::Segment([c.p0(), c.p1()]), c.radius()),
            Shape::Triangle(t) => (ConvexCore::Triangle(t.vertices()), 0.0),
        }
    }

    /// The core moved by the rigid motion "rotate by `rotation` about `pivot`, then translate by
    /// `offset`". An aligned box becomes an oriented one unless the rotation is the identity.
    pub fn moved(&self, pivot: &Point3, rotation: &UnitQuaternion, offset: &Vector3) -> ConvexCore {
        // Exactly the identity (a zero vector part); any other rotation, however small, is applied.
        let identity = rotation.imag() == Vector3::zeros();
        let m = |p: &Point3| -> Point3 {
            if identity {
                p + offset
            } else {
                pivot + rotation * (p - pivot) + offset
            }
        };
        match self {
            ConvexCore::Point(p) => ConvexCore::Point(m(p)),
            ConvexCore::Segment(s) => ConvexCore::Segment(s.map(|p| m(&p))),
            ConvexCore::Triangle(t) => ConvexCore::Triangle(t.map(|p| m(&p))),
            ConvexCore::AlignedBox { min, max } if identity => ConvexCore::AlignedBox {
                min: min + offset,
                max: max + offset,
            },
            ConvexCore::AlignedBox { min, max } => ConvexCore::Box {
                center: m(&Point3::from((min.coords + max.coords) * 0.5)),
                axes: rotation.to_rotation_matrix().into_inner(),
                half_extents: (max - min) * 0.5,
            },
            ConvexCore::Box {
                center,
                axes,
                half_extents,
            } => ConvexCore::Box {
                center: m(center),
                axes: if identity {
                    *axes
                } else {
                    rotation.to_rotation_matrix().into_inner() * axes
                },
                half_extents: *half_extents,
            },
        }
    }

    /// The core with every coordinate multiplied by `k` (exact for a power of two, barring
    /// overflow and underflow).
    pub fn scaled(&self, k: Real) -> ConvexCore {
        let m = |p: &Point3| Point3::from(p.coords * k);
        match self {
            ConvexCore::Point(p) => ConvexCore::Point(m(p)),
            ConvexCore::Segment(s) => ConvexCore::Segment(s.map(|p| m(&p))),
            ConvexCore::Triangle(t) => ConvexCore::Triangle(t.map(|p| m(&p))),
            ConvexCore::AlignedBox { min, max } => ConvexCore::AlignedBox {
                min: m(min),
                max: m(max),
            },
            ConvexCore::Box {
                center,
                axes,
                half_extents,
            } => ConvexCore::Box {
                center: m(center),
                axes: *axes,
                half_extents: half_extents * k,
            },
        }
    }

    /// The largest absolute coordinate or half-extent of the core.
    pub fn magnitude(&self) -> Real {
        let m = |p: &Point3| p.coords.amax();
        match self {
            ConvexCore::Point(p) => m(p),
            ConvexCore::Segment(s) => m(&s[0]).max(m(&s[1])),
            ConvexCore::Triangle(t) => m(&t[0]).max(m(&t[1])).max(m(&t[2])),
            ConvexCore::AlignedBox { min, max } => m(min).max(m(max)),
            ConvexCore::Box {
                center,
                half_extents,
                ..
            } => m(center).max(half_extents.amax()),
        }
    }

    /// An upper bound on the distance from the line through `pivot` along the unit vector
    /// `axis` to any point of the core (rounded up; never more than [`Self::reach_from`]). The
    /// distance to a line is convex, so its maximum over a polytope is at a vertex.
    pub fn reach_from_axis(&self, pivot: &Point3, axis: &Vector3) -> Real {
        let off = |p: &Point3| {
            let r = p - pivot;
            norm_safe(&(r - axis * r.dot(axis)))
        };
        let r = match self {
            ConvexCore::Point(p) => off(p),
            ConvexCore::Segment(s) => off(&s[0]).max(off(&s[1])),
            ConvexCore::Triangle(t) => off(&t[0]).max(off(&t[1])).max(off(&t[2])),
            ConvexCore::AlignedBox { min, max } => (0..8).fold(0.0, |m: Real, i| {
                let c = Point3::from(Vector3::from_fn(|k, _| {
                    if i & (1 << k) != 0 {
                        max[k]
                    } else {
                        min[k]
                    }
                }));
                m.max(off(&c))
            }),
            ConvexCore::Box {
                center,
                axes,
                half_extents,
            } => (0..8).fold(0.0, |m: Real, i| {
                let mut c = *center;
                for k in 0..3 {
                    c += axes.column(k)
                        * signed(half_extents[k], if i & (1 << k) != 0 { 1.0 } else { -1.0 });
                }
                m.max(off(&c))
            }),
        };
        let full = self.reach_from(pivot);
        // Relative rounding of the result, plus the absolute error of forming the corners and
        // the perpendicular parts (a few `u` of the distances to the pivot).
        (r * (1.0 + 32.0 * sepax_shapes::tolerance::UNIT_ROUNDOFF)
            + 16.0 * sepax_shapes::tolerance::UNIT_ROUNDOFF * full)
            .min(full)
    }

    /// An upper bound on the distance from `pivot` to any point of the core (rounded up).
    pub fn reach_from(&self, pivot: &Point3) -> Real {
        let r = match self {
            ConvexCore::Point(p) => norm_safe(&(p - pivot)),
            ConvexCore::Segment(s) => s
                .iter()
                .fold(0.0, |m: Real, p| m.max(norm_safe(&(p - pivot)))),
            ConvexCore::Triangle(t) => t
                .iter()
                .fold(0.0, |m: Real, p| m.max(norm_safe(&(p - pivot)))),
            ConvexCore::AlignedBox { min, max } => {
                let c = Point3::from((min.coords + max.coords) * 0.5);
                norm_safe(&(c - pivot)) + norm_safe(&((max - min) * 0.5))
            }
            ConvexCore::Box {
                center,
                axes,
                half_extents,
            } => {
                // |sum_k s_k h_k a_k| <= sum_k h_k |a_k| for |s_k| <= 1.
                norm_safe(&(center - pivot))
                    + (0..3)
                        .map(|k| half_extents[k] * axes.column(k).norm())
                        .sum::<Real>()
            }
        };
        // A dozen roundings at most, each relative to the result.
        r * (1.0 + 32.0 * sepax_shapes::tolerance::UNIT_ROUNDOFF)
    }
}

impl SupportMap for ConvexCore {
    #[inline]
    fn support(&self, base: &Point3, dir: &Vector3) -> Vector3 {
        match self {
            ConvexCore::Point(p) => p - base,
            ConvexCore::Segment([a, b]) => {
                if (b - a).dot(dir) > 0.0 {
                    b - base
                } else {
                    a - base
                }
            }
            ConvexCore::Triangle(t) => {
                let v = t.map(|p| p - base);
                let d = v.map(|x| x.dot(dir));
                if d[0] >= d[1] && d[0] >= d[2] {
                    v[0]
                } else if d[1] >= d[2] {
                    v[1]
                } else {
                    v[2]
                }
            }
            ConvexCore::AlignedBox { min, max } => Vector3::from_fn(|k, _| {
                if dir[k] >= 0.0 {
                    max[k] - base[k]
                } else {
                    min[k] - base[k]
                }
            }),
            ConvexCore::Box {
                center,
                axes,
                half_extents,
            } => {
                let mut p = center - base;
                for k in 0..3 {
                    let a = axes.column(k);
                    p += a * signed(half_extents[k], a.dot(dir));
                }
                p
            }
        }
    }

    fn reference_point(&self) -> Point3 {
        match self {
            ConvexCore::Point(p) => *p,
            ConvexCore::Segment([a, b]) => Point3::from((a.coords + b.coords) * 0.5),
            ConvexCore::Triangle([a, b, c]) => Point3::from((a.coords + b.coords + c.coords) / 3.0),
            ConvexCore::AlignedBox { min, max } => Point3::from((min.coords + max.coords) * 0.5),
            ConvexCore::Box { center, .. } => *center,
        }
    }
}

impl SupportMap for Aabb {
    #[inline]
    fn support(&self, base: &Point3, dir: &Vector3) -> Vector3 {
        ConvexCore::AlignedBox {
            min: self.min(),
            max: self.max(),
        }
        .support(base, dir)
    }

    fn reference_point(&self) -> Point3 {
        self.center()
    }
}

impl SupportMap for Obb {
    #[inline]
    fn support(&self, base: &Point3, dir: &Vector3) -> Vector3 {
        let mut p = self.center() - base;
        let h = self.half_extents();
        for k in 0..3 {
            let a = self.axes().column(k);
            p += a * signed(h[k], a.dot(dir));
        }
        p
    }

    fn reference_point(&self) -> Point3 {
        self.center()
    }
}

impl SupportMap for Sphere {
    #[inline]
    fn support(&self, base: &Point3, dir: &Vector3) -> Vector3 {
        (self.center() - base) + unit(dir) * self.radius()
    }

    fn reference_point(&self) -> Point3 {
        self.center()
    }
}

impl SupportMap for Capsule {
    #[inline]
    fn support(&self, base: &Point3, dir: &Vector3) -> Vector3 {
        ConvexCore::Segment([self.p0(), self.p1()]).support(base, dir) + unit(dir) * self.radius()
    }

    fn reference_point(&self) -> Point3 {
        self.p0()
    }
}

impl SupportMap for Triangle {
    #[inline]
    fn support(&self, base: &Point3, dir: &Vector3) -> Vector3 {
        ConvexCore::Triangle(self.vertices()).support(base, dir)
    }

    fn reference_point(&self) -> Point3 {
        self.a()
    }
}

impl SupportMap for Point3 {
    #[inline]
    fn support(&self, base: &Point3, _dir: &Vector3) -> Vector3 {
        self - base
    }

    fn reference_point(&self) -> Point3 {
        *self
    }
}
