//! Candidate pairs for `check` and `demo`: the broad phase's sweep-and-prune
//! (`sepax_broadphase::sap`) driven over a slice of world AABBs.
//!
//! Boxes are closed sets, so touching boxes are candidates (touching shapes must reach the
//! narrow phase). The cost is the sort plus the pairs whose x intervals overlap, instead of the
//! `n (n - 1) / 2` pairs of an all-pairs loop; between calls on the same number of boxes (the
//! demo's frames) the proxies are updated in place and the sorted order is reused.

use sepax_broadphase::sap;
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::Vector3;
use sepax_shapes::Aabb;

/// A sweep-and-prune kept across calls, so that a per-frame caller (the demo) reuses its sorted
/// order and buffers.
#[derive(Debug, Default)]
pub struct SweepAndPrune {
    sap: sap::SweepAndPrune,
    ids: Vec<ProxyId>,
    pairs: Vec<(ProxyId, ProxyId)>,
}

impl SweepAndPrune {
    /// An empty sweep.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fills `out` (after clearing it) with every pair `(i, j)`, `i < j`, of indices into
    /// `boxes` whose boxes overlap on all three axes (touching counts), each once, sorted.
    pub fn candidates(&mut self, boxes: &[Aabb], out: &mut Vec<(usize, usize)>) {
        if self.ids.len() == boxes.len() {
            for (id, b) in self.ids.iter().zip(boxes) {
                self.sap.update(*id, *b, Vector3::zeros());
            }
        } else {
            self.sap = sap::SweepAndPrune::new();
            self.ids.clear();
            for (i, b) in boxes.iter().enumerate() {
                self.ids.push(self.sap.insert(*b, i as u64));
            }
        }
        self.sap.update_pairs(&mut self.pairs);
        out.clear();
        // Users are the indices; pairs come sorted by handle, i.e. by index (inserted in order).
        let index = |id: ProxyId| self.sap.user(id).map_or(usize::MAX, |u| u as usize);
        out.extend(self.pairs.iter().map(|&(a, b)| {
            let (i, j) = (index(a), index(b));
            (i.min(j), i.max(j))
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use sepax_shapes::math::{Point3, Real};

    fn overlap(a: &Aabb, b: &Aabb) -> bool {
        (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k])
    }

    fn brute_force(boxes: &[Aabb]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if overlap(&boxes[i], &boxes[j]) {
                    out.push((i, j));
                }
            }
        }
        out
    }

    /// Boxes on a coarse integer grid, so that many of them touch exactly (shared faces, edges,
    /// corners), plus some zero-extent (flat, needle, point) boxes.
    fn random_boxes(rng: &mut ChaCha8Rng, n: usize, world: i32) -> Vec<Aabb> {
        (0..n)
            .map(|_| {
                let mut min = [0.0 as Real; 3];
                let mut max = [0.0 as Real; 3];
                for k in 0..3 {
                    let lo = rng.random_range(0..world);
                    let len = rng.random_range(0..4);
                    min[k] = lo as Real;
                    max[k] = (lo + len) as Real;
                }
                Aabb::new(Point3::from(min), Point3::from(max)).unwrap()
            })
            .collect()
    }

    #[test]
    fn agrees_with_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut sweep = SweepAndPrune::new();
        let mut out = Vec::new();
        let mut total = 0;
        for round in 0..200 {
            let n = rng.random_range(0..120);
            let world = 4 + round % 40;
            let boxes = random_boxes(&mut rng, n, world);
            sweep.candidates(&boxes, &mut out);
            let mut got = out.clone();
            got.sort_unstable();
            let before = got.len();
            got.dedup();
            assert_eq!(before, got.len(), "duplicate pairs in round {round}");
            let want = brute_force(&boxes);
            assert_eq!(got, want, "round {round}");
            total += want.len();
        }
        // The test means something only if there were many pairs, touching ones included.
        assert!(total > 10_000, "only {total} pairs");
    }

    #[test]
    fn touching_boxes_are_candidates() {
        let a = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
        let b = Aabb::new(Point3::new(1.0, 1.0, 1.0), Point3::new(2.0, 2.0, 2.0)).unwrap();
        let c = Aabb::new(Point3::new(2.5, 0.0, 0.0), Point3::new(3.0, 1.0, 1.0)).unwrap();
        let mut out = Vec::new();
        SweepAndPrune::new().candidates(&[c, b, a], &mut out);
        assert_eq!(out, vec![(1, 2)]);
    }

    #[test]
    fn empty_and_single() {
        let mut out = vec![(0, 1)];
        let mut sweep = SweepAndPrune::new();
        sweep.candidates(&[], &mut out);
        assert!(out.is_empty());
        let a = Aabb::new(Point3::origin(), Point3::origin()).unwrap();
        sweep.candidates(&[a], &mut out);
        assert!(out.is_empty());
        sweep.candidates(&[a, a], &mut out);
        assert_eq!(out, vec![(0, 1)]);
    }
}
