//! glTF buffers: the GLB binary chunk, base64 `data:` URIs, or files beside the model under the
//! reference policy (`source::resolve_inside`). Each is checked against its declared
//! `byteLength`, and external files are read only up to that length (and the size caps).

use super::source::{percent_decode, read_regular, resolve_inside};
use super::{ReadError, MAX_FILE_BYTES};
use gltf::buffer::Source;
use std::path::Path;

pub(super) fn load(file: &gltf::Gltf, path: &Path) -> Result<Vec<Vec<u8>>, ReadError> {
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    // All external buffers together stay under the one-file cap.
    let mut external: u64 = 0;
    for b in file.document.buffers() {
        let declared = b.length() as u64;
        let data = match b.source() {
            Source::Bin => file.blob.clone().ok_or_else(|| {
                format!("buffer {} refers to a missing GLB binary chunk", b.index())
            })?,
            Source::Uri(uri) if uri.starts_with("data:") => {
                data_uri(&uri["data:".len()..]).map_err(|rule| refused(b.index(), uri, rule))?
            }
            Source::Uri(uri) => {
                let target =
                    resolve_inside(path, uri).map_err(|rule| refused(b.index(), uri, rule))?;
                let left = MAX_FILE_BYTES.saturating_sub(external);
                let data = read_regular(&target, left, Some(declared))
                    .map_err(|rule| refused(b.index(), uri, rule))?;
                external += data.len() as u64;
                data
            }
        };
        if (data.len() as u64) < declared {
            return Err(format!(
                "buffer {} holds {} bytes, {} declared",
                b.index(),
                data.len(),
                declared
            )
            .into());
        }
        buffers.push(data);
    }
    Ok(buffers)
}

fn refused(index: usize, uri: &str, rule: String) -> ReadError {
    let shown: String = uri.chars().take(120).collect();
    let more = if shown.len() < uri.len() { "..." } else { "" };
    ReadError::Reference {
        reference: format!("buffer {index} (uri {shown:?}{more})"),
        rule,
    }
}

/// The payload of a `data:` URI (after the scheme): base64 with `;base64,`, else percent-encoded.
fn data_uri(rest: &str) -> Result<Vec<u8>, String> {
    if rest.len() as u64 > MAX_FILE_BYTES.saturating_mul(2) {
        return Err("the data URI is over the size limit".into());
    }
    let (meta, payload) = rest
        .split_once(',')
        .ok_or("the data URI has no ',' before its data")?;
    if meta.ends_with(";base64") {
        base64(payload).ok_or_else(|| "invalid base64 data".to_string())
    } else {
        percent_decode(payload)
            .map(String::into_bytes)
            .map_err(|e| format!("data URI: {e}"))
    }
}

/// Standard base64 (with or without padding); `None` on any other character.
fn base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for ch in s.bytes() {
        let v = match ch {
            b'A'..=b'Z' => ch - b'A',
            b'a'..=b'z' => ch - b'a' + 26,
            b'0'..=b'9' => ch - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_decodes() {
        assert_eq!(super::base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(super::base64("aGVsbG8").unwrap(), b"hello");
        assert!(super::base64("a$").is_none());
    }
}
