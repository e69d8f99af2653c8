//! Scalar and linear-algebra types. `Real` is `f32` by default and `f64` with the `f64` feature.

/// The scalar type of every shape and query: `f32` by default, `f64` with the `f64` feature
/// (defined by the SIMD floor, `sepax-simd`, whose lanes hold it).
pub type Real = sepax_simd::Real;

/// A point in 3D.
pub type Point3 = nalgebra::Point3<Real>;
/// A vector in 3D.
pub type Vector3 = nalgebra::Vector3<Real>;
/// A vector in 4D (homogeneous clip coordinates).
pub type Vector4 = nalgebra::Vector4<Real>;
/// A 3x3 matrix (for OBB axes: the columns are the box's local x, y, z axes in world space).
pub type Matrix3 = nalgebra::Matrix3<Real>;
/// A 4x4 matrix (view-projection matrices for frusta).
pub type Matrix4 = nalgebra::Matrix4<Real>;
/// A unit quaternion (rotation).
pub type UnitQuaternion = nalgebra::UnitQuaternion<Real>;
/// A (possibly non-unit) quaternion, as read from files; checked before use.
pub type Quaternion = nalgebra::Quaternion<Real>;
/// A rigid motion (rotation then translation).
pub type Isometry3 = nalgebra::Isometry3<Real>;
/// A point in 2D.
pub type Point2 = nalgebra::Point2<Real>;
/// A vector in 2D.
pub type Vector2 = nalgebra::Vector2<Real>;
/// A 2x2 matrix (for 2D box axes, as columns).
pub type Matrix2 = nalgebra::Matrix2<Real>;
/// A 2D rotation.
pub type UnitComplex = nalgebra::UnitComplex<Real>;
/// A 2D rigid motion.
pub type Isometry2 = nalgebra::Isometry2<Real>;
