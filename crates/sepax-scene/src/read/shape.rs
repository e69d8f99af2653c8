//! One entry of `shapes`: its fields collected as raw texts, checked against its type, and built
//! with the shapes' checked constructors.

use std::borrow::Cow;

use sepax_shapes::math::{Matrix3, Point3, Quaternion, Real, Vector3};
use sepax_shapes::tolerance::{AXES_TOLERANCE, QUATERNION_TOLERANCE};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeError, Sphere, Triangle};
use serde_json::value::RawValue;

use super::number::{integer_u32, range_note, real, reals, Problem};
use super::raw::{each_field, kind, string, Kind, Source};
use crate::error::{excerpt, Place, SceneError};

/// Every field name a shape may have, in the order errors are looked for.
pub(super) const NAMES: [&str; 17] = [
    "id",
    "type",
    "min",
    "max",
    "center",
    "half_extents",
    "axes",
    "rotation",
    "radius",
    "p0",
    "p1",
    "a",
    "b",
    "c",
    "layer",
    "mask",
    "collider",
];
pub(super) const ID: usize = 0;
pub(super) const TYPE: usize = 1;
pub(super) const MIN: usize = 2;
pub(super) const MAX: usize = 3;
pub(super) const CENTER: usize = 4;
pub(super) const HALF_EXTENTS: usize = 5;
pub(super) const AXES: usize = 6;
pub(super) const ROTATION: usize = 7;
pub(super) const RADIUS: usize = 8;
pub(super) const P0: usize = 9;
pub(super) const P1: usize = 10;
pub(super) const A: usize = 11;
pub(super) const B: usize = 12;
pub(super) const C: usize = 13;
pub(super) const LAYER: usize = 14;
pub(super) const MASK: usize = 15;
pub(super) const COLLIDER: usize = 16;

/// The shape types of version 1 and the fields each may have (besides id, type, layer, mask).
const TYPES: [(&str, &[usize]); 5] = [
    ("aabb", &[MIN, MAX, CENTER, HALF_EXTENTS]),
    ("obb", &[CENTER, HALF_EXTENTS, AXES, ROTATION]),
    ("sphere", &[CENTER, RADIUS]),
    ("capsule", &[P0, P1, RADIUS]),
    ("triangle", &[A, B, C]),
];

const MISSING: &str = "nothing (the field is missing)";

/// A validated shape and its id as borrowed from the text where possible.
pub(super) struct ReadShape<'a> {
    pub(super) id: Cow<'a, str>,
    pub(super) id_raw: &'a RawValue,
    pub(super) shape: Shape,
    pub(super) layer: Option<u32>,
    pub(super) mask: Option<u32>,
    /// Version 2: the shape as a world collider (`shape` is then its local shape placed).
    pub(super) collider: Option<sepax_world::ColliderDesc>,
}

/// Reads entry `index` of `shapes` (`version2`: the file is version 2, which allows
/// `collider`).
pub(super) fn read_shape<'a>(
    src: &Source<'_>,
    index: usize,
    raw: &'a RawValue,
    version2: bool,
) -> Result<ReadShape<'a>, SceneError> {
    let mut ctx = Ctx {
        src,
        index,
        frame: None,
        id: None,
        object: raw,
    };
    if kind(raw) != Kind::Object {
        return Err(ctx.error(raw, None, "a shape object", excerpt(raw.get())));
    }
    let Collected {
        fields,
        unknown,
        repeated,
    } = collect(src, raw)?;

    // The id first, so that every later message can name it.
    let id_raw = fields[ID].ok_or_else(|| ctx.missing("id", "a non-empty string"))?;
    let id = match string(id_raw) {
        Some(id) if !id.is_empty() => id,
        _ => {
            return Err(ctx.error(
                id_raw,
                Some("id"),
                "a non-empty string",
                excerpt(id_raw.get()),
            ))
        }
    };
    ctx.id = Some(&id);

    if let Some((i, value)) = repeated {
        return Err(ctx.error(
            value,
            Some(NAMES[i]),
            "each field at most once",
            format!("a second \"{}\"", NAMES[i]),
        ));
    }

    let type_raw = fields[TYPE].ok_or_else(|| ctx.missing("type", &type_list()))?;
    let type_index = string(type_raw)
        .and_then(|t| TYPES.iter().position(|(name, _)| *name == t))
        .ok_or_else(|| ctx.error(type_raw, Some("type"), type_list(), excerpt(type_raw.get())))?;
    let (type_name, own) = TYPES[type_index];
    let allowed = |i: usize| {
        matches!(i, ID | TYPE | LAYER | MASK) || (version2 && i == COLLIDER) || own.contains(&i)
    };
    let field_list = || {
        let names: Vec<String> = NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| allowed(*i))
            .map(|(_, n)| format!("\"{n}\""))
            .collect();
        format!(
            "one of {} (the fields of {})",
            names.join(", "),
            article(type_name)
        )
    };
    if let Some((key, value)) = unknown {
        return Err(ctx.error(value, Some(&key), field_list(), "an unknown field"));
    }
    if let (Some(c), false) = (fields[COLLIDER], version2) {
        return Err(ctx.error(
            c,
            Some("collider"),
            "a file of version 2 (\"version\": 2) for this field",
            "a version-1 file",
        ));
    }
    if let Some(i) = (0..NAMES.len()).find(|&i| fields[i].is_some() && !allowed(i)) {
        return Err(ctx.error(
            fields[i].unwrap_or(raw),
            Some(NAMES[i]),
            field_list(),
            format!("a field that {} does not have", article(type_name)),
        ));
    }

    let shape = match type_name {
        "aabb" => ctx.aabb(&fields)?,
        "obb" => ctx.obb(&fields)?,
        "sphere" => {
            let center = ctx.point(&fields, CENTER)?;
            let radius = ctx.size(&fields, RADIUS)?;
            Shape::Sphere(Sphere::new(center, radius).map_err(|e| ctx.shape_error(&fields, e))?)
        }
        "capsule" => {
            let p0 = ctx.point(&fields, P0)?;
            let p1 = ctx.point(&fields, P1)?;
            let radius = ctx.size(&fields, RADIUS)?;
            Shape::Capsule(Capsule::new(p0, p1, radius).map_err(|e| ctx.shape_error(&fields, e))?)
        }
        _ => {
            let a = ctx.point(&fields, A)?;
            let b = ctx.point(&fields, B)?;
            let c = ctx.point(&fields, C)?;
            Shape::Triangle(Triangle::new(a, b, c).map_err(|e| ctx.shape_error(&fields, e))?)
        }
    };
    let layer = ctx.bits(&fields, LAYER)?;
    let mask = ctx.bits(&fields, MASK)?;
    let (shape, collider) = match fields[COLLIDER] {
        None => (shape, None),
        Some(c) => {
            let (desc, placed) = super::collider::read_collider(src, index, &id, c, shape)?;
            (placed, Some(desc))
        }
    };
    Ok(ReadShape {
        id,
        id_raw,
        shape,
        layer,
        mask,
        collider,
    })
}

/// The fields of an object under the names of [`NAMES`], with the first unknown and the first
/// repeated one.
pub(super) struct Collected<'a> {
    pub(super) fields: Fields<'a>,
    pub(super) unknown: Option<(Cow<'a, str>, &'a RawValue)>,
    pub(super) repeated: Option<(usize, &'a RawValue)>,
}

/// Collects the fields of the object `raw` (the caller has checked that it is one).
pub(super) fn collect<'a>(
    src: &Source<'_>,
    raw: &'a RawValue,
) -> Result<Collected<'a>, SceneError> {
    let mut out = Collected {
        fields: [None; 17],
        unknown: None,
        repeated: None,
    };
    each_field(src, raw, |key, value| {
        match NAMES.iter().position(|n| *n == key) {
            Some(i) if out.fields[i].is_some() => {
                out.repeated.get_or_insert((i, value));
            }
            Some(i) => out.fields[i] = Some(value),
            None => {
                out.unknown.get_or_insert((key, value));
            }
        }
    })?;
    Ok(out)
}

fn type_list() -> String {
    let names: Vec<String> = TYPES.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    format!("one of {}", names.join(", "))
}

pub(super) fn article(type_name: &str) -> String {
    let a = if type_name.starts_with(['a', 'o']) {
        "an"
    } else {
        "a"
    };
    format!("{a} {type_name}")
}

pub(super) type Fields<'a> = [Option<&'a RawValue>; 17];

/// What a message needs to name the shape (or, in a frame, the shape's placement), and the
/// object whose fields are read.
pub(super) struct Ctx<'s, 'a> {
    pub(super) src: &'s Source<'s>,
    /// The shape's index in `shapes` (unused in a frame).
    pub(super) index: usize,
    /// The frame's number when reading a placement in `frames`.
    pub(super) frame: Option<usize>,
    pub(super) id: Option<&'s str>,
    pub(super) object: &'a RawValue,
}

impl Ctx<'_, '_> {
    pub(super) fn error(
        &self,
        at: &RawValue,
        field: Option<&str>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> SceneError {
        let (line, column) = self.src.position(at.get());
        let place = match self.frame {
            Some(frame) => Place::Frame {
                frame,
                id: self.id.map(Box::from),
            },
            None => Place::Shape {
                index: self.index,
                id: self.id.map(str::to_owned),
            },
        };
        SceneError::Invalid {
            line,
            column,
            place,
            field: field.map(str::to_owned),
            expected: expected.into(),
            found: found.into(),
        }
    }

    /// A required field that is absent (reported at the shape object).
    pub(super) fn missing(&self, field: &str, expected: &str) -> SceneError {
        self.error(self.object, Some(field), expected, MISSING)
    }

    pub(super) fn required<'f>(
        &self,
        fields: &Fields<'f>,
        i: usize,
        expected: &str,
    ) -> Result<&'f RawValue, SceneError> {
        fields[i].ok_or_else(|| self.missing(NAMES[i], expected))
    }

    /// Three numbers (a point or a vector), `non_negative` for sizes.
    fn triple(
        &self,
        fields: &Fields<'_>,
        i: usize,
        non_negative: bool,
    ) -> Result<[Real; 3], SceneError> {
        let what = if non_negative {
            "3 numbers >= 0"
        } else {
            "3 numbers"
        };
        let raw = self.required(fields, i, what)?;
        let fail = |expected: String| self.error(raw, Some(NAMES[i]), expected, excerpt(raw.get()));
        match reals::<3>(raw) {
            Ok(v) if non_negative && v.iter().any(|x| *x < 0.0) => Err(fail(what.to_owned())),
            Ok(v) => Ok(v),
            Err(Problem::Shape) => Err(fail(what.to_owned())),
            Err(Problem::Range) => Err(fail(format!("{what} {}", range_note()))),
        }
    }

    pub(super) fn point(&self, fields: &Fields<'_>, i: usize) -> Result<Point3, SceneError> {
        let [x, y, z] = self.triple(fields, i, false)?;
        Ok(Point3::new(x, y, z))
    }

    fn half_extents(&self, fields: &Fields<'_>) -> Result<Vector3, SceneError> {
        let [x, y, z] = self.triple(fields, HALF_EXTENTS, true)?;
        Ok(Vector3::new(x, y, z))
    }

    /// One number >= 0 (a radius).
    fn size(&self, fields: &Fields<'_>, i: usize) -> Result<Real, SceneError> {
        let what = "a number >= 0";
        let raw = self.required(fields, i, what)?;
        let fail = |expected: String| self.error(raw, Some(NAMES[i]), expected, excerpt(raw.get()));
        match real(raw) {
            Ok(v) if v < 0.0 => Err(fail(what.to_owned())),
            Ok(v) => Ok(v),
            Err(Problem::Shape) => Err(fail(what.to_owned())),
            Err(Problem::Range) => Err(fail(format!("{what} {}", range_note()))),
        }
    }

    /// An optional `layer` or `mask`.
    fn bits(&self, fields: &Fields<'_>, i: usize) -> Result<Option<u32>, SceneError> {
        match fields[i] {
            None => Ok(None),
            Some(raw) => integer_u32(raw).map(Some).ok_or_else(|| {
                self.error(
                    raw,
                    Some(NAMES[i]),
                    format!("an integer from 0 to {}", u32::MAX),
                    excerpt(raw.get()),
                )
            }),
        }
    }

    pub(super) fn aabb(&self, fields: &Fields<'_>) -> Result<Shape, SceneError> {
        let corners = fields[MIN].is_some() || fields[MAX].is_some();
        let centered = fields[CENTER].is_some() || fields[HALF_EXTENTS].is_some();
        let forms = "either \"min\" and \"max\" or \"center\" and \"half_extents\"";
        if corners && centered {
            let i = if fields[CENTER].is_some() {
                CENTER
            } else {
                HALF_EXTENTS
            };
            return Err(self.error(
                fields[i].unwrap_or(self.object),
                Some(NAMES[i]),
                format!("{forms}, not both"),
                "both forms",
            ));
        }
        let aabb = if centered {
            let center = self.point(fields, CENTER)?;
            let half = self.half_extents(fields)?;
            Aabb::from_center_half_extents(center, half)
        } else {
            if fields[MIN].is_none() && fields[MAX].is_none() {
                return Err(self.missing("min", &format!("3 numbers ({forms})")));
            }
            let min = self.point(fields, MIN)?;
            let max = self.point(fields, MAX)?;
            Aabb::new(min, max)
        };
        aabb.map(Shape::Aabb)
            .map_err(|e| self.shape_error(fields, e))
    }

    fn obb(&self, fields: &Fields<'_>) -> Result<Shape, SceneError> {
        let center = self.point(fields, CENTER)?;
        let half = self.half_extents(fields)?;
        self.oriented(fields, center, half)
    }

    /// An OBB of the given centre and half-extents whose orientation is the field `axes` or
    /// `rotation` (exactly one of them).
    pub(super) fn oriented(
        &self,
        fields: &Fields<'_>,
        center: Point3,
        half: Vector3,
    ) -> Result<Shape, SceneError> {
        let rows = "3 rows of 3 numbers (the box's local x, y, z axes)";
        let quaternion = "a unit quaternion [w, x, y, z]";
        let obb = match (fields[AXES], fields[ROTATION]) {
            (Some(_), Some(rotation)) => {
                return Err(self.error(
                    rotation,
                    Some("rotation"),
                    "exactly one of \"axes\" and \"rotation\"",
                    "both",
                ))
            }
            (None, None) => {
                return Err(self.missing("axes", &format!("{rows}, or \"rotation\": {quaternion}")))
            }
            (Some(raw), None) => {
                let fail =
                    |expected: String| self.error(raw, Some("axes"), expected, excerpt(raw.get()));
                let items = super::raw::exactly::<3>(raw).ok_or_else(|| fail(rows.to_owned()))?;
                let mut columns = [Vector3::zeros(); 3];
                for (column, item) in columns.iter_mut().zip(items) {
                    let item = item.ok_or_else(|| fail(rows.to_owned()))?;
                    match reals::<3>(item) {
                        Ok([x, y, z]) => *column = Vector3::new(x, y, z),
                        Err(Problem::Shape) => return Err(fail(rows.to_owned())),
                        Err(Problem::Range) => {
                            return Err(fail(format!("{rows} {}", range_note())))
                        }
                    }
                }
                // Rows of the file are the box's axes: columns of the matrix.
                Obb::new(center, Matrix3::from_columns(&columns), half)
            }
            (None, Some(raw)) => {
                let fail = |expected: String| {
                    self.error(raw, Some("rotation"), expected, excerpt(raw.get()))
                };
                match reals::<4>(raw) {
                    Ok([w, x, y, z]) => {
                        Obb::from_quaternion(center, Quaternion::new(w, x, y, z), half)
                    }
                    Err(Problem::Shape) => return Err(fail(format!("{quaternion} (4 numbers)"))),
                    Err(Problem::Range) => {
                        return Err(fail(format!("{quaternion} (4 numbers {})", range_note())))
                    }
                }
            }
        };
        obb.map(Shape::Obb).map_err(|e| self.shape_error(fields, e))
    }

    /// A checked constructor's refusal, told in the file's terms.
    pub(super) fn shape_error(&self, fields: &Fields<'_>, e: ShapeError) -> SceneError {
        let at = |name: &str| {
            NAMES
                .iter()
                .position(|n| *n == name)
                .and_then(|i| fields[i])
        };
        let quoted = |name: &str| at(name).map(|raw| excerpt(raw.get()));
        let (field, expected, detail): (&str, String, String) = match &e {
            ShapeError::NonUnitAxis { index, norm_sq, .. } => (
                "axes",
                axes_expected(),
                format!("|axes[{index}]|^2 = {}", as_real(*norm_sq)),
            ),
            ShapeError::NonOrthogonalAxes { i, j, dot, .. } => (
                "axes",
                axes_expected(),
                format!("axes[{i}] . axes[{j}] = {}", as_real(*dot)),
            ),
            ShapeError::NonUnitQuaternion { norm, .. } => (
                "rotation",
                format!(
                    "a unit quaternion [w, x, y, z] (| |q| - 1 | <= {})",
                    QUATERNION_TOLERANCE
                ),
                format!("norm {}", as_real(*norm)),
            ),
            ShapeError::MinAboveMax { axis, min, max, .. } => (
                "min",
                "min <= max on every axis".to_owned(),
                format!(
                    "min[{axis}] = {} > max[{axis}] = {}",
                    as_real(*min),
                    as_real(*max)
                ),
            ),
            // An AABB from centre and half-extents whose corners overflow.
            ShapeError::NotFinite {
                shape: "Aabb",
                field: "min" | "max",
                ..
            } => (
                "half_extents",
                format!("center ± half_extents {}", range_note()),
                "a corner that overflows".to_owned(),
            ),
            ShapeError::Degenerate { field, reason, .. } => (
                field,
                format!("a shape {}", range_note()),
                (*reason).to_owned(),
            ),
            other => ("", "a valid shape".to_owned(), other.to_string()),
        };
        let raw = at(field).unwrap_or(self.object);
        let found = match quoted(field) {
            Some(text) => format!("{text} ({detail})"),
            None => detail,
        };
        let field = (!field.is_empty()).then_some(field);
        self.error(raw, field, expected, found)
    }
}

fn axes_expected() -> String {
    format!(
        "orthonormal rows (| |a_i|^2 - 1 | <= {t} and |a_i . a_j| <= {t})",
        t = AXES_TOLERANCE
    )
}

/// A number a `ShapeError` carries as f64, shown in the build's precision (where it was computed,
/// so the conversion is exact) and thus in its shortest form.
#[cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]
fn as_real(x: f64) -> Real {
    x as Real
}
