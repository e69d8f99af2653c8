//! The convex cores of the rounded shapes and their support queries (projection intervals,
//! supporting features, SAT directions), plus the exact power-of-two rescaling of a pair.

use arrayvec::ArrayVec;
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::tolerance::CONTACT_PARALLEL_SINE;
use sepax_shapes::{Aabb, Capsule, Obb, Sphere, Triangle};

use crate::geometry::cross_accurate;

/// A convex core.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Core {
    Point(Point3),
    Segment(Point3, Point3),
    Box(Obb),
    Triangle([Point3; 3]),
}

/// A core grown by a radius.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rounded {
    pub core: Core,
    pub radius: Real,
}

impl From<&Aabb> for Rounded {
    fn from(b: &Aabb) -> Self {
        Rounded {
            core: Core::Box(Obb::from_aabb(b)),
            radius: 0.0,
        }
    }
}
impl From<&Obb> for Rounded {
    fn from(b: &Obb) -> Self {
        Rounded {
            core: Core::Box(*b),
            radius: 0.0,
        }
    }
}
impl From<&Sphere> for Rounded {
    fn from(s: &Sphere) -> Self {
        Rounded {
            core: Core::Point(s.center()),
            radius: s.radius(),
        }
    }
}
impl From<&Capsule> for Rounded {
    fn from(c: &Capsule) -> Self {
        Rounded {
            core: Core::Segment(c.segment().a(), c.segment().b()),
            radius: c.radius(),
        }
    }
}
impl From<&Triangle> for Rounded {
    fn from(t: &Triangle) -> Self {
        Rounded {
            core: Core::Triangle(t.vertices()),
            radius: 0.0,
        }
    }
}

impl Rounded {
    /// The largest absolute coordinate, half-extent or radius (a box counts its centre's
    /// coordinates and its half-extents).
    pub(super) fn magnitude(&self) -> Real {
        let m = |p: &Point3| p.coords.amax();
        let core = match &self.core {
            Core::Point(p) => m(p),
            Core::Segment(p, q) => m(p).max(m(q)),
            Core::Box(b) => m(&b.center()).max(b.half_extents().amax()),
            Core::Triangle(v) => m(&v[0]).max(m(&v[1])).max(m(&v[2])),
        };
        core.max(self.radius)
    }

    /// The orthonormality defect of a box core's axes (0 for the other cores).
    pub(super) fn defect(&self) -> Real {
        match &self.core {
            Core::Box(b) => b.axes_error(),
            _ => 0.0,
        }
    }

    /// Every coordinate and length multiplied by `k`, a power of two: exact, barring components
    /// that become subnormal (negligible against the magnitude that chose `k`).
    pub(super) fn scaled(&self, k: Real) -> Rounded {
        if k == 1.0 {
            return *self;
        }
        let m = |p: &Point3| Point3::from(p.coords * k);
        let core = match &self.core {
            Core::Point(p) => Core::Point(m(p)),
            Core::Segment(p, q) => Core::Segment(m(p), m(q)),
            Core::Box(b) => Core::Box(Obb::new_unchecked(
                m(&b.center()),
                *b.axes(),
                b.half_extents() * k,
            )),
            Core::Triangle(v) => Core::Triangle(v.map(|p| m(&p))),
        };
        Rounded {
            core,
            radius: self.radius * k,
        }
    }

    /// The same point set with a degenerate core replaced by the core it is: a segment of zero
    /// length by its point, a triangle whose vertices are collinear (an exactly zero normal) by
    /// the segment between its two extreme vertices, or by its point. A degenerate triangle has
    /// no face normal and no in-plane edge normals, so the SAT over it would miss the axes that
    /// separate it; as a segment or point it gets the closed forms and the segment's axes.
    pub(super) fn simplified(self) -> Rounded {
        let core = match self.core {
            Core::Segment(p, q) if p == q => Core::Point(p),
            Core::Triangle(v)
                if cross_accurate(&(v[1] - v[0]), &(v[2] - v[0])) == Vector3::zeros() =>
            {
                // Collinear: the longest edge joins the extreme vertices.
                let edges = [(0, 1), (1, 2), (2, 0)];
                let (i, j) = edges
                    .into_iter()
                    .max_by(|x, y| {
                        let lx = (v[x.1] - v[x.0]).norm_squared();
                        let ly = (v[y.1] - v[y.0]).norm_squared();
                        lx.total_cmp(&ly)
                    })
                    .unwrap_or((0, 1));
                if v[i] == v[j] {
                    Core::Point(v[i])
                } else {
                    Core::Segment(v[i], v[j])
                }
            }
            c => c,
        };
        Rounded {
            core,
            radius: self.radius,
        }
    }
}

pub(super) type Dirs = ArrayVec<Vector3, 7>;
pub(super) type Feature = ArrayVec<Point3, 4>;

impl Core {
    /// Projection interval on `n`.
    pub(super) fn interval(&self, n: &Vector3) -> (Real, Real) {
        match self {
            Core::Point(p) => {
                let x = p.coords.dot(n);
                (x, x)
            }
            Core::Segment(a, b) => {
                let (x, y) = (a.coords.dot(n), b.coords.dot(n));
                (x.min(y), x.max(y))
            }
            Core::Box(b) => {
                let c = b.center().coords.dot(n);
                let h = b.half_extents();
                let r = (0..3).map(|k| h[k] * b.axis(k).dot(n).abs()).sum::<Real>();
                (c - r, c + r)
            }
            Core::Triangle(v) => {
                let x = [0, 1, 2].map(|k| v[k].coords.dot(n));
                (x[0].min(x[1]).min(x[2]), x[0].max(x[1]).max(x[2]))
            }
        }
    }

    /// The feature of the core extreme in direction `d` (unit) as a convex polygon in cyclic
    /// order: 1 point (vertex), 2 (edge) or 3–4 (face). Heights within a relative
    /// [`CONTACT_PARALLEL_SINE`] of the extreme count as tied.
    pub(super) fn feature(&self, d: &Vector3) -> Feature {
        let mut f = Feature::new();
        match self {
            Core::Point(p) => f.push(*p),
            Core::Segment(a, b) => {
                let (x, y) = (a.coords.dot(d), b.coords.dot(d));
                let tie = CONTACT_PARALLEL_SINE * (b - a).norm();
                if (x - y).abs() <= tie {
                    f.push(*a);
                    f.push(*b);
                } else if x > y {
                    f.push(*a);
                } else {
                    f.push(*b);
                }
            }
            Core::Box(b) => {
                let h = b.half_extents();
                let mut base = b.center();
                let mut free = ArrayVec::<Vector3, 3>::new();
                for k in 0..3 {
                    let ak = b.axis(k);
                    let s = ak.dot(d);
                    if s.abs() <= CONTACT_PARALLEL_SINE {
                        free.push(ak * h[k]);
                    } else if s > 0.0 {
                        base += ak * h[k];
                    } else {
                        base -= ak * h[k];
                    }
                }
                match free.len() {
                    0 => f.push(base),
                    1 => {
                        f.push(base - free[0]);
                        f.push(base + free[0]);
                    }
                    _ => {
                        let (u, v) = (free[0], free[1]);
                        f.push(base + u + v);
                        f.push(base - u + v);
                        f.push(base - u - v);
                        f.push(base + u - v);
                    }
                }
            }
            Core::Triangle(v) => {
                let x = [0, 1, 2].map(|k| v[k].coords.dot(d));
                let m = x[0].max(x[1]).max(x[2]);
                let scale = (v[1] - v[0]).norm() + (v[2] - v[0]).norm();
                let tie = CONTACT_PARALLEL_SINE * scale;
                for k in 0..3 {
                    if x[k] >= m - tie {
                        f.push(v[k]);
                    }
                }
            }
        }
        f
    }

    /// Face normals (unnormalised) and edge directions.
    pub(super) fn directions(&self, faces: &mut Dirs, edges: &mut Dirs) {
        match self {
            Core::Point(_) => {}
            Core::Segment(a, b) => edges.push(b - a),
            Core::Box(b) => {
                for k in 0..3 {
                    faces.push(b.axis(k));
                    edges.push(b.axis(k));
                }
            }
            Core::Triangle(v) => {
                let e = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
                let n = cross_accurate(&e[0], &e[1]);
                faces.push(n);
                for ek in e {
                    faces.push(cross_accurate(&n, &ek));
                    edges.push(ek);
                }
            }
        }
    }
}
