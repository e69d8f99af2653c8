//! Candidate pairs by sort-and-sweep on world AABBs.
//!
//! The boxes are sorted by `min.x`; a sweep along x keeps an active list of the boxes whose x
//! interval is still open, and every box entering the sweep is paired with the active boxes whose
//! y and z intervals also overlap. Boxes are closed sets, so touching intervals count as
//! overlapping (touching shapes must reach the narrow phase). The cost is the sort plus the number
//! of pairs whose x intervals overlap, instead of the `n (n - 1) / 2` pairs of an all-pairs loop.

use sepax_shapes::Aabb;

/// Reusable scratch space for [`SweepAndPrune::candidates`], so that a per-frame caller (the demo)
/// allocates nothing once warm.
#[derive(Debug, Default)]
pub struct SweepAndPrune {
    order: Vec<usize>,
    active: Vec<usize>,
}

impl SweepAndPrune {
    /// An empty sweep.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends to `out` (after clearing it) every pair `(i, j)` with `i < j` whose boxes overlap
    /// on all three axes (touching counts). Each pair appears once; the order of `out` is
    /// deterministic but otherwise unspecified (callers sort when they need to).
    pub fn candidates(&mut self, boxes: &[Aabb], out: &mut Vec<(usize, usize)>) {
        out.clear();
        self.order.clear();
        self.order.extend(0..boxes.len());
        // Ties broken by index: the result never depends on the sort's stability.
        self.order.sort_unstable_by(|&i, &j| {
            boxes[i]
                .min()
                .x
                .total_cmp(&boxes[j].min().x)
                .then(i.cmp(&j))
        });
        self.active.clear();
        for &i in &self.order {
            let bi = &boxes[i];
            let (min_i, max_i) = (bi.min(), bi.max());
            let mut k = 0;
            while k < self.active.len() {
                let j = self.active[k];
                let bj = &boxes[j];
                let (min_j, max_j) = (bj.min(), bj.max());
                if max_j.x < min_i.x {
                    // Every later box starts at or beyond min_i.x: j can never pair again.
                    self.active.swap_remove(k);
                    continue;
                }
                if min_i.y <= max_j.y
                    && min_j.y <= max_i.y
                    && min_i.z <= max_j.z
                    && min_j.z <= max_i.z
                {
                    out.push(if i < j { (i, j) } else { (j, i) });
                }
                k += 1;
            }
            self.active.push(i);
        }
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
