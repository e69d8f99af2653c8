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

// ---- The narrow phase's bounds. Each is derived in the docs of the code that uses it (the module
// named in the comment above its group); docs/tolerance.md collects the contracts they serve. ----

// The box–box separating-axis test (`sepax-narrowphase`'s `sat`): the fast filter's error bound
// and the certified f64 facet test.

/// Coefficient of `u * S` in the filter's error bound (first-order derivation gives 31).
pub const FILTER_ROUNDING_FACTOR: Real = 48.0;

/// Coefficient of `(delta_A + delta_B) * S` (first-order derivation gives 22).
pub const FILTER_DEFECT_FACTOR: Real = 24.0;

/// Below this scale `S` the filter's products cannot overflow and its bound holds.
pub const FILTER_SCALE_LIMIT: Real = Real::MAX * (1.0 / 64.0);

/// Coefficient of `u64 * |L|_2 * S` in the bound of the f64 facet test (first-order
/// derivation gives 16; see docs/tolerance.md).
pub const CERT_ROUNDING_FACTOR: f64 = 20.0;

// Overlap tests of the pairs other than box–box (`sepax-narrowphase`'s `intersect`, one file per
// pair): each pair's rounding allowance per unit of its scale `S`, and for pairs with an OBB the
// multiple of the box's measured axes defect.

/// Rounding allowance per unit of the magnitude `S` (see the pair's file). The computed
/// distance is off by at most `gamma(4) |c_b - c_a|` (one subtraction, a three-term sum of
/// squares); 8u covers that and the rounding of the radius sum with room to spare.
pub const SPHERE_SPHERE_ALLOWANCE: Real = 8.0 * UNIT_ROUNDOFF;

/// Rounding allowance per unit of the magnitude `S`. The corners relative to the centre carry
/// one rounding each (relative `u`), the clamp is exact and the sum of squares adds `gamma(3)`;
/// 8u covers it with room to spare.
pub const SPHERE_AABB_ALLOWANCE: Real = 8.0 * UNIT_ROUNDOFF;

/// Rounding allowance per unit of `S`: the frame change `A^T v` is off by `gamma(3) |v|_1` per
/// coordinate, the clamp is exact, the sum of squares adds `gamma(3)`; 16u covers it.
pub const SPHERE_OBB_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Allowance for non-orthonormal axes, as a multiple of the box's measured defect
/// `e = max |a_i . a_j - delta_ij|` per unit of `S`. With `A = Q (I + F)`, `|F| <= 3e`, the
/// transpose misplaces the centre by at most `3e |v|` and the box points by `3e |h|`.
pub const SPHERE_OBB_AXES_FACTOR: Real = 4.0;

/// Rounding allowance per unit of `S`: the clamped projection is backward stable (the
/// parameter carries `gamma(6)` relative error, the point and the difference a few more
/// roundings); 16u covers it.
pub const SPHERE_CAPSULE_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Rounding allowance per unit of `S`: the face-region decision and the plane distance are
/// accurate to a few `u |v|` (accurate normals, see `geometry::triangle`), the edge distances
/// likewise; 16u covers them.
pub const SPHERE_TRIANGLE_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Rounding allowance per unit of `S`: two roundings to reach the box frame, and the
/// segment–box distance is accurate to about `10 u S` (segment–edge distances, see
/// `geometry::segment`); 16u covers it.
pub const CAPSULE_AABB_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Rounding allowance per unit of `S`: the frame change costs `gamma(3)` per coordinate, the
/// segment–box distance about `10 u S`; 16u covers both.
pub const CAPSULE_OBB_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Allowance for non-orthonormal axes, as a multiple of the box's measured axes defect per unit
/// of `S` (see [`SPHERE_OBB_AXES_FACTOR`] for the reasoning).
pub const CAPSULE_OBB_AXES_FACTOR: Real = 4.0;

/// Rounding allowance per unit of `S`: the segment distance is accurate to about
/// `10 u (|w| + |d1| + |d2|)` (see `geometry::segment`); 16u covers it.
pub const CAPSULE_CAPSULE_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Rounding allowance per unit of `S`: the segment–triangle distance is accurate to about
/// `10 u S` (accurate normals and edge normals, robust segment–segment); 16u covers it.
pub const CAPSULE_TRIANGLE_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Rounding allowance per unit of `S` and of `|a|_1` on each axis `a`, and per unit of `S` for
/// the distance of ambiguous pairs: the frame change costs two roundings per coordinate, the
/// projections `gamma(3)`, the box radius `gamma(3)`, the distance about `10 u S`; 16u covers
/// them.
pub const TRIANGLE_AABB_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Rounding allowance per unit of `S` and of `|a|_1`: the frame change costs `gamma(3)` per
/// coordinate, the projections and box radius `gamma(3)` each; 16u covers them.
pub const TRIANGLE_OBB_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Allowance for non-orthonormal axes, as a multiple of the box's measured axes defect per unit
/// of `S`: `A^T` instead of `A^-1` misplaces each vertex by at most `3e |v - c|`.
pub const TRIANGLE_OBB_AXES_FACTOR: Real = 4.0;

/// Rounding allowance per unit of `S` and of `|a|_1` on each axis `a` (and per unit of `S` for
/// the distance of degenerate triangles): the projections cost `gamma(3)`, the base shift one
/// rounding per coordinate; the segment–triangle distance about `10 u S`. 16u covers them.
pub const TRIANGLE_TRIANGLE_ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

// GJK (`sepax-narrowphase`'s `gjk`).

/// Stopping tolerance of GJK per unit of the pair's scale `S` (the largest 1-norm of a pair of
/// support points relative to the base point): the search stops when the upper and lower
/// bounds on the distance are within `GJK_TOLERANCE * S`. Rounding in the support points and the
/// sub-algorithm is a few `u S`, so this is as tight as the arithmetic allows.
pub const GJK_TOLERANCE: Real = 32.0 * UNIT_ROUNDOFF;

// Distances (`sepax-narrowphase`'s `distance`).

/// Distances within `TOUCH_SNAP * S` (`S` the pair's scale: centre distance plus sizes) are
/// handed to the certified overlap test (`sepax-narrowphase`'s `intersect`), and reported as 0 when it
/// says the shapes meet. Touching pairs (exact distance 0) then get exactly 0 even where GJK
/// ends a few `u S` away, and `distance == 0` agrees with `intersects` near contact.
pub const TOUCH_SNAP: Real = 4.0 * GJK_TOLERANCE;

// Time of impact (`sepax-narrowphase`'s `toi`).

/// Rounding allowance `e` of a computed distance per unit of the pair's scale: the GJK stopping
/// tolerance plus the rounding of the support points and of moving the shapes (rotating a shape
/// by a computed quaternion misplaces its points by a few `u` times their distance to the pivot).
pub const TOI_DISTANCE_ALLOWANCE: Real = GJK_TOLERANCE + 32.0 * UNIT_ROUNDOFF;

/// Relative allowance of the swept-AABB test (`sweep_aabb_aabb`), moving entry times down and
/// exit times up.
pub const SWEPT_AABB_SLACK: Real = 4.0 * UNIT_ROUNDOFF;

// Contact manifolds of rounded shapes (`sepax-narrowphase`'s `contact::rounded`).

/// Pairs whose magnitude (largest coordinate, half-extent or radius) leaves
/// `2^-16 .. 2^16` are rescaled by a power of two into `[1/32, 1/16)` before anything is
/// computed: squared distances, cross products of edges and the triangles' in-plane normals
/// (products of three coordinates) then stay in the normal range of `f32` even for differences
/// of one ulp, and `c_B - c_A` cannot overflow near `Real::MAX`. The scaling is exact, so inside
/// the window (where it is 1) nothing changes.
pub const CONTACT_SCALE_WINDOW: Real = 65536.0;

/// Rounding allowance of the closest points of two cores, per unit of the pair's magnitude `m`
/// (and per unit of the boxes' axes defect `delta` times `m`): the closest point on a box or
/// triangle and the closest points of two segments are computed in world coordinates, to a few
/// `u m` (a box's frame change adds `delta m`). A distance at or below this carries no
/// direction (its difference vector is rounding), so such pairs take the SAT over the cores,
/// whose axes are exact directions of the shapes; the depth then differs from the analytic one
/// by at most this distance.
pub const CONTACT_CLOSEST_NOISE: Real = 64.0 * UNIT_ROUNDOFF;

/// The axes-defect part of [`CONTACT_CLOSEST_NOISE`]: `CONTACT_CLOSEST_NOISE_DEFECT * delta * m`.
pub const CONTACT_CLOSEST_NOISE_DEFECT: Real = 8.0;

/// The rounding band of the margin decision, per unit of the magnitude `m` (plus `32 delta m`,
/// `delta` the boxes' axes defects). Pairs are computed up to `band` beyond the margin; one
/// whose depth is below `-margin` (positive margin), or at most `band` (margin 0), keeps its
/// manifold only when the pair's overlap test (`sepax-narrowphase`'s `intersect`) says the shapes meet. The
/// band covers the overlap tests' own bands (`2 (16u + 4 delta) S`, `S <= 12 m`) and the
/// rounding of `contact::rounded`, so every pair the overlap test reports gets a manifold.
pub const CONTACT_DECISION_BAND: Real = 1024.0 * UNIT_ROUNDOFF;
