//! Structure-of-arrays batches: one `Vec<Real>` per scalar field, so that a kernel step loads
//! `LANES` consecutive boxes of one field with one vector load.

use super::lanes::{arr3, gather, load, Lane256, LANES};
use sepax_shapes::math::{Matrix3, Point3, Real, Vector3};
use sepax_shapes::{Aabb, Obb, Sphere};

/// What the generic drivers need from a batch: its length, its items as scalar shapes (for the
/// scalar fallback), and lane loads.
pub(crate) trait Batch {
    /// The scalar shape of one element.
    type Item: Copy;
    /// `LANES` elements, one field per lane vector of type `L`.
    type Lanes<L: Lane256>;
    /// Number of elements.
    fn count(&self) -> usize;
    /// Element `i` as its scalar shape, bit for bit as it was pushed.
    fn item(&self, i: usize) -> Self::Item;
    /// Elements `start..start + LANES` (past the end: zeros, masked off by the drivers). The
    /// drivers call it with `start` a multiple of `LANES` only, which blocked layouts rely on.
    fn load<L: Lane256>(&self, start: usize) -> Self::Lanes<L>;
    /// Elements `idx[k]` in lane `k`.
    fn gather<L: Lane256>(&self, idx: &[usize; LANES]) -> Self::Lanes<L>;
    /// One shape in every lane.
    fn splat<L: Lane256>(item: &Self::Item) -> Self::Lanes<L>;
    /// Element `i` in every lane.
    fn splat_at<L: Lane256>(&self, i: usize) -> Self::Lanes<L>;
}

/// Axis-aligned boxes as six arrays: `min[k]`, `max[k]` for axis `k`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AabbSoa {
    min: [Vec<Real>; 3],
    max: [Vec<Real>; 3],
}

/// [`AabbSoa`] lanes.
pub(crate) struct AabbLanes<L> {
    pub min: [L; 3],
    pub max: [L; 3],
}

impl AabbSoa {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }
    /// The boxes of `boxes`, in order.
    pub fn from_slice(boxes: &[Aabb]) -> Self {
        let mut s = Self::default();
        s.extend(boxes);
        s
    }
    /// Appends one box.
    pub fn push(&mut self, b: &Aabb) {
        let (lo, hi) = (b.min(), b.max());
        for k in 0..3 {
            self.min[k].push(lo[k]);
            self.max[k].push(hi[k]);
        }
    }
    /// Appends every box of `boxes`.
    pub fn extend(&mut self, boxes: &[Aabb]) {
        for k in 0..3 {
            self.min[k].reserve(boxes.len());
            self.max[k].reserve(boxes.len());
        }
        for b in boxes {
            self.push(b);
        }
    }
    /// Removes every box (keeps the allocations).
    pub fn clear(&mut self) {
        self.min
            .iter_mut()
            .chain(&mut self.max)
            .for_each(Vec::clear);
    }
    /// Number of boxes.
    pub fn len(&self) -> usize {
        self.min[0].len()
    }
    /// Whether there are no boxes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Box `i` (panics when out of range).
    pub fn get(&self, i: usize) -> Aabb {
        let p = |v: &[Vec<Real>; 3]| Point3::new(v[0][i], v[1][i], v[2][i]);
        Aabb::new_unchecked(p(&self.min), p(&self.max))
    }
    /// Lower corners along axis `k` (0, 1, 2 for x, y, z).
    pub fn min(&self, k: usize) -> &[Real] {
        &self.min[k]
    }
    /// Upper corners along axis `k`.
    pub fn max(&self, k: usize) -> &[Real] {
        &self.max[k]
    }
}

impl Batch for AabbSoa {
    type Item = Aabb;
    type Lanes<L: Lane256> = AabbLanes<L>;
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn item(&self, i: usize) -> Aabb {
        self.get(i)
    }
    #[inline(always)]
    fn load<L: Lane256>(&self, start: usize) -> AabbLanes<L> {
        AabbLanes {
            min: arr3!(k => load(&self.min[k], start, 0.0)),
            max: arr3!(k => load(&self.max[k], start, 0.0)),
        }
    }
    #[inline(always)]
    fn gather<L: Lane256>(&self, idx: &[usize; LANES]) -> AabbLanes<L> {
        AabbLanes {
            min: arr3!(k => gather(&self.min[k], idx)),
            max: arr3!(k => gather(&self.max[k], idx)),
        }
    }
    #[inline(always)]
    fn splat<L: Lane256>(b: &Aabb) -> AabbLanes<L> {
        let (lo, hi) = (b.min(), b.max());
        AabbLanes {
            min: arr3!(k => L::splat(lo[k])),
            max: arr3!(k => L::splat(hi[k])),
        }
    }
    #[inline(always)]
    fn splat_at<L: Lane256>(&self, i: usize) -> AabbLanes<L> {
        AabbLanes {
            min: arr3!(k => L::splat(self.min[k][i])),
            max: arr3!(k => L::splat(self.max[k][i])),
        }
    }
}

/// Oriented boxes as sixteen arrays: centre, the nine axis entries, half-extents and the
/// axes' defect bound ([`Obb::axes_error`]), exactly as stored in each [`Obb`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObbSoa {
    center: [Vec<Real>; 3],
    /// `axes[i][c]`: component `c` of axis `i`.
    axes: [[Vec<Real>; 3]; 3],
    half: [Vec<Real>; 3],
    axes_error: Vec<Real>,
}

/// [`ObbSoa`] lanes.
pub(crate) struct ObbLanes<L> {
    pub center: [L; 3],
    /// `axes[i][c]`: component `c` of axis `i`.
    pub axes: [[L; 3]; 3],
    pub half: [L; 3],
    pub axes_error: L,
}

impl ObbSoa {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }
    /// The boxes of `boxes`, in order.
    pub fn from_slice(boxes: &[Obb]) -> Self {
        let mut s = Self::default();
        s.extend(boxes);
        s
    }
    /// Appends one box.
    pub fn push(&mut self, b: &Obb) {
        let (c, a, h) = (b.center(), b.axes(), b.half_extents());
        for k in 0..3 {
            self.center[k].push(c[k]);
            self.half[k].push(h[k]);
            for i in 0..3 {
                self.axes[i][k].push(a[(k, i)]);
            }
        }
        self.axes_error.push(b.axes_error());
    }
    /// Appends every box of `boxes`.
    pub fn extend(&mut self, boxes: &[Obb]) {
        self.fields_mut().for_each(|v| v.reserve(boxes.len()));
        for b in boxes {
            self.push(b);
        }
    }
    fn fields_mut(&mut self) -> impl Iterator<Item = &mut Vec<Real>> {
        self.center
            .iter_mut()
            .chain(self.axes.iter_mut().flatten())
            .chain(&mut self.half)
            .chain(core::iter::once(&mut self.axes_error))
    }
    /// Removes every box (keeps the allocations).
    pub fn clear(&mut self) {
        self.fields_mut().for_each(Vec::clear);
    }
    /// Number of boxes.
    pub fn len(&self) -> usize {
        self.axes_error.len()
    }
    /// Whether there are no boxes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Box `i`, equal (bit for bit, `axes_error` included) to the one pushed; panics when out
    /// of range.
    pub fn get(&self, i: usize) -> Obb {
        let v = |f: &[Vec<Real>; 3]| Vector3::new(f[0][i], f[1][i], f[2][i]);
        let axes = Matrix3::from_columns(&[v(&self.axes[0]), v(&self.axes[1]), v(&self.axes[2])]);
        // The defect bound is a deterministic function of the axes, so it is recomputed equal.
        Obb::new_unchecked(v(&self.center).into(), axes, v(&self.half))
    }
    /// Centre coordinates along world axis `k`.
    pub fn center(&self, k: usize) -> &[Real] {
        &self.center[k]
    }
    /// Component `c` (world x, y, z) of box axis `i`.
    pub fn axis(&self, i: usize, c: usize) -> &[Real] {
        &self.axes[i][c]
    }
    /// Half-extents along box axis `i`.
    pub fn half_extents(&self, i: usize) -> &[Real] {
        &self.half[i]
    }
    /// The axes' defect bounds.
    pub fn axes_error(&self) -> &[Real] {
        &self.axes_error
    }
}

impl Batch for ObbSoa {
    type Item = Obb;
    type Lanes<L: Lane256> = ObbLanes<L>;
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn item(&self, i: usize) -> Obb {
        self.get(i)
    }
    #[inline(always)]
    fn load<L: Lane256>(&self, start: usize) -> ObbLanes<L> {
        ObbLanes {
            center: arr3!(k => load(&self.center[k], start, 0.0)),
            axes: arr3!(i => arr3!(c => load(&self.axes[i][c], start, 0.0))),
            half: arr3!(k => load(&self.half[k], start, 0.0)),
            axes_error: load(&self.axes_error, start, 0.0),
        }
    }
    #[inline(always)]
    fn gather<L: Lane256>(&self, idx: &[usize; LANES]) -> ObbLanes<L> {
        ObbLanes {
            center: arr3!(k => gather(&self.center[k], idx)),
            axes: arr3!(i => arr3!(c => gather(&self.axes[i][c], idx))),
            half: arr3!(k => gather(&self.half[k], idx)),
            axes_error: gather(&self.axes_error, idx),
        }
    }
    #[inline(always)]
    fn splat<L: Lane256>(b: &Obb) -> ObbLanes<L> {
        let (c, a, h) = (b.center(), b.axes(), b.half_extents());
        ObbLanes {
            center: arr3!(k => L::splat(c[k])),
            axes: arr3!(i => arr3!(k => L::splat(a[(k, i)]))),
            half: arr3!(k => L::splat(h[k])),
            axes_error: L::splat(b.axes_error()),
        }
    }
    #[inline(always)]
    fn splat_at<L: Lane256>(&self, i: usize) -> ObbLanes<L> {
        ObbLanes {
            center: arr3!(k => L::splat(self.center[k][i])),
            axes: arr3!(a => arr3!(c => L::splat(self.axes[a][c][i]))),
            half: arr3!(k => L::splat(self.half[k][i])),
            axes_error: L::splat(self.axes_error[i]),
        }
    }
}

/// Spheres as four arrays: centre and radius.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SphereSoa {
    center: [Vec<Real>; 3],
    radius: Vec<Real>,
}

/// [`SphereSoa`] lanes.
pub(crate) struct SphereLanes<L> {
    pub center: [L; 3],
    pub radius: L,
}

impl SphereSoa {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }
    /// The spheres of `spheres`, in order.
    pub fn from_slice(spheres: &[Sphere]) -> Self {
        let mut s = Self::default();
        s.extend(spheres);
        s
    }
    /// Appends one sphere.
    pub fn push(&mut self, s: &Sphere) {
        let c = s.center();
        for k in 0..3 {
            self.center[k].push(c[k]);
        }
        self.radius.push(s.radius());
    }
    /// Appends every sphere of `spheres`.
    pub fn extend(&mut self, spheres: &[Sphere]) {
        for v in self
            .center
            .iter_mut()
            .chain(core::iter::once(&mut self.radius))
        {
            v.reserve(spheres.len());
        }
        for s in spheres {
            self.push(s);
        }
    }
    /// Removes every sphere (keeps the allocations).
    pub fn clear(&mut self) {
        self.center.iter_mut().for_each(Vec::clear);
        self.radius.clear();
    }
    /// Number of spheres.
    pub fn len(&self) -> usize {
        self.radius.len()
    }
    /// Whether there are no spheres.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Sphere `i` (panics when out of range).
    pub fn get(&self, i: usize) -> Sphere {
        let c = Point3::new(self.center[0][i], self.center[1][i], self.center[2][i]);
        Sphere::new_unchecked(c, self.radius[i])
    }
    /// Centre coordinates along axis `k`.
    pub fn center(&self, k: usize) -> &[Real] {
        &self.center[k]
    }
    /// Radii.
    pub fn radius(&self) -> &[Real] {
        &self.radius
    }
}

impl Batch for SphereSoa {
    type Item = Sphere;
    type Lanes<L: Lane256> = SphereLanes<L>;
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn item(&self, i: usize) -> Sphere {
        self.get(i)
    }
    #[inline(always)]
    fn load<L: Lane256>(&self, start: usize) -> SphereLanes<L> {
        SphereLanes {
            center: arr3!(k => load(&self.center[k], start, 0.0)),
            radius: load(&self.radius, start, 0.0),
        }
    }
    #[inline(always)]
    fn gather<L: Lane256>(&self, idx: &[usize; LANES]) -> SphereLanes<L> {
        SphereLanes {
            center: arr3!(k => gather(&self.center[k], idx)),
            radius: gather(&self.radius, idx),
        }
    }
    #[inline(always)]
    fn splat<L: Lane256>(s: &Sphere) -> SphereLanes<L> {
        let c = s.center();
        SphereLanes {
            center: arr3!(k => L::splat(c[k])),
            radius: L::splat(s.radius()),
        }
    }
    #[inline(always)]
    fn splat_at<L: Lane256>(&self, i: usize) -> SphereLanes<L> {
        SphereLanes {
            center: arr3!(k => L::splat(self.center[k][i])),
            radius: L::splat(self.radius[i]),
        }
    }
}
