//! The JSON layer: the whole text is checked for syntax once (serde_json, which skips nested
//! values without recursion), then objects and arrays are walked one level at a time as borrowed
//! raw texts ([`RawValue`]). Nothing builds a tree of the document, numbers keep their decimal
//! text until they are rounded once to `Real`, and every value keeps its place in the file for
//! error messages.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::error::SceneError;

/// The kind of a JSON value, from its first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

/// The kind of a syntactically valid JSON value.
pub(super) fn kind(raw: &RawValue) -> Kind {
    match raw.get().trim_start().as_bytes().first() {
        Some(b'{') => Kind::Object,
        Some(b'[') => Kind::Array,
        Some(b'"') => Kind::String,
        Some(b't' | b'f') => Kind::Bool,
        Some(b'n') => Kind::Null,
        _ => Kind::Number,
    }
}

/// The text being read, for positions of values inside it.
pub(super) struct Source<'a> {
    text: &'a str,
}

impl<'a> Source<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Self { text }
    }

    /// Line and column (from 1, columns in characters) where `raw` starts. `raw` is a slice of the
    /// text; anything else reports line 1, column 1.
    pub(super) fn position(&self, raw: &str) -> (usize, usize) {
        let offset = (raw.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        let before = self.text.get(..offset).unwrap_or("");
        let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, 1 + before[line_start..].chars().count())
    }

    /// A serde_json error at `raw` (only reached if the text changed between passes, which it
    /// cannot; kept so that no path panics).
    pub(super) fn json_error(&self, raw: &str, e: &serde_json::Error) -> SceneError {
        let (line, column) = self.position(raw);
        SceneError::Syntax {
            line,
            column,
            message: bare_message(e),
        }
    }

    /// A syntax error of the whole text, at the parser's own position.
    pub(super) fn syntax_error(&self, e: &serde_json::Error) -> SceneError {
        SceneError::Syntax {
            line: e.line(),
            column: e.column(),
            message: bare_message(e),
        }
    }
}

/// serde_json's message without its trailing " at line L column C".
fn bare_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_string()
}

/// A JSON string, borrowed from the text when it holds no escapes.
pub(super) struct Text<'a>(pub(super) Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

/// The string a JSON string value holds (`None` if `raw` is not a string).
pub(super) fn string<'a>(raw: &'a RawValue) -> Option<Cow<'a, str>> {
    if kind(raw) != Kind::String {
        return None;
    }
    serde_json::from_str::<Text<'a>>(raw.get())
        .ok()
        .map(|t| t.0)
}

/// Calls `f` with the index and raw text of each element of the array `raw`, in order, and stops
/// at its first error. The caller has checked that `raw` is an array.
pub(super) fn each_element<'a, F>(
    src: &Source<'_>,
    raw: &'a RawValue,
    f: F,
) -> Result<(), SceneError>
where
    F: FnMut(usize, &'a RawValue) -> Result<(), SceneError>,
{
    let mut stop = None;
    let mut de = serde_json::Deserializer::from_str(raw.get());
    let walked = ElementsSeed { f, stop: &mut stop }
        .deserialize(&mut de)
        .and_then(|()| de.end());
    match (walked, stop) {
        (_, Some(e)) => Err(e),
        (Ok(()), None) => Ok(()),
        (Err(e), None) => Err(src.json_error(raw.get(), &e)),
    }
}

struct ElementsSeed<'s, F> {
    f: F,
    stop: &'s mut Option<SceneError>,
}

impl<'de, F> DeserializeSeed<'de> for ElementsSeed<'_, F>
where
    F: FnMut(usize, &'de RawValue) -> Result<(), SceneError>,
{
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, F> Visitor<'de> for ElementsSeed<'_, F>
where
    F: FnMut(usize, &'de RawValue) -> Result<(), SceneError>,
{
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0;
        while let Some(value) = seq.next_element::<&'de RawValue>()? {
            if let Err(e) = (self.f)(index, value) {
                *self.stop = Some(e);
                return Err(de::Error::custom("stopped at the first invalid element"));
            }
            index += 1;
        }
        Ok(())
    }
}

/// Calls `f` with each key and raw value of the object `raw`, in file order (duplicates
/// included). The caller has checked that `raw` is an object.
pub(super) fn each_field<'a, F>(src: &Source<'_>, raw: &'a RawValue, f: F) -> Result<(), SceneError>
where
    F: FnMut(Cow<'a, str>, &'a RawValue),
{
    let mut de = serde_json::Deserializer::from_str(raw.get());
    FieldsSeed(f)
        .deserialize(&mut de)
        .and_then(|()| de.end())
        .map_err(|e| src.json_error(raw.get(), &e))
}

struct FieldsSeed<F>(F);

impl<'de, F> DeserializeSeed<'de> for FieldsSeed<F>
where
    F: FnMut(Cow<'de, str>, &'de RawValue),
{
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, F> Visitor<'de> for FieldsSeed<F>
where
    F: FnMut(Cow<'de, str>, &'de RawValue),
{
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            let value = map.next_value::<&'de RawValue>()?;
            (self.0)(key, value);
        }
        Ok(())
    }
}

/// The elements of the array `raw` when it has exactly `N` of them (every entry `Some`), else
/// `None` (not an array, or another length).
pub(super) fn exactly<'a, const N: usize>(raw: &'a RawValue) -> Option<[Option<&'a RawValue>; N]> {
    if kind(raw) != Kind::Array {
        return None;
    }
    let (items, len) = serde_json::from_str::<Fixed<'a, N>>(raw.get()).ok()?.0;
    (len == N).then_some(items)
}

/// Up to `N` elements of an array and the array's length.
struct Fixed<'a, const N: usize>(([Option<&'a RawValue>; N], usize));

impl<'de, const N: usize> Deserialize<'de> for Fixed<'de, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FixedVisitor<const N: usize>;
        impl<'de, const N: usize> Visitor<'de> for FixedVisitor<N> {
            type Value = Fixed<'de, N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of {N}")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = [None; N];
                let mut len = 0;
                while let Some(value) = seq.next_element::<&'de RawValue>()? {
                    if let Some(slot) = items.get_mut(len) {
                        *slot = Some(value);
                    }
                    len += 1;
                }
                Ok(Fixed((items, len)))
            }
        }
        deserializer.deserialize_seq(FixedVisitor::<N>)
    }
}
