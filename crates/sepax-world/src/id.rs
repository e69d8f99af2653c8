//! Handles: collider ids (slotmap keys), pair keys and owner ids.

use core::fmt;
use slotmap::{Key, KeyData};

slotmap::new_key_type! {
    /// A collider handle: a slot index and the slot's 32-bit generation. A handle of a removed
    /// collider is *stale*: every call taking it answers [`crate::WorldError::StaleId`], never
    /// another collider. Ordered by index, then generation.
    pub struct ColliderId;
}

impl ColliderId {
    /// The slot index.
    pub fn index(self) -> u32 {
        self.data().as_ffi() as u32
    }

    /// The slot's generation when the handle was made.
    pub fn generation(self) -> u32 {
        (self.data().as_ffi() >> 32) as u32
    }

    /// The handle as one number (`generation << 32 | index`), e.g. a broad-phase proxy's user
    /// value; [`ColliderId::from_bits`] is its inverse.
    pub fn to_bits(self) -> u64 {
        self.data().as_ffi()
    }

    /// The handle from [`ColliderId::to_bits`].
    pub fn from_bits(bits: u64) -> Self {
        KeyData::from_ffi(bits).into()
    }
}

impl fmt::Display for ColliderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "collider {}v{}", self.index(), self.generation())
    }
}

/// An unordered pair of colliders, stored with the smaller id first (`.0 < .1`). Events and the
/// touching set are sorted by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairKey(pub ColliderId, pub ColliderId);

impl PairKey {
    /// The pair `{a, b}` in key order.
    #[inline]
    pub fn new(a: ColliderId, b: ColliderId) -> Self {
        if a <= b {
            PairKey(a, b)
        } else {
            PairKey(b, a)
        }
    }
}

/// Who a collider belongs to (a robot, a compound body): colliders with the same owner never
/// collide with each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OwnerId(pub u64);
