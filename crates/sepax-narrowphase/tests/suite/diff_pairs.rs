//! Differential suite: the sphere, capsule and triangle pair tests against the exact
//! (big-integer) reference of `sepax-exact`.
//!
//! For every case: a miss reported while the exact answer is a hit fails the suite, always; a
//! hit reported while the exact answer is a miss is allowed only inside the pair's documented
//! band (the exact distance between the shapes, minus the radii, is at most the band). Every
//! value is produced in `Real`, so the exact reference sees exactly the numbers our code sees.
//!
//! Categories per pair: random; near contact at controlled margins (radius tuned to the exact
//! core distance, or a shape built against a support point of the other); exact touching on a
//! dyadic grid; degenerate shapes (radius 0, `p0 == p1`, collinear and point triangles,
//! zero-extent boxes); and all of those moved 1e2–1e4 away from the origin.

#![allow(clippy::unnecessary_cast)] // `as f64` is needed when `Real` is f32.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_exact::{self as ex, ExactBox, SqDistance};
use sepax_narrowphase::intersect as ix;
use sepax_shapes::math::{Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance as tol;
use sepax_shapes::{Aabb, Capsule, Obb, Sphere, Triangle};
use std::cmp::Ordering;

// ---------------------------------------------------------------- generators

struct Gen(ChaCha8Rng);

impl Gen {
    fn f(&mut self, lo: f64, hi: f64) -> f64 {
        self.0.random_range(lo..=hi)
    }
    fn log(&mut self, lo: f64, hi: f64) -> f64 {
        (self.f(lo.ln(), hi.ln())).exp()
    }
    fn coin(&mut self, p: f64) -> bool {
        self.0.random_bool(p)
    }
    fn pick(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }
    fn v(&mut self, r: f64) -> [f64; 3] {
        [self.f(-r, r), self.f(-r, r), self.f(-r, r)]
    }
    fn unit(&mut self) -> [f64; 3] {
        loop {
            let v = self.v(1.0);
            let n = dot(&v, &v).sqrt();
            if n > 0.1 && n <= 1.0 {
                return scale(&v, 1.0 / n);
            }
        }
    }
    /// A grid value `k / 8`, `|k| <= n`.
    fn grid(&mut self, n: i32) -> f64 {
        self.0.random_range(-n..=n) as f64 / 8.0
    }
    fn grid_v(&mut self, n: i32) -> [f64; 3] {
        [self.grid(n), self.grid(n), self.grid(n)]
    }
    fn rotation(&mut self) -> UnitQuaternion {
        let q = self.unit();
        let w = self.f(-1.0, 1.0);
        UnitQuaternion::new_normalize(Quaternion::new(
            w as Real,
            q[0] as Real,
            q[1] as Real,
            q[2] as Real,
        ))
    }
    /// Signed margin: exactly 0, or +-10^[-17, -1] times `size` (down to the f64 band).
    fn margin(&mut self, size: f64) -> f64 {
        match self.pick(5) {
            0 => 0.0,
            1 | 2 => size * self.log(1e-17, 1e-1),
            _ => -size * self.log(1e-17, 1e-1),
        }
    }
    /// An offset far from the origin (1e2..1e4), or none.
    fn offset(&mut self, far: bool, grid: bool) -> [f64; 3] {
        if !far {
            return [0.0; 3];
        }
        let m = self.log(1e2, 1e4);
        let d = self.unit();
        let o = scale(&d, m);
        if grid {
            o.map(|x| x.round())
        } else {
            o
        }
    }
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn add(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn sub(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale(a: &[f64; 3], s: f64) -> [f64; 3] {
    a.map(|x| x * s)
}
fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn norm1(a: &[f64; 3]) -> f64 {
    a[0].abs() + a[1].abs() + a[2].abs()
}
fn unitize(a: &[f64; 3]) -> [f64; 3] {
    scale(a, 1.0 / dot(a, a).sqrt())
}
/// A unit vector perpendicular to `n`.
fn perp(g: &mut Gen, n: &[f64; 3]) -> [f64; 3] {
    loop {
        let c = cross(n, &g.unit());
        if dot(&c, &c) > 0.01 {
            return unitize(&c);
        }
    }
}

fn pt(a: [f64; 3]) -> Point3 {
    Point3::new(a[0] as Real, a[1] as Real, a[2] as Real)
}
fn f3(p: &Point3) -> [f64; 3] {
    [p.x as f64, p.y as f64, p.z as f64]
}
fn vf3(p: &Vector3) -> [f64; 3] {
    [p.x as f64, p.y as f64, p.z as f64]
}

// ---------------------------------------------------------------- cores (shape minus radius)

/// The core of a shape: what is left when its radius is taken away.
#[derive(Debug, Clone, Copy)]
enum Core {
    Point(Point3),
    Seg(Point3, Point3),
    Tri(Triangle),
    Aabb(Aabb),
    Obb(Obb),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum CoreKind {
    Point,
    Seg,
    Tri,
    Aabb,
    Obb,
}

fn exact_box(c: &Core) -> ExactBox {
    match c {
        Core::Aabb(b) => ExactBox::from_aabb(f3(&b.min()), f3(&b.max())),
        Core::Obb(b) => ExactBox::new(
            f3(&b.center()),
            [0, 1, 2].map(|k| vf3(&b.axis(k))),
            vf3(&b.half_extents()),
        ),
        _ => unreachable!(),
    }
}

/// Exact squared distance between two cores (the first a point or a segment).
fn exact_core_distance(a: &Core, b: &Core) -> SqDistance {
    match (a, b) {
        (Core::Point(p), Core::Point(q)) => ex::point_point_sq_exact(f3(p), f3(q)),
        (Core::Point(p), Core::Seg(s, t)) => ex::point_segment_sq_exact(f3(p), f3(s), f3(t)),
        (Core::Point(p), Core::Tri(t)) => {
            ex::point_triangle_sq_exact(f3(p), t.vertices().map(|v| f3(&v)))
        }
        (Core::Point(p), Core::Aabb(_) | Core::Obb(_)) => {
            ex::point_box_sq_exact(f3(p), &exact_box(b))
        }
        (Core::Seg(p, q), Core::Seg(s, t)) => {
            ex::segment_segment_sq_exact(f3(p), f3(q), f3(s), f3(t))
        }
        (Core::Seg(p, q), Core::Tri(t)) => {
            ex::segment_triangle_sq_exact(f3(p), f3(q), t.vertices().map(|v| f3(&v)))
        }
        (Core::Seg(p, q), Core::Aabb(_) | Core::Obb(_)) => {
            ex::segment_box_sq_exact(f3(p), f3(q), &exact_box(b))
        }
        _ => unreachable!("{a:?} {b:?}"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Cat {
    Random,
    NearContact,
    Grid,
    Degenerate,
    /// A segment nearly parallel to the other core's segment, edge or box edge, radii tuned to
    /// the exact distance (near contact).
    NearParallel,
}
const CATS: [Cat; 5] = [
    Cat::Random,
    Cat::NearContact,
    Cat::Grid,
    Cat::Degenerate,
    Cat::NearParallel,
];

/// A box core as (centre, axes, half-extents) in f64 (an AABB with identity axes).
fn box_frame(b: &Core) -> ([f64; 3], [[f64; 3]; 3], [f64; 3]) {
    match b {
        Core::Aabb(bx) => (
            f3(&Point3::from((bx.min().coords + bx.max().coords) * 0.5)),
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            vf3(&bx.half_extents()),
        ),
        Core::Obb(bx) => (
            f3(&bx.center()),
            [0, 1, 2].map(|k| vf3(&bx.axis(k))),
            vf3(&bx.half_extents()),
        ),
        _ => unreachable!("box_frame is only called on box cores"),
    }
}

/// For `Cat::NearParallel`: a segment nearly parallel to a segment of `b` (its own segment, a
/// triangle edge, a box edge), shifted along it and sideways by small random amounts.
fn near_parallel_segment(g: &mut Gen, b: &Core, size: f64) -> Core {
    let (p, q) = match b {
        Core::Point(p) => (f3(p), add(&f3(p), &g.v(size))),
        Core::Seg(p, q) => (f3(p), f3(q)),
        Core::Tri(t) => {
            let v = t.vertices();
            let i = g.pick(3);
            (f3(&v[i]), f3(&v[(i + 1) % 3]))
        }
        Core::Aabb(_) | Core::Obb(_) => {
            let (c, axes, h) = box_frame(b);
            let k = g.pick(3);
            let mut corner = c;
            for (j, a) in axes.iter().enumerate() {
                if j != k {
                    let s = if g.coin(0.5) { 1.0 } else { -1.0 };
                    corner = add(&corner, &scale(a, s * h[j]));
                }
            }
            (
                sub(&corner, &scale(&axes[k], h[k])),
                add(&corner, &scale(&axes[k], h[k])),
            )
        }
    };
    let d = sub(&q, &p);
    let t = g.f(-1.0, 1.0);
    let e1 = scale(&g.unit(), g.log(1e-9, 1e-1) * size);
    let e2 = scale(&g.unit(), g.log(1e-9, 1e-1) * size);
    let along = scale(&d, t);
    let len = g.f(0.2, 1.5);
    let p2 = add(&add(&p, &along), &e1);
    let q2 = add(&add(&p2, &scale(&d, len)), &e2);
    Core::Seg(pt(p2), pt(q2))
}

/// A core of the given kind around `at` with size about `size` (in f64, rounded on output).
fn gen_core(g: &mut Gen, kind: CoreKind, cat: Cat, at: [f64; 3], size: f64) -> Core {
    let grid = cat == Cat::Grid || cat == Cat::Degenerate;
    let pnt = |g: &mut Gen| -> [f64; 3] {
        if grid {
            add(&at, &g.grid_v(16))
        } else {
            add(&at, &g.v(size))
        }
    };
    match kind {
        CoreKind::Point => Core::Point(pt(pnt(g))),
        CoreKind::Seg => {
            let p = pnt(g);
            let q = if cat == Cat::Degenerate && g.coin(0.5) {
                p
            } else {
                pnt(g)
            };
            Core::Seg(pt(p), pt(q))
        }
        CoreKind::Tri => {
            let a = pnt(g);
            let b = pnt(g);
            let c = if cat == Cat::Degenerate {
                match g.pick(3) {
                    // Collinear: c = a + k/2 (b - a), exact on the grid.
                    0 => add(
                        &a,
                        &scale(&sub(&b, &a), g.0.random_range(-2..=4) as f64 / 2.0),
                    ),
                    1 => a,
                    _ => b,
                }
            } else {
                pnt(g)
            };
            let (a, b) = if cat == Cat::Degenerate && g.coin(0.2) {
                (c, c)
            } else {
                (a, b)
            };
            Core::Tri(Triangle::new(pt(a), pt(b), pt(c)).unwrap())
        }
        CoreKind::Aabb => {
            let c = pnt(g);
            let mut h = if grid {
                g.grid_v(8).map(f64::abs)
            } else {
                [0, 1, 2].map(|_| g.log(0.01, 1.0) * size)
            };
            if cat == Cat::Degenerate {
                h[g.pick(3)] = 0.0;
                if g.coin(0.3) {
                    h = [0.0; 3];
                }
            }
            let (lo, hi) = (pt(sub(&c, &h)), pt(add(&c, &h)));
            Core::Aabb(Aabb::new(lo, hi).unwrap())
        }
        CoreKind::Obb => {
            let c = pnt(g);
            let mut h = if grid {
                g.grid_v(8).map(f64::abs)
            } else {
                [0, 1, 2].map(|_| g.log(0.01, 1.0) * size)
            };
            if cat == Cat::Degenerate {
                h[g.pick(3)] = 0.0;
                if g.coin(0.3) {
                    h = [0.0; 3];
                }
            }
            let rot = if cat == Cat::Grid && g.coin(0.5) {
                UnitQuaternion::identity()
            } else {
                g.rotation()
            };
            let hv = Vector3::new(h[0] as Real, h[1] as Real, h[2] as Real);
            Core::Obb(Obb::from_rotation(pt(c), rot, hv).unwrap())
        }
    }
}

fn translate_core(c: &Core, o: &[f64; 3]) -> Core {
    let ov = Vector3::new(o[0] as Real, o[1] as Real, o[2] as Real);
    match c {
        Core::Point(p) => Core::Point(p + ov),
        Core::Seg(p, q) => Core::Seg(p + ov, q + ov),
        Core::Tri(t) => {
            let [a, b, c] = t.vertices();
            Core::Tri(Triangle::new(a + ov, b + ov, c + ov).unwrap())
        }
        Core::Aabb(b) => Core::Aabb(Aabb::new(b.min() + ov, b.max() + ov).unwrap()),
        Core::Obb(b) => Core::Obb(Obb::new(b.center() + ov, *b.axes(), b.half_extents()).unwrap()),
    }
}

// ---------------------------------------------------------------- tallies

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    exact_hits: usize,
    our_hits: usize,
    in_band: usize,
    /// Largest (exact gap) / band among the in-band false hits.
    worst_ratio: f64,
}

impl Tally {
    fn report(&self, name: &str) {
        eprintln!(
            "{name:>18}: {:6} cases, {:6} exact hits, {:6} reported hits, {:4} hits inside the band \
             (worst gap/band {:.3}), 0 outside the band, 0 misses",
            self.cases, self.exact_hits, self.our_hits, self.in_band, self.worst_ratio
        );
    }
}

// ---------------------------------------------------------------- radius pairs

/// One radius-pair case: A = (core a, radius ra), B = (core b, radius rb, `None` for shapes
/// without radius). Returns (ours, exact, exact squared core distance, total radius).
#[allow(clippy::too_many_arguments)]
fn radius_case(
    name: &str,
    tally: &mut Tally,
    a: &Core,
    ra: Real,
    b: &Core,
    rb: Real,
    ours: bool,
    exact: bool,
    band: f64,
) {
    tally.cases += 1;
    tally.exact_hits += exact as usize;
    tally.our_hits += ours as usize;
    if exact && !ours {
        panic!("{name}: missed an exact hit: {a:?} r {ra} vs {b:?} r {rb}");
    }
    if ours && !exact {
        let d = exact_core_distance(a, b);
        let reach = (ra as f64 + rb as f64) + band;
        let reach = reach * (1.0 + 4.0 * f64::EPSILON);
        let ok = d.cmp_radius(reach) != Ordering::Greater;
        let gap = d.to_f64().sqrt() - (ra as f64 + rb as f64);
        assert!(ok, "{name}: false hit outside the band {band:e} (gap {gap:e}): {a:?} r {ra} vs {b:?} r {rb}");
        tally.in_band += 1;
        if band > 0.0 {
            tally.worst_ratio = tally.worst_ratio.max(gap / band);
        }
    }
}

/// Picks the radii for a case: near contact tunes them to the exact core distance.
fn radii(g: &mut Gen, cat: Cat, a: &Core, b: &Core, size: f64, b_has_radius: bool) -> (Real, Real) {
    let split = |g: &mut Gen, r: f64| -> (Real, Real) {
        if b_has_radius {
            let ra = (r * g.f(0.0, 1.0)) as Real;
            let rb = (r - ra as f64).max(0.0) as Real;
            (ra, rb)
        } else {
            (r as Real, 0.0)
        }
    };
    match cat {
        Cat::Random => {
            let r = g.log(0.01, 1.0) * size;
            split(g, r)
        }
        Cat::Degenerate => {
            if g.coin(0.5) {
                (0.0, 0.0)
            } else {
                let r = g.grid(16).abs();
                split(g, r)
            }
        }
        Cat::NearContact | Cat::NearParallel => {
            let d = exact_core_distance(a, b).to_f64().sqrt();
            let m = g.margin(size.max(d));
            split(g, (d + m).max(0.0))
        }
        Cat::Grid => {
            // Exactly touching when the exact distance is representable.
            let d = exact_core_distance(a, b);
            let r = d.to_f64().sqrt();
            let rr = r as Real;
            if d.cmp_radius(rr as f64) == Ordering::Equal && g.coin(0.8) {
                if b_has_radius {
                    // Halving is exact.
                    (rr / 2.0, rr - rr / 2.0)
                } else {
                    (rr, 0.0)
                }
            } else {
                let r = g.grid(16).abs();
                split(g, r)
            }
        }
    }
}

fn run_radius_pair(name: &str, ka: CoreKind, kb: CoreKind, per_cat: usize, seed: u64) -> Tally {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(seed));
    let mut tally = Tally::default();
    let b_has_radius = matches!(kb, CoreKind::Point | CoreKind::Seg);
    for cat in CATS {
        for i in 0..per_cat {
            let far = i % 3 == 2;
            let size = g.log(0.1, 10.0);
            let (a0, b0) = if cat == Cat::NearParallel && ka == CoreKind::Seg {
                let b0 = gen_core(&mut g, kb, Cat::Random, [0.0; 3], size);
                (near_parallel_segment(&mut g, &b0, size), b0)
            } else {
                let a0 = gen_core(&mut g, ka, cat, [0.0; 3], size);
                let sep = if cat == Cat::Grid || cat == Cat::Degenerate {
                    [0.0; 3]
                } else {
                    g.v(2.0 * size)
                };
                (a0, gen_core(&mut g, kb, cat, sep, size))
            };
            let o = g.offset(far, cat == Cat::Grid || cat == Cat::Degenerate);
            let (a, b) = (translate_core(&a0, &o), translate_core(&b0, &o));
            let (ra, rb) = radii(&mut g, cat, &a, &b, size, b_has_radius);
            check_radius_pair(name, &mut tally, &a, ra, &b, rb);
        }
    }
    tally.report(name);
    tally
}

/// Builds the shapes, runs ours and the exact predicate, computes the documented band.
fn check_radius_pair(name: &str, tally: &mut Tally, a: &Core, ra: Real, b: &Core, rb: Real) {
    let sphere = |c: &Point3, r: Real| Sphere::new(*c, r).unwrap();
    let capsule = |p: &Point3, q: &Point3, r: Real| Capsule::new(*p, *q, r).unwrap();
    let r64 = |r: Real| r as f64;
    let rel = |p: &Point3, base: &Point3| norm1(&sub(&f3(p), &f3(base)));
    let (ours, exact, band) = match (a, b) {
        (Core::Point(c), Core::Point(d)) => {
            let s = rel(d, c) + r64(ra) + r64(rb);
            (
                ix::intersects(&sphere(c, ra), &sphere(d, rb)),
                ex::sphere_sphere(f3(c), r64(ra), f3(d), r64(rb)),
                2.0 * tol::SPHERE_SPHERE_ALLOWANCE as f64 * s,
            )
        }
        (Core::Point(c), Core::Aabb(bx)) => {
            let s = rel(&bx.min(), c) + rel(&bx.max(), c) + r64(ra);
            (
                ix::intersects(&sphere(c, ra), bx),
                ex::sphere_box(f3(c), r64(ra), &exact_box(b)),
                2.0 * tol::SPHERE_AABB_ALLOWANCE as f64 * s,
            )
        }
        (Core::Point(c), Core::Obb(bx)) => {
            let s = rel(c, &bx.center()) + norm1(&vf3(&bx.half_extents())) + r64(ra);
            let k = tol::SPHERE_OBB_ALLOWANCE as f64
                + tol::SPHERE_OBB_AXES_FACTOR as f64 * bx.axes_error() as f64;
            (
                ix::intersects(&sphere(c, ra), bx),
                ex::sphere_box(f3(c), r64(ra), &exact_box(b)),
                2.0 * k * s,
            )
        }
        (Core::Point(c), Core::Seg(p, q)) => {
            let s = rel(p, c) + rel(q, c) + r64(ra) + r64(rb);
            (
                ix::intersects(&sphere(c, ra), &capsule(p, q, rb)),
                ex::sphere_capsule(f3(c), r64(ra), f3(p), f3(q), r64(rb)),
                2.0 * tol::SPHERE_CAPSULE_ALLOWANCE as f64 * s,
            )
        }
        (Core::Point(c), Core::Tri(t)) => {
            let s = t.vertices().iter().map(|v| rel(v, c)).sum::<f64>() + r64(ra);
            (
                ix::intersects(&sphere(c, ra), t),
                ex::sphere_triangle(f3(c), r64(ra), t.vertices().map(|v| f3(&v))),
                2.0 * tol::SPHERE_TRIANGLE_ALLOWANCE as f64 * s,
            )
        }
        (Core::Seg(p, q), Core::Seg(u, v)) => {
            let s = rel(q, p) + rel(u, p) + rel(v, p) + r64(ra) + r64(rb);
            (
                ix::intersects(&capsule(p, q, ra), &capsule(u, v, rb)),
                ex::capsule_capsule(f3(p), f3(q), r64(ra), f3(u), f3(v), r64(rb)),
                2.0 * tol::CAPSULE_CAPSULE_ALLOWANCE as f64 * s,
            )
        }
        (Core::Seg(p, q), Core::Aabb(bx)) => {
            let c = Point3::from((bx.min().coords + bx.max().coords) * 0.5);
            let s = rel(p, &c) + rel(q, &c) + norm1(&vf3(&bx.half_extents())) + r64(ra);
            (
                ix::intersects(&capsule(p, q, ra), bx),
                ex::capsule_box(f3(p), f3(q), r64(ra), &exact_box(b)),
                2.0 * tol::CAPSULE_AABB_ALLOWANCE as f64 * s,
            )
        }
        (Core::Seg(p, q), Core::Obb(bx)) => {
            let c = bx.center();
            let s = rel(p, &c) + rel(q, &c) + norm1(&vf3(&bx.half_extents())) + r64(ra);
            let k = tol::CAPSULE_OBB_ALLOWANCE as f64
                + tol::CAPSULE_OBB_AXES_FACTOR as f64 * bx.axes_error() as f64;
            (
                ix::intersects(&capsule(p, q, ra), bx),
                ex::capsule_box(f3(p), f3(q), r64(ra), &exact_box(b)),
                2.0 * k * s,
            )
        }
        (Core::Seg(p, q), Core::Tri(t)) => {
            let s = rel(q, p) + t.vertices().iter().map(|v| rel(v, p)).sum::<f64>() + r64(ra);
            (
                ix::intersects(&capsule(p, q, ra), t),
                ex::capsule_triangle(f3(p), f3(q), r64(ra), t.vertices().map(|v| f3(&v))),
                2.0 * tol::CAPSULE_TRIANGLE_ALLOWANCE as f64 * s,
            )
        }
        _ => unreachable!(),
    };
    // The f64 rendering of S differs from the Real one by rounding only: pad by 1e-3.
    radius_case(name, tally, a, ra, b, rb, ours, exact, band * 1.001);
}

const PER_CAT: usize = 2_000;

#[test]
fn sphere_sphere() {
    run_radius_pair(
        "sphere_sphere",
        CoreKind::Point,
        CoreKind::Point,
        PER_CAT,
        1,
    );
}
#[test]
fn sphere_aabb() {
    run_radius_pair("sphere_aabb", CoreKind::Point, CoreKind::Aabb, PER_CAT, 2);
}
#[test]
fn sphere_obb() {
    run_radius_pair("sphere_obb", CoreKind::Point, CoreKind::Obb, PER_CAT, 3);
}
#[test]
fn sphere_capsule() {
    run_radius_pair("sphere_capsule", CoreKind::Point, CoreKind::Seg, PER_CAT, 4);
}
#[test]
fn sphere_triangle() {
    run_radius_pair(
        "sphere_triangle",
        CoreKind::Point,
        CoreKind::Tri,
        PER_CAT,
        5,
    );
}
#[test]
fn capsule_capsule() {
    run_radius_pair("capsule_capsule", CoreKind::Seg, CoreKind::Seg, PER_CAT, 6);
}
#[test]
fn capsule_aabb() {
    run_radius_pair("capsule_aabb", CoreKind::Seg, CoreKind::Aabb, PER_CAT, 7);
}
#[test]
fn capsule_obb() {
    run_radius_pair("capsule_obb", CoreKind::Seg, CoreKind::Obb, PER_CAT, 8);
}
#[test]
fn capsule_triangle() {
    run_radius_pair("capsule_triangle", CoreKind::Seg, CoreKind::Tri, PER_CAT, 9);
}

// ---------------------------------------------------------------- triangle pairs (SAT)

/// A support point `X` of `b` and a unit direction `n` in `b`'s normal cone at `X` (so `b`
/// lies in `n . (x - X) <= 0`), at a random face, edge or vertex.
fn support(g: &mut Gen, b: &Core) -> ([f64; 3], [f64; 3]) {
    match b {
        Core::Aabb(_) | Core::Obb(_) => {
            let (c, axes, h) = box_frame(b);
            let active = 1 + g.pick(3);
            let first = g.pick(3);
            let (mut x, mut n) = (c, [0.0; 3]);
            for j in 0..3 {
                let k = (first + j) % 3;
                let sgn = if g.coin(0.5) { 1.0 } else { -1.0 };
                if j < active {
                    n = add(&n, &scale(&axes[k], sgn * g.f(0.1, 1.0)));
                    x = add(&x, &scale(&axes[k], sgn * h[k]));
                } else {
                    x = add(&x, &scale(&axes[k], g.f(-1.0, 1.0) * h[k]));
                }
            }
            (x, unitize(&n))
        }
        Core::Tri(t) => {
            let v = t.vertices().map(|p| f3(&p));
            let nt = cross(&sub(&v[1], &v[0]), &sub(&v[2], &v[0]));
            match g.pick(3) {
                0 if dot(&nt, &nt) > 0.0 => {
                    let (a, b) = (g.f(0.0, 1.0), g.f(0.0, 1.0));
                    let (a, b) = if a + b > 1.0 {
                        (1.0 - a, 1.0 - b)
                    } else {
                        (a, b)
                    };
                    let x = add(
                        &v[0],
                        &add(&scale(&sub(&v[1], &v[0]), a), &scale(&sub(&v[2], &v[0]), b)),
                    );
                    let s = if g.coin(0.5) { 1.0 } else { -1.0 };
                    (x, scale(&unitize(&nt), s))
                }
                1 => {
                    let i = g.pick(3);
                    let e = sub(&v[(i + 1) % 3], &v[i]);
                    if dot(&e, &e) == 0.0 {
                        return (v[i], g.unit());
                    }
                    let x = add(&v[i], &scale(&e, g.f(0.0, 1.0)));
                    let mut n = perp(g, &unitize(&e));
                    if dot(&n, &sub(&v[(i + 2) % 3], &x)) > 0.0 {
                        n = scale(&n, -1.0);
                    }
                    (x, n)
                }
                _ => {
                    let n = g.unit();
                    let i = (0..3)
                        .max_by(|&i, &j| dot(&n, &v[i]).total_cmp(&dot(&n, &v[j])))
                        .unwrap();
                    (v[i], n)
                }
            }
        }
        _ => unreachable!(),
    }
}

/// A triangle in the half-space `n . (x - y) >= 0` touching its plane at `y` with a vertex, an
/// edge or its face. `tilt` bounds the out-of-plane components relative to the size (tiny for
/// nearly coplanar contacts).
fn triangle_against(g: &mut Gen, y: [f64; 3], n: [f64; 3], size: f64, tilt: f64) -> [[f64; 3]; 3] {
    let t1 = perp(g, &n);
    let t2 = cross(&n, &t1);
    let off = |g: &mut Gen| {
        let (a, b) = (g.f(-1.0, 1.0) * size, g.f(-1.0, 1.0) * size);
        let up = g.f(0.0, 1.0) * size * tilt;
        add(&add(&scale(&t1, a), &scale(&t2, b)), &scale(&n, up))
    };
    match g.pick(3) {
        0 => [y, add(&y, &off(g)), add(&y, &off(g))],
        1 => {
            let (a, b) = (g.f(0.05, 1.0) * size, g.f(0.05, 1.0) * size);
            [
                sub(&y, &scale(&t1, a)),
                add(&y, &scale(&t1, b)),
                add(&y, &off(g)),
            ]
        }
        _ => {
            let th0 = g.f(0.0, std::f64::consts::TAU);
            let th1 = th0 + g.f(1.6, 2.6);
            let th2 = th1 + g.f(1.6, 2.6);
            [th0, th1, th2].map(|th| {
                let r = g.f(0.1, 1.0) * size;
                add(
                    &y,
                    &add(&scale(&t1, r * th.cos()), &scale(&t2, r * th.sin())),
                )
            })
        }
    }
}

fn tri_f64(t: &Triangle) -> [[f64; 3]; 3] {
    t.vertices().map(|v| f3(&v))
}

/// A segment as two f64 end points.
type Edge = ([f64; 3], [f64; 3]);

/// A reference point of the box (centre, or `min` for AABBs) and its 12 edges *relative to it* (f64: within a few ulps of
/// the half-extents; building them around a far centre would cost `u |c|`, more than the f64
/// band). Only used to measure how far a false hit is, never to decide.
fn box_edges_local(b: &Core) -> ([f64; 3], Vec<Edge>) {
    // AABBs: reference point `min` (exact) and corners `0 .. max - min`; the f64 centre
    // `(min + max) / 2` would itself be off by `u |c|`.
    let (c, axes, h, shift) = match b {
        Core::Aabb(bx) => {
            let h = [0, 1, 2].map(|k| 0.5 * (bx.max()[k] as f64 - bx.min()[k] as f64));
            (
                f3(&bx.min()),
                [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                h,
                h,
            )
        }
        Core::Obb(bx) => (
            f3(&bx.center()),
            [0, 1, 2].map(|k| vf3(&bx.axis(k))),
            vf3(&bx.half_extents()),
            [0.0; 3],
        ),
        _ => unreachable!(),
    };
    let corner = |i: usize| {
        let mut p = shift;
        for k in 0..3 {
            let s = if i & (1 << k) != 0 { 1.0 } else { -1.0 };
            p = add(&p, &scale(&axes[k], s * h[k]));
        }
        p
    };
    let mut out = Vec::new();
    for i in 0..8 {
        for k in 0..3 {
            if i & (1 << k) == 0 {
                out.push((corner(i), corner(i | (1 << k))));
            }
        }
    }
    (c, out)
}

/// Distance between a triangle and a box or a triangle (both convex; when disjoint a closest
/// pair has a point on an edge of one of them). Triangle edges against the box are exact; box
/// edges against the triangle are measured in the box-centred frame (the triangle moved by
/// `-c` in f64, an error of `u |v - c|`, far below the bands).
fn tri_gap(t: &Triangle, b: &Core) -> f64 {
    let tv = tri_f64(t);
    let mut best = f64::INFINITY;
    match b {
        Core::Aabb(_) | Core::Obb(_) => {
            let eb = exact_box(b);
            for i in 0..3 {
                best = best.min(ex::segment_box_sq_exact(tv[i], tv[(i + 1) % 3], &eb).to_f64());
            }
            let (c, edges) = box_edges_local(b);
            let tl = tv.map(|v| sub(&v, &c));
            for (p, q) in edges {
                best = best.min(ex::segment_triangle_sq_exact(p, q, tl).to_f64());
            }
        }
        Core::Tri(u) => {
            let uv = tri_f64(u);
            for i in 0..3 {
                best = best.min(ex::segment_triangle_sq_exact(tv[i], tv[(i + 1) % 3], uv).to_f64());
                best = best.min(ex::segment_triangle_sq_exact(uv[i], uv[(i + 1) % 3], tv).to_f64());
            }
        }
        _ => unreachable!(),
    }
    best.sqrt()
}

/// The documented per-axis allowance `ALLOWANCE * S` of a triangle pair (an absolute length).
fn tri_allowance(t: &Triangle, b: &Core) -> f64 {
    let tv = tri_f64(t);
    match b {
        Core::Aabb(bx) => {
            let c = [0, 1, 2].map(|k| 0.5 * (bx.min()[k] as f64 + bx.max()[k] as f64));
            let s = tv.iter().map(|v| norm1(&sub(v, &c))).sum::<f64>()
                + norm1(&vf3(&bx.half_extents()));
            tol::TRIANGLE_AABB_ALLOWANCE as f64 * s
        }
        Core::Obb(bx) => {
            let c = f3(&bx.center());
            let s = tv.iter().map(|v| norm1(&sub(v, &c))).sum::<f64>()
                + norm1(&vf3(&bx.half_extents()));
            (tol::TRIANGLE_OBB_ALLOWANCE as f64
                + tol::TRIANGLE_OBB_AXES_FACTOR as f64 * bx.axes_error() as f64)
                * s
        }
        Core::Tri(u) => {
            let base = tv[0];
            let s = tv
                .iter()
                .chain(tri_f64(u).iter())
                .map(|v| norm1(&sub(v, &base)))
                .sum::<f64>();
            tol::TRIANGLE_TRIANGLE_ALLOWANCE as f64 * s
        }
        _ => unreachable!(),
    }
}

/// The documented Euclidean band of the triangle pairs, in units of the allowance
/// `ALLOWANCE * S`: `2 ALLOWANCE S`, as for the radius pairs (module docs of `triangle_aabb`,
/// `triangle_obb`, `triangle_triangle`).
const TRI_BAND_FACTOR: f64 = 2.0;

fn run_triangle_pair(name: &str, kb: CoreKind, per_cat: usize, seed: u64) -> Tally {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(seed));
    let mut tally = Tally::default();
    for cat in CATS {
        for i in 0..per_cat {
            let far = i % 3 == 2;
            let size = g.log(0.1, 10.0);
            let grid = cat == Cat::Grid || cat == Cat::Degenerate;
            let b0 = gen_core(
                &mut g,
                kb,
                if cat == Cat::NearParallel {
                    Cat::Random
                } else {
                    cat
                },
                [0.0; 3],
                size,
            );
            let a0 = match cat {
                Cat::NearContact | Cat::NearParallel => {
                    let (x, n) = support(&mut g, &b0);
                    let m = g.margin(size);
                    let y = add(&x, &scale(&n, m));
                    let tilt = if cat == Cat::NearParallel {
                        g.log(1e-9, 1e-2)
                    } else {
                        1.0
                    };
                    let v = triangle_against(&mut g, y, n, size, tilt);
                    Core::Tri(Triangle::new(pt(v[0]), pt(v[1]), pt(v[2])).unwrap())
                }
                _ => {
                    let sep = if grid { g.grid_v(8) } else { g.v(2.0 * size) };
                    gen_core(&mut g, CoreKind::Tri, cat, sep, size)
                }
            };
            let o = g.offset(far, grid);
            let (a, b) = (translate_core(&a0, &o), translate_core(&b0, &o));
            let Core::Tri(t) = a else { unreachable!() };
            let (ours, exact) = match &b {
                Core::Aabb(bx) => (
                    ix::intersects(&t, bx),
                    ex::triangle_box(tri_f64(&t), &exact_box(&b)),
                ),
                Core::Obb(bx) => (
                    ix::intersects(&t, bx),
                    ex::triangle_box(tri_f64(&t), &exact_box(&b)),
                ),
                Core::Tri(u) => (
                    ix::intersects(&t, u),
                    ex::triangle_triangle(tri_f64(&t), tri_f64(u)),
                ),
                _ => unreachable!(),
            };
            tally.cases += 1;
            tally.exact_hits += exact as usize;
            tally.our_hits += ours as usize;
            assert!(
                !exact || ours,
                "{name} ({cat:?}): missed an exact hit: {t:?} vs {b:?}"
            );
            if ours && !exact {
                let gap = tri_gap(&t, &b);
                let band = TRI_BAND_FACTOR * tri_allowance(&t, &b);
                assert!(
                    gap <= band * 1.001,
                    "{name} ({cat:?}): false hit outside the band {band:e} (gap {gap:e}): {t:?} vs {b:?}"
                );
                tally.in_band += 1;
                tally.worst_ratio = tally.worst_ratio.max(gap / band);
            }
        }
    }
    tally.report(name);
    tally
}

#[test]
fn triangle_aabb() {
    run_triangle_pair("triangle_aabb", CoreKind::Aabb, PER_CAT, 10);
}
#[test]
fn triangle_obb() {
    run_triangle_pair("triangle_obb", CoreKind::Obb, PER_CAT, 11);
}
#[test]
fn triangle_triangle() {
    run_triangle_pair("triangle_triangle", CoreKind::Tri, PER_CAT, 12);
}
