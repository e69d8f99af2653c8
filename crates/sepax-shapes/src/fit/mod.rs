//! Bounding boxes from geometry: fitting an AABB or an OBB to a point list (or a mesh's
//! vertices), and the 2D minimum-area rectangle.
//!
//! Methods ([`Method`]), from fastest to tightest:
//!
//! | method | direction finding | cost |
//! | --- | --- | --- |
//! | [`Method::Aabb`] | the world axes | one pass |
//! | [`Method::Pca`] | eigenvectors of the points' covariance | two passes |
//! | [`Method::HullPca`] | eigenvectors of the convex hull's surface covariance (area-weighted) | hull + two passes |
//! | [`Method::Dito`] | DiTO-14 (Larsson & Källberg 2011), refined on a 98-point hull sample, then the best of that, DiTO, PCA and AABB | ~60 dot products per point |
//! | [`Method::Exact`] | O'Rourke's two families on the hull (a face flush with a hull face; two adjacent faces flush with hull edges), then [`refine()`] | hull + O(faces × hull vertices + edges²) |
//!
//! Every method is deterministic (no hashing order, no threads: the same input gives the same box
//! bit for bit) and its box contains every input point *exactly*, as the stored parallelepiped:
//! the directions are found in `f64`, then the stored (rounded) axes are fixed and the extents
//! are measured by projecting every point on them and padded by a proven bound on the rounding
//! of that measurement, the centre's rounding and the stored axes' defect (see [`frame`]). Where
//! the input is flat the box is flat: exactly zero extent when the flat direction is a world
//! axis, a few roundoffs of the input's magnitude otherwise (no stored rotated plane can hold
//! rounded points exactly).

// 3x3 linear algebra reads best with explicit indices, as in the papers.
#![allow(clippy::needless_range_loop)]

mod dito;
mod eigen;
mod exact;
pub mod frame;
mod hull;
mod pca;
mod rect2;
mod refine;

pub use eigen::{symmetric_eigen, SymmetricEigen};
pub use exact::brute_force_edge_pairs;
pub use hull::{convex_hull, ConvexHull};
pub use rect2::min_area_rect;
pub use refine::refine;

use crate::math::Point3;
use crate::shape::Obb;
use frame::Cloud;

/// Why a fit could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FitError {
    /// No points were given.
    #[error("fit: points is empty (at least one point is needed)")]
    Empty,
    /// A coordinate is NaN or infinite.
    #[error("fit: points[{index}][{component}] is not finite (found {value})")]
    NotFinite {
        /// Index of the point.
        index: usize,
        /// Which coordinate (x = 0).
        component: usize,
        /// The value found.
        value: f64,
    },
    /// A triangle refers to a vertex that does not exist.
    #[error(
        "fit: triangle {triangle} refers to vertex {index}, but there are {vertices} vertices"
    )]
    BadIndex {
        /// Index of the triangle.
        triangle: usize,
        /// The vertex index it holds.
        index: u32,
        /// How many vertices there are.
        vertices: usize,
    },
    /// The box would not fit in the finite range of `Real` (coordinates near its maximum).
    #[error("fit: the box of these points overflows the finite range")]
    Overflow,
}

/// A fitting method; see the [module documentation](self) for what each does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// The axis-aligned box.
    Aabb,
    /// Principal axes of the points.
    Pca,
    /// Principal axes of the convex hull's surface (area-weighted).
    HullPca,
    /// DiTO-14 (Larsson & Källberg), refined on a hull sample, finished by keeping the best of
    /// that, DiTO, PCA and AABB on all points.
    Dito,
    /// The minimum-volume box: O'Rourke's two families searched on the hull, then [`refine()`].
    Exact,
}

impl Method {
    /// Every method, fastest first.
    pub const ALL: [Method; 5] = [
        Method::Aabb,
        Method::Pca,
        Method::HullPca,
        Method::Dito,
        Method::Exact,
    ];

    /// The name used on the command line (`aabb`, `pca`, `hull-pca`, `dito`, `exact`).
    pub fn name(self) -> &'static str {
        match self {
            Method::Aabb => "aabb",
            Method::Pca => "pca",
            Method::HullPca => "hull-pca",
            Method::Dito => "dito",
            Method::Exact => "exact",
        }
    }

    /// The method named `name` (as [`Method::name`] prints it).
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// The box of `points` by `method`. Errors: no points, a non-finite coordinate, or a box beyond
/// the finite range.
pub fn fit_obb(points: &[Point3], method: Method) -> Result<Obb, FitError> {
    if method == Method::Aabb {
        return Cloud::world_only(points)?.obb(&frame::IDENTITY);
    }
    let cloud = Cloud::new(points)?;
    let axes = match method {
        Method::Aabb => frame::IDENTITY,
        Method::Pca => pca::pca_axes(&cloud.x),
        Method::HullPca => pca::hull_pca_axes(&cloud.x),
        Method::Dito => dito::dito_axes(&cloud.x),
        Method::Exact => exact::exact_axes(&cloud.x),
    };
    cloud.obb(&axes)
}

/// The axis-aligned box of `points` as an OBB with identity axes: the same as
/// `fit_obb(points, Method::Aabb)`.
pub fn fit_aabb(points: &[Point3]) -> Result<Obb, FitError> {
    fit_obb(points, Method::Aabb)
}

/// The box of a triangle mesh's vertices by `method`. Only the vertices matter for the box of a
/// mesh (the box of the vertices contains every triangle); `indices` are checked to be in range.
pub fn fit_mesh(
    vertices: &[Point3],
    indices: &[[u32; 3]],
    method: Method,
) -> Result<Obb, FitError> {
    for (triangle, t) in indices.iter().enumerate() {
        if let Some(&index) = t.iter().find(|&&i| i as usize >= vertices.len()) {
            return Err(FitError::BadIndex {
                triangle,
                index,
                vertices: vertices.len(),
            });
        }
    }
    fit_obb(vertices, method)
}
