//! What the subcommands share: the error type that becomes `sepax: <message>` on stderr with
//! exit status 2, reading a scene, and the pair filter of a scene (listed pairs, layers, masks).

use sepax_scene::{Scene, SceneError, SceneShape};
use std::fmt;
use std::path::Path;

/// Exit status for bad input (unreadable or invalid scene, unknown ids, unwritable output).
pub const EXIT_BAD_INPUT: u8 = 2;

/// A failure that ends the command: printed as one line `sepax: <message>` on stderr.
#[derive(Debug)]
pub struct CliError {
    /// The one-line message (no trailing newline).
    pub message: String,
    /// `Some(status)`: end with this exit status and no message (a closed output pipe).
    pub quiet_exit: Option<u8>,
}

impl CliError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            quiet_exit: None,
        }
    }

    /// An ending with exit status `status` and no message.
    pub fn quiet(status: u8) -> Self {
        Self {
            message: String::new(),
            quiet_exit: Some(status),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keep the contract of one line even if a lower layer's message spans several.
        let mut first = true;
        for line in self.message.lines() {
            if !first {
                f.write_str(" ")?;
            }
            f.write_str(line.trim_end())?;
            first = false;
        }
        Ok(())
    }
}

/// Reads and validates a scene file; the error names the file and what is wrong with it.
pub fn load_scene(path: &Path) -> Result<Scene, CliError> {
    let _span = tracing::info_span!("read", path = %path.display()).entered();
    let scene = sepax_scene::read_scene_file(path).map_err(|e| match e {
        // The I/O message already names the path.
        SceneError::Io { .. } => CliError::new(e.to_string()),
        _ => CliError::new(format!("{}: {e}", path.display())),
    })?;
    tracing::info!(shapes = scene.shapes.len(), "scene read");
    Ok(scene)
}

/// Whether the layers and masks of two shapes let them collide: each one's layer must share a
/// bit with the other's mask. A missing layer or mask means every bit (so a shape without either
/// collides with everything whose mask and layer are not restricted against it).
pub fn layers_allow(a: &SceneShape, b: &SceneShape) -> bool {
    let layer = |s: &SceneShape| s.layer.unwrap_or(u32::MAX);
    let mask = |s: &SceneShape| s.mask.unwrap_or(u32::MAX);
    layer(a) & mask(b) != 0 && layer(b) & mask(a) != 0
}

/// The pairs the scene lists, as `(i, j)` with `i < j` (file order of the shapes), sorted and
/// without repeats. A pair naming the same shape twice is kept as `(i, i)`.
pub fn listed_pairs(listed: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = listed
        .iter()
        .map(|&(i, j)| if i <= j { (i, j) } else { (j, i) })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}
