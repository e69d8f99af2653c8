//! `sepax explain SCENE A B`: why two shapes of a scene touch or not, in words.
//!
//! For box pairs (AABB, OBB) the sentence comes from the separating-axis witness of
//! `sepax_narrowphase::intersect::explain`: the axis that separates the boxes and the gap along it,
//! or the axis of least overlap and the depth. Other pairs give the depth and normal of the
//! narrow phase's minimum translation (`contact::penetration`) when they intersect, and the
//! distance and closest points (`distance::closest_points_shapes`) when they do not.

use crate::input::{load_scene, CliError};
use crate::output::{quote, Out};
use clap::Args;
use sepax_narrowphase::intersect::{self, BoxWitness, Classification, SatAxis};
use sepax_narrowphase::{contact, distance};
use sepax_scene::Scene;
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Shape;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `sepax explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The scene file (JSON, version 1).
    pub scene: PathBuf,
    /// Id of the first shape (the "A" of the witness: directions point from A to B).
    pub a: String,
    /// Id of the second shape.
    pub b: String,
}

/// Runs `sepax explain`: one sentence on stdout (ids as [`quote`] prints them), exit 0; unknown
/// ids, a bad scene or a witness that is not finite exit 2.
pub fn run(args: &ExplainArgs) -> Result<ExitCode, CliError> {
    let scene = load_scene(&args.scene)?;
    let ia = find(&scene, &args.a, &args.scene)?;
    let ib = find(&scene, &args.b, &args.scene)?;
    let (sa, sb) = (&scene.shapes[ia], &scene.shapes[ib]);
    let _span = tracing::info_span!("explain", a = %sa.id, b = %sb.id).entered();
    let (a, b) = (quote(&sa.id), quote(&sb.id));
    let sentence = describe(&a, &sa.shape, &b, &sb.shape)?;
    let mut out = Out::stdout();
    out.line(&sentence)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn find(scene: &Scene, id: &str, path: &std::path::Path) -> Result<usize, CliError> {
    scene.shapes.iter().position(|s| s.id == id).ok_or_else(|| {
        CliError::new(format!(
            "{}: no shape with id {id:?} (the scene has {} shape{})",
            path.display(),
            scene.shapes.len(),
            if scene.shapes.len() == 1 { "" } else { "s" }
        ))
    })
}

/// The witness of a box pair (`None` when either shape is not an AABB or OBB).
pub fn box_witness(a: &Shape, b: &Shape) -> Option<BoxWitness> {
    Some(match (a, b) {
        (Shape::Aabb(x), Shape::Aabb(y)) => intersect::explain(x, y),
        (Shape::Aabb(x), Shape::Obb(y)) => intersect::explain(x, y),
        (Shape::Obb(x), Shape::Aabb(y)) => intersect::explain(x, y),
        (Shape::Obb(x), Shape::Obb(y)) => intersect::explain(x, y),
        _ => return None,
    })
}

/// The axis in words with the ids in place of "A" and "B" (same wording as `SatAxis`'s Display).
pub fn axis_words(axis: SatAxis, a: &str, b: &str) -> String {
    const N: [&str; 3] = ["x", "y", "z"];
    match axis {
        SatAxis::FaceA(i) => format!("the normal of {a}'s {} faces", N[i as usize]),
        SatAxis::FaceB(j) => format!("the normal of {b}'s {} faces", N[j as usize]),
        SatAxis::Edge(i, j) => format!(
            "the cross product of {a}'s {} edge and {b}'s {} edge",
            N[i as usize], N[j as usize]
        ),
    }
}

/// A length for people: four decimals, or four significant digits in scientific notation when
/// that would print as zero.
pub fn length(x: Real) -> String {
    let x = x as f64;
    if x == 0.0 || x.abs() >= 1e-4 {
        format!("{x:.4}")
    } else {
        format!("{x:.3e}")
    }
}

/// The verdict of a witness as one word (`separated`, `overlapping`, `uncertain`).
pub fn verdict_word(c: Classification) -> &'static str {
    match c {
        Classification::Separated => "separated",
        Classification::Overlapping => "overlapping",
        Classification::Uncertain => "uncertain",
    }
}

/// The sentence for a box witness.
pub fn witness_sentence(a: &str, b: &str, w: &BoxWitness) -> String {
    let axis = axis_words(w.axis, a, b);
    match w.classification {
        Classification::Separated => {
            format!(
                "{a} and {b} are separated along {axis} by {}",
                length(w.distance)
            )
        }
        Classification::Overlapping if w.distance == 0.0 => {
            format!("{a} and {b} touch: no overlap along {axis} (depth 0)")
        }
        Classification::Overlapping => format!(
            "{a} and {b} intersect: least overlap along {axis}, depth {}",
            length(-w.distance)
        ),
        Classification::Uncertain => {
            format!("{a} and {b} touch (within rounding) along {axis}")
        }
    }
}

/// The sentence for any pair: the witness for boxes; otherwise the depth along the normal of an
/// intersecting pair, or the distance and closest points of a separated one.
pub fn describe(a: &str, sa: &Shape, b: &str, sb: &Shape) -> Result<String, CliError> {
    if let Some(w) = box_witness(sa, sb) {
        let d = &w.direction;
        if ![d.x, d.y, d.z, w.distance].iter().all(|x| x.is_finite()) {
            return Err(CliError::new(format!(
                "{a} and {b}: the witness's direction or distance is not a finite number in \
                 this build's precision"
            )));
        }
        return Ok(witness_sentence(a, b, &w));
    }
    let hit = intersect::intersects_shapes(sa, sb);
    let kinds = format!("{} and {}", sa.kind().name(), sb.kind().name());
    let not_finite = |what: &str| {
        CliError::new(format!(
            "{a} and {b}: the {what} is not a finite number in this build's precision"
        ))
    };
    if hit {
        // The overlap test is the verdict (as in `check`); the depth and normal come from the
        // narrow phase's minimum translation.
        return Ok(match contact::penetration_shapes(sa, sb) {
            Some(p) if p.depth > 0.0 => {
                if !finite(&p.normal) || !p.depth.is_finite() {
                    return Err(not_finite("penetration depth or normal"));
                }
                format!(
                    "{a} and {b} intersect: depth {} along {} from {a} toward {b} ({kinds})",
                    length(p.depth),
                    vector(&p.normal)
                )
            }
            _ => format!("{a} and {b} touch (depth 0, within rounding; {kinds})"),
        });
    }
    let c = distance::closest_points_shapes(sa, sb);
    if !c.distance.is_finite() || !finite(&c.point_a.coords) || !finite(&c.point_b.coords) {
        return Err(not_finite("distance or a closest point"));
    }
    Ok(format!(
        "{a} and {b} do not intersect: distance {} between {} on {a} and {} on {b} ({kinds})",
        length(c.distance),
        vector(&c.point_a.coords),
        vector(&c.point_b.coords)
    ))
}

fn finite(v: &Vector3) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// A vector for people: `(x, y, z)` with four decimals (no `-0`).
fn vector(v: &Vector3) -> String {
    let c = |x: Real| {
        let s = format!("{:.4}", x as f64);
        if s.trim_start_matches('-')
            .chars()
            .all(|ch| ch == '0' || ch == '.')
        {
            s.trim_start_matches('-').to_owned()
        } else {
            s
        }
    };
    format!("({}, {}, {})", c(v.x), c(v.y), c(v.z))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_words_match_the_display_of_sat_axis() {
        for axis in SatAxis::ALL {
            assert_eq!(axis_words(axis, "A", "B"), axis.to_string());
        }
    }

    #[test]
    fn lengths() {
        assert_eq!(length(0.0031), "0.0031");
        assert_eq!(length(0.01), "0.0100");
        assert_eq!(length(0.0), "0.0000");
        assert_eq!(length(2.5e-6), "2.500e-6");
    }
}
