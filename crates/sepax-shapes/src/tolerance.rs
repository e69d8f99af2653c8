//! Every tolerance of sepax, in one place. Query code never writes a literal epsilon; it uses
//! these, scaled by the magnitude of its inputs. The contract is written out in `docs/tolerance.md`.

use crate::math::Real;

/// Unit roundoff `u` of [`Real`]: `2^-24` for `f32`, `2^-53` for `f64`. Every rounding error bound
/// in sepax is a multiple of it.
pub const UNIT_ROUNDOFF: Real = Real::EPSILON / 2.0;

/// How far from orthonormal the axes given to a checked OBB constructor may be:
/// `|u_i . u_j - delta_ij| <= AXES_TOLERANCE` for all `i, j`. Loose enough for axes typed with
/// five significant digits (0.70711). The box is then the parallelepiped spanned by the axes
/// exactly as given; each box stores its measured defect ([`crate::Obb::axes_error`]) and the
/// certified tests account for it.
pub const AXES_TOLERANCE: Real = 1e-4;

/// How far from 1 the norm of a quaternion given to a checked constructor may be.
pub const QUATERNION_TOLERANCE: Real = 1e-4;

/// How far from 1 the norm of a unit vector (plane normal) given to a checked constructor may be.
/// Plane constructors normalise what they accept.
pub const UNIT_VECTOR_TOLERANCE: Real = 1e-4;

/// `gamma(n) = n u / (1 - n u)`: the classic bound on the relative error of `n` chained
/// floating-point operations (Higham, *Accuracy and Stability of Numerical Algorithms*, §3.1).
#[inline]
pub const fn gamma(n: u32) -> Real {
    let nu = n as Real * UNIT_ROUNDOFF;
    nu / (1.0 - nu)
}

/// Relative tolerance of point containment in zero-volume sets (triangles, segments, planes),
/// where an exact test would accept only points that happen to round onto the set. A point is
/// contained when its computed distance is at most `FLAT_CONTAINMENT_TOLERANCE * m`, with `m`
/// the largest absolute coordinate of the shape and the point: the closest-point computation
/// errs by a few dozen roundoffs of `m`, so its own output is always accepted, while points a
/// visible distance away are not.
pub const FLAT_CONTAINMENT_TOLERANCE: Real = 256.0 * UNIT_ROUNDOFF;

/// Relative rounding allowance of conservative separation decisions (plane classification,
/// frustum culling, 2D box overlap): an axis separates only when the gap exceeds
/// `SEPARATION_TOLERANCE * m`, `m` the magnitude of the projected coordinates, so rounding can
/// only turn "barely separated" into "intersecting", never the reverse.
pub const SEPARATION_TOLERANCE: Real = 64.0 * UNIT_ROUNDOFF;

/// Axis preference of box contacts (`sepax-narrowphase`'s `contact::box_box`), relative to the
/// pair's feature scale `s = min(max h_A, max h_B)` (the larger half-extent of the smaller box).
/// Among the 15 SAT axes the least-penetration axis wins, except that a face of `A` is kept over
/// a face of `B`, and a face over an edge–edge axis, unless the other axis is shallower by more
/// than `CONTACT_AXIS_PREFERENCE * s`. Resting boxes under jitter of up to a tenth of this
/// (rotations of `1e-4` rad) therefore keep the same reference face every frame; the reported
/// depth exceeds the exact minimum penetration by at most this much (plus rounding). The same
/// allowance is the slop of the reference face's side planes when the incident face is clipped,
/// so incident vertices that jitter across a side plane keep their feature ids.
pub const CONTACT_AXIS_PREFERENCE: Real = 1e-3;

/// The preference of [`CONTACT_AXIS_PREFERENCE`] applies only between SAT axes whose directions
/// make a sine below this (nearly the same normal: the jittering resting contact, where edge axes
/// of nearly parallel edges and the two boxes' face normals compete). Axes farther apart compete
/// by depth alone, so the reported depth is the exact minimum there.
pub const CONTACT_PREFERENCE_SINE: Real = 0.05;

/// Relative tolerance of "parallel" and "tied" decisions in contact manifolds of rounded shapes
/// (`sepax-narrowphase`'s `contact::rounded`): a capsule whose axis makes a sine below this with
/// the contact plane is lying flat and gets two points; support features whose heights differ by
/// less than this times their size count as tied (the contact point is put at their centre).
pub const CONTACT_PARALLEL_SINE: Real = 1e-3;
