//! The clipped polygon in the reference face's coordinates and the feature-id codes of its
//! points.

use super::*;

/// The clipped incident face in the reference face's coordinates: `x`, `y` along the
/// reference box's axes `f1 = f + 1`, `f2 = f + 2` (mod 3), `z` along `sf a_f` (so the reference
/// face is `z = h_f` and a point's depth is `h_f - z`); the feature code of each point and the
/// label of the polygon edge that leaves it (incident edge `0..4` or side plane `4..8`).
#[derive(Clone, Copy)]
///
/// Slot 8 holds a copy of the first point's coordinates while a polygon is clipped, so that
/// the edge from point `k` always ends at slot `k + 1`.
pub(super) struct Poly {
    pub(super) x: [Real; 9],
    pub(super) y: [Real; 9],
    pub(super) z: [Real; 9],
    pub(super) id: [u32; 8],
    pub(super) edge: [u8; 8],
    pub(super) len: usize,
}

impl Poly {
    #[inline(always)]
    pub(super) fn empty() -> Poly {
        Poly {
            x: [0.0; 9],
            y: [0.0; 9],
            z: [0.0; 9],
            id: [0; 8],
            edge: [0; 8],
            len: 0,
        }
    }

    /// The quad with vertices `c ± u ± v` in the order (+,+), (-,+), (-,-), (+,-); vertex `vi`
    /// starts edge `vi`.
    #[inline(always)]
    pub(super) fn quad(c: [Real; 3], u: [Real; 3], v: [Real; 3]) -> Poly {
        let mut quad = Poly::empty();
        // The four vertices of a coordinate at once: `(c + u) + v`, `(c - u) + v`,
        // `(c - u) - v`, `(c + u) - v`, with `a - b` as `a + (-b)` (the same IEEE operation;
        // the signs are exact products by -1).
        let su = V4::new(1.0, -1.0, -1.0, 1.0);
        let sv = V4::new(1.0, 1.0, -1.0, -1.0);
        for m in 0..3 {
            let row = (V4::splat(c[m]) + V4::splat(u[m]) * su) + V4::splat(v[m]) * sv;
            let dst = match m {
                0 => &mut quad.x,
                1 => &mut quad.y,
                _ => &mut quad.z,
            };
            dst[..4].copy_from_slice(&row.lanes());
        }
        for vi in 0..4 {
            quad.id[vi] = point_code(KIND_VERTEX, vi as u32, 0);
            quad.edge[vi] = vi as u8;
        }
        quad.len = 4;
        quad
    }
}

// Feature-id layout: bits 0..3 reference face (axis * 2 + positive side), bit 3 reference box is
// B, bits 4..7 incident face, bits 8..10 kind, then two 5-bit feature indices.
pub(super) const KIND_VERTEX: u32 = 0;
pub(super) const KIND_EDGE_SIDE: u32 = 1;
pub(super) const KIND_SIDE_SIDE: u32 = 2;
pub(super) const KIND_EDGE_EDGE: u32 = 3;

#[inline(always)]
pub(super) fn point_code(kind: u32, x: u32, y: u32) -> u32 {
    (kind << 8) | (x << 11) | (y << 16)
}

/// The code of the point where a polygon edge labelled `edge` crosses side plane `plane`
/// (both codes computed, then one selected: the label is unpredictable).
#[inline(always)]
pub(super) fn crossing_code(edge: u8, plane: u8) -> u32 {
    let (lo, hi) = (edge.min(plane) as u32, edge.max(plane) as u32);
    let side_side = point_code(KIND_SIDE_SIDE, lo, hi);
    let edge_side = point_code(KIND_EDGE_SIDE, edge as u32, plane as u32);
    if edge < 4 {
        edge_side
    } else {
        side_side
    }
}

/// Lanes `o..o + 4` of a polygon coordinate.
#[inline(always)]
pub(super) fn lanes9(a: &[Real; 9], o: usize) -> V4 {
    V4::new(a[o], a[o + 1], a[o + 2], a[o + 3])
}
