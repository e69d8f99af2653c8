//! Bad input: every case is an error (never a panic) whose one-line message gives the line and
//! column, the shape (index and id) or pair, the field, what was expected and what was found.
//! Messages quoting the build's range or rounding are in `numbers.rs`.

use sepax_scene::read_scene;

/// (input, where the error points: a piece of the input and which occurrence of it, message
/// after "line L, column C: "). Without a piece, the message is given whole.
#[allow(clippy::type_complexity)]
const CASES: &[(&str, Option<(&str, usize)>, &str)] = &[
    (
        r##""##,
        None,
        r##"empty input: expected a JSON object with a "shapes" array"##,
    ),
    (
        r##"  
	 "##,
        None,
        r##"empty input: expected a JSON object with a "shapes" array"##,
    ),
    (
        r##"{"shapes": [}"##,
        None,
        r##"line 1, column 13: expected value"##,
    ),
    (
        r##"{"shapes": [
  {"id": "a",
   "type": "sphere""##,
        None,
        r##"line 3, column 19: EOF while parsing an object"##,
    ),
    (
        r##"{"shapes": [], "pairs": []} x"##,
        None,
        r##"line 1, column 29: trailing characters"##,
    ),
    (
        r##"{"shapes": [NaN]}"##,
        None,
        r##"line 1, column 13: expected value"##,
    ),
    (
        r##"[1, 2]"##,
        Some((r##"[1"##, 0)),
        r##"top level: expected a JSON object with a "shapes" array, found [1, 2]"##,
    ),
    (
        r##"{}"##,
        Some((r##"{"##, 0)),
        r##"top level: field "shapes": expected an array of shape objects, found nothing (the field is missing)"##,
    ),
    (
        r##"{"shapes": {}}"##,
        Some((r##"{}"##, 0)),
        r##"top level: field "shapes": expected an array of shape objects, found {}"##,
    ),
    (
        r##"{"version": 3, "shapes": []}"##,
        Some((r##"3"##, 0)),
        r##"top level: field "version": expected 1 or 2 (the versions this reader knows), found 3"##,
    ),
    (
        r##"{"version": "1", "shapes": []}"##,
        Some((r##""1""##, 0)),
        r##"top level: field "version": expected 1 or 2 (the versions this reader knows), found "1""##,
    ),
    (
        r##"{"shapes": [], "shapes": []}"##,
        Some((r##"[]"##, 1)),
        r##"top level: field "shapes": expected each field at most once, found a second "shapes""##,
    ),
    (
        r##"{"shapes": [], "colour": 1}"##,
        Some((r##"1"##, 0)),
        r##"top level: field "colour": expected one of "version", "shapes", "pairs", "frames", "allowed", "world", found an unknown field"##,
    ),
    (
        r##"{"shapes": [5]}"##,
        Some((r##"5"##, 0)),
        r##"shape 0: expected a shape object, found 5"##,
    ),
    (
        r##"{"shapes": [{"type": "sphere"}]}"##,
        Some((r##"{"type"##, 0)),
        r##"shape 0: field "id": expected a non-empty string, found nothing (the field is missing)"##,
    ),
    (
        r##"{"shapes": [{"id": "", "type": "sphere"}]}"##,
        Some((r##""""##, 0)),
        r##"shape 0: field "id": expected a non-empty string, found """##,
    ),
    (
        r##"{"shapes": [{"id": 7, "type": "sphere"}]}"##,
        Some((r##"7"##, 0)),
        r##"shape 0: field "id": expected a non-empty string, found 7"##,
    ),
    (
        r##"{"shapes": [{"id": "b"}]}"##,
        Some((r##"{"id""##, 0)),
        r##"shape 0 ("b"): field "type": expected one of "aabb", "obb", "sphere", "capsule", "triangle", found nothing (the field is missing)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "cone"}]}"##,
        Some((r##""cone""##, 0)),
        r##"shape 0 ("b"): field "type": expected one of "aabb", "obb", "sphere", "capsule", "triangle", found "cone""##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "Sphere"}]}"##,
        Some((r##""Sphere""##, 0)),
        r##"shape 0 ("b"): field "type": expected one of "aabb", "obb", "sphere", "capsule", "triangle", found "Sphere""##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1, "colour": "red"}]}"##,
        Some((r##""red""##, 0)),
        r##"shape 0 ("b"): field "colour": expected one of "id", "type", "center", "radius", "layer", "mask" (the fields of a sphere), found an unknown field"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1, "p0": [1, 2, 3]}]}"##,
        Some((r##"[1, 2"##, 0)),
        r##"shape 0 ("b"): field "p0": expected one of "id", "type", "center", "radius", "layer", "mask" (the fields of a sphere), found a field that a sphere does not have"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1, "radius": 2}]}"##,
        Some((r##"2}"##, 0)),
        r##"shape 0 ("b"): field "radius": expected each field at most once, found a second "radius""##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0]}]}"##,
        Some((r##"{"id""##, 0)),
        r##"shape 0 ("b"): field "radius": expected a number >= 0, found nothing (the field is missing)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0], "radius": 1}]}"##,
        Some((r##"[0, 0]"##, 0)),
        r##"shape 0 ("b"): field "center": expected 3 numbers, found [0, 0]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0, 0], "radius": 1}]}"##,
        Some((r##"[0, 0"##, 0)),
        r##"shape 0 ("b"): field "center": expected 3 numbers, found [0, 0, 0, 0]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": "0 0 0", "radius": 1}]}"##,
        Some((r##""0 0 0""##, 0)),
        r##"shape 0 ("b"): field "center": expected 3 numbers, found "0 0 0""##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, null, 0], "radius": 1}]}"##,
        Some((r##"[0, null"##, 0)),
        r##"shape 0 ("b"): field "center": expected 3 numbers, found [0, null, 0]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": -1}]}"##,
        Some((r##"-1"##, 0)),
        r##"shape 0 ("b"): field "radius": expected a number >= 0, found -1"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": "NaN"}]}"##,
        Some((r##""NaN""##, 0)),
        r##"shape 0 ("b"): field "radius": expected a number >= 0, found "NaN""##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": [1]}]}"##,
        Some((r##"[1]"##, 0)),
        r##"shape 0 ("b"): field "radius": expected a number >= 0, found [1]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "aabb", "min": [0, 0, 0], "max": [1, -1, 1]}]}"##,
        Some((r##"[0, 0, 0]"##, 0)),
        r##"shape 0 ("b"): field "min": expected min <= max on every axis, found [0, 0, 0] (min[1] = 0 > max[1] = -1)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "aabb", "min": [0, 0, 0], "center": [1, 1, 1]}]}"##,
        Some((r##"[1, 1, 1]"##, 0)),
        r##"shape 0 ("b"): field "center": expected either "min" and "max" or "center" and "half_extents", not both, found both forms"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "aabb"}]}"##,
        Some((r##"{"id""##, 0)),
        r##"shape 0 ("b"): field "min": expected 3 numbers (either "min" and "max" or "center" and "half_extents"), found nothing (the field is missing)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "aabb", "max": [1, 1, 1]}]}"##,
        Some((r##"{"id""##, 0)),
        r##"shape 0 ("b"): field "min": expected 3 numbers, found nothing (the field is missing)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "aabb", "center": [1, 1, 1]}]}"##,
        Some((r##"{"id""##, 0)),
        r##"shape 0 ("b"): field "half_extents": expected 3 numbers >= 0, found nothing (the field is missing)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "axes": [[1, 0, 0], [0, 1, 0], [0, 0.1, 1]]}]}"##,
        Some((r##"[["##, 0)),
        r##"shape 0 ("b"): field "axes": expected orthonormal rows (| |a_i|^2 - 1 | <= 0.0001 and |a_i . a_j| <= 0.0001), found [[1, 0, 0], [0, 1, 0], [0, 0.1, 1]] (|axes[2]|^2 = 1.01)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "axes": [[1, 0, 0], [0, 1, 0], [0, 0.6, 0.8]]}]}"##,
        Some((r##"[["##, 0)),
        r##"shape 0 ("b"): field "axes": expected orthonormal rows (| |a_i|^2 - 1 | <= 0.0001 and |a_i . a_j| <= 0.0001), found [[1, 0, 0], [0, 1, 0], [0, 0.6, 0.8]] (axes[1] . axes[2] = 0.6)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "axes": [[1, 0, 0], [0, 1, 0]]}]}"##,
        Some((r##"[["##, 0)),
        r##"shape 0 ("b"): field "axes": expected 3 rows of 3 numbers (the box's local x, y, z axes), found [[1, 0, 0], [0, 1, 0]]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "axes": [[1, 0, 0], [0, 1, 0], [0, 0, "1"]]}]}"##,
        Some((r##"[["##, 0)),
        r##"shape 0 ("b"): field "axes": expected 3 rows of 3 numbers (the box's local x, y, z axes), found [[1, 0, 0], [0, 1, 0], [0, 0, "1"]]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "rotation": [1, 0, 0, 0.1]}]}"##,
        Some((r##"[1, 0, 0, 0.1]"##, 0)),
        r##"shape 0 ("b"): field "rotation": expected a unit quaternion [w, x, y, z] (| |q| - 1 | <= 0.0001), found [1, 0, 0, 0.1] (norm NORM)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "rotation": [1, 0, 0]}]}"##,
        Some((r##"[1, 0, 0]}"##, 0)),
        r##"shape 0 ("b"): field "rotation": expected a unit quaternion [w, x, y, z] (4 numbers), found [1, 0, 0]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1]}]}"##,
        Some((r##"{"id""##, 0)),
        r##"shape 0 ("b"): field "axes": expected 3 rows of 3 numbers (the box's local x, y, z axes), or "rotation": a unit quaternion [w, x, y, z], found nothing (the field is missing)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "rotation": [1, 0, 0, 0], "axes": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}]}"##,
        Some((r##"[1, 0, 0, 0]"##, 0)),
        r##"shape 0 ("b"): field "rotation": expected exactly one of "axes" and "rotation", found both"##,
    ),
    (
        r##"{"shapes": [{"id": "crate", "type": "obb", "center": [0, 0, 0], "half_extents": [1, -2, 3], "rotation": [1, 0, 0, 0]}]}"##,
        Some((r##"[1, -2"##, 0)),
        r##"shape 0 ("crate"): field "half_extents": expected 3 numbers >= 0, found [1, -2, 3]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1, "layer": -1}]}"##,
        Some((r##"-1"##, 0)),
        r##"shape 0 ("b"): field "layer": expected an integer from 0 to 4294967295, found -1"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1, "layer": 1.0}]}"##,
        Some((r##"1.0"##, 0)),
        r##"shape 0 ("b"): field "layer": expected an integer from 0 to 4294967295, found 1.0"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1, "mask": 4294967296}]}"##,
        Some((r##"4294967296"##, 0)),
        r##"shape 0 ("b"): field "mask": expected an integer from 0 to 4294967295, found 4294967296"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}, {"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}]}"##,
        Some((r##""b""##, 1)),
        r##"shape 1 ("b"): field "id": expected an id that no other shape has, found "b" (already the id of shape 0)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}], "pairs": [["b", "c"]]}"##,
        Some((r##"["b""##, 0)),
        r##"pair 0: expected ids of shapes of the file, found "c" (no shape has this id)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}], "pairs": [["b", "b"]]}"##,
        Some((r##"["b""##, 0)),
        r##"pair 0: expected 2 different shape ids, found ["b", "b"]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}], "pairs": [["b"]]}"##,
        Some((r##"["b""##, 0)),
        r##"pair 0: expected an array of 2 shape ids, found ["b"]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}], "pairs": [["b", 1]]}"##,
        Some((r##"["b""##, 0)),
        r##"pair 0: expected an array of 2 shape ids, found ["b", 1]"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}], "pairs": [[]]}"##,
        Some((r##"[]"##, 0)),
        r##"pair 0: expected an array of 2 shape ids, found []"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}], "pairs": {}}"##,
        Some((r##"{}"##, 0)),
        r##"top level: field "pairs": expected an array of pairs [id, id], found {}"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1}, {"id": "c", "type": "sphere", "center": [0, 0, 0], "radius": 1}], "pairs": [["b", "c"], ["c", "b"]]}"##,
        Some((r##"["c", "b"]"##, 0)),
        r##"pair 1: expected each pair of shapes at most once, found ["c", "b"] (the same shapes as pair 0)"##,
    ),
    (
        r##"{"shapes": [{"id": "b", "type": "triangle", "a": [0, 0, 0], "b": [1, 1, 1], "c": [true, 1, 1]}]}"##,
        Some((r##"[true"##, 0)),
        r##"shape 0 ("b"): field "c": expected 3 numbers, found [true, 1, 1]"##,
    ),
    (
        r##"{"shapes": [
  {"id": "a", "type": "sphere", "center": [0, 0, 0], "radius": 1},
  {"id": "crate", "type": "obb", "center": [0, 0, 0],
   "half_extents": [
     1,
     -2,
     3
   ], "rotation": [1, 0, 0, 0]}
]}"##,
        Some((
            r##"[
     1"##,
            0,
        )),
        r##"shape 1 ("crate"): field "half_extents": expected 3 numbers >= 0, found [1, -2, 3]"##,
    ),
    (
        r##"﻿{"shapes": 3}"##,
        Some((r##"3"##, 0)),
        r##"top level: field "shapes": expected an array of shape objects, found 3"##,
    ),
];

/// Line and column (from 1, in characters) of the `n`-th occurrence of `piece` in `text`.
fn position_of(text: &str, piece: &str, n: usize) -> (usize, usize) {
    let at = text
        .match_indices(piece)
        .nth(n)
        .unwrap_or_else(|| panic!("{piece:?} not in {text:?}"))
        .0;
    let before = &text[..at];
    let line = 1 + before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, 1 + before[start..].chars().count())
}

#[test]
fn every_bad_input_gives_its_message() {
    // The norm of [1, 0, 0, 0.1] as the build computes it.
    let norm = sepax_shapes::math::Quaternion::new(1.0, 0.0, 0.0, 0.1)
        .norm()
        .to_string();
    let mut wrong = Vec::new();
    for (input, anchor, tail) in CASES {
        let tail = tail.replace("NORM", &norm);
        let want = match anchor {
            None => tail,
            Some((piece, n)) => {
                // Columns count characters; a byte-order mark is not one of them.
                let text = input.trim_start_matches('\u{feff}');
                let (line, column) = position_of(text, piece, *n);
                format!("line {line}, column {column}: {tail}")
            }
        };
        match read_scene(input) {
            Ok(_) => wrong.push(format!("accepted: {input}")),
            Err(e) if e.to_string() != want => {
                wrong.push(format!("input: {input}\n  got:  {e}\n  want: {want}"))
            }
            Err(e) => assert!(!e.to_string().contains('\n')),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
