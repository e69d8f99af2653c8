//! The collision filter: which pairs of colliders may collide. The rule is written once here
//! and in the crate documentation; the update and every query apply it through
//! [`crate::World`].

use crate::id::OwnerId;

/// Per-collider filter data (Box2D's category/mask/group plus an owner).
///
/// Two colliders `a`, `b` pass the filter when, in this order:
/// 1. they do not share an owner (`a.owner == b.owner == Some(_)` never collides);
/// 2. they share a non-zero group: a negative group never collides, a positive one always does
///    (whatever the masks say);
/// 3. otherwise `a.membership & b.mask != 0` and `b.membership & a.mask != 0`.
///
/// [`Filter::default`]: membership bit 0, every mask bit, group 0, no owner (everything
/// collides with everything).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The layers (bits) the collider is in.
    pub membership: u64,
    /// The layers it collides with.
    pub mask: u64,
    /// Collision group: same negative group never collides, same positive group always does,
    /// 0 is no group.
    pub group: i32,
    /// The owner: colliders of one owner never collide with each other.
    pub owner: Option<OwnerId>,
}

impl Default for Filter {
    fn default() -> Self {
        Self {
            membership: 1,
            mask: u64::MAX,
            group: 0,
            owner: None,
        }
    }
}

impl Filter {
    /// Whether `self` and `other` pass the filter rule (see the type's docs). Symmetric.
    #[inline]
    pub fn passes(&self, other: &Filter) -> bool {
        if let (Some(a), Some(b)) = (self.owner, other.owner) {
            if a == b {
                return false;
            }
        }
        if self.group != 0 && self.group == other.group {
            return self.group > 0;
        }
        self.membership & other.mask != 0 && other.membership & self.mask != 0
    }
}

/// Which pairs of collider kinds the world considers before any filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PairPolicy {
    /// Every pair except static–static (static–kinematic and sensor–static pairs included).
    #[default]
    SkipStaticStatic,
    /// Every pair, static–static too (a scene checker whose shapes have no kind).
    AllPairs,
}

/// A Unity-style symmetric matrix over 64 layers saying which layers collide; it compiles to
/// [`Filter`] masks. [`LayerMatrix::new`] lets every layer collide with every layer,
/// [`LayerMatrix::empty`] none (enable the pairs wanted with [`LayerMatrix::set`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerMatrix {
    rows: [u64; 64],
}

impl Default for LayerMatrix {
    fn default() -> Self {
        Self {
            rows: [u64::MAX; 64],
        }
    }
}

impl LayerMatrix {
    /// Every layer collides with every layer.
    pub fn new() -> Self {
        Self::default()
    }

    /// No layer collides with any layer (every row empty).
    pub fn empty() -> Self {
        Self { rows: [0; 64] }
    }

    /// Sets whether layers `a` and `b` collide (both directions). `None` when a layer is
    /// not below 64.
    pub fn set(&mut self, a: u32, b: u32, collide: bool) -> Option<()> {
        if a >= 64 || b >= 64 {
            return None;
        }
        let (ba, bb) = (1u64 << a, 1u64 << b);
        if collide {
            self.rows[a as usize] |= bb;
            self.rows[b as usize] |= ba;
        } else {
            self.rows[a as usize] &= !bb;
            self.rows[b as usize] &= !ba;
        }
        Some(())
    }

    /// Whether layers `a` and `b` collide (`false` for a layer not below 64).
    pub fn collides(&self, a: u32, b: u32) -> bool {
        a < 64 && b < 64 && self.rows[a as usize] & (1u64 << b) != 0
    }

    /// The filter of a collider in `layer`: membership `1 << layer`, the mask of the layer's
    /// row (group 0, no owner). `None` when the layer is not below 64.
    pub fn filter(&self, layer: u32) -> Option<Filter> {
        (layer < 64).then(|| Filter {
            membership: 1u64 << layer,
            mask: self.rows[layer as usize],
            group: 0,
            owner: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_order() {
        let base = Filter::default();
        assert!(base.passes(&base));
        let owned = Filter {
            owner: Some(OwnerId(7)),
            group: 3,
            ..base
        };
        assert!(!owned.passes(&owned), "owner beats a positive group");
        let other_owner = Filter {
            owner: Some(OwnerId(8)),
            ..owned
        };
        assert!(owned.passes(&other_owner), "same positive group collides");
        let neg = Filter { group: -2, ..base };
        assert!(!neg.passes(&neg));
        let pos_masked = Filter {
            group: 5,
            mask: 0,
            ..base
        };
        assert!(pos_masked.passes(&pos_masked), "positive group beats masks");
        let masked = Filter { mask: 0, ..base };
        assert!(!masked.passes(&base) && !base.passes(&masked));
    }

    #[test]
    fn layer_matrix_compiles_to_masks() {
        let mut m = LayerMatrix::new();
        m.set(1, 2, false).unwrap();
        let (f1, f2, f3) = (
            m.filter(1).unwrap(),
            m.filter(2).unwrap(),
            m.filter(3).unwrap(),
        );
        assert!(!f1.passes(&f2) && !f2.passes(&f1));
        assert!(f1.passes(&f3) && f2.passes(&f3) && f1.passes(&f1));
        assert!(!m.collides(2, 1) && m.collides(1, 1));
        assert!(m.set(64, 0, true).is_none() && m.filter(64).is_none());
    }

    #[test]
    fn empty_layer_matrix_collides_nothing_until_set() {
        let mut m = LayerMatrix::empty();
        for a in [0, 1, 5, 63] {
            for b in [0, 1, 5, 63] {
                assert!(!m.collides(a, b));
                assert!(!m.filter(a).unwrap().passes(&m.filter(b).unwrap()));
            }
        }
        m.set(1, 5, true).unwrap();
        assert!(m.collides(1, 5) && m.collides(5, 1));
        assert!(!m.collides(1, 1) && !m.collides(5, 5) && !m.collides(1, 0));
        let (f1, f5) = (m.filter(1).unwrap(), m.filter(5).unwrap());
        assert!(f1.passes(&f5) && !f1.passes(&f1) && !f5.passes(&f5));
        assert_eq!(f1.mask, 1 << 5);
    }
}
