//! # sepax-scene
//!
//! Everything about files: the version-1 scene format of `docs/scene-format.md` (shapes, pairs
//! and frames; read with strict validation, written so that it reads back exactly), mesh import
//! ([`mesh`]: OBJ, STL, PLY, glTF) and the SVG picture writer.

pub mod error;
pub mod mesh;
pub mod model;
mod read;
pub mod svg;
mod write;

pub use error::SceneError;
pub use model::{Frame, Placements, Scene, SceneShape, SceneWorld};
pub use read::{read_scene, read_scene_file, MAX_FRAME_SHAPES, SIZE_TOLERANCE};
pub use write::write_scene;
