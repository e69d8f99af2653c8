//! Where results go: standard output through a buffered handle whose errors end the command the
//! documented way, and output files opened before the work starts.
//!
//! - A closed pipe (`sepax check scene.json | head -1`) ends the command quietly with exit status
//!   [`EXIT_BROKEN_PIPE`] (141, what a shell reports for a process that `SIGPIPE` ended, so
//!   `sepax ... | head` behaves like `grep ... | head`): no message, nothing more written.
//! - Any other write error (`> /dev/full`) is one line `sepax: cannot write to standard output:
//!   ...` on stderr and exit status 2.
//! - An output file (`--svg`) is created before any work, so that a path that cannot be written
//!   fails at once with nothing on stdout; if the command fails after that, a regular file it
//!   created is removed again, so no half picture is left behind.

use crate::input::CliError;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Exit status when standard output is a pipe whose reader has gone (128 + `SIGPIPE`).
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// The error for a failed write to standard output.
pub fn stdout_error(e: &io::Error) -> CliError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CliError::quiet(EXIT_BROKEN_PIPE)
    } else {
        CliError::new(format!("cannot write to standard output: {e}"))
    }
}

/// Standard output, buffered; every write reports an error as a [`CliError`].
pub struct Out {
    inner: BufWriter<io::StdoutLock<'static>>,
}

impl Out {
    /// Locks standard output.
    pub fn stdout() -> Self {
        Self {
            inner: BufWriter::with_capacity(1 << 16, io::stdout().lock()),
        }
    }

    /// Writes `s` as it is.
    pub fn write_str(&mut self, s: &str) -> Result<(), CliError> {
        self.inner
            .write_all(s.as_bytes())
            .map_err(|e| stdout_error(&e))
    }

    /// Writes `s` and a newline.
    pub fn line(&mut self, s: &str) -> Result<(), CliError> {
        self.write_str(s)?;
        self.write_str("\n")
    }

    /// Writes `value` as compact JSON.
    pub fn json<T: serde::Serialize>(&mut self, value: &T) -> Result<(), CliError> {
        serde_json::to_writer(&mut self.inner, value).map_err(|e| match e.io_error_kind() {
            Some(kind) => stdout_error(&io::Error::from(kind)),
            None => CliError::new(format!("cannot write JSON: {e}")),
        })
    }

    /// Flushes everything written so far (errors reported, unlike a drop).
    pub fn flush(&mut self) -> Result<(), CliError> {
        self.inner.flush().map_err(|e| stdout_error(&e))
    }
}

/// An output file created before the work: removed again on drop unless [`OutputFile::finish`]
/// wrote it completely (only when it is a regular file; a device such as `/dev/null` is left).
pub struct OutputFile {
    path: PathBuf,
    file: Option<File>,
    regular: bool,
    done: bool,
}

impl OutputFile {
    /// Creates (or truncates) `path`; the error names it.
    pub fn create(path: &Path) -> Result<Self, CliError> {
        let cannot = |e: io::Error| CliError::new(format!("cannot write {}: {e}", path.display()));
        let file = File::create(path).map_err(cannot)?;
        let regular = file.metadata().map_err(cannot)?.is_file();
        Ok(Self {
            path: path.to_path_buf(),
            file: Some(file),
            regular,
            done: false,
        })
    }

    /// Writes `text` as the whole content and closes the file.
    pub fn finish(mut self, text: &str) -> Result<(), CliError> {
        let cannot =
            |e: io::Error| CliError::new(format!("cannot write {}: {e}", self.path.display()));
        let mut file = self.file.take().expect("an output file is finished once");
        file.write_all(text.as_bytes()).map_err(cannot)?;
        file.flush().map_err(cannot)?;
        self.done = true;
        Ok(())
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if !self.done && self.regular {
            self.file = None;
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// An id or file name as text output prints it: as it is when every character is a safe
/// printable one (a letter or digit of any script, or ASCII punctuation other than `"` and `\`),
/// otherwise in double quotes with JSON escapes (`\"`, `\\`, `\n`, `\r`, `\t`, and `\uXXXX` for
/// every other character that is not a safe one or a plain space; characters beyond the Basic
/// Multilingual Plane as a UTF-16 surrogate pair), so that the printed word is never ambiguous,
/// never spans lines and never carries a terminal control sequence.
pub fn quote(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.is_empty() && s.chars().all(safe) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' ' => out.push(' '),
            c if safe(c) => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out.push('"');
    std::borrow::Cow::Owned(out)
}

/// A character printed as it is: ASCII graphic except `"` and `\`, or a non-ASCII letter or
/// digit (which excludes controls, spaces, format characters such as bidi overrides and
/// zero-width joiners, and symbols).
fn safe(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_graphic() && c != '"' && c != '\\'
    } else {
        c.is_alphanumeric()
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn plain_ids_are_printed_as_they_are() {
        for id in ["crate", "wall-x0", "a_b.c", "π", "日本", "x#1", "(a)"] {
            assert_eq!(quote(id), id);
        }
    }

    #[test]
    fn other_ids_are_quoted_with_json_escapes() {
        assert_eq!(quote("a\nfake1 fake2 b"), r#""a\nfake1 fake2 b""#);
        assert_eq!(quote("a b"), r#""a b""#);
        assert_eq!(quote("\u{1b}[31mred"), r#""\u001b[31mred""#);
        assert_eq!(quote("say \"hi\""), r#""say \"hi\"""#);
        assert_eq!(quote("back\\slash"), r#""back\\slash""#);
        assert_eq!(quote("\u{202e}evil"), r#""\u202eevil""#);
        assert_eq!(quote("\u{7f}"), r#""\u007f""#);
        assert_eq!(quote("😀"), r#""\ud83d\ude00""#);
        assert_eq!(quote(""), r#""""#);
    }

    #[test]
    fn quoted_ids_read_back_as_json_strings() {
        for id in [
            "a\nb",
            "tab\there",
            "\u{0}",
            "\u{1b}]0;title\u{7}",
            "é é",
            "\"",
            "😀 x",
        ] {
            let q = quote(id);
            let back: String = serde_json::from_str(&q).unwrap();
            assert_eq!(back, id);
            assert!(q
                .chars()
                .all(|c| c == ' ' || !c.is_control() && !c.is_whitespace()));
        }
    }
}
