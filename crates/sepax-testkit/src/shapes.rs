//! Shapes of every kind against the exact reference: points in `f64`, the exact form of any
//! shape, the exact intersection test of any pair, random shapes around a point, and the bits of
//! a contact manifold (for bit-for-bit comparisons).

use crate::{obb_exact, AnyBox, Gen};
use rand::Rng;
use sepax_exact::ExactBox;
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Obb};
use sepax_shapes::{Capsule, Shape, ShapeKind, Sphere, Triangle};

/// A point's coordinates in `f64`.
pub fn p64(p: &Point3) -> [f64; 3] {
    [p.x as f64, p.y as f64, p.z as f64]
}

/// The exact box of an `Aabb` or `Obb` shape (`None` for the other kinds).
pub fn shape_box(s: &Shape) -> Option<AnyBox> {
    match s {
        Shape::Aabb(b) => Some(AnyBox::A(*b)),
        Shape::Obb(b) => Some(AnyBox::O(*b)),
        _ => None,
    }
}

/// The exact reference shape of any shape (its f32/f64 values converted exactly).
pub fn exact_shape(s: &Shape) -> sepax_exact::ExactShape {
    match s {
        Shape::Aabb(b) => sepax_exact::ExactShape::Box(Box::new(ExactBox::from_aabb(
            p64(&b.min()),
            p64(&b.max()),
        ))),
        Shape::Obb(b) => sepax_exact::ExactShape::Box(Box::new(obb_exact(b))),
        Shape::Sphere(s) => sepax_exact::ExactShape::Sphere {
            center: p64(&s.center()),
            radius: s.radius() as f64,
        },
        Shape::Capsule(c) => sepax_exact::ExactShape::Capsule {
            p0: p64(&c.p0()),
            p1: p64(&c.p1()),
            radius: c.radius() as f64,
        },
        Shape::Triangle(t) => sepax_exact::ExactShape::Triangle(t.vertices().map(|v| p64(&v))),
    }
}

/// The exact answer (big-integer reference) to "do the closed shapes share a point?" for any
/// ordered pair of kinds.
pub fn exact_shapes_intersect(a: &Shape, b: &Shape) -> bool {
    use sepax_exact as ex;
    let tri = |t: &Triangle| t.vertices().map(|v| p64(&v));
    match (a, b) {
        (Shape::Aabb(_) | Shape::Obb(_), Shape::Aabb(_) | Shape::Obb(_)) => {
            let (x, y) = (shape_box(a).unwrap(), shape_box(b).unwrap());
            ex::boxes_intersect(&x.exact(), &y.exact())
        }
        (Shape::Sphere(s), Shape::Sphere(t)) => ex::sphere_sphere(
            p64(&s.center()),
            s.radius() as f64,
            p64(&t.center()),
            t.radius() as f64,
        ),
        (Shape::Sphere(s), Shape::Aabb(_) | Shape::Obb(_)) => ex::sphere_box(
            p64(&s.center()),
            s.radius() as f64,
            &shape_box(b).unwrap().exact(),
        ),
        (Shape::Sphere(s), Shape::Capsule(c)) => ex::sphere_capsule(
            p64(&s.center()),
            s.radius() as f64,
            p64(&c.p0()),
            p64(&c.p1()),
            c.radius() as f64,
        ),
        (Shape::Sphere(s), Shape::Triangle(t)) => {
            ex::sphere_triangle(p64(&s.center()), s.radius() as f64, tri(t))
        }
        (Shape::Capsule(c), Shape::Capsule(d)) => ex::capsule_capsule(
            p64(&c.p0()),
            p64(&c.p1()),
            c.radius() as f64,
            p64(&d.p0()),
            p64(&d.p1()),
            d.radius() as f64,
        ),
        (Shape::Capsule(c), Shape::Aabb(_) | Shape::Obb(_)) => ex::capsule_box(
            p64(&c.p0()),
            p64(&c.p1()),
            c.radius() as f64,
            &shape_box(b).unwrap().exact(),
        ),
        (Shape::Capsule(c), Shape::Triangle(t)) => {
            ex::capsule_triangle(p64(&c.p0()), p64(&c.p1()), c.radius() as f64, tri(t))
        }
        (Shape::Triangle(t), Shape::Triangle(u)) => ex::triangle_triangle(tri(t), tri(u)),
        (Shape::Triangle(t), Shape::Aabb(_) | Shape::Obb(_)) => {
            ex::triangle_box(tri(t), &shape_box(b).unwrap().exact())
        }
        // The remaining orders are the reverses of the ones above.
        _ => exact_shapes_intersect(b, a),
    }
}

impl Gen {
    /// A random point `base + unit * v`, `v` uniform in `[-r, r]^3` (rounded once in `Real`).
    pub fn point_around(&mut self, base: &Point3, unit: Real, r: f64) -> Point3 {
        let v = self.vector(r);
        Point3::new(
            base.x + unit * v.x,
            base.y + unit * v.y,
            base.z + unit * v.z,
        )
    }

    /// A size `unit * t`, `t` uniform in `[0, hi)`, exactly zero with probability `p_zero`.
    pub fn size(&mut self, unit: Real, hi: f64, p_zero: f64) -> Real {
        if self.rng.random_bool(p_zero) {
            0.0
        } else {
            unit * self.uniform(0.0, hi)
        }
    }

    /// A shape of `kind` near `base` with positions and sizes of order `unit`, through the
    /// checked constructors (`Err` when they reject the numbers, e.g. an overflowing reach).
    /// Sizes are zero with probability `p_zero`; capsules may be points (`p0 == p1`) and
    /// triangles degenerate (coincident or collinear vertices).
    pub fn shape(
        &mut self,
        kind: ShapeKind,
        base: &Point3,
        unit: Real,
        p_zero: f64,
    ) -> Result<Shape, sepax_shapes::ShapeError> {
        let c = self.point_around(base, unit, 2.0);
        Ok(match kind {
            ShapeKind::Aabb => {
                let h = Vector3::new(
                    self.size(unit, 1.5, p_zero),
                    self.size(unit, 1.5, p_zero),
                    self.size(unit, 1.5, p_zero),
                );
                Shape::Aabb(Aabb::from_center_half_extents(c, h)?)
            }
            ShapeKind::Obb => {
                let h = Vector3::new(
                    self.size(unit, 1.5, p_zero),
                    self.size(unit, 1.5, p_zero),
                    self.size(unit, 1.5, p_zero),
                );
                let q = self.rotation();
                Shape::Obb(Obb::from_rotation(c, q, h)?)
            }
            ShapeKind::Sphere => Shape::Sphere(Sphere::new(c, self.size(unit, 1.5, p_zero))?),
            ShapeKind::Capsule => {
                let p1 = if self.rng.random_bool(p_zero) {
                    c
                } else {
                    self.point_around(base, unit, 2.0)
                };
                Shape::Capsule(Capsule::new(c, p1, self.size(unit, 1.0, p_zero))?)
            }
            ShapeKind::Triangle => {
                let b = self.point_around(base, unit, 2.0);
                let d = match self.rng.random_range(0..8) {
                    // Degenerate: a point, or collinear vertices (c + 2 (b - c), rounded).
                    0 if self.rng.random_bool(p_zero) => {
                        return Ok(Shape::Triangle(Triangle::new(c, c, c)?))
                    }
                    1 if self.rng.random_bool(p_zero) => c + (b - c) * 2.0,
                    _ => self.point_around(base, unit, 2.0),
                };
                Shape::Triangle(Triangle::new(c, b, d)?)
            }
        })
    }
}

/// Every bit of a contact manifold, in order (the point count included), for bit-for-bit
/// comparisons of two ways of computing it.
pub fn manifold_bits(m: &sepax_narrowphase::contact::ContactManifold) -> Vec<u64> {
    let r = |x: sepax_shapes::math::Real| x.to_bits() as u64;
    let mut v = vec![r(m.normal.x), r(m.normal.y), r(m.normal.z), r(m.depth)];
    v.push(m.points.len() as u64);
    for p in &m.points {
        for k in 0..3 {
            v.push(r(p.point_a[k]));
            v.push(r(p.point_b[k]));
        }
        v.push(r(p.depth));
        v.push(u64::from(p.id.0));
    }
    v
}
