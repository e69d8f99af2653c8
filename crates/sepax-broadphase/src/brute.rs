//! The brute-force broad phase: every pair of stored boxes is compared. `O(n²)` per frame, kept
//! as the reference that the tests compare every other implementation with.

use sepax_shapes::math::Vector3;
use sepax_shapes::Aabb;

use crate::proxies::{table_accessors, ProxyTable};
use crate::{BroadPhase, ProxyId, QueryStats, Visit};

/// All pairs by exact box comparisons; boxes are stored exactly as given (no fattening).
///
/// The reference implementation: `O(n²)` per [`BroadPhase::update_pairs`], `O(n)` per query.
#[derive(Debug, Clone, Default)]
pub struct BruteForce {
    proxies: ProxyTable,
    /// Live proxies packed for the pair loop (scratch, reused between frames).
    packed: Vec<(ProxyId, Aabb)>,
}

impl BruteForce {
    /// An empty broad phase.
    pub fn new() -> Self {
        Self::default()
    }
}

impl BroadPhase for BruteForce {
    fn insert(&mut self, aabb: Aabb, user: u64) -> ProxyId {
        self.proxies.insert(aabb, user, ())
    }

    fn remove(&mut self, id: ProxyId) -> bool {
        self.proxies.remove(id).is_some()
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb, _displacement: Vector3) -> bool {
        self.proxies.set_aabb(id, aabb)
    }

    table_accessors!();

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats {
        self.proxies.scan(aabb, f)
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        out.clear();
        self.packed.clear();
        self.packed
            .extend(self.proxies.iter().map(|(id, p)| (id, p.aabb)));
        // Slot order is handle order, so `i < j` emits pairs already sorted.
        for (i, (a, box_a)) in self.packed.iter().enumerate() {
            for (b, box_b) in &self.packed[i + 1..] {
                if box_a.intersects(box_b) {
                    out.push((*a, *b));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;

    fn cube(x: f64, h: f64) -> Aabb {
        let (x, h) = (x as sepax_shapes::math::Real, h as sepax_shapes::math::Real);
        Aabb::new(Point3::new(x - h, -h, -h), Point3::new(x + h, h, h)).unwrap()
    }

    #[test]
    fn touching_boxes_pair_and_stale_handles_are_rejected() {
        let mut bp = BruteForce::new();
        let a = bp.insert(cube(0.0, 1.0), 10);
        let b = bp.insert(cube(2.0, 1.0), 11);
        let c = bp.insert(cube(5.0, 1.0), 12);
        let mut pairs = Vec::new();
        bp.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, b)]);
        assert!(bp.remove(b));
        assert!(!bp.remove(b));
        assert!(!bp.update(b, cube(0.0, 1.0), Vector3::zeros()));
        assert_eq!(bp.user(b), None);
        // The slot is reused with a new generation; the old handle stays dead.
        let d = bp.insert(cube(0.5, 1.0), 13);
        assert_eq!(d.index, b.index);
        assert_ne!(d.generation, b.generation);
        assert_eq!(bp.user(b), None);
        assert_eq!(bp.user(d), Some(13));
        bp.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, d)]);
        assert_eq!(bp.len(), 3);
        let mut hits = Vec::new();
        bp.query_aabb(&cube(5.0, 0.0), &mut |id| {
            hits.push(id);
            Visit::Continue
        });
        assert_eq!(hits, vec![c]);
    }
}
