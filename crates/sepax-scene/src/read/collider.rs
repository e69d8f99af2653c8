//! Version 2: a shape's `collider` object (its pose and its attributes as a world collider),
//! the top-level `allowed` pair entries and the top-level `world` settings.

use std::borrow::Cow;
use std::collections::HashMap;

use sepax_shapes::math::{Isometry3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::QUATERNION_TOLERANCE;
use sepax_shapes::Shape;
use sepax_world::{ColliderDesc, Filter, Kind as ColliderKind, OwnerId, Report};
use serde_json::value::RawValue;

use super::number::{range_note, real, reals, Problem};
use super::raw::{each_element, each_field, exactly, kind, string, Kind, Source};
use crate::error::{excerpt, quote, Place, SceneError};
use crate::model::SceneWorld;

/// The fields of a `collider` object, in the order errors are looked for.
const FIELDS: [&str; 12] = [
    "position",
    "rotation",
    "kind",
    "membership",
    "mask",
    "group",
    "owner",
    "user",
    "sensor",
    "enabled",
    "report",
    "ccd",
];

/// A version-2 problem at `at`, in shape `index` (`id`), field `collider.NAME`.
struct At<'s> {
    src: &'s Source<'s>,
    index: usize,
    id: &'s str,
}

impl At<'_> {
    fn error(
        &self,
        at: &RawValue,
        field: &str,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> SceneError {
        let (line, column) = self.src.position(at.get());
        SceneError::Invalid {
            line,
            column,
            place: Place::Shape {
                index: self.index,
                id: Some(self.id.to_owned()),
            },
            field: Some(format!("collider.{field}")),
            expected: expected.into(),
            found: found.into(),
        }
    }
}

/// A JSON integer (no fraction, no exponent, an optional minus) as `i128`, when it is one.
fn integer(raw: &RawValue) -> Option<i128> {
    let text = raw.get().trim();
    let digits = text.strip_prefix('-').unwrap_or(text);
    if kind(raw) != Kind::Number || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    text.parse::<i128>().ok()
}

/// Reads the `collider` object of shape `index` (`id`) whose shape fields gave `local`: the
/// collider's description (the local shape, the pose, the attributes) and the placed shape.
pub(super) fn read_collider(
    src: &Source<'_>,
    index: usize,
    id: &str,
    raw: &RawValue,
    local: Shape,
) -> Result<(ColliderDesc, Shape), SceneError> {
    let at = At { src, index, id };
    if kind(raw) != Kind::Object {
        let (line, column) = src.position(raw.get());
        return Err(SceneError::Invalid {
            line,
            column,
            place: Place::Shape {
                index,
                id: Some(id.to_owned()),
            },
            field: Some("collider".into()),
            expected: "an object of collider attributes".into(),
            found: excerpt(raw.get()),
        });
    }
    let mut fields: [Option<&RawValue>; 12] = [None; 12];
    let mut bad: Option<(Cow<'_, str>, &RawValue, &str)> = None;
    each_field(src, raw, |key, value| {
        match FIELDS.iter().position(|n| *n == key) {
            Some(i) if fields[i].is_some() => {
                bad.get_or_insert((key, value, "each field at most once"));
            }
            Some(i) => fields[i] = Some(value),
            None => {
                bad.get_or_insert((key, value, "unknown"));
            }
        }
    })?;
    if let Some((key, value, why)) = bad {
        let list: Vec<String> = FIELDS.iter().map(|n| format!("\"{n}\"")).collect();
        return Err(if why == "unknown" {
            at.error(
                value,
                &key,
                format!("one of {}", list.join(", ")),
                "an unknown field",
            )
        } else {
            at.error(value, &key, why, format!("a second {}", quote(&key)))
        });
    }
    let pose = read_pose(&at, fields[0], fields[1])?;
    let mut desc = ColliderDesc::new(local).pose(pose);
    if let Some(v) = fields[2] {
        desc.kind = match string(v).as_deref() {
            Some("static") => ColliderKind::Static,
            Some("kinematic") => ColliderKind::Kinematic,
            Some("dynamic") => ColliderKind::Dynamic,
            _ => {
                return Err(at.error(
                    v,
                    "kind",
                    "one of \"static\", \"kinematic\", \"dynamic\"",
                    excerpt(v.get()),
                ))
            }
        };
    }
    let u64_of = |i: usize| -> Result<Option<u64>, SceneError> {
        let Some(v) = fields[i] else { return Ok(None) };
        match integer(v).and_then(|x| u64::try_from(x).ok()) {
            Some(x) => Ok(Some(x)),
            None => Err(at.error(
                v,
                FIELDS[i],
                format!("an integer from 0 to {}", u64::MAX),
                excerpt(v.get()),
            )),
        }
    };
    let mut filter = Filter::default();
    if let Some(m) = u64_of(3)? {
        filter.membership = m;
    }
    if let Some(m) = u64_of(4)? {
        filter.mask = m;
    }
    if let Some(v) = fields[5] {
        filter.group = integer(v)
            .and_then(|x| i32::try_from(x).ok())
            .ok_or_else(|| {
                at.error(
                    v,
                    "group",
                    format!("an integer from {} to {}", i32::MIN, i32::MAX),
                    excerpt(v.get()),
                )
            })?;
    }
    filter.owner = u64_of(6)?.map(OwnerId);
    desc.filter = filter;
    desc.user = u64_of(7)?.unwrap_or(0);
    let flag = |i: usize, default: bool| -> Result<bool, SceneError> {
        match fields[i] {
            None => Ok(default),
            Some(v) => match v.get().trim() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(at.error(v, FIELDS[i], "true or false", excerpt(v.get()))),
            },
        }
    };
    desc.sensor = flag(8, false)?;
    desc.enabled = flag(9, true)?;
    desc.ccd = flag(11, false)?;
    if let Some(v) = fields[10] {
        desc.report = match string(v).as_deref() {
            Some("begin_end") => Report::BeginEnd,
            Some("persist") => Report::Persist,
            Some("manifolds") => Report::Manifolds,
            _ => {
                return Err(at.error(
                    v,
                    "report",
                    "one of \"begin_end\", \"persist\", \"manifolds\"",
                    excerpt(v.get()),
                ))
            }
        };
    }
    let placed = local.transformed(&pose).map_err(|e| {
        at.error(
            fields[0].unwrap_or(raw),
            "position",
            format!("a pose that keeps the shape {}", range_note()),
            e.to_string(),
        )
    })?;
    Ok((desc, placed))
}

/// The pose of `position` (default the origin) and `rotation` (`[w, x, y, z]`, unit within
/// [`QUATERNION_TOLERANCE`], default the identity), the quaternion kept exactly as written when
/// its squared norm is within `8 * EPSILON` of 1, normalised otherwise.
fn read_pose(
    at: &At<'_>,
    position: Option<&RawValue>,
    rotation: Option<&RawValue>,
) -> Result<Isometry3, SceneError> {
    let t = match position {
        None => [0.0; 3],
        Some(v) => reals::<3>(v).map_err(|p| {
            let what = match p {
                Problem::Shape => "3 numbers".to_owned(),
                Problem::Range => format!("3 numbers {}", range_note()),
            };
            at.error(v, "position", what, excerpt(v.get()))
        })?,
    };
    let q = match rotation {
        None => UnitQuaternion::identity(),
        Some(v) => {
            let unit =
                format!("a unit quaternion [w, x, y, z] (| |q| - 1 | <= {QUATERNION_TOLERANCE})");
            let [w, x, y, z] = reals::<4>(v)
                .map_err(|_| at.error(v, "rotation", unit.clone(), excerpt(v.get())))?;
            let q = Quaternion::new(w, x, y, z);
            let norm = q.norm();
            if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
                return Err(at.error(
                    v,
                    "rotation",
                    unit,
                    format!("{} (norm {norm})", excerpt(v.get())),
                ));
            }
            // A quaternion unit to within rounding (what a world stores, and so what a
            // snapshot writes) is kept exactly as written; others are normalised.
            if (q.norm_squared() - 1.0).abs() <= 8.0 * Real::EPSILON {
                UnitQuaternion::new_unchecked(q)
            } else {
                UnitQuaternion::new_normalize(q)
            }
        }
    };
    Ok(Isometry3::from_parts(
        Vector3::new(t[0], t[1], t[2]).into(),
        q,
    ))
}

fn top(
    src: &Source<'_>,
    at: &RawValue,
    field: String,
    expected: &str,
    found: String,
) -> SceneError {
    let (line, column) = src.position(at.get());
    SceneError::Invalid {
        line,
        column,
        place: Place::TopLevel,
        field: Some(field),
        expected: expected.to_owned(),
        found,
    }
}

/// The top-level `world` object: `{"all_pairs": bool, "margin": number >= 0}`, both optional.
pub(super) fn read_world(src: &Source<'_>, raw: &RawValue) -> Result<SceneWorld, SceneError> {
    const WHAT: &str =
        "an object with \"all_pairs\" (true or false) and \"margin\" (a number >= 0)";
    if kind(raw) != Kind::Object {
        return Err(top(src, raw, "world".into(), WHAT, excerpt(raw.get())));
    }
    let mut out = SceneWorld::default();
    let (mut all, mut margin, mut bad) = (None, None, None);
    each_field(src, raw, |key, value| {
        let slot = match &*key {
            "all_pairs" => &mut all,
            "margin" => &mut margin,
            _ => {
                bad.get_or_insert((key, value));
                return;
            }
        };
        if slot.is_some() {
            bad.get_or_insert((key, value));
        } else {
            *slot = Some(value);
        }
    })?;
    if let Some((key, value)) = bad {
        return Err(top(
            src,
            value,
            format!("world.{key}"),
            WHAT,
            "an unknown or repeated field".into(),
        ));
    }
    if let Some(v) = all {
        out.all_pairs = match v.get().trim() {
            "true" => true,
            "false" => false,
            _ => {
                return Err(top(
                    src,
                    v,
                    "world.all_pairs".into(),
                    "true or false",
                    excerpt(v.get()),
                ))
            }
        };
    }
    if let Some(v) = margin {
        out.margin = match real(v) {
            Ok(m) if m >= 0.0 => m,
            _ => {
                return Err(top(
                    src,
                    v,
                    "world.margin".into(),
                    "a number >= 0",
                    excerpt(v.get()),
                ))
            }
        };
    }
    Ok(out)
}

/// The top-level `allowed` list: `[id, id, true | false]` entries, each unordered pair of two
/// different shapes at most once.
pub(super) fn read_allowed(
    src: &Source<'_>,
    raw: &RawValue,
    ids: &HashMap<Cow<'_, str>, usize>,
) -> Result<Vec<(usize, usize, bool)>, SceneError> {
    const ENTRY: &str = "[id, id, true or false] with two different ids of shapes of the file";
    if kind(raw) != Kind::Array {
        return Err(top(
            src,
            raw,
            "allowed".into(),
            "an array of [id, id, true or false]",
            excerpt(raw.get()),
        ));
    }
    let mut out = Vec::new();
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    each_element(src, raw, |index, item| {
        let fail = |found: String| top(src, item, format!("allowed[{index}]"), ENTRY, found);
        let Some([Some(a), Some(b), Some(flag)]) = exactly::<3>(item) else {
            return Err(fail(excerpt(item.get())));
        };
        let mut ends = [0; 2];
        for (slot, end) in ends.iter_mut().zip([a, b]) {
            let id = string(end).ok_or_else(|| fail(excerpt(item.get())))?;
            *slot = *ids
                .get(&id)
                .ok_or_else(|| fail(format!("{} (no shape has this id)", quote(&id))))?;
        }
        let allowed = match flag.get().trim() {
            "true" => true,
            "false" => false,
            _ => return Err(fail(excerpt(item.get()))),
        };
        let [a, b] = ends;
        if a == b {
            return Err(fail(excerpt(item.get())));
        }
        let key = (a.min(b), a.max(b));
        if let Some(&earlier) = seen.get(&key) {
            return Err(fail(format!(
                "{} (the same shapes as allowed[{earlier}])",
                excerpt(item.get())
            )));
        }
        seen.insert(key, index);
        out.push((a, b, allowed));
        Ok(())
    })?;
    Ok(out)
}
