//! Reading scene files of versions 1 and 2 (`docs/scene-format.md`) with strict validation.
//!
//! Three steps: serde_json checks the whole text for syntax (syntax errors get its line and
//! column); the top-level object and then each shape are walked one level at a time as borrowed
//! raw JSON texts, so no tree of the document is built and memory stays proportional to the
//! shapes; each field is then read from its own text (numbers rounded once, correctly, to
//! `Real`) and each shape built with the checked constructors of `sepax-shapes`.

mod collider;
mod frame;
mod number;
mod raw;
mod shape;

pub use frame::{MAX_FRAME_SHAPES, SIZE_TOLERANCE};

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use serde_json::value::RawValue;

use self::raw::{each_element, each_field, exactly, kind, string, Kind, Source};
use crate::error::{excerpt, quote, Place, SceneError};
use crate::{Scene, SceneShape};

/// The scene format versions this reader implements: 1, and 2 (version 1 with the world's
/// collider attributes: `collider` on shapes, `allowed` and `world` at the top level).
const VERSIONS: [&str; 2] = ["1", "2"];

/// Reads a scene from the JSON text of a scene file (version 1 or 2).
///
/// Every problem is an error (never a panic) whose one-line message gives the line and column,
/// the shape (index from 0 and id) or pair, the field, what was expected and what was found.
pub fn read_scene(text: &str) -> Result<Scene, SceneError> {
    // A UTF-8 byte-order mark is not JSON, but editors write it; skip it (editors do not show
    // it, so columns do not count it).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        return Err(SceneError::Empty);
    }
    let src = Source::new(text);
    let root: &RawValue = serde_json::from_str(text).map_err(|e| src.syntax_error(&e))?;
    read_root(&src, root)
}

/// Reads a scene file (UTF-8 JSON); see [`read_scene`].
pub fn read_scene_file(path: &Path) -> Result<Scene, SceneError> {
    let bytes = std::fs::read(path).map_err(|e| SceneError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => read_scene(&text),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let prefix = std::str::from_utf8(&e.as_bytes()[..valid]).unwrap_or("");
            let line = 1 + prefix.bytes().filter(|&b| b == b'\n').count();
            let column = 1 + prefix[prefix.rfind('\n').map_or(0, |i| i + 1)..]
                .chars()
                .count();
            Err(SceneError::Syntax {
                line,
                column,
                message: "invalid UTF-8 (a scene file is UTF-8 JSON)".into(),
            })
        }
    }
}

fn top_error(
    src: &Source<'_>,
    at: &RawValue,
    field: Option<&str>,
    expected: impl Into<String>,
    found: impl Into<String>,
) -> SceneError {
    let (line, column) = src.position(at.get());
    SceneError::Invalid {
        line,
        column,
        place: Place::TopLevel,
        field: field.map(str::to_owned),
        expected: expected.into(),
        found: found.into(),
    }
}

fn read_root(src: &Source<'_>, root: &RawValue) -> Result<Scene, SceneError> {
    const TOP: &str = "a JSON object with a \"shapes\" array";
    if kind(root) != Kind::Object {
        return Err(top_error(src, root, None, TOP, excerpt(root.get())));
    }
    let mut version = None;
    let mut shapes = None;
    let mut pairs = None;
    let mut frames = None;
    let mut allowed = None;
    let mut world = None;
    let mut repeated: Option<(Cow<'_, str>, &RawValue)> = None;
    let mut unknown: Option<(Cow<'_, str>, &RawValue)> = None;
    each_field(src, root, |key, value| {
        let slot = match &*key {
            "version" => &mut version,
            "shapes" => &mut shapes,
            "pairs" => &mut pairs,
            "frames" => &mut frames,
            "allowed" => &mut allowed,
            "world" => &mut world,
            _ => {
                unknown.get_or_insert((key, value));
                return;
            }
        };
        if slot.is_some() {
            repeated.get_or_insert((key, value));
        } else {
            *slot = Some(value);
        }
    })?;
    if let Some((key, value)) = repeated {
        return Err(top_error(
            src,
            value,
            Some(&key),
            "each field at most once",
            format!("a second {}", quote(&key)),
        ));
    }
    if let Some((key, value)) = unknown {
        return Err(top_error(
            src,
            value,
            Some(&key),
            "one of \"version\", \"shapes\", \"pairs\", \"frames\", \"allowed\", \"world\"",
            "an unknown field",
        ));
    }
    let mut version2 = false;
    if let Some(v) = version {
        let text = v.get().trim();
        if kind(v) != Kind::Number || !VERSIONS.contains(&text) {
            return Err(top_error(
                src,
                v,
                Some("version"),
                "1 or 2 (the versions this reader knows)",
                excerpt(v.get()),
            ));
        }
        version2 = text == "2";
    }
    for (name, raw) in [("allowed", allowed), ("world", world)] {
        if let (Some(raw), false) = (raw, version2) {
            return Err(top_error(
                src,
                raw,
                Some(name),
                "a file of version 2 (\"version\": 2) for this field",
                "a version-1 file",
            ));
        }
    }
    let shapes_raw = shapes.ok_or_else(|| {
        top_error(
            src,
            root,
            Some("shapes"),
            "an array of shape objects",
            "nothing (the field is missing)",
        )
    })?;
    if kind(shapes_raw) != Kind::Array {
        return Err(top_error(
            src,
            shapes_raw,
            Some("shapes"),
            "an array of shape objects",
            excerpt(shapes_raw.get()),
        ));
    }

    let mut scene_shapes = Vec::new();
    let mut ids: HashMap<Cow<'_, str>, usize> = HashMap::new();
    each_element(src, shapes_raw, |index, raw| {
        let read = shape::read_shape(src, index, raw, version2)?;
        if let Some(&first) = ids.get(&read.id) {
            let (line, column) = src.position(read.id_raw.get());
            return Err(SceneError::Invalid {
                line,
                column,
                place: Place::Shape {
                    index,
                    id: Some(read.id.into_owned()),
                },
                field: Some("id".into()),
                expected: "an id that no other shape has".into(),
                found: format!(
                    "{} (already the id of shape {first})",
                    excerpt(read.id_raw.get())
                ),
            });
        }
        scene_shapes.push(SceneShape {
            id: read.id.as_ref().to_owned(),
            shape: read.shape,
            layer: read.layer,
            mask: read.mask,
            collider: read.collider,
        });
        ids.insert(read.id, index);
        Ok(())
    })?;

    let pairs = match pairs {
        None => None,
        Some(raw) => Some(read_pairs(src, raw, &ids)?),
    };
    let frames = match frames {
        None => Vec::new(),
        Some(raw) => frame::read_frames(src, raw, &ids, &scene_shapes)?,
    };
    let allowed = match allowed {
        None => Vec::new(),
        Some(raw) => collider::read_allowed(src, raw, &ids)?,
    };
    let world = match world {
        None => None,
        Some(raw) => Some(collider::read_world(src, raw)?),
    };
    Ok(Scene {
        shapes: scene_shapes,
        pairs,
        frames,
        allowed,
        world,
    })
}

fn read_pairs(
    src: &Source<'_>,
    raw: &RawValue,
    ids: &HashMap<Cow<'_, str>, usize>,
) -> Result<Vec<(usize, usize)>, SceneError> {
    const PAIR: &str = "an array of 2 shape ids";
    if kind(raw) != Kind::Array {
        return Err(top_error(
            src,
            raw,
            Some("pairs"),
            "an array of pairs [id, id]",
            excerpt(raw.get()),
        ));
    }
    let mut out = Vec::new();
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    each_element(src, raw, |index, item| {
        let error = |expected: &str, found: String| {
            let (line, column) = src.position(item.get());
            SceneError::Invalid {
                line,
                column,
                place: Place::Pair { index },
                field: None,
                expected: expected.to_owned(),
                found,
            }
        };
        let [Some(first), Some(second)] =
            exactly::<2>(item).ok_or_else(|| error(PAIR, excerpt(item.get())))?
        else {
            return Err(error(PAIR, excerpt(item.get())));
        };
        let mut ends = [0; 2];
        for (slot, end) in ends.iter_mut().zip([first, second]) {
            let id = string(end).ok_or_else(|| error(PAIR, excerpt(item.get())))?;
            *slot = *ids.get(&id).ok_or_else(|| {
                error(
                    "ids of shapes of the file",
                    format!("{} (no shape has this id)", quote(&id)),
                )
            })?;
        }
        let [a, b] = ends;
        if a == b {
            return Err(error("2 different shape ids", excerpt(item.get())));
        }
        if let Some(&earlier) = seen.get(&(a.min(b), a.max(b))) {
            return Err(error(
                "each pair of shapes at most once",
                format!(
                    "{} (the same shapes as pair {earlier})",
                    excerpt(item.get())
                ),
            ));
        }
        seen.insert((a.min(b), a.max(b)), index);
        out.push((a, b));
        Ok(())
    })?;
    Ok(out)
}
