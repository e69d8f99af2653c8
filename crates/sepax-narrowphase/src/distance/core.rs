//! Closest points between the polytope cores of shapes ([`ConvexCore`]): closed forms where
//! they exist, GJK for the rest.
//!
//! | pair | method |
//! | --- | --- |
//! | point–anything | clamp / project (Ericson §5.1) |
//! | segment–segment | [`segment_segment_closest`] (accurate near-parallel case) |
//! | segment–box | slab clip, else the end points and the 12 box edges (Ericson §5.3.3, §5.1.9) |
//! | segment–triangle | crossing test, else the end points and the 3 edges (Ericson §5.1.10) |
//! | box–box, box–triangle, triangle–triangle | GJK with signed volumes ([`crate::gjk`]) |
//!
//! Box–box goes through GJK rather than a SAT-guided feature search: on boxes GJK stops after a
//! handful of support evaluations (a repeated vertex ends it exactly), its witness points come
//! for free, and the same code serves the time-of-impact loop. Its accuracy is checked against
//! the exact reference in `tests/suite/distance_exact.rs`.
//!
//! Every kernel works relative to a base point of the pair (the first point or box centre), so
//! that shapes far from the origin keep their precision.

use sepax_shapes::math::{Matrix3, Point3, Real, Vector3};

use crate::geometry::segment::{closest_point_on_segment, segment_segment_closest};
use crate::geometry::triangle::{closest_point_on_triangle, segment_crosses_triangle};
use crate::gjk::{gjk_with_hint, ConvexCore};

/// Closest points of two cores: `distance = |point_b - point_a|` (computed directly where that
/// is more accurate); when the cores meet, `distance = 0` and both points are a common point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CorePair {
    pub point_a: Point3,
    pub point_b: Point3,
    pub distance: Real,
    /// How much larger than the exact core distance `distance` may be beyond rounding: 0 for
    /// the closed forms, GJK's final gap between its upper and lower bounds otherwise.
    pub slack: Real,
    /// `point_b - point_a` computed in relative coordinates (a usable direction even when the
    /// world points round to the same numbers far from the origin); zero when touching.
    pub delta: Vector3,
}

impl CorePair {
    fn swapped(self) -> Self {
        CorePair {
            point_a: self.point_b,
            point_b: self.point_a,
            distance: self.distance,
            slack: self.slack,
            delta: -self.delta,
        }
    }

    fn touching(p: Point3) -> Self {
        CorePair {
            point_a: p,
            point_b: p,
            distance: 0.0,
            slack: 0.0,
            delta: Vector3::zeros(),
        }
    }
}

/// The point of the box `[-h, h]` closest to the local point `l` (exact clamp).
#[inline]
fn clamp_local(l: &Vector3, h: &Vector3) -> Vector3 {
    Vector3::from_fn(|k, _| l[k].clamp(-h[k], h[k]))
}

/// A box seen in its own frame: world = `base + center + axes * local`. Aligned boxes are
/// taken relative to a base point near the query (the other shape's point), so that a box far
/// from the origin keeps the precision of its size rather than that of its position.
struct LocalBox {
    base: Point3,
    center: Vector3,
    axes: Matrix3,
    h: Vector3,
    aligned: bool,
}

impl LocalBox {
    fn of(core: &ConvexCore, base: &Point3) -> Option<LocalBox> {
        match core {
            ConvexCore::AlignedBox { min, max } => {
                let (lo, hi) = (min - base, max - base);
                Some(LocalBox {
                    base: *base,
                    center: (lo + hi) * 0.5,
                    axes: Matrix3::identity(),
                    h: (max - min) * 0.5,
                    aligned: true,
                })
            }
            ConvexCore::Box {
                center,
                axes,
                half_extents,
            } => Some(LocalBox {
                base: *center,
                center: Vector3::zeros(),
                axes: *axes,
                h: *half_extents,
                aligned: false,
            }),
            _ => None,
        }
    }

    fn to_local(&self, p: &Point3) -> Vector3 {
        let d = (p - self.base) - self.center;
        if self.aligned {
            d
        } else {
            self.axes.tr_mul(&d)
        }
    }

    fn direction_to_world(&self, d: &Vector3) -> Vector3 {
        if self.aligned {
            *d
        } else {
            self.axes * d
        }
    }

    fn to_world(&self, l: &Vector3) -> Point3 {
        if self.aligned {
            self.base + (self.center + l)
        } else {
            self.base + self.axes * l
        }
    }
}

fn point_box(p: &Point3, b: &LocalBox) -> CorePair {
    let l = b.to_local(p);
    let c = clamp_local(&l, &b.h);
    if c == l {
        return CorePair::touching(*p);
    }
    let q = b.to_world(&c);
    CorePair {
        point_a: *p,
        point_b: q,
        distance: (l - c).norm(),
        slack: 0.0,
        delta: b.direction_to_world(&(c - l)),
    }
}

/// Point–aligned-box, computed on the exact clamp (`p` itself when inside).
fn point_aligned_box(p: &Point3, min: &Point3, max: &Point3) -> CorePair {
    let q = Point3::from(Vector3::from_fn(|k, _| p[k].clamp(min[k], max[k])));
    if q == *p {
        return CorePair::touching(*p);
    }
    CorePair {
        point_a: *p,
        point_b: q,
        distance: (q - p).norm(),
        slack: 0.0,
        delta: q - p,
    }
}

fn point_segment(p: &Point3, s: &[Point3; 2]) -> CorePair {
    // Relative to p.
    let (_, q) =
        closest_point_on_segment(&Point3::origin(), &(s[0] - p).into(), &(s[1] - p).into());
    from_relative(p, &q)
}

/// The pair of `p` and the closest point `p + q` of a core computed relative to `p`.
fn from_relative(p: &Point3, q: &Point3) -> CorePair {
    if *q == Point3::origin() {
        return CorePair::touching(*p);
    }
    CorePair {
        point_a: *p,
        point_b: p + q.coords,
        distance: q.coords.norm(),
        slack: 0.0,
        delta: q.coords,
    }
}

fn point_triangle(p: &Point3, t: &[Point3; 3]) -> CorePair {
    let v = t.map(|x| Point3::from(x - p));
    let q = closest_point_on_triangle(&Point3::origin(), &v[0], &v[1], &v[2]);
    from_relative(p, &q)
}

fn segment_segment(s: &[Point3; 2], t: &[Point3; 2]) -> CorePair {
    let base = s[0];
    let r = |x: &Point3| Point3::from(x - base);
    let c = segment_segment_closest(&r(&s[0]), &r(&s[1]), &r(&t[0]), &r(&t[1]));
    let (pa, pb) = (base + c.point_a.coords, base + c.point_b.coords);
    if c.distance_squared == 0.0 {
        return CorePair::touching(pa);
    }
    CorePair {
        point_a: pa,
        point_b: pb,
        distance: c.distance_squared.sqrt(),
        slack: 0.0,
        delta: c.point_b - c.point_a,
    }
}

fn segment_box(s: &[Point3; 2], b: &LocalBox) -> CorePair {
    let (p, q) = (b.to_local(&s[0]), b.to_local(&s[1]));
    let h = b.h;
    let world_on_segment = |t: Real| {
        if t <= 0.0 {
            s[0]
        } else if t >= 1.0 {
            s[1]
        } else {
            s[0] + (s[1] - s[0]) * t
        }
    };
    if let Some(t) = crate::geometry::segment_box::clip_segment_local_box(&p, &q, &h) {
        // A common point: the entry point, clamped into the box against rounding.
        let x = clamp_local(&(p + (q - p) * t), &h);
        return CorePair::touching(b.to_world(&x));
    }
    // Disjoint: a closest pair has an end point of the segment or a point of a box edge.
    let on_segment = |t: Real| p + (q - p) * t;
    let mut best_t: Real = 0.0;
    let mut best_l = clamp_local(&p, &h);
    let mut best_d = (p - best_l).norm_squared();
    let ql = clamp_local(&q, &h);
    let dq = (q - ql).norm_squared();
    if dq < best_d {
        (best_t, best_l, best_d) = (1.0, ql, dq);
    }
    let (pp, qq) = (Point3::from(p), Point3::from(q));
    for k in 0..3 {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        for (si, sj) in [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)] {
            let mut e0 = Point3::origin();
            e0[i] = si * h[i];
            e0[j] = sj * h[j];
            let mut e1 = e0;
            e0[k] = -h[k];
            e1[k] = h[k];
            let c = segment_segment_closest(&pp, &qq, &e0, &e1);
            if c.distance_squared < best_d {
                (best_t, best_l, best_d) = (c.s, c.point_b.coords, c.distance_squared);
            }
        }
    }
    CorePair {
        point_a: world_on_segment(best_t),
        point_b: b.to_world(&best_l),
        distance: best_d.sqrt(),
        slack: 0.0,
        delta: b.direction_to_world(&(best_l - on_segment(best_t))),
    }
}

fn segment_triangle(s: &[Point3; 2], t: &[Point3; 3]) -> CorePair {
    let base = t[0];
    let r = |x: &Point3| Point3::from(x - base);
    let (p, q) = (r(&s[0]), r(&s[1]));
    let v = t.map(|x| r(&x));
    if segment_crosses_triangle(&p, &q, &v[0], &v[1], &v[2]) {
        let n = (v[1] - v[0]).cross(&(v[2] - v[0]));
        let (dp, dq) = ((p - v[0]).dot(&n), (q - v[0]).dot(&n));
        let tt = if dp == dq { 0.0 } else { dp / (dp - dq) };
        let x = p + (q - p) * tt.clamp(0.0, 1.0);
        return CorePair::touching(base + x.coords);
    }
    let mut best = {
        let c = closest_point_on_triangle(&p, &v[0], &v[1], &v[2]);
        (p, c, (p - c).norm_squared())
    };
    {
        let c = closest_point_on_triangle(&q, &v[0], &v[1], &v[2]);
        let d = (q - c).norm_squared();
        if d < best.2 {
            best = (q, c, d);
        }
    }
    for i in 0..3 {
        let c = segment_segment_closest(&p, &q, &v[i], &v[(i + 1) % 3]);
        if c.distance_squared < best.2 {
            best = (c.point_a, c.point_b, c.distance_squared);
        }
    }
    if best.2 == 0.0 {
        return CorePair::touching(base + best.0.coords);
    }
    CorePair {
        point_a: base + best.0.coords,
        point_b: base + best.1.coords,
        distance: best.2.sqrt(),
        slack: 0.0,
        delta: best.1 - best.0,
    }
}

fn by_gjk(a: &ConvexCore, b: &ConvexCore, hint: Option<&Vector3>) -> CorePair {
    let r = gjk_with_hint(a, b, hint);
    if r.intersecting {
        return CorePair::touching(r.point_a);
    }
    CorePair {
        point_a: r.point_a,
        point_b: r.point_b,
        distance: r.distance,
        slack: r.slack,
        delta: r.separation,
    }
}

/// Closest points of two cores (see the module table), with an optional guess of the
/// direction from `b` to `a` that warm-starts the GJK pairs.
pub(crate) fn core_closest_hint(
    a: &ConvexCore,
    b: &ConvexCore,
    hint: Option<&Vector3>,
) -> CorePair {
    use ConvexCore as C;
    match (a, b) {
        (C::Point(p), C::Point(q)) => {
            if p == q {
                CorePair::touching(*p)
            } else {
                CorePair {
                    point_a: *p,
                    point_b: *q,
                    distance: (q - p).norm(),
                    slack: 0.0,
                    delta: q - p,
                }
            }
        }
        (C::Point(p), C::Segment(s)) => point_segment(p, s),
        (C::Point(p), C::Triangle(t)) => point_triangle(p, t),
        (C::Point(p), C::AlignedBox { min, max }) => point_aligned_box(p, min, max),
        (C::Point(p), C::Box { .. }) => point_box(p, &LocalBox::of(b, p).expect("a box")),
        (C::Segment(s), C::Segment(t)) => segment_segment(s, t),
        (C::Segment(s), C::Triangle(t)) => segment_triangle(s, t),
        (C::Segment(s), C::AlignedBox { .. } | C::Box { .. }) => {
            segment_box(s, &LocalBox::of(b, &s[0]).expect("a box"))
        }
        (
            C::Triangle(_) | C::AlignedBox { .. } | C::Box { .. },
            C::Triangle(_) | C::AlignedBox { .. } | C::Box { .. },
        ) => by_gjk(a, b, hint),
        // The remaining orders are the reverses of the ones above.
        _ => core_closest_hint(b, a, hint.map(|h| -h).as_ref()).swapped(),
    }
}
