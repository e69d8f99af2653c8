//! Writing scenes in the version-1 format (version 2 when a scene has collider attributes), so that reading the text back gives the same scene
//! exactly: AABBs as `min`/`max` (their stored form), OBBs as `center`, `half_extents` and `axes`
//! (rows are the stored axes), and every number in the shortest decimal form that rounds back to
//! the same `Real`.

use std::fmt::Write as _;

use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Shape;
use sepax_world::{ColliderDesc, Kind, Report};

use crate::model::Frame;
use crate::Scene;

/// Writes a scene as version-1 JSON text, one shape per line and one frame per line (no
/// `frames` field when the scene has none). [`crate::read_scene`] reads it back
/// to an equal scene. A pair index outside `shapes` (which a reader never produces) is written as
/// an id no shape has (and so is a frame's pose of such an index), so that reading the text back
/// fails instead of silently dropping it.
pub fn write_scene(scene: &Scene) -> String {
    let mut out = String::with_capacity(64 + 160 * scene.shapes.len());
    let version = if scene.is_version2() { 2 } else { 1 };
    let _ = write!(out, "{{\n  \"version\": {version},");
    if let Some(w) = &scene.world {
        let _ = write!(out, "\n  \"world\": {{\"all_pairs\": {}", w.all_pairs);
        push_number_field(&mut out, "margin", w.margin);
        out.push_str("},");
    }
    out.push_str("\n  \"shapes\": [");
    for (i, s) in scene.shapes.iter().enumerate() {
        out.push_str(if i == 0 { "\n    {" } else { ",\n    {" });
        out.push_str("\"id\": ");
        push_string(&mut out, &s.id);
        // A collider's fields are its local shape; `shape` is that shape placed.
        let local = s.collider.as_ref().map_or(&s.shape, |c| &c.shape);
        push_shape(&mut out, local);
        if let Some(layer) = s.layer {
            let _ = write!(out, ", \"layer\": {layer}");
        }
        if let Some(mask) = s.mask {
            let _ = write!(out, ", \"mask\": {mask}");
        }
        if let Some(c) = &s.collider {
            push_collider(&mut out, c);
        }
        out.push('}');
    }
    if !scene.shapes.is_empty() {
        out.push_str("\n  ");
    }
    out.push(']');
    if let Some(pairs) = &scene.pairs {
        out.push_str(",\n  \"pairs\": [");
        for (i, &(a, b)) in pairs.iter().enumerate() {
            out.push_str(if i == 0 { "\n    [" } else { ",\n    [" });
            push_id_of(&mut out, scene, a);
            out.push_str(", ");
            push_id_of(&mut out, scene, b);
            out.push(']');
        }
        if !pairs.is_empty() {
            out.push_str("\n  ");
        }
        out.push(']');
    }
    if !scene.frames.is_empty() {
        out.push_str(",\n  \"frames\": [");
        for (i, frame) in scene.frames.iter().enumerate() {
            out.push_str(if i == 0 { "\n    " } else { ",\n    " });
            push_frame(&mut out, scene, frame);
        }
        out.push_str("\n  ]");
    }
    if !scene.allowed.is_empty() {
        out.push_str(",\n  \"allowed\": [");
        for (i, &(a, b, allowed)) in scene.allowed.iter().enumerate() {
            out.push_str(if i == 0 { "\n    [" } else { ",\n    [" });
            push_id_of(&mut out, scene, a);
            out.push_str(", ");
            push_id_of(&mut out, scene, b);
            let _ = write!(out, ", {allowed}]");
        }
        out.push_str("\n  ]");
    }
    out.push_str("\n}\n");
    out
}

/// A shape's type and fields (`, "type": ..., ...`).
fn push_shape(out: &mut String, shape: &Shape) {
    match shape {
        Shape::Aabb(b) => {
            out.push_str(", \"type\": \"aabb\"");
            push_point(out, "min", &b.min());
            push_point(out, "max", &b.max());
        }
        Shape::Obb(b) => {
            out.push_str(", \"type\": \"obb\"");
            push_point(out, "center", &b.center());
            push_vector(out, "half_extents", &b.half_extents());
            out.push_str(", \"axes\": [");
            for k in 0..3 {
                if k > 0 {
                    out.push_str(", ");
                }
                push_triple(out, &b.axis(k));
            }
            out.push(']');
        }
        Shape::Sphere(s) => {
            out.push_str(", \"type\": \"sphere\"");
            push_point(out, "center", &s.center());
            push_number_field(out, "radius", s.radius());
        }
        Shape::Capsule(c) => {
            out.push_str(", \"type\": \"capsule\"");
            push_point(out, "p0", &c.p0());
            push_point(out, "p1", &c.p1());
            push_number_field(out, "radius", c.radius());
        }
        Shape::Triangle(t) => {
            out.push_str(", \"type\": \"triangle\"");
            push_point(out, "a", &t.a());
            push_point(out, "b", &t.b());
            push_point(out, "c", &t.c());
        }
    }
}

/// A version-2 `collider` object: the pose (position and the stored quaternion, exactly) and
/// every attribute.
fn push_collider(out: &mut String, c: &ColliderDesc) {
    let t = c.pose.translation.vector;
    let q = c.pose.rotation.quaternion();
    out.push_str(", \"collider\": {\"position\": ");
    push_triple(out, &t);
    out.push_str(", \"rotation\": [");
    for (k, x) in [q.w, q.i, q.j, q.k].into_iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        push_number(out, x);
    }
    let kind = match c.kind {
        Kind::Static => "static",
        Kind::Kinematic => "kinematic",
        Kind::Dynamic => "dynamic",
    };
    let report = match c.report {
        Report::BeginEnd => "begin_end",
        Report::Persist => "persist",
        Report::Manifolds => "manifolds",
    };
    let f = &c.filter;
    let _ = write!(
        out,
        "], \"kind\": \"{kind}\", \"membership\": {}, \"mask\": {}, \"group\": {}",
        f.membership, f.mask, f.group
    );
    if let Some(owner) = f.owner {
        let _ = write!(out, ", \"owner\": {}", owner.0);
    }
    let _ = write!(
        out,
        ", \"user\": {}, \"sensor\": {}, \"enabled\": {}, \"report\": \"{report}\", \"ccd\": {}}}",
        c.user, c.sensor, c.enabled, c.ccd
    );
}

/// One frame on one line: `{"poses": {id: placement, ...}}`, each placement in the fields the
/// shapes use (AABBs as `min`/`max`, OBBs as `center`/`axes`), without the sizes.
fn push_frame(out: &mut String, scene: &Scene, frame: &Frame) {
    out.push_str("{\"poses\": {");
    for (k, (index, shape)) in frame.poses.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        push_id_of(out, scene, *index);
        out.push_str(": {");
        let mut first = true;
        let mut field = |out: &mut String, name: &str, v: &Vector3| {
            if !first {
                out.push_str(", ");
            }
            first = false;
            let _ = write!(out, "\"{name}\": ");
            push_triple(out, v);
        };
        match shape {
            Shape::Aabb(b) => {
                field(out, "min", &b.min().coords);
                field(out, "max", &b.max().coords);
            }
            Shape::Obb(b) => {
                field(out, "center", &b.center().coords);
                out.push_str(", \"axes\": [");
                for k in 0..3 {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    push_triple(out, &b.axis(k));
                }
                out.push(']');
            }
            Shape::Sphere(s) => field(out, "center", &s.center().coords),
            Shape::Capsule(c) => {
                field(out, "p0", &c.p0().coords);
                field(out, "p1", &c.p1().coords);
            }
            Shape::Triangle(t) => {
                field(out, "a", &t.a().coords);
                field(out, "b", &t.b().coords);
                field(out, "c", &t.c().coords);
            }
        }
        out.push('}');
    }
    out.push_str("}}");
}

fn push_id_of(out: &mut String, scene: &Scene, index: usize) {
    match scene.shapes.get(index) {
        Some(s) => push_string(out, &s.id),
        None => push_string(out, &format!("<no shape {index}>")),
    }
}

/// A JSON string literal.
fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_point(out: &mut String, name: &str, p: &Point3) {
    push_vector(out, name, &p.coords);
}

fn push_vector(out: &mut String, name: &str, v: &Vector3) {
    let _ = write!(out, ", \"{name}\": ");
    push_triple(out, v);
}

fn push_triple(out: &mut String, v: &Vector3) {
    out.push('[');
    push_number(out, v.x);
    out.push_str(", ");
    push_number(out, v.y);
    out.push_str(", ");
    push_number(out, v.z);
    out.push(']');
}

fn push_number_field(out: &mut String, name: &str, x: Real) {
    let _ = write!(out, ", \"{name}\": ");
    push_number(out, x);
}

/// The shortest decimal that reads back as `x` (Rust's float formatting is shortest
/// round-trip), in plain notation for ordinary magnitudes and in exponent notation for very large
/// or very small ones. Shapes hold only finite numbers; a non-finite one (impossible through the
/// checked constructors) would be written as `null`, which the reader rejects.
fn push_number(out: &mut String, x: Real) {
    let _ = if !x.is_finite() {
        write!(out, "null")
    } else if x == 0.0 || (1e-5..1e16).contains(&x.abs()) {
        write!(out, "{x}")
    } else {
        write!(out, "{x:e}")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(x: Real) -> String {
        let mut s = String::new();
        push_number(&mut s, x);
        s
    }

    #[test]
    fn numbers_are_short_and_json() {
        assert_eq!(number(0.1), "0.1");
        assert_eq!(number(-0.0), "-0");
        assert_eq!(number(10.0), "10");
        assert_eq!(number(1e30), "1e30");
        assert_eq!(number(-2.5e-7), "-2.5e-7");
        assert_eq!(number(Real::MAX).parse::<Real>(), Ok(Real::MAX));
        let tiny = Real::from_bits(1);
        assert_eq!(number(tiny).parse::<Real>(), Ok(tiny));
    }

    #[test]
    fn strings_are_escaped() {
        let mut s = String::new();
        push_string(&mut s, "a\"b\\c\n\u{1}é");
        assert_eq!(s, "\"a\\\"b\\\\c\\n\\u0001é\"");
        assert_eq!(
            serde_json::from_str::<String>(&s).ok().as_deref(),
            Some("a\"b\\c\n\u{1}é")
        );
    }
}
