//! A tour of sepax: builds a small scene of boxes, a sphere, a capsule and a triangle, then
//! prints every pair that overlaps and, for box pairs, why (the separating-axis witness).
//!
//! Run: `cargo run --release --example tour`

use sepax::prelude::*;

fn main() -> Result<(), ShapeError> {
    let deg = std::f64::consts::PI as Real / 180.0;
    let floor = Aabb::new(
        Point3::new(-10.0, -1.0, -10.0),
        Point3::new(10.0, 0.0, 10.0),
    )?;
    // A crate sunk 1 cm into the floor, turned 30 degrees about the vertical.
    let crate_box = Obb::from_rotation(
        Point3::new(0.0, 0.49, 0.0),
        UnitQuaternion::from_euler_angles(0.0, 30.0 * deg, 0.0),
        Vector3::new(0.5, 0.5, 0.5),
    )?;
    // A drum tipped over into the floor next to the crate: an edge-edge axis separates the two.
    let drum = Obb::from_rotation(
        Point3::new(1.3, 0.55, 0.35),
        UnitQuaternion::from_euler_angles(40.0 * deg, 0.0, 35.0 * deg),
        Vector3::new(0.4, 0.6, 0.4),
    )?;
    // A plank leaning on the crate.
    let plank = Obb::from_rotation(
        Point3::new(-0.9, 0.6, 0.0),
        UnitQuaternion::from_euler_angles(0.0, 0.0, -50.0 * deg),
        Vector3::new(0.8, 0.05, 0.3),
    )?;
    let ball = Sphere::new(Point3::new(0.0, 1.24, 0.0), 0.25)?;
    let pole = Capsule::new(Point3::new(3.0, 0.0, 0.0), Point3::new(3.0, 2.0, 0.0), 0.1)?;
    let ramp = Triangle::new(
        Point3::new(2.0, 0.0, -1.0),
        Point3::new(4.0, 0.0, -1.0),
        Point3::new(4.0, 1.0, -1.0),
    )?;

    let scene: Vec<(&str, Shape)> = vec![
        ("floor", floor.into()),
        ("crate", crate_box.into()),
        ("drum", drum.into()),
        ("plank", plank.into()),
        ("ball", ball.into()),
        ("pole", pole.into()),
        ("ramp", ramp.into()),
    ];

    println!(
        "sepax {} tour: {} shapes, Real = {}",
        env!("CARGO_PKG_VERSION"),
        scene.len(),
        std::any::type_name::<Real>()
    );
    println!();
    let mut hits = 0;
    for (i, (name_a, a)) in scene.iter().enumerate() {
        for (name_b, b) in &scene[i + 1..] {
            let hit = intersects_shapes(a, b);
            hits += hit as usize;
            let why = match (a, b) {
                (Shape::Aabb(x), Shape::Obb(y)) => Some(explain(x, y)),
                (Shape::Obb(x), Shape::Obb(y)) => Some(explain(x, y)),
                (Shape::Obb(x), Shape::Aabb(y)) => Some(explain(x, y)),
                _ => None,
            };
            match (hit, why) {
                (_, Some(w)) => println!("{name_a:>6} {name_b:<6} {}", describe(&w)),
                (true, None) => println!("{name_a:>6} {name_b:<6} intersect"),
                (false, None) => {}
            }
        }
    }
    println!();
    println!("{hits} intersecting pairs; box pairs are certified (see docs/tolerance.md).");
    Ok(())
}

/// The witness in words a person understands.
fn describe(w: &BoxWitness) -> String {
    let d = w.direction;
    let dir = format!("({:.3}, {:.3}, {:.3})", d.x, d.y, d.z);
    match w.classification {
        Classification::Separated => format!(
            "separated: along {} {dir}, by a gap of {:.4}",
            w.axis, w.distance
        ),
        Classification::Overlapping => format!(
            "intersect: least overlap along {} {dir}, depth {:.4}",
            w.axis, -w.distance
        ),
        Classification::Uncertain => format!(
            "touching: within rounding of contact along {} {dir}",
            w.axis
        ),
    }
}
