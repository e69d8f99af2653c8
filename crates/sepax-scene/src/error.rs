//! Scene errors. Each is one value whose one-line message says where the problem is (line and
//! column of the offending JSON value, the shape's index and id or the pair's index), which field,
//! what was expected and what was found.

use std::fmt;

/// Longest excerpt of the file (a found value, an id) that a message quotes; longer ones are cut
/// and end with `...`.
const EXCERPT_CHARS: usize = 60;

/// Where in a scene document a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The top-level object.
    TopLevel,
    /// An entry of `shapes`.
    Shape {
        /// Its index in `shapes`, counted from 0.
        index: usize,
        /// Its id, when the `id` field could be read.
        id: Option<String>,
    },
    /// An entry of `pairs`.
    Pair {
        /// Its index in `pairs`, counted from 0.
        index: usize,
    },
    /// An entry of `frames`, or one shape's placement in it.
    Frame {
        /// The frame's number: entry `frame - 1` of `frames` (frame 0 is the scene as written).
        frame: usize,
        /// The id of the shape whose placement is wrong, when the problem is in one (boxed, so
        /// that the error stays small).
        id: Option<Box<str>>,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::TopLevel => f.write_str("top level"),
            Place::Shape {
                index,
                id: Some(id),
            } => write!(f, "shape {index} ({})", quote(id)),
            Place::Shape { index, id: None } => write!(f, "shape {index}"),
            Place::Pair { index } => write!(f, "pair {index}"),
            Place::Frame {
                frame,
                id: Some(id),
            } => write!(f, "frame {frame} ({})", quote(id)),
            Place::Frame { frame, id: None } => write!(f, "frame {frame}"),
        }
    }
}

/// Why a scene could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read (missing, unreadable).
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path as given.
        path: String,
        /// The operating system's reason.
        message: String,
    },
    /// The input is empty or only whitespace.
    #[error("empty input: expected a JSON object with a \"shapes\" array")]
    Empty,
    /// The input is not JSON: a syntax error, invalid UTF-8, trailing characters.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// Line of the error, from 1.
        line: usize,
        /// Column of the error (as the JSON parser counts it).
        column: usize,
        /// What the JSON parser found wrong.
        message: String,
    },
    /// Valid JSON that is not a valid version-1 scene.
    #[error(
        "line {line}, column {column}: {place}: {}expected {expected}, found {found}",
        field_prefix(.field)
    )]
    Invalid {
        /// Line of the offending value, from 1.
        line: usize,
        /// Column of the offending value, from 1 (in characters).
        column: usize,
        /// The top level, a shape, a pair or a frame.
        place: Place,
        /// The field, when the problem is in one.
        field: Option<String>,
        /// What the format requires there.
        expected: String,
        /// What the file holds there (an excerpt of the JSON text, or a description).
        found: String,
    },
}

impl SceneError {
    /// Line and column of the problem, when it has a position in the text.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            SceneError::Syntax { line, column, .. } | SceneError::Invalid { line, column, .. } => {
                Some((*line, *column))
            }
            SceneError::Io { .. } | SceneError::Empty => None,
        }
    }

    /// The shape, pair or frame the problem is in, if any.
    pub fn place(&self) -> Option<&Place> {
        match self {
            SceneError::Invalid { place, .. } => Some(place),
            _ => None,
        }
    }

    /// The field the problem is in, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            SceneError::Invalid { field, .. } => field.as_deref(),
            _ => None,
        }
    }
}

fn field_prefix(field: &Option<String>) -> String {
    match field {
        Some(name) => format!("field {}: ", quote(name)),
        None => String::new(),
    }
}

/// A string as a JSON string literal, cut to [`EXCERPT_CHARS`] characters.
pub(crate) fn quote(s: &str) -> String {
    let cut = cut(s);
    let mut out = serde_json::to_string(cut).unwrap_or_else(|_| format!("{cut:?}"));
    if cut.len() < s.len() {
        out.push_str("...");
    }
    out
}

/// An excerpt of JSON text for a message: line breaks and tabs (which JSON strings cannot hold
/// unescaped, so they are layout) collapse to one space, and long text is cut.
pub(crate) fn excerpt(json: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut chars = json.trim().chars().peekable();
    while let Some(ch) = chars.next() {
        if count >= EXCERPT_CHARS {
            out.push_str("...");
            return out;
        }
        if !matches!(ch, ' ' | '\n' | '\r' | '\t') {
            out.push(ch);
            count += 1;
            continue;
        }
        let mut run = String::from(ch);
        while let Some(&next) = chars.peek() {
            if !matches!(next, ' ' | '\n' | '\r' | '\t') {
                break;
            }
            run.push(next);
            chars.next();
        }
        if !run.contains(['\n', '\r', '\t']) {
            // Spaces as written (possibly inside a string).
            count += run.chars().count();
            out.push_str(&run);
        } else if !(out.ends_with(['[', '{']) || matches!(chars.peek(), Some(']' | '}' | ','))) {
            // Layout: "[\n  1,\n  2\n]" reads as "[1, 2]".
            out.push(' ');
            count += 1;
        }
    }
    out
}

fn cut(s: &str) -> &str {
    match s.char_indices().nth(EXCERPT_CHARS) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_collapses_layout_and_cuts() {
        assert_eq!(excerpt("[\n  1,\n  -2,\n  3\n]"), "[1, -2, 3]");
        assert_eq!(excerpt("  [1, 2]  "), "[1, 2]");
        let long = format!("[{}]", vec!["1"; 100].join(", "));
        let e = excerpt(&long);
        assert!(e.ends_with("..."));
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 3);
    }

    #[test]
    fn quote_escapes_and_cuts() {
        assert_eq!(quote("crate"), "\"crate\"");
        assert_eq!(quote("a\"b\n"), "\"a\\\"b\\n\"");
        assert!(quote(&"x".repeat(100)).ends_with("\"..."));
    }

    #[test]
    fn display_is_one_line_with_place_field_expected_found() {
        let e = SceneError::Invalid {
            line: 4,
            column: 17,
            place: Place::Shape {
                index: 3,
                id: Some("crate".into()),
            },
            field: Some("half_extents".into()),
            expected: "3 numbers >= 0".into(),
            found: "[1, -2, 3]".into(),
        };
        assert_eq!(
            e.to_string(),
            "line 4, column 17: shape 3 (\"crate\"): field \"half_extents\": expected 3 numbers >= 0, found [1, -2, 3]"
        );
        assert_eq!(e.position(), Some((4, 17)));
        assert_eq!(e.field(), Some("half_extents"));
    }
}
