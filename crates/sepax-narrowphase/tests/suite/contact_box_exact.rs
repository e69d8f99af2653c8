//! Box–box box_box::least_penetration and manifolds against the exact reference, on the nine adversarial
//! categories of the box suites (random, near contact, near-parallel, equal rotations, far from
//! the origin, needles and plates, zero extents, identical and nested, AABB mixes), both orders.
//!
//! The documented tolerance (`sepax_shapes::tolerance::CONTACT_*`): with `S` the pair scale
//! (`sum h_A + sum h_B + |c_B - c_A|`) and `s = min(max h_A, max h_B)`,
//! - the reported depth equals the exact box_box::least_penetration depth within `ROUND * u * S`;
//! - the exact depth along the reported normal is the reported depth, or exceeds it by at most
//!   `CONTACT_AXIS_PREFERENCE * s` (the tie-break's preference among nearly parallel axes), so
//!   the normal is the exact least-box_box::least_penetration axis or one tied with it;
//! - manifold points lie on their box's surface within `POS u S + 2 CONTACT_AXIS_PREFERENCE s`
//!   (the side-plane slop, at a corner), each point's depth is `(point_a - point_b) . normal`,
//!   and for face contacts the incident point lies inside the reference box (the overlap region)
//!   within the same tolerance.
//!
//! `u` is the unit roundoff of `Real`. The ignored `long_run` checks 20x more pairs:
//! `cargo test -p sepax-narrowphase --release --test suite contact_box_exact:: -- --ignored`.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;
use sepax_testkit::with_boxes;

use common::{pair_scale, AnyBox, Category, Gen, CATEGORIES};
use sepax_exact::{box_box, box_depth_along, ExactAxis};
use sepax_narrowphase::contact::box_box;
use sepax_narrowphase::contact::ContactConfig;
use sepax_shapes::math::{Point3, Vector3};
use sepax_shapes::tolerance::{CONTACT_AXIS_PREFERENCE, UNIT_ROUNDOFF};

/// Coefficient of `u * S` for depths.
const ROUND: f64 = 64.0;
/// Coefficient of `u * S` for point positions.
const POS: f64 = 64.0;

fn v64(v: &Vector3) -> [f64; 3] {
    [v.x as f64, v.y as f64, v.z as f64]
}

/// Signed distance of `p` to the box's boundary (> 0 outside), in f64.
fn box_signed_distance(b: &AnyBox, p: &Point3) -> f64 {
    let o = b.as_obb();
    let c = o.center();
    let d = [0, 1, 2].map(|k| p[k] as f64 - c[k] as f64);
    let h = o.half_extents();
    let mut out: f64 = 0.0;
    let mut inside = f64::NEG_INFINITY;
    for k in 0..3 {
        let a = o.axis(k);
        let l = d[0] * a.x as f64 + d[1] * a.y as f64 + d[2] * a.z as f64;
        let e = l.abs() - h[k] as f64;
        out += e.max(0.0).powi(2);
        inside = inside.max(e);
    }
    if out > 0.0 {
        out.sqrt()
    } else {
        inside
    }
}

#[derive(Default, Debug)]
struct Tally {
    pairs: usize,
    intersecting: usize,
    manifolds: usize,
    points: usize,
    edge_axes: usize,
    incident_inside: usize,
    worst_depth_excess: f64,
}

fn scale_s(a: &AnyBox, b: &AnyBox) -> f64 {
    let m = |x: &AnyBox| x.as_obb().half_extents().max() as f64;
    m(a).min(m(b))
}

fn check(a: &AnyBox, b: &AnyBox, cat: Category, i: usize, t: &mut Tally) {
    t.pairs += 1;
    let ex = box_box(&a.exact(), &b.exact());
    let u = UNIT_ROUNDOFF as f64;
    let big_s = pair_scale(a, b);
    let pref = CONTACT_AXIS_PREFERENCE as f64 * scale_s(a, b);
    let round = ROUND * u * big_s;
    let pen = with_boxes!(a, b, |x, y| box_box::least_penetration(x, y));
    let ctx = || format!("{cat:?} #{i}: a={a:?} b={b:?} exact={ex:?} pen={pen:?}");
    let depth = pen.depth as f64;
    let n = v64(&pen.normal);
    assert!(
        (pen.normal.norm() - 1.0).abs() < 1e-4,
        "normal not unit: {}",
        ctx()
    );
    // The normal is the exact least-box_box::least_penetration axis or one tied with it: the exact depth along
    // it is the reported depth, or exceeds it by at most the preference.
    let along = box_depth_along(&a.exact(), &b.exact(), n).expect("non-zero normal");
    assert!(
        along >= depth - round && along <= depth + pref + round,
        "depth {depth} but exact depth along the normal {along}: {}",
        ctx()
    );
    // Normal points from A to B (when the centres are apart along it).
    let (ca, cb) = (a.center64(), b.center64());
    let np: f64 = (0..3).map(|k| n[k] * (cb[k] - ca[k])).sum();
    assert!(np >= -round, "normal points from B to A: {}", ctx());
    if ex.axis == ExactAxis::Other {
        return; // flat Minkowski difference: no facet normals to compare with
    }
    let exact_depth = -ex.margin;
    // For intersecting boxes every direction's depth is at least the box_box::least_penetration depth. (For
    // separated ones any direction's gap is at most the distance, which the SAT margin only
    // bounds from below, so only the upper bound is checked there.)
    assert!(
        !ex.intersects || depth >= exact_depth - round,
        "depth {depth} below the exact minimum {exact_depth}: {}",
        ctx()
    );
    assert!(
        depth <= exact_depth + round,
        "depth {depth} above the exact minimum {exact_depth}: {}",
        ctx()
    );
    t.worst_depth_excess = t.worst_depth_excess.max((depth - exact_depth) / big_s);
    if !ex.intersects {
        return;
    }
    t.intersecting += 1;
    let m = with_boxes!(a, b, |x, y| box_box::manifold(
        x,
        y,
        &ContactConfig::default()
    ));
    let m = m.unwrap_or_else(|| panic!("no manifold for an intersecting pair: {}", ctx()));
    t.manifolds += 1;
    if matches!(pen.axis, sepax_narrowphase::sat::SatAxis::Edge(..)) {
        t.edge_axes += 1;
    }
    assert_eq!(m.normal, pen.normal);
    assert_eq!(m.depth, pen.depth);
    assert!(!m.points.is_empty() && m.points.len() <= 4);
    let pos = POS * u * big_s + 2.0 * pref;
    for p in &m.points {
        t.points += 1;
        let da = box_signed_distance(a, &p.point_a);
        let db = box_signed_distance(b, &p.point_b);
        assert!(
            da.abs() <= pos,
            "point_a {:?} off A's surface by {da}: {}",
            p.point_a,
            ctx()
        );
        assert!(
            db.abs() <= pos,
            "point_b {:?} off B's surface by {db}: {}",
            p.point_b,
            ctx()
        );
        let pd = (p.point_a - p.point_b).dot(&m.normal) as f64;
        assert!(
            (pd - p.depth as f64).abs() <= pos + round,
            "point depth {} but (a - b).n = {pd}: {}",
            p.depth,
            ctx()
        );
        assert!(
            p.depth as f64 <= depth + pos + round,
            "point deeper than the manifold: {}",
            ctx()
        );
        // Inside the overlap region: for a face contact the incident-side point (on the box that
        // does not own the reference face) lies inside the reference box while it is not deeper
        // than the thinnest box. Feature ids: bits 8..11 are the kind (3 = edge–edge), bit 3 says
        // the reference face is B's. The reference-side point is the incident point moved by its
        // depth along the normal onto the reference face (checked above: on A's / B's surface
        // and `(point_a - point_b) . n = depth`); with a tilted incident face it may lie outside
        // the incident box by up to the depth times the tilt, so it is not required to be inside.
        let thin = 2.0
            * (a.as_obb()
                .half_extents()
                .min()
                .min(b.as_obb().half_extents().min()) as f64);
        let kind = (p.id.0 >> 8) & 7;
        if kind != 3 && p.depth >= 0.0 && (p.depth as f64) <= thin {
            let ref_is_b = p.id.0 & 8 != 0;
            let inside = if ref_is_b {
                box_signed_distance(b, &p.point_a)
            } else {
                box_signed_distance(a, &p.point_b)
            };
            t.incident_inside += 1;
            assert!(
                inside <= pos,
                "incident point outside the reference box by {inside}: {p:?} {}",
                ctx()
            );
        }
    }
}

fn run(seed: u64, per_category: usize) -> Tally {
    let mut gen = Gen::new(seed);
    let mut t = Tally::default();
    for cat in CATEGORIES {
        for i in 0..per_category {
            let (a, b) = gen.pair(cat);
            check(&a, &b, cat, i, &mut t);
            check(&b, &a, cat, i, &mut t);
        }
    }
    t
}

#[test]
fn penetration_and_manifolds_match_the_exact_reference() {
    let t = run(0x5e9a_c047, 1500);
    eprintln!("{t:?}");
    assert!(t.intersecting > 5000, "{t:?}");
    assert!(t.edge_axes > 50, "{t:?}");
}

#[test]
#[ignore = "long run: cargo test -p sepax-narrowphase --release --test suite contact_box_exact:: -- --ignored"]
fn long_run() {
    let t = run(7, 30_000);
    eprintln!("{t:?}");
}
