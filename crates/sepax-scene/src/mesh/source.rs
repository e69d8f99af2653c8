//! Reading bytes from disk under the import policy of `docs/mesh-import.md`: only regular files,
//! the size checked from metadata before reading and the read itself capped (a file that grows, or
//! a device that never ends, cannot exceed the limit), and references made by a model file
//! (glTF buffer URIs) resolved only to regular files inside the model's folder.

use super::MAX_FILE_BYTES;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Reads at most `limit` bytes of the regular file at `path`; `None` for `want` reads it all
/// (up to `limit`), `Some(n)` reads exactly `n` bytes (an error if the file is shorter).
pub(super) fn read_regular(path: &Path, limit: u64, want: Option<u64>) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!("not a regular file ({})", kind(&meta)));
    }
    let size = meta.len();
    let need = want.unwrap_or(size);
    if need > limit {
        return Err(format!("{need} bytes, over the {limit}-byte limit"));
    }
    if size < need {
        return Err(format!("the file holds {size} bytes, {need} needed"));
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    // The handle's own metadata: the path may have been replaced between the check and the open.
    let opened = file.metadata().map_err(|e| e.to_string())?;
    if !opened.is_file() {
        return Err(format!("not a regular file ({})", kind(&opened)));
    }
    let mut bytes = Vec::with_capacity(need as usize);
    file.take(need)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if (bytes.len() as u64) < need {
        return Err(format!(
            "the file shrank while read: {} bytes of {need}",
            bytes.len()
        ));
    }
    Ok(bytes)
}

fn kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a plain file"
    }
}

/// The model's main file: a regular file of at most [`MAX_FILE_BYTES`].
pub(super) fn read_model(path: &Path) -> Result<Vec<u8>, String> {
    read_regular(path, MAX_FILE_BYTES, None)
}

/// Resolves a relative URI reference found in the model at `model` to a path inside the model's
/// folder, or says which rule it breaks. The result is canonical (no symbolic links).
pub(super) fn resolve_inside(model: &Path, uri: &str) -> Result<PathBuf, String> {
    if let Some(scheme) = scheme(uri) {
        return Err(format!(
            "the \"{scheme}:\" scheme is not allowed (only data: URIs or relative paths)"
        ));
    }
    if uri.contains(['?', '#']) {
        return Err("a query or fragment is not allowed in a file reference".into());
    }
    if uri.contains('\\') {
        return Err("a backslash is not allowed (URI paths use '/')".into());
    }
    let decoded = percent_decode(uri)?;
    if decoded.is_empty() {
        return Err("the reference is empty".into());
    }
    if decoded.contains('\0') {
        return Err("a NUL character is not allowed".into());
    }
    let rel = Path::new(&decoded);
    if rel.is_absolute() || decoded.starts_with('/') {
        return Err("absolute paths are not allowed".into());
    }
    // Lexical check first, so that `..` is refused even where the target does not exist.
    let mut depth = 0i64;
    for c in rel.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::ParentDir => depth -= 1,
            Component::CurDir => {}
            _ => return Err("absolute paths are not allowed".into()),
        }
        if depth < 0 {
            return Err("\"..\" leaves the model's folder".into());
        }
    }
    let folder = model
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let folder = folder
        .canonicalize()
        .map_err(|e| format!("the model's folder cannot be resolved: {e}"))?;
    let target = folder
        .join(rel)
        .canonicalize()
        .map_err(|e| format!("cannot open {decoded:?}: {e}"))?;
    if !target.starts_with(&folder) {
        return Err(format!(
            "resolves to {}, outside the model's folder (a symbolic link?)",
            target.display()
        ));
    }
    Ok(target)
}

/// The scheme of an absolute URI (`http` in `http://x`), if it has one. A one-letter scheme is
/// still a scheme here (`C:/x` is refused, not read as a relative path).
fn scheme(uri: &str) -> Option<&str> {
    let (head, _) = uri.split_once(':')?;
    let mut chars = head.chars();
    let first = chars.next()?;
    let ok = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then_some(head)
}

/// RFC 3986 percent-decoding: every `%XX` becomes its byte, and the bytes must be UTF-8.
pub(super) fn percent_decode(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |k: usize| b.get(k).and_then(|c| (*c as char).to_digit(16));
            match (hex(i + 1), hex(i + 2)) {
                (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                _ => return Err(format!("bad percent-escape at byte {i}")),
            }
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the percent-decoded path is not UTF-8".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b%2Fc%c3%a9").unwrap(), "a b/cé");
        assert_eq!(percent_decode("%2e%2E/x").unwrap(), "../x");
        assert!(percent_decode("%2").is_err());
        assert!(percent_decode("%zz").is_err());
        assert!(percent_decode("%ff").is_err());
    }

    #[test]
    fn schemes() {
        assert_eq!(scheme("http://x/y"), Some("http"));
        assert_eq!(scheme("file:///etc/passwd"), Some("file"));
        assert_eq!(scheme("C:/x"), Some("C"));
        assert_eq!(scheme("a b:c"), None);
        assert_eq!(scheme("dir/x:y.bin"), None);
        assert_eq!(scheme("x.bin"), None);
    }
}
