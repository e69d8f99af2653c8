//! The optional `frames` list: each entry's `poses` give new placements of some of the shapes,
//! in the fields their type uses in `shapes` (without the sizes, which do not change), read with
//! the same numbers and checks as `shapes`.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use sepax_shapes::math::{Point3, Real};
use sepax_shapes::{Capsule, Shape, Sphere, Triangle};
use serde_json::value::RawValue;

use super::raw::{each_element, each_field, kind, Kind, Source};
use super::shape::{article, collect, Collected, Ctx, Fields, NAMES};
use super::shape::{A, AXES, B, C, CENTER, HALF_EXTENTS, MAX, MIN, P0, P1, RADIUS, ROTATION};
use crate::error::{excerpt, quote, Place, SceneError};
use crate::model::{Frame, SceneShape};

/// The most shape placements a scene may describe: `(1 + frames) × max(1, shapes)` must not
/// exceed it, so that a small file cannot ask a player for unbounded work.
pub const MAX_FRAME_SHAPES: u64 = 100_000_000;

/// A size in a frame (an AABB's extent, a capsule's length, a triangle's edge) may differ from
/// the shape's by at most this times `max(1, the largest coordinate magnitude)` of the two
/// placements: the rounding of moved coordinates passes, a changed size does not.
pub const SIZE_TOLERANCE: f64 = 1e-4;

const MISSING: &str = "nothing (the field is missing)";

/// The placement fields of each type: its fields in `shapes` less the sizes.
fn placement_fields(shape: &Shape) -> (&'static str, &'static [usize]) {
    match shape {
        Shape::Aabb(_) => ("aabb", &[MIN, MAX, CENTER, HALF_EXTENTS]),
        Shape::Obb(_) => ("obb", &[CENTER, AXES, ROTATION]),
        Shape::Sphere(_) => ("sphere", &[CENTER]),
        Shape::Capsule(_) => ("capsule", &[P0, P1]),
        Shape::Triangle(_) => ("triangle", &[A, B, C]),
    }
}

/// Reads the top-level `frames` of a scene whose shapes (and their `ids`) are read.
pub(super) fn read_frames(
    src: &Source<'_>,
    raw: &RawValue,
    ids: &HashMap<Cow<'_, str>, usize>,
    shapes: &[SceneShape],
) -> Result<Vec<Frame>, SceneError> {
    if kind(raw) != Kind::Array {
        let (line, column) = src.position(raw.get());
        return Err(SceneError::Invalid {
            line,
            column,
            place: Place::TopLevel,
            field: Some("frames".into()),
            expected: "an array of frame objects {\"poses\": {id: placement, ...}}".into(),
            found: excerpt(raw.get()),
        });
    }
    let per_frame = shapes.len().max(1) as u64;
    let mut out = Vec::new();
    each_element(src, raw, |index, item| {
        let frame = index + 1;
        if (frame as u64 + 1).saturating_mul(per_frame) > MAX_FRAME_SHAPES {
            return Err(frame_error(
                src,
                item,
                frame,
                None,
                format!(
                    "at most {} frames for {} shapes ((1 + frames) x max(1, shapes) <= {MAX_FRAME_SHAPES})",
                    MAX_FRAME_SHAPES / per_frame - 1,
                    shapes.len()
                ),
                format!("frame {frame}"),
            ));
        }
        out.push(read_frame(src, frame, item, ids, shapes)?);
        Ok(())
    })?;
    Ok(out)
}

fn frame_error(
    src: &Source<'_>,
    at: &RawValue,
    frame: usize,
    field: Option<&str>,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> SceneError {
    let (line, column) = src.position(at.get());
    SceneError::Invalid {
        line,
        column,
        place: Place::Frame { frame, id: None },
        field: field.map(str::to_owned),
        expected: expected.into(),
        found: found.into(),
    }
}

/// Reads entry `frame - 1` of `frames`.
fn read_frame(
    src: &Source<'_>,
    frame: usize,
    raw: &RawValue,
    ids: &HashMap<Cow<'_, str>, usize>,
    shapes: &[SceneShape],
) -> Result<Frame, SceneError> {
    const POSES: &str = "an object of placements by shape id";
    if kind(raw) != Kind::Object {
        let expected = "a frame object {\"poses\": {id: placement, ...}}";
        return Err(frame_error(
            src,
            raw,
            frame,
            None,
            expected,
            excerpt(raw.get()),
        ));
    }
    let mut poses = None;
    let mut repeated = None;
    let mut unknown = None;
    each_field(src, raw, |key, value| {
        if key != "poses" {
            unknown.get_or_insert((key, value));
        } else if poses.is_some() {
            repeated.get_or_insert(value);
        } else {
            poses = Some(value);
        }
    })?;
    if let Some(value) = repeated {
        let found = "a second \"poses\"";
        return Err(frame_error(
            src,
            value,
            frame,
            Some("poses"),
            "each field at most once",
            found,
        ));
    }
    if let Some((key, value)) = unknown {
        let expected = "\"poses\" (the only field of a frame)";
        return Err(frame_error(
            src,
            value,
            frame,
            Some(&key),
            expected,
            "an unknown field",
        ));
    }
    let poses = poses.ok_or_else(|| frame_error(src, raw, frame, Some("poses"), POSES, MISSING))?;
    if kind(poses) != Kind::Object {
        return Err(frame_error(
            src,
            poses,
            frame,
            Some("poses"),
            POSES,
            excerpt(poses.get()),
        ));
    }
    let mut entries = Vec::new();
    each_field(src, poses, |key, value| entries.push((key, value)))?;
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let error = |expected: &str, found: String| {
            let (line, column) = src.position(value.get());
            SceneError::Invalid {
                line,
                column,
                place: Place::Frame {
                    frame,
                    id: Some(key.as_ref().into()),
                },
                field: None,
                expected: expected.to_owned(),
                found,
            }
        };
        let Some(&index) = ids.get(key.as_ref()) else {
            let found = format!("{} (no shape has this id)", quote(&key));
            return Err(error("the id of a shape of the file", found));
        };
        if !seen.insert(index) {
            let found = format!("a second placement of {}", quote(&key));
            return Err(error("each shape at most once in a frame", found));
        }
        let ctx = Ctx {
            src,
            index,
            frame: Some(frame),
            id: Some(&key),
            object: value,
        };
        out.push((index, read_placement(&ctx, &shapes[index].shape)?));
    }
    out.sort_unstable_by_key(|&(index, _)| index);
    Ok(Frame { poses: out })
}

/// Reads one placement (`ctx.object`) of the shape `old`: the same type and size, a new place.
fn read_placement(ctx: &Ctx<'_, '_>, old: &Shape) -> Result<Shape, SceneError> {
    let raw = ctx.object;
    let (type_name, own) = placement_fields(old);
    let list = || {
        let names: Vec<String> = own.iter().map(|&i| format!("\"{}\"", NAMES[i])).collect();
        format!(
            "one of {} (the placement fields of {})",
            names.join(", "),
            article(type_name)
        )
    };
    if kind(raw) != Kind::Object {
        let expected = format!("a placement object: {}", list());
        return Err(ctx.error(raw, None, expected, excerpt(raw.get())));
    }
    let Collected {
        fields,
        unknown,
        repeated,
    } = collect(ctx.src, raw)?;
    if let Some((i, value)) = repeated {
        let found = format!("a second \"{}\"", NAMES[i]);
        return Err(ctx.error(value, Some(NAMES[i]), "each field at most once", found));
    }
    if let Some((key, value)) = unknown {
        return Err(ctx.error(value, Some(&key), list(), "an unknown field"));
    }
    if let Some(i) = (0..NAMES.len()).find(|&i| fields[i].is_some() && !own.contains(&i)) {
        let found = if i == RADIUS || i == HALF_EXTENTS {
            "a size (sizes do not change between frames)".to_owned()
        } else {
            format!(
                "a field that a placement of {} does not have",
                article(type_name)
            )
        };
        return Err(ctx.error(fields[i].unwrap_or(raw), Some(NAMES[i]), list(), found));
    }
    let built =
        |r: Result<Shape, sepax_shapes::ShapeError>| r.map_err(|e| ctx.shape_error(&fields, e));
    match old {
        Shape::Aabb(old) => {
            let new = ctx.aabb(&fields)?;
            let Shape::Aabb(b) = new else {
                return Ok(new);
            };
            let field = if fields[MIN].is_some() {
                MAX
            } else {
                HALF_EXTENTS
            };
            let scale = largest(&[old.min(), old.max(), b.min(), b.max()]);
            for k in 0..3 {
                let o = quarter(old.max()[k]) - quarter(old.min()[k]);
                let n = quarter(b.max()[k]) - quarter(b.min()[k]);
                let what = format!("max[{k}] - min[{k}]");
                same_size(ctx, &fields, field, &what, n, o, scale)?;
            }
            Ok(new)
        }
        Shape::Obb(old) => {
            let center = ctx.point(&fields, CENTER)?;
            ctx.oriented(&fields, center, old.half_extents())
        }
        Shape::Sphere(old) => {
            let center = ctx.point(&fields, CENTER)?;
            built(Sphere::new(center, old.radius()).map(Shape::Sphere))
        }
        Shape::Capsule(old) => {
            let (p0, p1) = (ctx.point(&fields, P0)?, ctx.point(&fields, P1)?);
            let scale = largest(&[old.p0(), old.p1(), p0, p1]);
            let (o, n) = (dist(old.p0(), old.p1()), dist(p0, p1));
            same_size(ctx, &fields, P1, "|p1 - p0|", n, o, scale)?;
            built(Capsule::new(p0, p1, old.radius()).map(Shape::Capsule))
        }
        Shape::Triangle(old) => {
            let (a, b, c) = (
                ctx.point(&fields, A)?,
                ctx.point(&fields, B)?,
                ctx.point(&fields, C)?,
            );
            let scale = largest(&[old.a(), old.b(), old.c(), a, b, c]);
            let edges = [
                (B, "|b - a|", dist(old.a(), old.b()), dist(a, b)),
                (C, "|c - b|", dist(old.b(), old.c()), dist(b, c)),
                (A, "|a - c|", dist(old.c(), old.a()), dist(c, a)),
            ];
            for (field, what, o, n) in edges {
                same_size(ctx, &fields, field, what, n, o, scale)?;
            }
            built(Triangle::new(a, b, c).map(Shape::Triangle))
        }
    }
}

/// Checks that a size of the placement equals the shape's (see [`SIZE_TOLERANCE`]); `new` and
/// `old` are quarters of the sizes, so that nothing overflows even in the f64 build.
fn same_size(
    ctx: &Ctx<'_, '_>,
    fields: &Fields<'_>,
    field: usize,
    what: &str,
    new: f64,
    old: f64,
    scale: f64,
) -> Result<(), SceneError> {
    if (new - old).abs() <= 0.25 * SIZE_TOLERANCE * scale.max(1.0) {
        return Ok(());
    }
    let raw = fields[field].unwrap_or(ctx.object);
    let expected = format!(
        "the shape's size (sizes do not change between frames: {what} within {SIZE_TOLERANCE} x max(1, largest coordinate) of the shape's)"
    );
    let found = format!(
        "{} ({what} = {}, the shape's is {})",
        excerpt(raw.get()),
        show(new),
        show(old)
    );
    Err(ctx.error(raw, Some(NAMES[field]), expected, found))
}

/// Widens a `Real` to `f64` (generic so that the `f64` build sees no same-type conversion).
fn wide<T: Into<f64>>(x: T) -> f64 {
    x.into()
}

/// A quarter of `x` in f64: differences of quarters of finite numbers are finite, and so is the
/// norm of three of them.
fn quarter(x: Real) -> f64 {
    0.25 * wide(x)
}

/// A quarter of `|q - p|`, scaled so that squaring neither overflows nor underflows.
fn dist(p: Point3, q: Point3) -> f64 {
    let d: [f64; 3] = core::array::from_fn(|k| quarter(q[k]) - quarter(p[k]));
    let m = d.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    if m == 0.0 {
        return 0.0;
    }
    let [x, y, z] = d.map(|x| x / m);
    m * (x * x + y * y + z * z).sqrt()
}

/// The largest coordinate magnitude of the points.
fn largest(points: &[Point3]) -> f64 {
    points
        .iter()
        .flat_map(|p| p.iter().map(|&x| wide(x).abs()))
        .fold(0.0, f64::max)
}

/// A size for a message from its quarter, in the build's precision (digits beyond it are
/// noise), or as f64 when it is beyond the build's range.
#[cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]
fn show(quarter: f64) -> String {
    let x = 4.0 * quarter;
    if !x.is_finite() {
        return format!("4 x {quarter:e}");
    }
    let r = x as Real;
    if r.is_finite() {
        format!("{r}")
    } else {
        format!("{x}")
    }
}
