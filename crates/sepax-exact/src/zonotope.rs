//! Exact membership in zonotopes and exact separating-axis tests for convex polytopes, for every
//! rank of the generators (flat, needle and point sets included).
//!
//! A zonotope `Z = { Σ t_k g_k : |t_k| <= 1 }` has support function `h_Z(n) = Σ_k |n·g_k|`, so for
//! any direction `n` the slack `s(n) = h_Z(n) − |n·p|` is `>= 0` whenever `p ∈ Z`. The converse needs
//! the right directions:
//!
//! * rank 3 (generators span space): the facet normals of `Z` are cross products of generator
//!   pairs, so `p ∈ Z` iff `s(n) >= 0` for every non-zero cross `n = g_i × g_j`;
//! * rank 2 (all generators in a plane with normal `m`): `p ∈ Z` iff `m·p = 0` and `s(e) >= 0` for
//!   the in-plane edge normals `e = m × g_k`;
//! * rank 1 (all generators parallel to `g`): `p × g = 0` and `s(g) >= 0`;
//! * rank 0: `p = 0`.

use crate::dyadic::Dyadic;
use crate::vector::{cross, dot, is_zero, norm2, scale, sub, DVec, SignedRoot};

/// The exact answer for "is `p` in the zonotope", with the signed margin (see [`crate::box_box`]).
pub(crate) struct ZonoOutcome {
    pub(crate) intersects: bool,
    /// `−min_n s(n)/|n|` over the candidate normals (rank 3); the largest gap (lower ranks,
    /// separated) or zero (lower ranks, touching).
    pub(crate) margin: SignedRoot,
    /// Index into the `pairs` list of the extremal cross (rank 3 only).
    pub(crate) pair: Option<usize>,
    /// Extremal direction, oriented toward `p` when `n·p != 0`; zero when undefined.
    pub(crate) normal: DVec,
}

/// One candidate direction: value `v = s/|n|` to minimise and its oriented normal.
struct Candidate {
    v: SignedRoot,
    normal: DVec,
    pair: Option<usize>,
}

fn support(n: &DVec, gens: &[DVec]) -> Dyadic {
    gens.iter()
        .fold(Dyadic::zero(), |acc, g| &acc + &dot(n, g).abs())
}

fn oriented(n: DVec, q: &Dyadic) -> DVec {
    if q.is_negative() {
        n.map(|x| -x)
    } else {
        n
    }
}

/// The first candidate with the smallest `v` (exact comparison).
fn arg_min(cands: Vec<Candidate>) -> Candidate {
    let mut it = cands.into_iter();
    let mut best = it.next().expect("at least one candidate");
    for c in it {
        if c.v.cmp_value(&best.v) == std::cmp::Ordering::Less {
            best = c;
        }
    }
    best
}

/// Exact membership of `p` in the zonotope spanned by `gens`. `pairs` lists the generator pairs
/// whose crosses are tried as facet normals, in tie-break order; it must contain every pair of
/// generators (in some order) for the answer to be exact.
pub(crate) fn zonotope_query(gens: &[DVec], pairs: &[(usize, usize)], p: &DVec) -> ZonoOutcome {
    // Rank 3: candidate facet normals are the non-zero crosses.
    let mut cands = Vec::new();
    let mut all_ok = true;
    let mut rank3 = false;
    let mut first_cross: Option<DVec> = None;
    for (idx, &(i, j)) in pairs.iter().enumerate() {
        let n = cross(&gens[i], &gens[j]);
        if is_zero(&n) {
            continue;
        }
        let sigma = support(&n, gens);
        rank3 |= !sigma.is_zero();
        let q = dot(&n, p);
        let s = &sigma - &q.abs();
        all_ok &= !s.is_negative();
        let v = SignedRoot::over_root(&s, norm2(&n));
        if first_cross.is_none() {
            first_cross = Some(n.clone());
        }
        cands.push(Candidate {
            v,
            normal: oriented(n, &q),
            pair: Some(idx),
        });
    }
    if rank3 {
        let best = arg_min(cands);
        return ZonoOutcome {
            intersects: all_ok,
            margin: best.v.negated(),
            pair: best.pair,
            normal: best.normal,
        };
    }
    let nonzero: Vec<&DVec> = gens.iter().filter(|g| !is_zero(g)).collect();
    if let Some(m) = first_cross {
        // Rank 2: out of plane gap first, then in-plane edge normals in generator order.
        let qm = dot(&m, p);
        let mut cands = vec![Candidate {
            v: SignedRoot::over_root(&-qm.abs(), norm2(&m)),
            normal: oriented(m.clone(), &qm),
            pair: None,
        }];
        let mut inside = qm.is_zero();
        for g in &nonzero {
            let e = cross(&m, g);
            let q = dot(&e, p);
            let s = &support(&e, gens) - &q.abs();
            inside &= !s.is_negative();
            cands.push(Candidate {
                v: SignedRoot::over_root(&s, norm2(&e)),
                normal: oriented(e, &q),
                pair: None,
            });
        }
        return finish_low_rank(inside, cands, m);
    }
    if let Some(g) = nonzero.first() {
        // Rank 1: perpendicular distance to the line, then the gap along it.
        let w = cross(p, g);
        let g2 = norm2(g);
        let gp = dot(g, p);
        let perp = sub(&scale(p, &g2), &scale(g, &gp));
        let s = &support(g, gens) - &gp.abs();
        let inside = is_zero(&w) && !s.is_negative();
        let cands = vec![
            Candidate {
                v: SignedRoot::from_squares(true, norm2(&w), g2.clone()),
                normal: perp,
                pair: None,
            },
            Candidate {
                v: SignedRoot::over_root(&s, g2),
                normal: oriented((*g).clone(), &gp),
                pair: None,
            },
        ];
        return finish_low_rank(
            inside,
            cands,
            [Dyadic::zero(), Dyadic::zero(), Dyadic::zero()],
        );
    }
    // Rank 0: a single point.
    let inside = is_zero(p);
    ZonoOutcome {
        intersects: inside,
        margin: SignedRoot::from_squares(false, norm2(p), Dyadic::one()),
        pair: None,
        normal: p.clone(),
    }
}

fn finish_low_rank(inside: bool, cands: Vec<Candidate>, touch_normal: DVec) -> ZonoOutcome {
    if inside {
        return ZonoOutcome {
            intersects: true,
            margin: SignedRoot::zero(),
            pair: None,
            normal: touch_normal,
        };
    }
    let best = arg_min(cands);
    ZonoOutcome {
        intersects: false,
        margin: best.v.negated(),
        pair: None,
        normal: best.normal,
    }
}

/// Projection interval of `verts` on `n`.
fn extent(n: &DVec, verts: &[DVec]) -> (Dyadic, Dyadic) {
    let mut it = verts.iter().map(|v| dot(n, v));
    let first = it.next().expect("a polytope has a vertex");
    it.fold((first.clone(), first), |(lo, hi), x| {
        let lo = if x < lo { x.clone() } else { lo };
        let hi = if x > hi { x } else { hi };
        (lo, hi)
    })
}

fn separates(n: &DVec, va: &[DVec], vb: &[DVec]) -> bool {
    let (alo, ahi) = extent(n, va);
    let (blo, bhi) = extent(n, vb);
    ahi < blo || bhi < alo
}

/// Exact intersection test of two convex polytopes (closed sets), each given by its vertices and
/// edge directions whose span is the polytope's affine hull (degenerate polytopes allowed).
///
/// The Minkowski difference `A − B` has edges parallel to edges of `A` or `B`, so its facet
/// normals are crosses of pairs from `EA ∪ EB` (rank 3), or in-plane normals (rank 2), etc.
pub(crate) fn polytopes_intersect(va: &[DVec], ea: &[DVec], vb: &[DVec], eb: &[DVec]) -> bool {
    let edges: Vec<&DVec> = ea.iter().chain(eb.iter()).filter(|e| !is_zero(e)).collect();
    let mut crosses = Vec::new();
    for i in 0..edges.len() {
        for j in i + 1..edges.len() {
            let n = cross(edges[i], edges[j]);
            if !is_zero(&n) {
                crosses.push(n);
            }
        }
    }
    let rank3 = crosses
        .iter()
        .any(|n| edges.iter().any(|e| !dot(n, e).is_zero()));
    if rank3 {
        return !crosses.iter().any(|n| separates(n, va, vb));
    }
    if let Some(m) = crosses.first() {
        if dot(m, &va[0]) != dot(m, &vb[0]) {
            return false;
        }
        return !edges.iter().any(|e| separates(&cross(m, e), va, vb));
    }
    if let Some(e) = edges.first() {
        if !is_zero(&cross(&sub(&va[0], &vb[0]), e)) {
            return false;
        }
        return !separates(e, va, vb);
    }
    is_zero(&sub(&va[0], &vb[0]))
}
